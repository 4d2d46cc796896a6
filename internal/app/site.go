package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

var (
	errSiteNotFound = folio.Errorf(folio.NotFound, "site not found")
	errGuestSites   = folio.Errorf(folio.Forbidden, "guests cannot see the organization's sites")
	errManageSites  = "only members with the create role or higher can manage sites"
)

// siteRights loads the caller's access to an organization's sites:
// members read them, members with the create role or higher manage them,
// guests and non-members do not see them.
func siteRights(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID) (folio.Access, error) {
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return acc, err
	}
	if acc.Role == folio.RoleGuest {
		return acc, errGuestSites
	}
	return acc, nil
}

// site loads a site of the organization the caller may read; with manage
// it also requires the right to change it. Guests get NotFound, as for a
// site of another organization.
func site(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, id folio.ID, manage bool) (*folio.SiteView, error) {
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return nil, err
	}
	if acc.Role == folio.RoleGuest {
		return nil, errSiteNotFound
	}
	s, err := store.GetSite(ctx, tx, orgID, id)
	if err != nil {
		return nil, err
	}
	v := &folio.SiteView{Site: *s, Manage: acc.Role.AtLeast(folio.RoleCreate)}
	if manage && !v.Manage {
		return nil, folio.Errorf(folio.Forbidden, "%s", errManageSites)
	}
	return v, nil
}

// readableSite loads a site for a reader of its published content: the
// organization's members (guests excepted) read any of its sites; anyone
// else reads a published site that is public or unlisted, or a published
// share-link site with an active key of it. Everything else is NotFound.
func readableSite(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, id folio.ID, shareKey string) (*folio.SiteView, error) {
	if caller.Site != nil {
		// A site API token reads its own site only (siteapi.go).
		s, err := grantedSite(ctx, tx, caller, orgID, id)
		if err != nil {
			return nil, err
		}
		return &folio.SiteView{Site: *s}, nil
	}
	v, err := site(ctx, tx, caller, orgID, id, false)
	if err == nil || !(folio.IsNotFound(err) || folio.KindOf(err) == folio.Forbidden) {
		return v, err
	}
	s, err := store.GetSite(ctx, tx, orgID, id)
	if err != nil {
		return nil, err
	}
	ok := false
	if s.Published {
		switch s.Visibility {
		case "public", "unlisted":
			ok = true
		case folio.VisibilityShareLink:
			if shareKey != "" {
				if ok, err = store.ActiveShareLink(ctx, tx, s.ID, shareKey); err != nil {
					return nil, err
				}
			}
		}
	}
	if !ok {
		return nil, errSiteNotFound
	}
	return &folio.SiteView{Site: *s}, nil
}

// ListSites lists the sites of an organization.
func (a *App) ListSites(ctx context.Context, caller folio.Caller, orgID folio.ID, f folio.SiteFilter, opts folio.ListOptions) (l folio.List[folio.SiteView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := siteRights(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		sites, err := store.ListSites(ctx, tx, orgID, f, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.SiteView]{Count: sites.Count, Next: sites.Next, Items: make([]folio.SiteView, len(sites.Items))}
		for i, s := range sites.Items {
			l.Items[i] = folio.SiteView{Site: s, Manage: acc.Role.AtLeast(folio.RoleCreate)}
		}
		return nil
	})
	return l, err
}

