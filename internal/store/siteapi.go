package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// SiteByID returns a site whatever its organization, or NotFound; the
// site content API finds sites by their URL, which holds no organization.
func SiteByID(ctx context.Context, t *Tx, id folio.ID) (*folio.Site, error) {
	var s folio.Site
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.id = ?`,
		[]any{id}, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site", "site not found")
	}
	return &s, nil
}

// SiteByHostname returns the site with a custom hostname, or NotFound.
func SiteByHostname(ctx context.Context, t *Tx, hostname string) (*folio.Site, error) {
	var s folio.Site
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.hostname = ?`,
		[]any{hostname}, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site", "site not found")
	}
	return &s, nil
}
