package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// newShareKey returns a secret share key: 32 random bytes, URL-safe.
func newShareKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("app: no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// ListShareLinks lists a site's share links, keys included: only the
// site's managers see them.
func (a *App) ListShareLinks(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, opts folio.ListOptions) (v *folio.SiteView, l folio.List[folio.ShareLink], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if v, err = site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		l, err = store.ListShareLinks(ctx, tx, siteID, opts)
		return err
	})
	return v, l, err
}

// CreateShareLink adds a share link with a new secret key to a share-link
// site.
func (a *App) CreateShareLink(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, name folio.Optional[string]) (v *folio.SiteView, l *folio.ShareLink, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if v, err = site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if !name.Present() {
			return folio.FieldErrorf("name", "name is required")
		}
		if err := folio.ValidateShareLinkName(name.Value); err != nil {
			return err
		}
		if v.Visibility != folio.VisibilityShareLink {
			return folio.Errorf(folio.Invalid, "share links are only for sites whose visibility is share-link")
		}
		n, err := store.CountShareLinks(ctx, tx, siteID)
		if err != nil {
			return err
		}
		if n >= folio.MaxShareLinks {
			return folio.Errorf(folio.Invalid, "a site has at most %d share links", folio.MaxShareLinks)
		}
		l = &folio.ShareLink{ID: folio.NewID(), SiteID: siteID, Name: name.Value, Key: newShareKey(), Active: true, CreatedAt: tx.Now}
		if err := store.CreateShareLink(ctx, tx, l); err != nil {
			return err
		}
		// Never the key: it opens the site.
		return audit(ctx, tx, caller, orgID, "site.share_link_created", "site", siteID, map[string]any{"shareLink": l.ID, "name": l.Name})
	})
	return v, l, err
}

// ShareLinkUpdate is the body of updateSiteShareLinkById.
type ShareLinkUpdate struct {
	Active folio.Optional[bool]   `json:"active"`
	Name   folio.Optional[string] `json:"name"`
}

// UpdateShareLink renames, revokes (active false) or restores a share
// link. A revoked key stops opening the site at once.
func (a *App) UpdateShareLink(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u ShareLinkUpdate) (v *folio.SiteView, l *folio.ShareLink, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if v, err = site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if l, err = store.GetShareLink(ctx, tx, siteID, id); err != nil {
			return err
		}
		if !u.Active.Set && !u.Name.Set {
			return folio.Errorf(folio.Invalid, "send active or name")
		}
		if u.Active.Null || u.Name.Null {
			return folio.Errorf(folio.Invalid, "active and name cannot be null")
		}
		if u.Name.Set {
			if err := folio.ValidateShareLinkName(u.Name.Value); err != nil {
				return err
			}
			l.Name = u.Name.Value
		}
		if u.Active.Set {
			l.Active = u.Active.Value
		}
		if err := store.UpdateShareLink(ctx, tx, l); err != nil {
			return err
		}
		fields := auditChanges(&u)
		fields["shareLink"] = l.ID
		return audit(ctx, tx, caller, orgID, "site.share_link_updated", "site", siteID, fields)
	})
	return v, l, err
}

// DeleteShareLink deletes a share link and reports whether it existed.
func (a *App) DeleteShareLink(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if existed, err = store.DeleteShareLink(ctx, tx, siteID, id); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, orgID, "site.share_link_deleted", "site", siteID, map[string]any{"shareLink": id})
	})
	return existed, err
}
