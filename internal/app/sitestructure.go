package app

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// siteTree is the whole structure of one site, loaded to be changed in
// memory and written back as one transaction: every operation ends with
// normalize, which restores the invariants (one default site space per
// section, or at the root of a site without sections; no empty section;
// one default section while there are sections; positions 0..n-1 among
// siblings), and save, which writes only the rows that changed.
type siteTree struct {
	site     *folio.Site
	sections []*folio.SiteSection
	groups   []*folio.SiteSectionGroup
	spaces   []*folio.SiteSpace

	defaultSection folio.ID
	// the rows as loaded, to write only what changed and delete what went.
	origSections map[folio.ID]folio.SiteSection
	origGroups   map[folio.ID]folio.SiteSectionGroup
	origSpaces   map[folio.ID]folio.SiteSpace

	// views holds the spaces of the site spaces as the caller of a read
	// sees them, loaded once (siteSpaceView).
	views map[folio.ID]folio.SpaceView
}

// loadTree reads a site's structure. Site spaces whose space is deleted are
// not part of it (deleting a space removes them; see DeleteSpace).
func loadTree(ctx context.Context, tx *store.Tx, site *folio.Site) (*siteTree, error) {
	t := &siteTree{site: site, defaultSection: site.DefaultSiteSection,
		origSections: map[folio.ID]folio.SiteSection{}, origGroups: map[folio.ID]folio.SiteSectionGroup{},
		origSpaces: map[folio.ID]folio.SiteSpace{}}
	secs, err := store.ListSiteSections(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	for i := range secs {
		t.sections = append(t.sections, &secs[i])
		t.origSections[secs[i].ID] = secs[i]
	}
	groups, err := store.ListSiteSectionGroups(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	for i := range groups {
		t.groups = append(t.groups, &groups[i])
		t.origGroups[groups[i].ID] = groups[i]
	}
	spaces, err := store.ListSiteSpaces(ctx, tx, site.ID)
	if err != nil {
		return nil, err
	}
	for i := range spaces {
		t.spaces = append(t.spaces, &spaces[i])
		t.origSpaces[spaces[i].ID] = spaces[i]
	}
	return t, nil
}

func (t *siteTree) section(id folio.ID) *folio.SiteSection {
	for _, s := range t.sections {
		if s.ID == id {
			return s
		}
	}
	return nil
}

func (t *siteTree) group(id folio.ID) *folio.SiteSectionGroup {
	for _, g := range t.groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}

func (t *siteTree) siteSpace(id folio.ID) *folio.SiteSpace {
	for _, s := range t.spaces {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// spacesIn returns the site spaces of a section (the root for ""), in order.
func (t *siteTree) spacesIn(section folio.ID) []*folio.SiteSpace {
	var out []*folio.SiteSpace
	for _, s := range t.spaces {
		if s.SectionID == section {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b *folio.SiteSpace) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// node is one child of a group (or of the site's root): a section or a group.
type node struct {
	section *folio.SiteSection
	group   *folio.SiteSectionGroup
}

func (n node) position() int64 {
	if n.section != nil {
		return n.section.Position
	}
	return n.group.Position
}

func (n node) id() folio.ID {
	if n.section != nil {
		return n.section.ID
	}
	return n.group.ID
}

func (n node) parent() folio.ID {
	if n.section != nil {
		return n.section.GroupID
	}
	return n.group.ParentID
}

func (n node) setPlace(parent folio.ID, pos int64) {
	if n.section != nil {
		n.section.GroupID, n.section.Position = parent, pos
	} else {
		n.group.ParentID, n.group.Position = parent, pos
	}
}

// children returns the sections and groups under a group ("" for the root),
// in order.
func (t *siteTree) children(parent folio.ID) []node {
	var out []node
	for _, s := range t.sections {
		if s.GroupID == parent {
			out = append(out, node{section: s})
		}
	}
	for _, g := range t.groups {
		if g.ParentID == parent {
			out = append(out, node{group: g})
		}
	}
	slices.SortStableFunc(out, func(a, b node) int {
		return cmp.Or(cmp.Compare(a.position(), b.position()), cmp.Compare(a.id(), b.id()))
	})
	return out
}

// orderedSections lists the sections in the order a reader meets them:
// depth first through the groups.
func (t *siteTree) orderedSections() []*folio.SiteSection {
	var out []*folio.SiteSection
	var walk func(parent folio.ID)
	walk = func(parent folio.ID) {
		for _, n := range t.children(parent) {
			if n.section != nil {
				out = append(out, n.section)
			} else {
				walk(n.group.ID)
			}
		}
	}
	walk("")
	return out
}

// orderedSpaces lists every site space in structure order.
func (t *siteTree) orderedSpaces() []*folio.SiteSpace {
	if len(t.sections) == 0 {
		return t.spacesIn("")
	}
	var out []*folio.SiteSpace
	for _, s := range t.orderedSections() {
		out = append(out, t.spacesIn(s.ID)...)
	}
	return out
}

// placeNode puts n among the children of parent at index i (clamped), and
// renumbers those children.
func (t *siteTree) placeNode(n node, parent folio.ID, i int) {
	sib := slices.DeleteFunc(t.children(parent), func(m node) bool { return m.id() == n.id() })
	i = max(0, min(i, len(sib)))
	sib = slices.Insert(sib, i, n)
	for k, m := range sib {
		m.setPlace(parent, int64(k))
	}
}

// placeSpace puts a site space in a section ("" for the root) at index i
// (clamped), and renumbers the site spaces there.
func (t *siteTree) placeSpace(s *folio.SiteSpace, section folio.ID, i int) {
	if s.SectionID != section {
		s.Default = false
	}
	sib := slices.DeleteFunc(t.spacesIn(section), func(m *folio.SiteSpace) bool { return m.ID == s.ID })
	i = max(0, min(i, len(sib)))
	sib = slices.Insert(sib, i, s)
	for k, m := range sib {
		m.SectionID, m.Position = section, int64(k)
	}
}

// removeSpace drops a site space from the tree.
func (t *siteTree) removeSpace(id folio.ID) {
	t.spaces = slices.DeleteFunc(t.spaces, func(s *folio.SiteSpace) bool { return s.ID == id })
}

// removeSection drops a section and its site spaces from the tree.
func (t *siteTree) removeSection(id folio.ID) {
	t.sections = slices.DeleteFunc(t.sections, func(s *folio.SiteSection) bool { return s.ID == id })
	t.spaces = slices.DeleteFunc(t.spaces, func(s *folio.SiteSpace) bool { return s.SectionID == id })
}

// normalize restores the invariants after a change (see siteTree).
func (t *siteTree) normalize() {
	// A section left without site spaces has nothing to show: it goes.
	for _, s := range slices.Clone(t.sections) {
		if len(t.spacesIn(s.ID)) == 0 {
			t.removeSection(s.ID)
		}
	}
	// Site spaces sit at the root only while the site has no sections.
	if len(t.sections) > 0 && len(t.spacesIn("")) > 0 {
		root := t.spacesIn("")
		first := t.orderedSections()[0]
		for _, s := range root {
			s.Path = uniquePath(t.spacePaths(first.ID, s.ID), s.Path)
			t.placeSpace(s, first.ID, len(t.spacesIn(first.ID)))
		}
	}
	places := []folio.ID{""}
	for _, s := range t.sections {
		places = append(places, s.ID)
	}
	for _, p := range places {
		sib := t.spacesIn(p)
		seen := false
		for k, s := range sib {
			s.Position = int64(k)
			if s.Default && seen {
				s.Default = false
			}
			seen = seen || s.Default
		}
		if !seen && len(sib) > 0 {
			sib[0].Default = true
		}
	}
	var renumber func(parent folio.ID)
	renumber = func(parent folio.ID) {
		for k, n := range t.children(parent) {
			n.setPlace(parent, int64(k))
			if n.group != nil {
				renumber(n.group.ID)
			}
		}
	}
	renumber("")
	if t.section(t.defaultSection) == nil {
		t.defaultSection = ""
		if ordered := t.orderedSections(); len(ordered) > 0 {
			t.defaultSection = ordered[0].ID
		}
	}
	for _, s := range t.sections {
		s.Default = s.ID == t.defaultSection
	}
}

// save writes the rows that changed since loadTree. Site spaces that move
// to a new place are first parked under a temporary path so that swapping
// paths between siblings never trips the uniqueness of paths.
func (t *siteTree) save(ctx context.Context, tx *store.Tx) error {
	t.normalize()
	keepSpace := map[folio.ID]bool{}
	for _, s := range t.spaces {
		keepSpace[s.ID] = true
	}
	for id := range t.origSpaces {
		if !keepSpace[id] {
			if err := store.DeleteSiteSpace(ctx, tx, id); err != nil {
				return err
			}
		}
	}
	// Groups before sections (a section may name a new group), parents
	// before children.
	for _, g := range t.groups {
		o, ok := t.origGroups[g.ID]
		switch {
		case !ok:
			if err := store.CreateSiteSectionGroup(ctx, tx, g); err != nil {
				return err
			}
		case o != *g:
			if err := store.UpdateSiteSectionGroup(ctx, tx, g); err != nil {
				return err
			}
		}
	}
	for _, s := range t.sections {
		o, ok := t.origSections[s.ID]
		switch {
		case !ok:
			if err := store.CreateSiteSection(ctx, tx, s); err != nil {
				return err
			}
		case o != *s:
			if err := store.UpdateSiteSection(ctx, tx, s); err != nil {
				return err
			}
		}
	}
	// Deletions after the updates: a group's children must have left it
	// before its row goes (its children's rows would follow it).
	keepSection := map[folio.ID]bool{}
	for _, s := range t.sections {
		keepSection[s.ID] = true
	}
	for id := range t.origSections {
		if !keepSection[id] {
			if err := store.DeleteSiteSection(ctx, tx, t.site.ID, id); err != nil {
				return err
			}
		}
	}
	keepGroup := map[folio.ID]bool{}
	for _, g := range t.groups {
		keepGroup[g.ID] = true
	}
	for id := range t.origGroups {
		if !keepGroup[id] {
			if err := store.DeleteSiteSectionGroup(ctx, tx, t.site.ID, id); err != nil {
				return err
			}
		}
	}
	var changed []*folio.SiteSpace
	for _, s := range t.spaces {
		o, ok := t.origSpaces[s.ID]
		if ok && o != *s {
			changed = append(changed, s)
		}
	}
	for _, s := range changed {
		if o := t.origSpaces[s.ID]; o.Path != s.Path || o.SectionID != s.SectionID {
			parked := *s
			parked.Path = "/" + s.ID // no real path has a slash
			if err := store.UpdateSiteSpace(ctx, tx, &parked); err != nil {
				return err
			}
		}
	}
	for _, s := range changed {
		if err := store.UpdateSiteSpace(ctx, tx, s); err != nil {
			return err
		}
	}
	for _, s := range t.spaces {
		if _, ok := t.origSpaces[s.ID]; !ok {
			if err := store.CreateSiteSpace(ctx, tx, s); err != nil {
				return err
			}
		}
	}
	if t.defaultSection != t.site.DefaultSiteSection {
		if err := store.SetDefaultSiteSection(ctx, tx, t.site.ID, t.defaultSection); err != nil {
			return err
		}
		t.site.DefaultSiteSection = t.defaultSection
	}
	return nil
}

// uniquePath returns want, or want with a number appended, so that it is
// not in taken.
func uniquePath(taken []string, want string) string {
	if want == "" {
		want = "space"
	}
	return content.UniqueSlug(taken, want)
}

// spacePaths lists the paths of the site spaces of a section, but one.
func (t *siteTree) spacePaths(section, except folio.ID) []string {
	var out []string
	for _, s := range t.spacesIn(section) {
		if s.ID != except {
			out = append(out, s.Path)
		}
	}
	return out
}

// sectionPaths lists the paths of the site's sections, but one.
func (t *siteTree) sectionPaths(except folio.ID) []string {
	var out []string
	for _, s := range t.sections {
		if s.ID != except {
			out = append(out, s.Path)
		}
	}
	return out
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
	ids := make([]folio.ID, 0, len(t.spaces))
	for _, ss := range t.spaces {
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
		ca, err = loadContentAccess(ctx, tx, caller, t.site.OrganizationID)
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
	if sec := t.section(ss.SectionID); sec != nil {
		c := *sec
		out.Section = &c
	}
	return out, nil
}

func (t *siteTree) sectionView(ctx context.Context, tx *store.Tx, caller folio.Caller, s *folio.SiteSection) (*folio.SiteSectionView, error) {
	v := &folio.SiteSectionView{SiteSection: *s, SiteSpaces: []folio.SiteSpaceView{}}
	for _, ss := range t.spacesIn(s.ID) {
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
	for _, n := range t.children(parent) {
		if n.section != nil {
			v, err := t.sectionView(ctx, tx, caller, n.section)
			if err != nil {
				return nil, err
			}
			out = append(out, folio.SiteStructureNode{Section: v})
			continue
		}
		v, err := t.groupView(ctx, tx, caller, n.group)
		if err != nil {
			return nil, err
		}
		out = append(out, folio.SiteStructureNode{Group: v})
	}
	return out, nil
}

// structure builds the site's structure as the caller sees it.
func (t *siteTree) structure(ctx context.Context, tx *store.Tx, caller folio.Caller, v *folio.SiteView) (*folio.SiteStructure, error) {
	out := &folio.SiteStructure{Site: v, Sectioned: len(t.sections) > 0, SiteSpaces: []folio.SiteSpaceView{}}
	if out.Sectioned {
		nodes, err := t.nodes(ctx, tx, caller, "")
		out.Nodes = nodes
		return out, err
	}
	for _, ss := range t.spacesIn("") {
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
		ordered := t.orderedSections()
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
		all := t.orderedSpaces()
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
// transaction, and saves what it changed.
func (a *App) writeTree(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, fn func(*store.Tx, *siteTree) error) (v *folio.SiteView, err error) {
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
		v.Site.DefaultSiteSection = t.defaultSection
		v.Site.SiteSpaces = len(t.spaces)
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

// newSection adds a section holding one new site space for sp at the end of
// the site's root.
func (t *siteTree) newSection(now folio.SiteSection, sp *folio.Space) *folio.SiteSection {
	s := now
	s.ID, s.SiteID = folio.NewID(), t.site.ID
	s.Path = uniquePath(t.sectionPaths(""), content.Slugify(s.Title))
	t.sections = append(t.sections, &s)
	t.placeNode(node{section: &s}, "", len(t.children("")))
	ss := &folio.SiteSpace{ID: folio.NewID(), SiteID: t.site.ID, SpaceID: sp.ID, SectionID: s.ID,
		Path: content.Slugify(sp.Title), Default: true, CreatedAt: s.CreatedAt, UpdatedAt: s.CreatedAt}
	t.spaces = append(t.spaces, ss)
	return &s
}

// AddSiteSection adds a section publishing one space. The first section of
// a site that publishes spaces at its root first gathers those into a
// section of their own (titled after the default one), which stays the
// default section.
func (a *App) AddSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in folio.NewSiteSection) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		if err := in.Validate(); err != nil {
			return err
		}
		if len(t.sections)+len(t.groups)+1 > folio.MaxSiteSections {
			return folio.Errorf(folio.Conflict, "a site has at most %d sections and section groups", folio.MaxSiteSections)
		}
		sp, err := structureSpace(ctx, tx, caller, t.site, "spaceId", in.SpaceID)
		if err != nil {
			return err
		}
		if len(t.sections) == 0 {
			if root := t.spacesIn(""); len(root) > 0 {
				def := root[0]
				for _, ss := range root {
					if ss.Default {
						def = ss
					}
				}
				dsp, err := store.GetSpace(ctx, tx, def.SpaceID)
				if err != nil {
					return err
				}
				first := &folio.SiteSection{ID: folio.NewID(), SiteID: t.site.ID, Title: sectionTitle(dsp),
					CreatedAt: tx.Now, UpdatedAt: tx.Now}
				first.Path = uniquePath(nil, content.Slugify(first.Title))
				t.sections = append(t.sections, first)
				t.placeNode(node{section: first}, "", 0)
				for _, ss := range root {
					wasDefault := ss.Default
					t.placeSpace(ss, first.ID, len(t.spacesIn(first.ID)))
					ss.Default = wasDefault // the section keeps the root's default
				}
				t.defaultSection = first.ID
			}
		}
		s := folio.SiteSection{Title: sectionTitle(sp), CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if in.Title.Present() {
			s.Title = in.Title.Value
		}
		if in.Icon.Present() {
			s.Icon = in.Icon.Value
		}
		created := t.newSection(s, sp)
		t.normalize()
		out, err = t.sectionView(ctx, tx, caller, created)
		return err
	})
	return v, out, err
}

// UpdateSiteSection applies a PATCH to a section.
func (a *App) UpdateSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSectionUpdate) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		s := t.section(id)
		if s == nil {
			return folio.Errorf(folio.NotFound, "site section not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Title.Set {
			s.Title = u.Title.Value
		}
		if u.Path.Set {
			if slices.Contains(t.sectionPaths(s.ID), u.Path.Value) {
				return folio.Errorf(folio.Conflict, "another section of the site has the path %q", u.Path.Value)
			}
			s.Path = u.Path.Value
		}
		if u.DefaultSiteSpace.Set {
			ss := t.siteSpace(u.DefaultSiteSpace.Value)
			if ss == nil || ss.SectionID != s.ID {
				return folio.FieldErrorf("defaultSiteSpace", "site space %s is not in the section", u.DefaultSiteSpace.Value)
			}
			for _, o := range t.spacesIn(s.ID) {
				o.Default = o.ID == ss.ID
			}
		}
		if u.Condition.Set {
			s.Condition = ""
			if !u.Condition.Null {
				schema, err := adaptiveSchema(ctx, tx, t.site.ID)
				if err != nil {
					return err
				}
				if err := CheckCondition("condition", u.Condition.Value, schema); err != nil {
					return err
				}
				s.Condition = u.Condition.Value
			}
		}
		if u.Icon.Set {
			s.Icon = u.Icon.Value
		}
		if u.Description.Set {
			s.Description = u.Description.Value
		}
		t.normalize()
		out, err = t.sectionView(ctx, tx, caller, s)
		return err
	})
	return v, out, err
}

// DeleteSiteSection deletes a section with its site spaces; an absent one
// is not an error. Another section becomes the default when it was.
func (a *App) DeleteSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		if existed = t.section(id) != nil; existed {
			t.removeSection(id)
		}
		return nil
	})
	return existed, err
}

var errPosition = folio.FieldErrorf("position", "invalid position: it must name another item of the site's structure that the item can sit next to")

// moveNode moves a section or a group next to the section or group the
// position names, or to the end of the site's root without one.
func (t *siteTree) moveNode(n node, p folio.StructurePosition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	target, before := p.Target()
	if target == nil {
		t.placeNode(n, "", len(t.children("")))
		return nil
	}
	var ref node
	switch target.Type {
	case folio.KindSiteSection:
		if s := t.section(target.ID); s != nil {
			ref = node{section: s}
		}
	case folio.KindSiteSectionGroup:
		if g := t.group(target.ID); g != nil {
			ref = node{group: g}
		}
	}
	if ref.section == nil && ref.group == nil || ref.id() == n.id() {
		return errPosition
	}
	parent := ref.parent()
	if n.group != nil {
		// A group cannot move inside itself.
		for p := parent; p != ""; p = t.group(p).ParentID {
			if p == n.group.ID {
				return errPosition
			}
		}
	}
	sib := slices.DeleteFunc(t.children(parent), func(m node) bool { return m.id() == n.id() })
	i := slices.IndexFunc(sib, func(m node) bool { return m.id() == ref.id() })
	if !before {
		i++
	}
	t.placeNode(n, parent, i)
	return nil
}

// MoveSiteSection moves a section (the deprecated moveSiteSection).
func (a *App) MoveSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		s := t.section(id)
		if s == nil {
			return folio.Errorf(folio.NotFound, "site section not found")
		}
		if err := t.moveNode(node{section: s}, p); err != nil {
			return err
		}
		t.normalize()
		out, err = t.sectionView(ctx, tx, caller, s)
		return err
	})
	return v, out, err
}