// CreateSite creates a site publishing the spaces listed in it, in order,
// the first one as the default.
func (a *App) CreateSite(ctx context.Context, caller folio.Caller, orgID folio.ID, in folio.NewSite) (v *folio.SiteView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := siteRights(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		if err := require(acc.Role.AtLeast(folio.RoleCreate), errManageSites); err != nil {
			return err
		}
		if err := in.Validate(); err != nil {
			return err
		}
		s := folio.Site{ID: folio.NewID(), OrganizationID: orgID, Type: in.Type, Title: in.Title,
			Visibility: in.Visibility, AgentsContext: "included", CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if err := store.CreateSite(ctx, tx, &s); err != nil {
			return err
		}
		var paths []string
		seen := map[folio.ID]bool{}
		for i, id := range in.Spaces {
			if seen[id] {
				return folio.FieldErrorf("spaces", "space %s is listed twice", id)
			}
			seen[id] = true
			sp, err := store.GetSpace(ctx, tx, id)
			if err == nil && sp.OrganizationID == orgID {
				_, _, err = viewSpace(ctx, tx, caller, sp)
			} else if err == nil {
				err = errSpaceNotFound
			}
			if folio.IsNotFound(err) {
				return folio.FieldErrorf("spaces", "space %s not found in the organization", id)
			}
			if err != nil {
				return err
			}
			path := content.UniqueSlug(paths, content.Slugify(sp.Title))
			paths = append(paths, path)
			ss := folio.SiteSpace{ID: folio.NewID(), SiteID: s.ID, SpaceID: id, Path: path, Position: int64(i),
				Default: i == 0, CreatedAt: tx.Now, UpdatedAt: tx.Now}
			if err := store.CreateSiteSpace(ctx, tx, &ss); err != nil {
				return err
			}
		}
		s.SiteSpaces = len(in.Spaces)
		v = &folio.SiteView{Site: s, Manage: true}
		return audit(ctx, tx, caller, orgID, "site.created", "site", s.ID,
			map[string]any{"title": s.Title, "visibility": s.Visibility, "spaces": len(in.Spaces)})
	})
	return v, err
}

// GetSite returns a site of the organization.
func (a *App) GetSite(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (v *folio.SiteView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err = site(ctx, tx, caller, orgID, id, false)
		return err
	})
	return v, err
}

// checkSiteSection refuses a section id that is not one of the site's
// sections (Invalid on field).
func checkSiteSection(ctx context.Context, tx *store.Tx, s *folio.Site, field string, id folio.ID) error {
	_, err := store.GetSiteSection(ctx, tx, s.ID, id)
	if folio.IsNotFound(err) {
		return folio.FieldErrorf(field, "site section %s not found in the site", id)
	}
	return err
}

// UpdateSite applies a PATCH to a site.
func (a *App) UpdateSite(ctx context.Context, caller folio.Caller, orgID, id folio.ID, u *folio.SiteUpdate) (v *folio.SiteView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err = site(ctx, tx, caller, orgID, id, true); err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		// The default section and site space are part of the structure:
		// take the site's lock as structure writes do, then read it again.
		if err := store.LockSite(ctx, tx, id); err != nil {
			return err
		}
		if v, err = site(ctx, tx, caller, orgID, id, true); err != nil {
			return err
		}
		s := &v.Site
		if u.Visibility.Set && u.Visibility.Value != s.Visibility {
			if err := audit(ctx, tx, caller, orgID, "site.visibility_updated", "site", id,
				map[string]any{"visibility": u.Visibility.Value, "previousVisibility": s.Visibility}); err != nil {
				return err
			}
		}
		if u.Title.Set {
			s.Title = u.Title.Value
		}
		if u.Visibility.Set {
			s.Visibility = u.Visibility.Value
		}
		if u.Basename.Set {
			s.Basename = u.Basename.Value
		}
		if u.Hostname.Set {
			s.Hostname = u.Hostname.Value
		}
		if u.Proxy.Set {
			// Host names are case-insensitive and looked up in lower case;
			// the path prefix is kept as given.
			host, path, found := strings.Cut(u.Proxy.Value, "/")
			s.ProxyOrigin = strings.ToLower(host)
			if found {
				s.ProxyOrigin += "/" + path
			}
		}
		if u.AgentsContext.Set {
			s.AgentsContext = u.AgentsContext.Value
		}
		if u.AdaptiveContent.Set {
			s.AdaptiveContent = *u.AdaptiveContent.Value.Enabled
		}
		if u.DefaultSiteSection.Set {
			if err := checkSiteSection(ctx, tx, s, "defaultSiteSection", u.DefaultSiteSection.Value); err != nil {
				return err
			}
			s.DefaultSiteSection = u.DefaultSiteSection.Value
		}
		if u.DefaultSiteSpace.Set {
			ss, err := store.GetSiteSpace(ctx, tx, s.ID, u.DefaultSiteSpace.Value)
			if folio.IsNotFound(err) {
				return folio.FieldErrorf("defaultSiteSpace", "site space %s not found in the site", u.DefaultSiteSpace.Value)
			}
			if err != nil {
				return err
			}
			if err := store.SetDefaultSiteSpace(ctx, tx, s.ID, ss.SectionID, ss.ID); err != nil {
				return err
			}
		}
		s.UpdatedAt = tx.Now
		return store.UpdateSite(ctx, tx, s)
	})
	return v, err
}

