package app

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/sitetree"
	"github.com/foliodocs/folio/internal/store"
)

// siteTree is the whole structure of one site (sitetree.Tree), loaded to
// be changed in memory and written back as one transaction by save, which
// writes only the rows that changed.
type siteTree struct {
	*sitetree.Tree

	// views holds the spaces of the site spaces as the caller of a read
	// sees them, loaded once (siteSpaceView).
	views map[folio.ID]folio.SpaceView
}

// loadTree reads a site's structure. Site spaces whose space is deleted are
// not part of it (deleting a space removes them; see DeleteSpace).
func loadTree(ctx context.Context, tx *store.Tx, site *folio.Site) (*siteTree, error) {
	secs, err := store.ListSiteSections(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	groups, err := store.ListSiteSectionGroups(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	spaces, err := store.ListSiteSpaces(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	return &siteTree{Tree: sitetree.New(site, secs, groups, spaces)}, nil
}

// save writes the rows that changed since loadTree (sitetree.Changes
// says in which order).
func (t *siteTree) save(ctx context.Context, tx *store.Tx) error {
	c := t.Changes()
	for _, id := range c.DeleteSpaces {
		if err := store.DeleteSiteSpace(ctx, tx, id); err != nil {
			return err
		}
	}
	for _, g := range c.CreateGroups {
		if err := store.CreateSiteSectionGroup(ctx, tx, g); err != nil {
			return err
		}
	}
	for _, g := range c.UpdateGroups {
		if err := store.UpdateSiteSectionGroup(ctx, tx, g); err != nil {
			return err
		}
	}
	for _, s := range c.CreateSections {
		if err := store.CreateSiteSection(ctx, tx, s); err != nil {
			return err
		}
	}
	for _, s := range c.UpdateSections {
		if err := store.UpdateSiteSection(ctx, tx, s); err != nil {
			return err
		}
	}
	for _, id := range c.DeleteSections {
		if err := store.DeleteSiteSection(ctx, tx, t.Site.ID, id); err != nil {
			return err
		}
	}
	for _, id := range c.DeleteGroups {
		if err := store.DeleteSiteSectionGroup(ctx, tx, t.Site.ID, id); err != nil {
			return err
		}
	}
	for _, s := range c.MoveSpaces {
		parked := *s
		parked.Path = "/" + s.ID // no real path has a slash
		if err := store.UpdateSiteSpace(ctx, tx, &parked); err != nil {
			return err
		}
	}
	for _, s := range c.UpdateSpaces {
		if err := store.UpdateSiteSpace(ctx, tx, s); err != nil {
			return err
		}
	}
	for _, s := range c.CreateSpaces {
		if err := store.CreateSiteSpace(ctx, tx, s); err != nil {
			return err
		}
	}
	if c.DefaultSection != nil {
		if err := store.SetDefaultSiteSection(ctx, tx, t.Site.ID, *c.DefaultSection); err != nil {
			return err
		}
	}
	t.Saved()
	return nil
}

// adaptiveSchema returns a site's adaptive schema document, nil when none.
func adaptiveSchema(ctx context.Context, tx *store.Tx, siteID folio.ID) (json.RawMessage, error) {
	s, err := store.GetAdaptiveSchema(ctx, tx, siteID)
	if folio.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.JSONSchema, nil
}

// structureSite loads a site for a structure operation: for writes
// (manage) the caller must manage the site; reads accept a share key as the
// published reads do.
func structureSite(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, siteID folio.ID, shareKey string, manage bool) (*folio.SiteView, error) {
	if manage {
		return site(ctx, tx, caller, orgID, siteID, true)
	}
	return readableSite(ctx, tx, caller, orgID, siteID, shareKey)
}

// structureSpace loads a space to publish in a site: a space of the site's
// organization that the caller may view, or Invalid on field.
func structureSpace(ctx context.Context, tx *store.Tx, caller folio.Caller, s *folio.Site, field string, id folio.ID) (*folio.Space, error) {
	sp, err := store.GetSpace(ctx, tx, id)
	if err == nil && sp.OrganizationID != s.OrganizationID {
		err = errSpaceNotFound
	}
	if err == nil {
		_, _, err = viewSpace(ctx, tx, caller, sp)
	}
	if folio.IsNotFound(err) {
		return nil, folio.FieldErrorf(field, "space %s not found in the organization", id)
	}
	return sp, err
}

// siteSpaceView pairs a site space with its space, as the caller sees it
// when they may, else as the site's readers do (the read role). The first
// call loads the spaces of every site space of the tree and the caller's
// roles in a few queries, whatever the number of site spaces: structure
// reads (the published profile among them) make no query per site space.
func (t *siteTree) siteSpaceView(ctx context.Context, tx *store.Tx, caller folio.Caller, ss *folio.SiteSpace) (folio.SiteSpaceView, error) {
	v, ok := t.views[ss.SpaceID]
	if !ok {
		// Not loaded yet, or added to the tree since: (re)load once.
		if err := t.loadViews(ctx, tx, caller); err != nil {
			return folio.SiteSpaceView{}, err
		}
		if v, ok = t.views[ss.SpaceID]; !ok {
			return folio.SiteSpaceView{}, errSpaceNotFound
		}
	}
	return folio.SiteSpaceView{SiteSpace: *ss, Space: v}, nil
}

// loadViews computes the spaces of the tree's site spaces as the caller
// sees them: their role when they may view the space, else the read role.
func (t *siteTree) loadViews(ctx context.Context, tx *store.Tx, caller folio.Caller) error {
	ids := make([]folio.ID, 0, len(t.Spaces))
	for _, ss := range t.Spaces {
		ids = append(ids, ss.SpaceID)
	}
	spaces, err := store.GetSpaces(ctx, tx, ids)
	if err != nil {
		return err
	}
	// A caller who is not a member (a share-key reader) sees every space
	// as a reader; one without a user (the reader, a site token) is no
	// member, which needs no query.
	var ca *contentAccess
	if caller.UserID != "" {
		ca, err = loadContentAccess(ctx, tx, caller, t.Site.OrganizationID)
		if err != nil && folio.KindOf(err) == folio.Internal {
			return err
		}
	}
	t.views = make(map[folio.ID]folio.SpaceView, len(spaces))
	for id, sp := range spaces {
		v := folio.SpaceView{Space: *sp, CallerRole: folio.RoleRead}
		if ca != nil {
			if r := ca.spaceRole(sp); (&folio.SpaceView{Space: *sp, CallerRole: r}).Permissions().View {
				v.CallerRole = r
			}
		}
		t.views[id] = v
	}
	return nil
}

// placed pairs a site space with its space and its section.
func (t *siteTree) placed(ctx context.Context, tx *store.Tx, caller folio.Caller, ss *folio.SiteSpace) (*folio.PlacedSiteSpace, error) {
	sv, err := t.siteSpaceView(ctx, tx, caller, ss)
	if err != nil {
		return nil, err
	}
	out := &folio.PlacedSiteSpace{SiteSpaceView: sv}
	if sec := t.Section(ss.SectionID); sec != nil {
		c := *sec
		out.Section = &c
	}
	return out, nil
}

func (t *siteTree) sectionView(ctx context.Context, tx *store.Tx, caller folio.Caller, s *folio.SiteSection) (*folio.SiteSectionView, error) {
	v := &folio.SiteSectionView{SiteSection: *s, SiteSpaces: []folio.SiteSpaceView{}}
	for _, ss := range t.SpacesIn(s.ID) {
		sv, err := t.siteSpaceView(ctx, tx, caller, ss)
		if err != nil {
			return nil, err
		}
		v.SiteSpaces = append(v.SiteSpaces, sv)
	}
	return v, nil
}

func (t *siteTree) groupView(ctx context.Context, tx *store.Tx, caller folio.Caller, g *folio.SiteSectionGroup) (*folio.SiteSectionGroupView, error) {
	v := &folio.SiteSectionGroupView{SiteSectionGroup: *g}
	nodes, err := t.nodes(ctx, tx, caller, g.ID)
	v.Children = nodes
	return v, err
}

func (t *siteTree) nodes(ctx context.Context, tx *store.Tx, caller folio.Caller, parent folio.ID) ([]folio.SiteStructureNode, error) {
	out := []folio.SiteStructureNode{}
	for _, n := range t.Children(parent) {
		if n.Section != nil {
			v, err := t.sectionView(ctx, tx, caller, n.Section)
			if err != nil {
				return nil, err
			}
			out = append(out, folio.SiteStructureNode{Section: v})
			continue
		}
		v, err := t.groupView(ctx, tx, caller, n.Group)
		if err != nil {
			return nil, err
		}
		out = append(out, folio.SiteStructureNode{Group: v})
	}
	return out, nil
}

// structure builds the site's structure as the caller sees it.
func (t *siteTree) structure(ctx context.Context, tx *store.Tx, caller folio.Caller, v *folio.SiteView) (*folio.SiteStructure, error) {
	out := &folio.SiteStructure{Site: v, Sectioned: len(t.Sections) > 0, SiteSpaces: []folio.SiteSpaceView{}}
	if out.Sectioned {
		nodes, err := t.nodes(ctx, tx, caller, "")
		out.Nodes = nodes
		return out, err
	}
	for _, ss := range t.SpacesIn("") {
		sv, err := t.siteSpaceView(ctx, tx, caller, ss)
		if err != nil {
			return nil, err
		}
		out.SiteSpaces = append(out.SiteSpaces, sv)
	}
	return out, nil
}

// pageOf returns one page of items in memory: structures are small (at most
// folio.MaxSiteSections sections), and their order is the structure's, not
// a column's. The cursor is the id of the last item of the previous page.
func pageOf[T any](items []T, id func(T) folio.ID, opts folio.ListOptions) (folio.List[T], error) {
	out := folio.List[T]{Count: len(items), Items: []T{}}
	start := 0
	if opts.After != nil {
		if !opts.After.Matches("s") {
			return out, folio.ErrBadCursor()
		}
		after, _ := opts.After[0].(string)
		i := slices.IndexFunc(items, func(x T) bool { return id(x) == after })
		if i < 0 {
			return out, folio.ErrBadCursor()
		}
		start = i + 1
	}
	end := min(len(items), start+opts.Limit)
	out.Items = append(out.Items, items[start:end]...)
	if end < len(items) && end > start {
		out.Next = folio.EncodeCursor(id(items[end-1]))
	}
	return out, nil
}

// GetSiteStructure returns a site's structure (the reference's
// getSiteStructure), for its members or, with a share key, its readers.
func (a *App) GetSiteStructure(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, shareKey string) (out *folio.SiteStructure, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err := structureSite(ctx, tx, caller, orgID, siteID, shareKey, false)
		if err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		out, err = t.structure(ctx, tx, caller, v)
		return err
	})
	return out, err
}

// ListSiteSections lists a site's sections in structure order.
func (a *App) ListSiteSections(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, shareKey string, opts folio.ListOptions) (v *folio.SiteView, l folio.List[folio.SiteSectionView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if v, err = structureSite(ctx, tx, caller, orgID, siteID, shareKey, false); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		ordered := t.OrderedSections()
		p, err := pageOf(ordered, func(s *folio.SiteSection) folio.ID { return s.ID }, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.SiteSectionView]{Count: p.Count, Next: p.Next, Items: []folio.SiteSectionView{}}
		for _, s := range p.Items {
			sv, err := t.sectionView(ctx, tx, caller, s)
			if err != nil {
				return err
			}
			l.Items = append(l.Items, *sv)
		}
		return nil
	})
	return v, l, err
}