// AddSiteSpace publishes a space in a site: in the section named, else in
// the default section, else at the root of a site without sections. It
// becomes the default only where there was none.
func (a *App) AddSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, spaceID, sectionID folio.ID) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		if spaceID == "" {
			return folio.FieldErrorf("spaceId", "spaceId is required")
		}
		section := t.defaultSection
		if sectionID != "" {
			if t.section(sectionID) == nil {
				return folio.FieldErrorf("sectionId", "site section %s not found in the site", sectionID)
			}
			section = sectionID
		}
		sp, err := structureSpace(ctx, tx, caller, t.site, "spaceId", spaceID)
		if err != nil {
			return err
		}
		if len(t.spaces) >= folio.MaxSiteSections*10 {
			return folio.Errorf(folio.Conflict, "a site publishes at most %d site spaces", folio.MaxSiteSections*10)
		}
		ss := &folio.SiteSpace{ID: folio.NewID(), SiteID: t.site.ID, SpaceID: sp.ID,
			Path:      uniquePath(t.spacePaths(section, ""), content.Slugify(sp.Title)),
			CreatedAt: tx.Now, UpdatedAt: tx.Now}
		t.spaces = append(t.spaces, ss)
		t.placeSpace(ss, section, len(t.spacesIn(section)))
		t.normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
}