// DeleteSite deletes a site and reports whether it existed.
func (a *App) DeleteSite(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := siteRights(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		if err := require(acc.Role.AtLeast(folio.RoleCreate), errManageSites); err != nil {
			return err
		}
		if existed, err = store.DeleteSite(ctx, tx, orgID, id); err != nil || !existed {
			return err
		}
		// The organization's default content stops pointing at it.
		o, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		if o.DefaultContent != nil && o.DefaultContent.Site == id {
			if err := store.UpdateOrganization(ctx, tx, orgID, &folio.OrganizationUpdate{DefaultContent: folio.Null[folio.SitePointer]()}); err != nil {
				return err
			}
		}
		return audit(ctx, tx, caller, orgID, "site.deleted", "site", id, nil)
	})
	return existed, err
}

// PublishSite publishes (publish true) or unpublishes a site.
func (a *App) PublishSite(ctx context.Context, caller folio.Caller, orgID, id folio.ID, publish bool) (v *folio.SiteView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if v, err = site(ctx, tx, caller, orgID, id, true); err != nil {
			return err
		}
		was := v.Published
		v.Published, v.UpdatedAt = publish, tx.Now
		if err := store.UpdateSite(ctx, tx, &v.Site); err != nil || was == publish {
			return err
		}
		typ := folio.EventSitePublished
		if !publish {
			typ = folio.EventSiteUnpublished
		}
		if err := audit(ctx, tx, caller, orgID, strings.Replace(typ, "_", ".", 1), "site", id,
			map[string]any{"visibility": v.Visibility}); err != nil {
			return err
		}
		return emit(ctx, tx, orgID, "", typ, map[string]any{"organizationId": orgID, "siteId": id})
	})
	return v, err
}

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

// RedirectInput is the body of createSiteRedirect and updateSiteRedirectById.
type RedirectInput struct {
	Source      folio.Optional[string]                    `json:"source"`
	Destination folio.Optional[folio.RedirectDestination] `json:"destination"`
}

// checkDestination checks that a redirect's destination names what the
// site holds.
func checkDestination(ctx context.Context, tx *store.Tx, s *folio.Site, d *folio.RedirectDestination) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if d.Kind == "site-section" {
		return checkSiteSection(ctx, tx, s, "destination", d.SiteSectionID)
	}
	_, err := store.GetSiteSpace(ctx, tx, s.ID, d.SiteSpaceID)
	if folio.IsNotFound(err) {
		return folio.FieldErrorf("destination", "site space %s not found in the site", d.SiteSpaceID)
	}
	return err
}

