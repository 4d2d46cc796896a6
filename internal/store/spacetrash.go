package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// ListDeletedSpaces lists an organization's spaces deleted after since,
// most recently deleted first, at most limit of them.
func ListDeletedSpaces(ctx context.Context, t *Tx, orgID folio.ID, since time.Time, limit int) ([]folio.Space, error) {
	out := []folio.Space{}
	err := t.query(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NOT NULL
		AND s.deleted_at > ? ORDER BY s.deleted_at DESC, s.id LIMIT ?`, []any{orgID, micros(since), limit},
		func(r *sql.Rows) error {
			var s folio.Space
			if err := scanSpace(r, &s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, wrap(err, "list deleted spaces")
}
