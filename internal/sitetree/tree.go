// Package sitetree holds the structure of one site (its sections, section
// groups and site spaces) as a pure value: lookups in structure order,
// moves, and the invariants every change ends with (Normalize). The app
// loads a Tree from the store, changes it and writes back what Changes
// reports, in one transaction.
//
// Allowed imports: folio, internal/content (slugs) and the standard library.
package sitetree

import (
	"cmp"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// Tree is the whole structure of one site. Every operation ends with
// Normalize, which restores the invariants: one default site space per
// section, or at the root of a site without sections; no empty section;
// one default section while there are sections; positions 0..n-1 among
// siblings.
type Tree struct {
	Site     *folio.Site
	Sections []*folio.SiteSection
	Groups   []*folio.SiteSectionGroup
	Spaces   []*folio.SiteSpace

	DefaultSection folio.ID

	// the rows as given to New, to tell what changed (Changes).
	origSections map[folio.ID]folio.SiteSection
	origGroups   map[folio.ID]folio.SiteSectionGroup
	origSpaces   map[folio.ID]folio.SiteSpace
}

// New returns the tree of site made of the rows given, which it takes
// over (callers must not keep changing them).
func New(site *folio.Site, sections []folio.SiteSection, groups []folio.SiteSectionGroup, spaces []folio.SiteSpace) *Tree {
	t := &Tree{Site: site, DefaultSection: site.DefaultSiteSection,
		origSections: make(map[folio.ID]folio.SiteSection, len(sections)),
		origGroups:   make(map[folio.ID]folio.SiteSectionGroup, len(groups)),
		origSpaces:   make(map[folio.ID]folio.SiteSpace, len(spaces))}
	for i := range sections {
		t.Sections = append(t.Sections, &sections[i])
		t.origSections[sections[i].ID] = sections[i]
	}
	for i := range groups {
		t.Groups = append(t.Groups, &groups[i])
		t.origGroups[groups[i].ID] = groups[i]
	}
	for i := range spaces {
		t.Spaces = append(t.Spaces, &spaces[i])
		t.origSpaces[spaces[i].ID] = spaces[i]
	}
	return t
}

// Section returns the section id, nil when the site has none such.
func (t *Tree) Section(id folio.ID) *folio.SiteSection {
	for _, s := range t.Sections {
		if s.ID == id {
			return s
		}
	}
	return nil
}

func (t *Tree) Group(id folio.ID) *folio.SiteSectionGroup {
	for _, g := range t.Groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}

func (t *Tree) SiteSpace(id folio.ID) *folio.SiteSpace {
	for _, s := range t.Spaces {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// spacesIn returns the site spaces of a section (the root for ""), in order.
func (t *Tree) SpacesIn(section folio.ID) []*folio.SiteSpace {
	var out []*folio.SiteSpace
	for _, s := range t.Spaces {
		if s.SectionID == section {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b *folio.SiteSpace) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Node is one child of a group (or of the site's root): a section or a group.
type Node struct {
	Section *folio.SiteSection
	Group   *folio.SiteSectionGroup
}

func (n Node) Position() int64 {
	if n.Section != nil {
		return n.Section.Position
	}
	return n.Group.Position
}

func (n Node) ID() folio.ID {
	if n.Section != nil {
		return n.Section.ID
	}
	return n.Group.ID
}

func (n Node) Parent() folio.ID {
	if n.Section != nil {
		return n.Section.GroupID
	}
	return n.Group.ParentID
}

func (n Node) SetPlace(parent folio.ID, pos int64) {
	if n.Section != nil {
		n.Section.GroupID, n.Section.Position = parent, pos
	} else {
		n.Group.ParentID, n.Group.Position = parent, pos
	}
}

// children returns the sections and groups under a group ("" for the root),
// in order.
func (t *Tree) Children(parent folio.ID) []Node {
	var out []Node
	for _, s := range t.Sections {
		if s.GroupID == parent {
			out = append(out, Node{Section: s})
		}
	}
	for _, g := range t.Groups {
		if g.ParentID == parent {
			out = append(out, Node{Group: g})
		}
	}
	slices.SortStableFunc(out, func(a, b Node) int {
		return cmp.Or(cmp.Compare(a.Position(), b.Position()), cmp.Compare(a.ID(), b.ID()))
	})
	return out
}

// orderedSections lists the sections in the order a reader meets them:
// depth first through the groups.
func (t *Tree) OrderedSections() []*folio.SiteSection {
	var out []*folio.SiteSection
	var walk func(parent folio.ID)
	walk = func(parent folio.ID) {
		for _, n := range t.Children(parent) {
			if n.Section != nil {
				out = append(out, n.Section)
			} else {
				walk(n.Group.ID)
			}
		}
	}
	walk("")
	return out
}

// orderedSpaces lists every site space in structure order.
func (t *Tree) OrderedSpaces() []*folio.SiteSpace {
	if len(t.Sections) == 0 {
		return t.SpacesIn("")
	}
	var out []*folio.SiteSpace
	for _, s := range t.OrderedSections() {
		out = append(out, t.SpacesIn(s.ID)...)
	}
	return out
}

// placeNode puts n among the children of parent at index i (clamped), and
// renumbers those children.
func (t *Tree) PlaceNode(n Node, parent folio.ID, i int) {
	sib := slices.DeleteFunc(t.Children(parent), func(m Node) bool { return m.ID() == n.ID() })
	i = max(0, min(i, len(sib)))
	sib = slices.Insert(sib, i, n)
	for k, m := range sib {
		m.SetPlace(parent, int64(k))
	}
}

// placeSpace puts a site space in a section ("" for the root) at index i
// (clamped), and renumbers the site spaces there.
func (t *Tree) PlaceSpace(s *folio.SiteSpace, section folio.ID, i int) {
	if s.SectionID != section {
		s.Default = false
	}
	sib := slices.DeleteFunc(t.SpacesIn(section), func(m *folio.SiteSpace) bool { return m.ID == s.ID })
	i = max(0, min(i, len(sib)))
	sib = slices.Insert(sib, i, s)
	for k, m := range sib {
		m.SectionID, m.Position = section, int64(k)
	}
}

// removeSpace drops a site space from the tree.
func (t *Tree) RemoveSpace(id folio.ID) {
	t.Spaces = slices.DeleteFunc(t.Spaces, func(s *folio.SiteSpace) bool { return s.ID == id })
}

// removeSection drops a section and its site spaces from the tree.
func (t *Tree) RemoveSection(id folio.ID) {
	t.Sections = slices.DeleteFunc(t.Sections, func(s *folio.SiteSection) bool { return s.ID == id })
	t.Spaces = slices.DeleteFunc(t.Spaces, func(s *folio.SiteSpace) bool { return s.SectionID == id })
}

// normalize restores the invariants after a change (see siteTree).
func (t *Tree) Normalize() {
	// A section left without site spaces has nothing to show: it goes.
	for _, s := range slices.Clone(t.Sections) {
		if len(t.SpacesIn(s.ID)) == 0 {
			t.RemoveSection(s.ID)
		}
	}
	// Site spaces sit at the root only while the site has no sections.
	if len(t.Sections) > 0 && len(t.SpacesIn("")) > 0 {
		root := t.SpacesIn("")
		first := t.OrderedSections()[0]
		for _, s := range root {
			s.Path = UniquePath(t.SpacePaths(first.ID, s.ID), s.Path)
			t.PlaceSpace(s, first.ID, len(t.SpacesIn(first.ID)))
		}
	}
	places := []folio.ID{""}
	for _, s := range t.Sections {
		places = append(places, s.ID)
	}
	for _, p := range places {
		sib := t.SpacesIn(p)
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
		for k, n := range t.Children(parent) {
			n.SetPlace(parent, int64(k))
			if n.Group != nil {
				renumber(n.Group.ID)
			}
		}
	}
	renumber("")
	if t.Section(t.DefaultSection) == nil {
		t.DefaultSection = ""
		if ordered := t.OrderedSections(); len(ordered) > 0 {
			t.DefaultSection = ordered[0].ID
		}
	}
	for _, s := range t.Sections {
		s.Default = s.ID == t.DefaultSection
	}
}

// uniquePath returns want, or want with a number appended, so that it is
// not in taken.
func UniquePath(taken []string, want string) string {
	if want == "" {
		want = "space"
	}
	return content.UniqueSlug(taken, want)
}

// spacePaths lists the paths of the site spaces of a section, but one.
func (t *Tree) SpacePaths(section, except folio.ID) []string {
	var out []string
	for _, s := range t.SpacesIn(section) {
		if s.ID != except {
			out = append(out, s.Path)
		}
	}
	return out
}

// sectionPaths lists the paths of the site's sections, but one.
func (t *Tree) SectionPaths(except folio.ID) []string {
	var out []string
	for _, s := range t.Sections {
		if s.ID != except {
			out = append(out, s.Path)
		}
	}
	return out
}

// newSection adds a section holding one new site space for sp at the end of
// the site's root.
func (t *Tree) NewSection(now folio.SiteSection, sp *folio.Space) *folio.SiteSection {
	s := now
	s.ID, s.SiteID = folio.NewID(), t.Site.ID
	s.Path = UniquePath(t.SectionPaths(""), content.Slugify(s.Title))
	t.Sections = append(t.Sections, &s)
	t.PlaceNode(Node{Section: &s}, "", len(t.Children("")))
	ss := &folio.SiteSpace{ID: folio.NewID(), SiteID: t.Site.ID, SpaceID: sp.ID, SectionID: s.ID,
		Path: content.Slugify(sp.Title), Default: true, CreatedAt: s.CreatedAt, UpdatedAt: s.CreatedAt}
	t.Spaces = append(t.Spaces, ss)
	return &s
}

var ErrPosition = folio.FieldErrorf("position", "invalid position: it must name another item of the site's structure that the item can sit next to")

// moveNode moves a section or a group next to the section or group the
// position names, or to the end of the site's root without one.
func (t *Tree) MoveNode(n Node, p folio.StructurePosition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	target, before := p.Target()
	if target == nil {
		t.PlaceNode(n, "", len(t.Children("")))
		return nil
	}
	var ref Node
	switch target.Type {
	case folio.KindSiteSection:
		if s := t.Section(target.ID); s != nil {
			ref = Node{Section: s}
		}
	case folio.KindSiteSectionGroup:
		if g := t.Group(target.ID); g != nil {
			ref = Node{Group: g}
		}
	}
	if ref.Section == nil && ref.Group == nil || ref.ID() == n.ID() {
		return ErrPosition
	}
	parent := ref.Parent()
	if n.Group != nil {
		// A group cannot move inside itself.
		for p := parent; p != ""; p = t.Group(p).ParentID {
			if p == n.Group.ID {
				return ErrPosition
			}
		}
	}
	sib := slices.DeleteFunc(t.Children(parent), func(m Node) bool { return m.ID() == n.ID() })
	i := slices.IndexFunc(sib, func(m Node) bool { return m.ID() == ref.ID() })
	if !before {
		i++
	}
	t.PlaceNode(n, parent, i)
	return nil
}

// moveSpace moves a site space next to the site space the position names
// (which may be in another section), or to the end of its section.
func (t *Tree) MoveSpace(ss *folio.SiteSpace, p folio.StructurePosition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	target, before := p.Target()
	if target == nil {
		t.PlaceSpace(ss, ss.SectionID, len(t.SpacesIn(ss.SectionID)))
		return nil
	}
	ref := t.SiteSpace(target.ID)
	if target.Type != folio.KindSiteSpace || ref == nil || ref.ID == ss.ID {
		return ErrPosition
	}
	if ref.SectionID != ss.SectionID {
		if len(t.SpacesIn(ss.SectionID)) == 1 {
			return folio.FieldErrorf("position", "invalid position: the site space is the last of its section; delete the section instead")
		}
		if slices.Contains(t.SpacePaths(ref.SectionID, ""), ss.Path) {
			return folio.Errorf(folio.Conflict, "a site space of the target section already has the path %q", ss.Path)
		}
	}
	sib := slices.DeleteFunc(t.SpacesIn(ref.SectionID), func(m *folio.SiteSpace) bool { return m.ID == ss.ID })
	i := slices.IndexFunc(sib, func(m *folio.SiteSpace) bool { return m.ID == ref.ID })
	if !before {
		i++
	}
	t.PlaceSpace(ss, ref.SectionID, i)
	return nil
}

// Changes are the rows to write for a Tree to be stored as it now is, in
// an order that keeps the store's constraints: groups before sections (a
// section may name a new group), parents before children; deletions of
// sections and groups after the updates (a group's children must have
// left it before its row goes).
type Changes struct {
	CreateGroups, UpdateGroups     []*folio.SiteSectionGroup
	CreateSections, UpdateSections []*folio.SiteSection
	DeleteSections, DeleteGroups   []folio.ID
	// DeleteSpaces go first. MoveSpaces change path or section: they are
	// parked under a temporary path before UpdateSpaces, which lists
	// them too, so that swapping paths between siblings never trips the
	// uniqueness of paths. CreateSpaces go last.
	DeleteSpaces               []folio.ID
	MoveSpaces                 []*folio.SiteSpace
	UpdateSpaces, CreateSpaces []*folio.SiteSpace
	// DefaultSection is set when the site's default section changed.
	DefaultSection *folio.ID
}

// Changes normalizes the tree and reports what changed since New.
func (t *Tree) Changes() Changes {
	t.Normalize()
	var c Changes
	keepSpace := make(map[folio.ID]bool, len(t.Spaces))
	for _, s := range t.Spaces {
		keepSpace[s.ID] = true
	}
	for id := range t.origSpaces {
		if !keepSpace[id] {
			c.DeleteSpaces = append(c.DeleteSpaces, id)
		}
	}
	for _, g := range t.Groups {
		if o, ok := t.origGroups[g.ID]; !ok {
			c.CreateGroups = append(c.CreateGroups, g)
		} else if o != *g {
			c.UpdateGroups = append(c.UpdateGroups, g)
		}
	}
	keepSection := make(map[folio.ID]bool, len(t.Sections))
	for _, s := range t.Sections {
		keepSection[s.ID] = true
		if o, ok := t.origSections[s.ID]; !ok {
			c.CreateSections = append(c.CreateSections, s)
		} else if o != *s {
			c.UpdateSections = append(c.UpdateSections, s)
		}
	}
	for id := range t.origSections {
		if !keepSection[id] {
			c.DeleteSections = append(c.DeleteSections, id)
		}
	}
	keepGroup := make(map[folio.ID]bool, len(t.Groups))
	for _, g := range t.Groups {
		keepGroup[g.ID] = true
	}
	for id := range t.origGroups {
		if !keepGroup[id] {
			c.DeleteGroups = append(c.DeleteGroups, id)
		}
	}
	for _, s := range t.Spaces {
		o, ok := t.origSpaces[s.ID]
		switch {
		case !ok:
			c.CreateSpaces = append(c.CreateSpaces, s)
		case o != *s:
			if o.Path != s.Path || o.SectionID != s.SectionID {
				c.MoveSpaces = append(c.MoveSpaces, s)
			}
			c.UpdateSpaces = append(c.UpdateSpaces, s)
		}
	}
	// Map order must not decide the order of writes.
	for _, ids := range [][]folio.ID{c.DeleteSpaces, c.DeleteSections, c.DeleteGroups} {
		slices.Sort(ids)
	}
	if t.DefaultSection != t.Site.DefaultSiteSection {
		d := t.DefaultSection
		c.DefaultSection = &d
	}
	return c
}

// Saved records that the changes were written: the tree as it is becomes
// the base of the next Changes.
func (t *Tree) Saved() {
	clear(t.origSections)
	clear(t.origGroups)
	clear(t.origSpaces)
	for _, s := range t.Sections {
		t.origSections[s.ID] = *s
	}
	for _, g := range t.Groups {
		t.origGroups[g.ID] = *g
	}
	for _, s := range t.Spaces {
		t.origSpaces[s.ID] = *s
	}
	t.Site.DefaultSiteSection = t.DefaultSection
}