// UpdateSiteSpace applies a PATCH to a site space.
func (a *App) UpdateSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSpaceUpdate) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		ss := t.siteSpace(id)
		if ss == nil {
			return folio.Errorf(folio.NotFound, "site space not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Path.Set {
			if slices.Contains(t.spacePaths(ss.SectionID, ss.ID), u.Path.Value) {
				return folio.Errorf(folio.Conflict, "another site space beside it has the path %q", u.Path.Value)
			}
			ss.Path = u.Path.Value
		}
		if u.Condition.Set {
			ss.Condition = ""
			if !u.Condition.Null {
				schema, err := adaptiveSchema(ctx, tx, t.site.ID)
				if err != nil {
					return err
				}
				if err := CheckCondition("condition", u.Condition.Value, schema); err != nil {
					return err
				}
				ss.Condition = u.Condition.Value
			}
		}
		if u.SpaceID.Set {
			sp, err := structureSpace(ctx, tx, caller, t.site, "spaceId", u.SpaceID.Value)
			if err != nil {
				return err
			}
			ss.SpaceID = sp.ID
		}
		if u.Hidden.Set {
			ss.Hidden = u.Hidden.Value
		}
		t.normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
}

// DeleteSiteSpace removes a site space; an absent one is not an error.
// Another site space becomes the default of its section when it was, and a
// section left empty goes with it.
func (a *App) DeleteSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		existed = t.siteSpace(id) != nil
		t.removeSpace(id)
		return nil
	})
	return existed, err
}

