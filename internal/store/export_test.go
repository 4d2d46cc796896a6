package store

import "context"

// FakeFutureMigration records a schema version this binary does not know,
// as a newer folio would have left it.
func FakeFutureMigration(ctx context.Context, t *Tx, version int64) error {
	_, err := t.exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, TRUE)`, version)
	return err
}
