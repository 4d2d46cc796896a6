package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// SiteByID returns a site whatever its organization, for the reader and the
// site content API, which know a site by its URL only; NotFound when there
// is none.
func SiteByID(ctx context.Context, t *Tx, id folio.ID) (*folio.Site, error) {
	var s folio.Site
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.id = ?`,
		[]any{id}, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site by id", "site not found")
	}
	return &s, nil
}

// SiteByHostname returns the site with a custom hostname (unique across
// the server), or NotFound.
func SiteByHostname(ctx context.Context, t *Tx, hostname string) (*folio.Site, error) {
	var s folio.Site
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.hostname = ?`,
		[]any{hostname}, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site by hostname", "site not found")
	}
	return &s, nil
}