// moveSpace moves a site space next to the site space the position names
// (which may be in another section), or to the end of its section.
func (t *siteTree) moveSpace(ss *folio.SiteSpace, p folio.StructurePosition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	target, before := p.Target()
	if target == nil {
		t.placeSpace(ss, ss.SectionID, len(t.spacesIn(ss.SectionID)))
		return nil
	}
	ref := t.siteSpace(target.ID)
	if target.Type != folio.KindSiteSpace || ref == nil || ref.ID == ss.ID {
		return errPosition
	}
	if ref.SectionID != ss.SectionID {
		if len(t.spacesIn(ss.SectionID)) == 1 {
			return folio.FieldErrorf("position", "invalid position: the site space is the last of its section; delete the section instead")
		}
		if slices.Contains(t.spacePaths(ref.SectionID, ""), ss.Path) {
			return folio.Errorf(folio.Conflict, "a site space of the target section already has the path %q", ss.Path)
		}
	}
	sib := slices.DeleteFunc(t.spacesIn(ref.SectionID), func(m *folio.SiteSpace) bool { return m.ID == ss.ID })
	i := slices.IndexFunc(sib, func(m *folio.SiteSpace) bool { return m.ID == ref.ID })
	if !before {
		i++
	}
	t.placeSpace(ss, ref.SectionID, i)
	return nil
}

