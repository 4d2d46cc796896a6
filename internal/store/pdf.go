package store

import (
	"context"

	"github.com/foliodocs/folio"
)

// GetPDFExport returns the export of a variant of a revision, or NotFound.
func GetPDFExport(ctx context.Context, t *Tx, spaceID, revisionID folio.ID, variant string) (*folio.PDFExport, error) {
	e := folio.PDFExport{SpaceID: spaceID, RevisionID: revisionID, Variant: variant}
	var updated int64
	err := t.get(ctx, `SELECT status, error, size, updated_at FROM pdf_exports
		WHERE space_id = ? AND revision_id = ? AND variant = ?`,
		[]any{spaceID, revisionID, variant}, &e.Status, &e.Error, &e.Size, &updated)
	if err != nil {
		return nil, notFound(err, "get pdf export", "PDF export not found")
	}
	e.UpdatedAt = fromMicros(updated)
	return &e, nil
}

// StartPDFExport records that a variant is being printed: a new row, or a
// failed one made pending again.
func StartPDFExport(ctx context.Context, t *Tx, spaceID, revisionID folio.ID, variant string) error {
	_, err := t.exec(ctx, `INSERT INTO pdf_exports (space_id, revision_id, variant, status, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (space_id, revision_id, variant) DO UPDATE SET status = excluded.status, error = '', updated_at = excluded.updated_at`,
		spaceID, revisionID, variant, folio.PDFPending, micros(t.Now), micros(t.Now))
	return wrap(err, "start pdf export")
}

// FinishPDFExport records the outcome of printing a variant: done with
// the PDF's size, or failed with why.
func FinishPDFExport(ctx context.Context, t *Tx, spaceID, revisionID folio.ID, variant string, size int64, failure string) error {
	status := folio.PDFDone
	if failure != "" {
		status = folio.PDFFailed
	}
	_, err := t.exec(ctx, `UPDATE pdf_exports SET status = ?, error = ?, size = ?, updated_at = ?
		WHERE space_id = ? AND revision_id = ? AND variant = ?`,
		status, failure, size, micros(t.Now), spaceID, revisionID, variant)
	return wrap(err, "finish pdf export")
}

// CountJobs returns how many jobs of a kind were ever recorded, for tests
// and diagnostics.
func CountJobs(ctx context.Context, t *Tx, kind string) (n int, err error) {
	err = t.get(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = ?`, []any{kind}, &n)
	return n, wrap(err, "count jobs")
}
