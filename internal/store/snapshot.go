package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
)

// SnapshotSQLite writes a consistent copy of the SQLite database to path
// (VACUUM INTO, on a connection of its own that only reads the database:
// in WAL mode writers go on meanwhile, and the copy is the database as of
// one read transaction).
func (db *DB) SnapshotSQLite(ctx context.Context, path string) error {
	if db.d.name() != "sqlite" {
		return fmt.Errorf("snapshot: the store is %s, not SQLite", db.d.name())
	}
	// Not a read connection: those are query_only, which VACUUM INTO
	// refuses even though it writes only the new file.
	conn, err := sql.Open("sqlite", sqliteDSN(filepath.Join(db.dir, SQLiteFile), true))
	if err != nil {
		return fmt.Errorf("snapshot the database: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("snapshot the database: %w", err)
	}
	return nil
}

// IntegrityCheck runs SQLite's integrity check ("ok" when sound).
func (db *DB) IntegrityCheck(ctx context.Context) (string, error) {
	var out string
	err := db.read.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&out)
	return out, err
}

// Pools returns the store's connection pools by name (read, write), for
// their metrics.
func (db *DB) Pools() map[string]*sql.DB {
	return map[string]*sql.DB{"read": db.read.db, "write": db.write.db}
}