// MoveSiteSpace moves a site space (the deprecated moveSiteSpace).
func (a *App) MoveSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		ss := t.siteSpace(id)
		if ss == nil {
			return folio.Errorf(folio.NotFound, "site space not found")
		}
		if err := t.moveSpace(ss, p); err != nil {
			return err
		}
		t.normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
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
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		switch item.Type {
		case folio.KindSiteSpace:
			ss := t.siteSpace(item.ID)
			if ss == nil {
				return folio.Errorf(folio.NotFound, "site space not found")
			}
			if err := t.moveSpace(ss, p); err != nil {
				return err
			}
			t.normalize()
			out.SiteSpace, err = t.placed(ctx, tx, caller, ss)
			return err
		case folio.KindSiteSection:
			s := t.section(item.ID)
			if s == nil {
				return folio.Errorf(folio.NotFound, "site section not found")
			}
			if err := t.moveNode(node{section: s}, p); err != nil {
				return err
			}
			t.normalize()
			out.Section, err = t.sectionView(ctx, tx, caller, s)
			return err
		case folio.KindSiteSectionGroup:
			g := t.group(item.ID)
			if g == nil {
				return folio.Errorf(folio.NotFound, "site section group not found")
			}
			if err := t.moveNode(node{group: g}, p); err != nil {
				return err
			}
			t.normalize()
			out.Group, err = t.groupView(ctx, tx, caller, g)
			return err
		}
		return folio.FieldErrorf("item", "item type must be site-space, site-section or site-section-group")
	})
	return v, out, err
}

