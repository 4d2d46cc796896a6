package store

import "context"

// FakeFutureMigration records a schema version this binary does not know,
// as a newer folio would have left it.
func FakeFutureMigration(ctx context.Context, t *Tx, version int64) error {
	_, err := t.exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, TRUE)`, version)
	return err
}

// ReapplyMigration runs a migration down and up again, as on a database
// that reached it with the data it finds.
func ReapplyMigration(ctx context.Context, db *DB, version int64) error {
	p, err := db.provider()
	if err != nil {
		return err
	}
	if _, err := p.ApplyVersion(ctx, version, false); err != nil {
		return err
	}
	_, err = p.ApplyVersion(ctx, version, true)
	return err
}

// FTSSegments counts the segments of the SQLite full-text index of search
// sections (-1 on PostgreSQL).
func FTSSegments(ctx context.Context, db *DB) (int, error) {
	if db.d.name() != "sqlite" {
		return -1, nil
	}
	var n int
	err := db.Read(ctx, func(t *Tx) error {
		return t.get(ctx, `SELECT count(DISTINCT segid) FROM search_fts_idx`, nil, &n)
	})
	return n, err
}

// ApplyMigration runs one migration up or down.
func ApplyMigration(ctx context.Context, db *DB, version int64, up bool) error {
	p, err := db.provider()
	if err != nil {
		return err
	}
	_, err = p.ApplyVersion(ctx, version, up)
	return err
}