// ListSiteSpacesOf lists a site's site spaces in structure order; def
// filters the default ones (true), the others (false) or none (nil).
func (a *App) ListSiteSpacesOf(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, shareKey string, def *bool, opts folio.ListOptions) (v *folio.SiteView, l folio.List[folio.PlacedSiteSpace], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if v, err = structureSite(ctx, tx, caller, orgID, siteID, shareKey, false); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		all := t.OrderedSpaces()
		if def != nil {
			all = slices.DeleteFunc(all, func(s *folio.SiteSpace) bool { return s.Default != *def })
		}
		p, err := pageOf(all, func(s *folio.SiteSpace) folio.ID { return s.ID }, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.PlacedSiteSpace]{Count: p.Count, Next: p.Next, Items: []folio.PlacedSiteSpace{}}
		for _, s := range p.Items {
			pv, err := t.placed(ctx, tx, caller, s)
			if err != nil {
				return err
			}
			l.Items = append(l.Items, *pv)
		}
		return nil
	})
	return v, l, err
}

// writeTree runs fn on the structure of a site the caller manages, in one
// transaction, and saves what it changed; op names the change in the
// audit log (the operationId).
func (a *App) writeTree(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, op string, fn func(*store.Tx, *siteTree) error) (v *folio.SiteView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if v, err = structureSite(ctx, tx, caller, orgID, siteID, "", true); err != nil {
			return err
		}
		// The site was read before the lock: read it again under it, so
		// that the default section is the one the last writer left.
		if err := store.LockSite(ctx, tx, siteID); err != nil {
			return err
		}
		s, err := store.GetSite(ctx, tx, orgID, siteID)
		if err != nil {
			return err
		}
		v.Site = *s
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		if err := fn(tx, t); err != nil {
			return err
		}
		if err := t.save(ctx, tx); err != nil {
			return err
		}
		// Which spaces a site publishes, and where: one action for every
		// change of the structure, named by the operation.
		if err := audit(ctx, tx, caller, orgID, "site.structure_updated", "site", siteID,
			map[string]any{"operation": op}); err != nil {
			return err
		}
		v.Site.DefaultSiteSection = t.DefaultSection
		v.Site.SiteSpaces = len(t.Spaces)
		return nil
	})
	return v, err
}