// ListSiteSectionGroups lists a site's section groups, depth first in
// structure order.
func (a *App) ListSiteSectionGroups(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, opts folio.ListOptions) (v *folio.SiteView, l folio.List[folio.SiteSectionGroupView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if v, err = structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		var ordered []*folio.SiteSectionGroup
		var walk func(parent folio.ID)
		walk = func(parent folio.ID) {
			for _, n := range t.children(parent) {
				if n.group != nil {
					ordered = append(ordered, n.group)
					walk(n.group.ID)
				}
			}
		}
		walk("")
		p, err := pageOf(ordered, func(g *folio.SiteSectionGroup) folio.ID { return g.ID }, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.SiteSectionGroupView]{Count: p.Count, Next: p.Next, Items: []folio.SiteSectionGroupView{}}
		for _, g := range p.Items {
			gv, err := t.groupView(ctx, tx, caller, g)
			if err != nil {
				return err
			}
			l.Items = append(l.Items, *gv)
		}
		return nil
	})
	return v, l, err
}

// AddSiteSectionGroup adds a group at the end of its parent (the root by
// default), holding the sections listed, in that order.
func (a *App) AddSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in folio.NewSiteSectionGroup) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		if err := in.Validate(); err != nil {
			return err
		}
		if in.Parent != "" && t.group(in.Parent) == nil {
			return folio.FieldErrorf("parent", "site section group %s not found in the site", in.Parent)
		}
		for _, id := range in.Sections {
			if t.section(id) == nil {
				return folio.FieldErrorf("sections", "site section %s not found in the site", id)
			}
		}
		if len(t.sections)+len(t.groups)+1 > folio.MaxSiteSections {
			return folio.Errorf(folio.Conflict, "a site has at most %d sections and section groups", folio.MaxSiteSections)
		}
		g := &folio.SiteSectionGroup{ID: folio.NewID(), SiteID: t.site.ID, Title: in.Title, CreatedAt: tx.Now}
		if in.Icon.Present() {
			g.Icon = in.Icon.Value
		}
		t.groups = append(t.groups, g)
		t.placeNode(node{group: g}, in.Parent, len(t.children(in.Parent)))
		for _, id := range in.Sections {
			s := t.section(id)
			t.placeNode(node{section: s}, g.ID, len(t.children(g.ID)))
		}
		t.normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// UpdateSiteSectionGroup applies a PATCH to a group.
