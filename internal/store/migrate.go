package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// provider builds a goose migration provider for the store's dialect.
func (db *DB) provider() (*goose.Provider, error) {
	sub, err := fs.Sub(migrations, "migrations/"+db.d.name())
	if err != nil {
		return nil, err
	}
	var (
		dialect = goose.DialectSQLite3
		opts    = []goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}
	)
	if db.d.name() == "postgres" {
		dialect = goose.DialectPostgres
		// Several servers may start together on one database: a session
		// advisory lock lets one of them migrate while the others wait.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	return goose.NewProvider(dialect, db.write.db, sub, opts...)
}

// SchemaVersion returns the version the database is at and the newest
// version this binary knows.
func (db *DB) SchemaVersion(ctx context.Context) (current, latest int64, err error) {
	p, err := db.provider()
	if err != nil {
		return 0, 0, fmt.Errorf("store: migrations: %w", err)
	}
	current, latest, err = p.GetVersions(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("store: read schema version: %w", err)
	}
	return current, latest, nil
}

// Migrate applies pending migrations. It refuses a database whose schema is
// newer than this binary, which happens after a downgrade: running an old
// binary on a new schema could corrupt data.
func (db *DB) Migrate(ctx context.Context) error {
	if db.dir != "" {
		unlock, err := lockSQLite(ctx, db.dir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	return db.migrate(ctx)
}

func (db *DB) migrate(ctx context.Context) error {
	current, latest, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if current > latest {
		return fmt.Errorf("store: the database schema is at version %d but this folio binary knows only up to version %d; "+
			"run the newer folio that migrated it, or restore a backup taken before the upgrade", current, latest)
	}
	if current == latest {
		return nil
	}
	p, err := db.provider()
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// lockSQLite serializes opening (the switch to WAL) and migrating one SQLite
// data folder across processes (two servers, or "folio migrate" beside a
// starting server): goose has no lock for SQLite, and changing the journal
// mode can fail with SQLITE_BUSY without waiting. An exclusive transaction
// on a small lock database stands in for a lock. It waits up to 30 seconds.
func lockSQLite(ctx context.Context, dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data folder: %w", err)
	}
	lockDB, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "migrate.lock")+"?_pragma=busy_timeout(30000)")
	if err != nil {
		return nil, fmt.Errorf("store: open migration lock: %w", err)
	}
	conn, err := lockDB.Conn(ctx)
	if err == nil {
		_, err = conn.ExecContext(ctx, "BEGIN EXCLUSIVE")
	}
	if err != nil {
		lockDB.Close()
		return nil, fmt.Errorf("store: take migration lock: %w", err)
	}
	return func() {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		conn.Close()
		lockDB.Close()
	}, nil
}

// MigrateDownTo rolls the schema back to version, running the migrations'
// Down sections: for tests that need an older database (an old backup
// restored by a newer binary), and for an operator going back a release.
func (db *DB) MigrateDownTo(ctx context.Context, version int64) error {
	p, err := db.provider()
	if err != nil {
		return err
	}
	_, err = p.DownTo(ctx, version)
	return err
}