// CreateRedirect adds a redirect to a site.
func (a *App) CreateRedirect(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in RedirectInput) (r *folio.SiteRedirect, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		v, err := site(ctx, tx, caller, orgID, siteID, true)
		if err != nil {
			return err
		}
		if !in.Source.Present() {
			return folio.FieldErrorf("source", "source is required")
		}
		if !in.Destination.Present() {
			return folio.FieldErrorf("destination", "destination is required")
		}
		if err := folio.ValidateRedirectSource("source", in.Source.Value); err != nil {
			return err
		}
		if err := checkDestination(ctx, tx, &v.Site, &in.Destination.Value); err != nil {
			return err
		}
		n, err := store.CountRedirects(ctx, tx, siteID)
		if err != nil {
			return err
		}
		if n >= folio.MaxRedirects {
			return folio.Errorf(folio.Invalid, "a site has at most %d redirects", folio.MaxRedirects)
		}
		r = &folio.SiteRedirect{ID: folio.NewID(), SiteID: siteID, Source: in.Source.Value,
			Destination: in.Destination.Value, CreatedAt: tx.Now}
		return store.CreateRedirect(ctx, tx, r)
	})
	return r, err
}

// UpdateRedirect changes a redirect's source or destination; omitted
// fields stay unchanged.
func (a *App) UpdateRedirect(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, in RedirectInput) (r *folio.SiteRedirect, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		v, err := site(ctx, tx, caller, orgID, siteID, true)
		if err != nil {
			return err
		}
		if r, err = store.GetRedirect(ctx, tx, siteID, id); err != nil {
			return err
		}
		if in.Source.Null || in.Destination.Null {
			return folio.Errorf(folio.Invalid, "source and destination cannot be null")
		}
		if in.Source.Set {
			if err := folio.ValidateRedirectSource("source", in.Source.Value); err != nil {
				return err
			}
			r.Source = in.Source.Value
		}
		if in.Destination.Set {
			if err := checkDestination(ctx, tx, &v.Site, &in.Destination.Value); err != nil {
				return err
			}
			r.Destination = in.Destination.Value
		}
		return store.UpdateRedirect(ctx, tx, r)
	})
	return r, err
}

// ListRedirects lists a site's redirects.
func (a *App) ListRedirects(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, search string, opts folio.ListOptions) (l folio.List[folio.SiteRedirect], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		l, err = store.ListRedirects(ctx, tx, siteID, search, opts)
		return err
	})
	return l, err
}

// DeleteRedirect deletes a redirect and reports whether it existed.
func (a *App) DeleteRedirect(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		existed, err = store.DeleteRedirect(ctx, tx, siteID, id)
		return err
	})
	return existed, err
}

// ResolvedRedirect is a redirect with the site and site space it leads to.
type ResolvedRedirect struct {
	Redirect  *folio.SiteRedirect
	Site      *folio.SiteView
	SiteSpace *folio.SiteSpace // nil for a section
}

// RedirectBySource finds the redirect of a source path, for the site's
// readers (see readableSite).
func (a *App) RedirectBySource(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, source, shareKey string) (out *ResolvedRedirect, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err := readableSite(ctx, tx, caller, orgID, siteID, shareKey)
		if err != nil {
			return err
		}
		if err := folio.ValidateRedirectSource("source", source); err != nil {
			return err
		}
		r, err := store.RedirectBySource(ctx, tx, siteID, source)
		if err != nil {
			return err
		}
		out = &ResolvedRedirect{Redirect: r, Site: v}
		if r.Destination.SiteSpaceID != "" {
			if out.SiteSpace, err = store.GetSiteSpace(ctx, tx, siteID, r.Destination.SiteSpaceID); folio.IsNotFound(err) {
				return folio.Errorf(folio.NotFound, "redirect not found")
			}
		}
		return err
	})
	return out, err
}

// defaultCustomization is folio.DefaultCustomization, decoded: a copy of
// its value decoded once (decoding it was a fifth of a reader's site
// lookup).
func defaultCustomization() map[string]any {
	return copyJSON(decodedDefaultCustomization()).(map[string]any)
}

var decodedDefaultCustomization = sync.OnceValue(func() map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(folio.DefaultCustomization), &m); err != nil {
		panic("app: bad default customization: " + err.Error())
	}
	return m
})