func (a *App) UpdateSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSectionGroupUpdate) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		g := t.group(id)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Title.Set {
			g.Title = u.Title.Value
		}
		if u.Icon.Set {
			g.Icon = u.Icon.Value
		}
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// DeleteSiteSectionGroup deletes a group; its children take its place in
// its parent. An absent group is not an error.
func (a *App) DeleteSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		g := t.group(id)
		if existed = g != nil; !existed {
			return nil
		}
		sib := t.children(g.ParentID)
		i := slices.IndexFunc(sib, func(m node) bool { return m.id() == g.ID })
		for k, n := range t.children(g.ID) {
			t.placeNode(n, g.ParentID, i+1+k)
		}
		t.groups = slices.DeleteFunc(t.groups, func(x *folio.SiteSectionGroup) bool { return x.ID == g.ID })
		return nil
	})
	return existed, err
}

// AddSectionToGroup moves a section to the end of a group.
func (a *App) AddSectionToGroup(ctx context.Context, caller folio.Caller, orgID, siteID, groupID, sectionID folio.ID) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		g := t.group(groupID)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if sectionID == "" {
			return folio.FieldErrorf("sectionId", "sectionId is required")
		}
		s := t.section(sectionID)
		if s == nil {
			return folio.FieldErrorf("sectionId", "site section %s not found in the site", sectionID)
		}
		if s.GroupID != g.ID {
			t.placeNode(node{section: s}, g.ID, len(t.children(g.ID)))
		}
		t.normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// RemoveSectionFromGroup moves a section out of a group, right after the
