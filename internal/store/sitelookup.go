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

// SiteByProxyOrigin returns the site served behind a proxy at the longest
// of origins (each a host and a path, as sites' proxy origins are), the
// published one first and then the oldest when several claim it; NotFound
// when none does.
func SiteByProxyOrigin(ctx context.Context, t *Tx, origins []string) (*folio.Site, error) {
	if len(origins) == 0 {
		return nil, folio.Errorf(folio.NotFound, "site not found")
	}
	var s folio.Site
	in, args := inList(t, origins)
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.proxy_origin IN `+in+`
		ORDER BY LENGTH(st.proxy_origin) DESC, st.published DESC, st.created_at, st.id LIMIT 1`,
		args, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site by proxy origin", "site not found")
	}
	return &s, nil
}
