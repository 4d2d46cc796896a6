package app

import (
	"context"
	"slices"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// MaxSearchSiteSpaces bounds the site spaces one site search names.
const MaxSearchSiteSpaces = 100

// Site search modes (the reference's SiteSearchScope, and the deprecated
// "current" mode of searchSiteContent).
const (
	SiteSearchAll      = "all"
	SiteSearchDefault  = "default"
	SiteSearchSpecific = "specific"
	SiteSearchCurrent  = "current"
)

// SiteSearch is the scope of a site search.
type SiteSearch struct {
	Mode string
	// SiteSpaceIDs are the site spaces searched (specific), or searched
	// besides the defaults (default's includedSiteSpaces).
	SiteSpaceIDs []folio.ID
	// CurrentSiteSpace is always searched (default and current).
	CurrentSiteSpace folio.ID
	// Legacy is set for the request's deprecated top-level mode, the only
	// place where "current" is a mode.
	Legacy bool
}

// Validate checks a site search's scope; it returns Invalid errors.
func (s SiteSearch) Validate() error {
	switch s.Mode {
	case SiteSearchAll, SiteSearchDefault, SiteSearchSpecific:
	case SiteSearchCurrent:
		if !s.Legacy {
			return folio.FieldErrorf("scope.mode", "scope.mode must be default, specific or all")
		}
	case "":
		return folio.FieldErrorf("scope", "scope is required")
	default:
		return folio.FieldErrorf("scope.mode", "scope.mode must be default, specific or all")
	}
	if len(s.SiteSpaceIDs) > MaxSearchSiteSpaces {
		return folio.FieldErrorf("scope.siteSpaceIds", "scope.siteSpaceIds must list at most %d site spaces", MaxSearchSiteSpaces)
	}
	if s.Mode == SiteSearchSpecific && len(s.SiteSpaceIDs) == 0 {
		return folio.FieldErrorf("scope.siteSpaceIds", "scope.siteSpaceIds must list at least one site space")
	}
	if s.Mode == SiteSearchCurrent && s.CurrentSiteSpace == "" {
		return folio.FieldErrorf("siteSpaceId", "siteSpaceId is required")
	}
	for _, id := range append([]folio.ID{s.CurrentSiteSpace}, s.SiteSpaceIDs...) {
		if utf8.RuneCountInString(id) > 64 {
			return folio.FieldErrorf("scope.siteSpaceIds", "site space ids must be at most 64 characters")
		}
	}
	return nil
}

// SearchSite searches the current content of the site spaces of a site
// that the caller may see (searchSiteContent), grouping pages by space.
// A site API token sees the spaces of its grant that the site still shows
// to every visitor; a member of the organization sees the site spaces
// whose space they may view, and those the site publishes to anyone;
// other callers see what the published site shows to every visitor (see
// readableSite). Hidden pages are left out, as the site does not list
// them. Site spaces named in the scope that the caller may not see are
// ignored. Errors: NotFound for a site the caller may not read, Invalid
// for a bad query or scope.
func (a *App) SearchSite(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, query string, scope SiteSearch, opts folio.ListOptions) (l folio.List[SearchSpaceHits], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err := readableSite(ctx, tx, caller, orgID, siteID, "")
		if err != nil {
			return err
		}
		if err := validateQuery(query); err != nil {
			return err
		}
		if err := scope.Validate(); err != nil {
			return err
		}
		if _, err := searchOffset(opts); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		seen, err := seenSiteSpaces(ctx, tx, caller, t)
		if err != nil {
			return err
		}
		var spaces []string
		for _, ss := range scope.pick(seen) {
			if !slices.Contains(spaces, ss.SpaceID) {
				spaces = append(spaces, ss.SpaceID)
			}
		}
		l, _, err = a.searchSpaces(ctx, tx, spaces, query, opts, true)
		return err
	})
	return l, err
}

// seenSiteSpaces lists the site spaces of a site that a caller may
// search, in structure order.
func seenSiteSpaces(ctx context.Context, tx *store.Tx, caller folio.Caller, t *siteTree) ([]*folio.SiteSpace, error) {
	// What the site shows: to a site token's visitor, the site spaces its
	// claims see (VisibleSiteSpaces, as the reader and the lookup decide);
	// to anyone else, what it shows to a visitor without claims.
	st, err := t.structure(ctx, tx, folio.Caller{}, &folio.SiteView{Site: *t.Site})
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	if caller.Site != nil {
		claims = caller.Site.Claims
	}
	vis := VisibleSiteSpaces(st, t.Site.DefaultSiteSection, claims)
	open := func(ss *folio.SiteSpace) bool { return vis.Has(ss.ID) }
	keep := open
	switch {
	case caller.Site != nil:
		keep = func(ss *folio.SiteSpace) bool { return caller.Site.MaySpace(ss.SpaceID) && open(ss) }
	case caller.UserID != "":
		ca, err := loadContentAccess(ctx, tx, caller, t.Site.OrganizationID)
		if folio.IsNotFound(err) || folio.KindOf(err) == folio.Forbidden {
			break // not a member: what the site shows to anyone
		}
		if err != nil {
			return nil, err
		}
		all, err := store.SpaceParents(ctx, tx, t.Site.OrganizationID)
		if err != nil {
			return nil, err
		}
		mayView := make(map[folio.ID]bool, len(all))
		for _, s := range all {
			mayView[s.ID] = folio.SpacePerms(ca.spaceRole(&s), s.EditMode).View
		}
		anyone, err := publishedTo(ctx, tx, t.Site, "", "")
		if err != nil {
			return nil, err
		}
		keep = func(ss *folio.SiteSpace) bool { return mayView[ss.SpaceID] || anyone && open(ss) }
	}
	var out []*folio.SiteSpace
	for _, ss := range t.OrderedSpaces() {
		if keep(ss) {
			out = append(out, ss)
		}
	}
	return out, nil
}

// pick narrows the site spaces a caller may see to a scope.
func (s SiteSearch) pick(seen []*folio.SiteSpace) []*folio.SiteSpace {
	named := func(ss *folio.SiteSpace) bool {
		return ss.ID == s.CurrentSiteSpace || slices.Contains(s.SiteSpaceIDs, ss.ID)
	}
	var out []*folio.SiteSpace
	for _, ss := range seen {
		switch s.Mode {
		case SiteSearchAll:
			out = append(out, ss)
		case SiteSearchSpecific:
			if slices.Contains(s.SiteSpaceIDs, ss.ID) {
				out = append(out, ss)
			}
		default: // default and current: the default site space of each section
			if named(ss) || ss.Default {
				out = append(out, ss)
			}
		}
	}
	return out
}
