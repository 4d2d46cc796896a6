package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// PublicSiteSpacesOfSpace returns the site spaces that show a space in a
// published public site, oldest site first: where anyone may read it.
func PublicSiteSpacesOfSpace(ctx context.Context, t *Tx, spaceID folio.ID) ([]folio.SiteSpace, error) {
	var out []folio.SiteSpace
	err := t.query(ctx, `SELECT `+siteSpaceColumns+` FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
		JOIN spaces sp ON sp.id = ss.space_id
		WHERE ss.space_id = ? AND st.published AND st.visibility = 'public' AND sp.deleted_at IS NULL
		ORDER BY st.created_at, st.id, ss.id`, []any{spaceID}, func(r *sql.Rows) error {
		var s folio.SiteSpace
		if err := scanSiteSpace(r, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, wrap(err, "list public site spaces of space")
}

// SiteSpacesOfSpace returns the site spaces that show a space in any
// site, published or not, oldest site first.
func SiteSpacesOfSpace(ctx context.Context, t *Tx, spaceID folio.ID) ([]folio.SiteSpace, error) {
	var out []folio.SiteSpace
	err := t.query(ctx, `SELECT `+siteSpaceColumns+` FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
		WHERE ss.space_id = ? ORDER BY st.created_at, st.id, ss.id`, []any{spaceID}, func(r *sql.Rows) error {
		var s folio.SiteSpace
		if err := scanSiteSpace(r, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, wrap(err, "list site spaces of space")
}