// copyJSON deep-copies a decoded JSON value.
func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = copyJSON(x)
		}
		return l
	}
	return v
}

// effectiveCustomization applies the overrides over to base (an RFC 7396
// merge, except that a favicon replaces the one it overrides) and
// completes the result: header links without their required links or to
// get [] and null, footer groups without links get [], so the answer has
// every field the reference requires (GitBook's renderer reads them
// without checking). The rest of the defaults come from base.
func effectiveCustomization(base, over map[string]any) map[string]any {
	doc := folio.MergePatch(base, over)
	if fav, ok := over["favicon"].(map[string]any); ok {
		// One of {icon}, {emoji} or {}: an override replaces, never
		// merges into, the favicon it overrides.
		doc["favicon"] = fav
	}
	fill := func(section, list string, defaults map[string]any) {
		m, _ := doc[section].(map[string]any)
		items, _ := m[list].([]any)
		for _, it := range items {
			item, ok := it.(map[string]any)
			if !ok {
				continue
			}
			for k, v := range defaults {
				if _, ok := item[k]; !ok {
					item[k] = v
				}
			}
		}
	}
	fill("header", "links", map[string]any{"links": []any{}, "to": nil})
	fill("footer", "groups", map[string]any{"links": []any{}})
	return doc
}

// siteCustomization returns the effective customization of a site.
func siteCustomization(ctx context.Context, tx *store.Tx, siteID folio.ID) (map[string]any, error) {
	doc, err := store.SiteCustomization(ctx, tx, siteID)
	if err != nil {
		return nil, err
	}
	return effectiveCustomization(defaultCustomization(), doc), nil
}

func checkCustomizationSize(doc map[string]any) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if len(b) > folio.MaxCustomizationSize {
		return folio.Errorf(folio.Invalid, "customization must be at most %d bytes", folio.MaxCustomizationSize)
	}
	return nil
}

// GetSiteCustomization returns a site's customization settings.
func (a *App) GetSiteCustomization(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (doc map[string]any, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		doc, err = siteCustomization(ctx, tx, siteID)
		return err
	})
	return doc, err
}

// UpdateSiteCustomization replaces a site's customization settings. The
// parts the body leaves out take their defaults.
func (a *App) UpdateSiteCustomization(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in map[string]any) (doc map[string]any, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if err := folio.ValidateCustomization(in); err != nil {
			return err
		}
		if err := checkCustomizationSize(in); err != nil {
			return err
		}
		if err := store.SetSiteCustomization(ctx, tx, siteID, in); err != nil {
			return err
		}
		doc = effectiveCustomization(defaultCustomization(), in)
		return nil
	})
	return doc, err
}

// siteSpaceOf loads a site space of a site the caller may read or manage.
func siteSpaceOf(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, siteID, id folio.ID, manage bool) (*folio.SiteSpace, error) {
	if _, err := site(ctx, tx, caller, orgID, siteID, manage); err != nil {
		return nil, err
	}
	return store.GetSiteSpace(ctx, tx, siteID, id)
}

// GetSiteSpaceCustomization returns the customization of a site space:
// the site's with the site space's overrides applied.
func (a *App) GetSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (doc map[string]any, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, false); err != nil {
			return err
		}
		base, err := siteCustomization(ctx, tx, siteID)
		if err != nil {
			return err
		}
		over, err := store.SiteSpaceCustomization(ctx, tx, id)
		doc = effectiveCustomization(base, over)
		return err
	})
	return doc, err
}