// sectionTitle picks a section's title when none is given: the space's,
// padded or cut to the limits.
func sectionTitle(sp *folio.Space) string {
	title := []rune(sp.Title)
	if len(title) > folio.MaxSiteSectionTitle {
		title = title[:folio.MaxSiteSectionTitle]
	}
	if len(title) < folio.MinSiteSectionTitle {
		return "Section"
	}
	return string(title)
}

// StructureItem is the item sortSiteStructure moved: exactly one is set.
type StructureItem struct {
	SiteSpace *folio.PlacedSiteSpace
	Section   *folio.SiteSectionView
	Group     *folio.SiteSectionGroupView
}

// SortSiteStructure moves a site space, section or group (the reference's
// sortSiteStructure). An unknown item is NotFound; a position that does
// not fit the item is Invalid.
func (a *App) SortSiteStructure(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, item folio.StructurePointer, p folio.StructurePosition) (v *folio.SiteView, out StructureItem, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "sortSiteStructure", func(tx *store.Tx, t *siteTree) error {
		switch item.Type {
		case folio.KindSiteSpace:
			ss := t.SiteSpace(item.ID)
			if ss == nil {
				return folio.Errorf(folio.NotFound, "site space not found")
			}
			if err := t.MoveSpace(ss, p); err != nil {
				return err
			}
			t.Normalize()
			out.SiteSpace, err = t.placed(ctx, tx, caller, ss)
			return err
		case folio.KindSiteSection:
			s := t.Section(item.ID)
			if s == nil {
				return folio.Errorf(folio.NotFound, "site section not found")
			}
			if err := t.MoveNode(sitetree.Node{Section: s}, p); err != nil {
				return err
			}
			t.Normalize()
			out.Section, err = t.sectionView(ctx, tx, caller, s)
			return err
		case folio.KindSiteSectionGroup:
			g := t.Group(item.ID)
			if g == nil {
				return folio.Errorf(folio.NotFound, "site section group not found")
			}
			if err := t.MoveNode(sitetree.Node{Group: g}, p); err != nil {
				return err
			}
			t.Normalize()
			out.Group, err = t.groupView(ctx, tx, caller, g)
			return err
		}
		return folio.FieldErrorf("item", "item type must be site-space, site-section or site-section-group")
	})
	return v, out, err
}

// removeSiteSpacesOfSpace deletes the site spaces that publish a deleted
// space and restores the structure's invariants in each site they were in.
func removeSiteSpacesOfSpace(ctx context.Context, tx *store.Tx, orgID, spaceID folio.ID) error {
	places, err := store.DeleteSiteSpacesOfSpace(ctx, tx, spaceID)
	if err != nil {
		return err
	}
	done := map[folio.ID]bool{}
	for _, p := range places {
		if done[p.SiteID] {
			continue
		}
		done[p.SiteID] = true
		if err := store.LockSite(ctx, tx, p.SiteID); err != nil {
			return err
		}
		s, err := store.GetSite(ctx, tx, orgID, p.SiteID)
		if err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, s)
		if err != nil {
			return err
		}
		if err := t.save(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}