// group in its parent. A section that is not in the group, or a group that
// does not exist, is not an error.
func (a *App) RemoveSectionFromGroup(ctx context.Context, caller folio.Caller, orgID, siteID, groupID, sectionID folio.ID) (removed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		g, s := t.group(groupID), t.section(sectionID)
		if g == nil || s == nil || s.GroupID != g.ID {
			return nil
		}
		removed = true
		sib := t.children(g.ParentID)
		i := slices.IndexFunc(sib, func(m node) bool { return m.id() == g.ID })
		t.placeNode(node{section: s}, g.ParentID, i+1)
		return nil
	})
	return removed, err
}

// MoveSiteSectionGroup moves a group (the deprecated moveSiteSectionGroup).
func (a *App) MoveSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, func(tx *store.Tx, t *siteTree) error {
		g := t.group(id)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if err := t.moveNode(node{group: g}, p); err != nil {
			return err
		}
		t.normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// GetAdaptiveSchema returns a site's adaptive schema, NotFound when none is
// set.
func (a *App) GetAdaptiveSchema(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (out *folio.AdaptiveSchema, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		out, err = store.GetAdaptiveSchema(ctx, tx, siteID)
		return err
	})
	return out, err
}

// SetAdaptiveSchema validates and stores a site's adaptive schema.
// Conditions already set stay as they are; the reader evaluates a
// condition that no longer fits the schema as false.
func (a *App) SetAdaptiveSchema(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, raw json.RawMessage) (out *folio.AdaptiveSchema, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", true); err != nil {
			return err
		}
		doc, err := ValidateAdaptiveSchema(raw)
		if err != nil {
			return err
		}
		out = &folio.AdaptiveSchema{SiteID: siteID, JSONSchema: doc, UpdatedAt: tx.Now}
		return store.SetAdaptiveSchema(ctx, tx, out)
	})
	return out, err
}

// ListTemplateConditions derives ready-made conditions from a site's
// adaptive schema; none when it has no schema.
func (a *App) ListTemplateConditions(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (out []folio.TemplateCondition, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		schema, err := adaptiveSchema(ctx, tx, siteID)
		out = TemplateConditions(schema)
		return err
	})
	return out, err
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