// OverrideSiteSpaceCustomization merges a patch into a site space's
// overrides: a value overrides the site's, null removes the override.
func (a *App) OverrideSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, patch map[string]any) (doc map[string]any, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, true); err != nil {
			return err
		}
		old, err := store.SiteSpaceCustomization(ctx, tx, id)
		if err != nil {
			return err
		}
		over := folio.MergePatch(old, patch)
		if err := folio.ValidateCustomization(over); err != nil {
			return err
		}
		if err := checkCustomizationSize(over); err != nil {
			return err
		}
		if len(over) == 0 {
			over = nil
		}
		if _, err := store.SetSiteSpaceCustomization(ctx, tx, id, over); err != nil {
			return err
		}
		base, err := siteCustomization(ctx, tx, siteID)
		doc = effectiveCustomization(base, over)
		return err
	})
	return doc, err
}

// DeleteSiteSpaceCustomization removes a site space's overrides and
// reports whether it had any.
func (a *App) DeleteSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (had bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, true); err != nil {
			return err
		}
		had, err = store.SetSiteSpaceCustomization(ctx, tx, id, nil)
		return err
	})
	return had, err
}

// PublishedSite is the published profile of a site: the site, its site
// spaces with their spaces, and the customizations.
type PublishedSite struct {
	Site           *folio.SiteView
	Structure      *folio.SiteStructure // sections, or site spaces without them
	Customization  map[string]any
	Customizations map[folio.ID]map[string]any // effective settings of each site space of Structure
	// Claims are the claims of the visitor it was loaded for (nil: none),
	// which decide what of Structure they see: see Visible.
	Claims map[string]any
	// Authenticated is true when the visitor's token verified with the
	// site's visitor key.
	Authenticated bool
	// ProfileKey names the stored state this profile was built from (the
	// site and the stamp of its rows, see readerProfile): two profiles
	// with one key are alike. Empty when the profile was not built for
	// the reader.
	ProfileKey string
}

// GetPublishedSite returns the published profile of a site for its
// readers (see readableSite). The spaces are shown as their readers see
// them: with the read role.
func (a *App) GetPublishedSite(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, shareKey string) (out *PublishedSite, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err := readableSite(ctx, tx, caller, orgID, siteID, shareKey)
		if err != nil {
			return err
		}
		out = &PublishedSite{Site: v, Customizations: map[folio.ID]map[string]any{}}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		if out.Structure, err = t.structure(ctx, tx, caller, v); err != nil {
			return err
		}
		if caller.Site != nil {
			// A site API token shows its visitor what they may see.
			out.Claims = caller.Site.Claims
			out.Structure = out.Visible().Structure
		}
		if out.Customization, err = siteCustomization(ctx, tx, siteID); err != nil {
			return err
		}
		overs, err := store.SiteSpaceCustomizations(ctx, tx, siteID)
		if err != nil {
			return err
		}
		// Every site space of the structure has its effective settings,
		// complete (GitBook's renderer reads them by site space); those
		// left out of the structure are not named.
		for _, ss := range PublishedSiteSpaces(out.Structure) {
			out.Customizations[ss.ID] = out.Customization
			if over, ok := overs[ss.ID]; ok {
				out.Customizations[ss.ID] = effectiveCustomization(out.Customization, over)
			}
		}
		return nil
	})
	return out, err
}

// GetSharedSpace returns a space for GET /spaces/{spaceId}?shareKey=: as
// the caller sees it when they may, or else, when the key is an active
// share link of a published share-link site that publishes the space, as
// its readers see it (the read role).
func (a *App) GetSharedSpace(ctx context.Context, caller folio.Caller, id folio.ID, shareKey string) (v *folio.SpaceView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, _, err = space(ctx, tx, caller, id)
		// A site API token reads its own site's spaces only, whatever key
		// it brings.
		if !folio.IsNotFound(err) || shareKey == "" || caller.Site != nil {
			return err
		}
		ok, serr := store.SharedSpace(ctx, tx, shareKey, id)
		if serr != nil {
			return serr
		}
		if !ok {
			return errSpaceNotFound
		}
		sp, err := store.GetSpace(ctx, tx, id)
		if err != nil {
			return err
		}
		v = &folio.SpaceView{Space: *sp, CallerRole: folio.RoleRead}
		return nil
	})
	return v, err
}
