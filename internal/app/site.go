package app

import (
	"context"
	"strings"

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
	// Scripts are the site's integration scripts (GetPublishedSite only).
	Scripts []SiteScript
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
		// Whoever may read the published site may load its scripts, as
		// its pages do.
		out.Scripts, err = a.siteScriptList(ctx, tx, v.OrganizationID, siteID)
		return err
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
