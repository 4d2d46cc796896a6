package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// GetSitePublishingAuth returns a site's visitor authentication with its
// key still sealed, or NotFound when none was created yet.
func GetSitePublishingAuth(ctx context.Context, t *Tx, siteID folio.ID) (*folio.SitePublishingAuth, error) {
	a := folio.SitePublishingAuth{SiteID: siteID}
	var (
		fallback sql.NullString
		updated  int64
	)
	err := t.get(ctx, `SELECT backend, sealed_key, key_id, fallback_url, updated_at FROM site_publishing_auth WHERE site_id = ?`,
		[]any{siteID}, &a.Backend, &a.SealedKey, &a.KeyID, &fallback, &updated)
	if err != nil {
		return nil, notFound(err, "get site publishing auth", "the site has no visitor authentication")
	}
	a.FallbackURL, a.UpdatedAt = fallback.String, fromMicros(updated)
	return &a, nil
}

// SetSitePublishingAuth stores a site's visitor authentication (its key
// sealed in SealedKey).
func SetSitePublishingAuth(ctx context.Context, t *Tx, a *folio.SitePublishingAuth) error {
	_, err := t.exec(ctx, `INSERT INTO site_publishing_auth (site_id, backend, sealed_key, key_id, fallback_url, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (site_id) DO UPDATE SET backend = excluded.backend, sealed_key = excluded.sealed_key,
		key_id = excluded.key_id, fallback_url = excluded.fallback_url, updated_at = excluded.updated_at`,
		a.SiteID, a.Backend, a.SealedKey, a.KeyID, nullString(a.FallbackURL), micros(a.UpdatedAt))
	return wrap(err, "set site publishing auth")
}
