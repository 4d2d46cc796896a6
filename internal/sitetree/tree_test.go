package sitetree

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/foliodocs/folio"
)

// checkTree fails unless the tree holds every invariant Normalize promises.
func checkTree(t *testing.T, tr *Tree, step string) {
	t.Helper()
	places := []folio.ID{""}
	if len(tr.Sections) > 0 {
		if n := len(tr.SpacesIn("")); n > 0 {
			t.Fatalf("%s: %d site spaces at the root of a site with sections", step, n)
		}
		places = places[1:]
		defaults := 0
		for _, s := range tr.Sections {
			places = append(places, s.ID)
			if s.Default {
				defaults++
				if s.ID != tr.DefaultSection {
					t.Fatalf("%s: section %s is default but the site names %s", step, s.ID, tr.DefaultSection)
				}
			}
		}
		if defaults != 1 {
			t.Fatalf("%s: %d default sections", step, defaults)
		}
	} else if tr.DefaultSection != "" {
		t.Fatalf("%s: default section %s without sections", step, tr.DefaultSection)
	}
	for _, p := range places {
		sib := tr.SpacesIn(p)
		if p != "" && len(sib) == 0 {
			t.Fatalf("%s: section %s is empty", step, p)
		}
		defaults, paths := 0, map[string]bool{}
		for i, s := range sib {
			if s.Position != int64(i) {
				t.Fatalf("%s: site space %s at position %d, index %d", step, s.ID, s.Position, i)
			}
			if s.Default {
				defaults++
			}
			if paths[s.Path] {
				t.Fatalf("%s: path %q twice in %q", step, s.Path, p)
			}
			paths[s.Path] = true
		}
		if len(sib) > 0 && defaults != 1 {
			t.Fatalf("%s: %d default site spaces in %q", step, defaults, p)
		}
	}
	var walk func(parent folio.ID)
	walk = func(parent folio.ID) {
		for i, n := range tr.Children(parent) {
			if n.Position() != int64(i) {
				t.Fatalf("%s: %s at position %d, index %d", step, n.ID(), n.Position(), i)
			}
			if n.Group != nil {
				walk(n.Group.ID)
			}
		}
	}
	walk("")
}

// TestSiteTreeInvariants applies random adds, deletes and moves to a
// structure and checks every invariant after each one.
func TestSiteTreeInvariants(t *testing.T) {
	t.Parallel()
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 12))
		tr := New(&folio.Site{ID: "site"}, nil, nil, nil)
		pickSpace := func() *folio.SiteSpace {
			if len(tr.Spaces) == 0 {
				return nil
			}
			return tr.Spaces[rng.IntN(len(tr.Spaces))]
		}
		for step := range 120 {
			name := fmt.Sprintf("seed %d step %d", seed, step)
			sp := &folio.Space{ID: folio.NewID(), Title: fmt.Sprint("Space ", rng.IntN(5))}
			switch op := rng.IntN(8); op {
			case 0, 1: // add a site space to the default section or the root
				section := tr.DefaultSection
				ss := &folio.SiteSpace{ID: folio.NewID(), SpaceID: sp.ID, Path: UniquePath(tr.SpacePaths(section, ""), "space")}
				tr.Spaces = append(tr.Spaces, ss)
				tr.PlaceSpace(ss, section, len(tr.SpacesIn(section)))
			case 2: // add a section
				tr.NewSection(folio.SiteSection{Title: sp.Title}, sp)
				// the root's spaces are gathered by normalize
			case 3: // delete a site space
				if ss := pickSpace(); ss != nil {
					tr.RemoveSpace(ss.ID)
				}
			case 4: // delete a section
				if len(tr.Sections) > 0 {
					tr.RemoveSection(tr.Sections[rng.IntN(len(tr.Sections))].ID)
				}
			case 5: // move a site space next to another
				a, b := pickSpace(), pickSpace()
				if a != nil && b != nil {
					pos := folio.StructurePosition{After: &folio.StructurePointer{Type: folio.KindSiteSpace, ID: b.ID}}
					_ = tr.MoveSpace(a, pos) // refusals are fine; the tree must stay valid
				}
			case 6: // add a group holding a section, or move a section next to a group
				g := &folio.SiteSectionGroup{ID: folio.NewID(), SiteID: "site", Title: "G"}
				tr.Groups = append(tr.Groups, g)
				tr.PlaceNode(Node{Group: g}, "", len(tr.Children("")))
				if len(tr.Sections) > 0 {
					s := tr.Sections[rng.IntN(len(tr.Sections))]
					tr.PlaceNode(Node{Section: s}, g.ID, 0)
				}
			case 7: // move a group or section next to a section
				if len(tr.Sections) > 1 && len(tr.Groups) > 0 {
					g := tr.Groups[rng.IntN(len(tr.Groups))]
					s := tr.Sections[rng.IntN(len(tr.Sections))]
					_ = tr.MoveNode(Node{Group: g}, folio.StructurePosition{Before: &folio.StructurePointer{Type: folio.KindSiteSection, ID: s.ID}})
				}
			}
			tr.Normalize()
			checkTree(t, tr, name)
		}
	}
}

// TestChanges: Changes lists what to write since New (or the last Saved),
// new and moved rows apart from updated ones, and nothing after Saved.
func TestChanges(t *testing.T) {
	t.Parallel()
	site := &folio.Site{ID: "site", DefaultSiteSection: "s1"}
	tr := New(site,
		[]folio.SiteSection{{ID: "s1", SiteID: "site", Path: "one", Default: true}, {ID: "s2", SiteID: "site", Path: "two", Position: 1}},
		nil,
		[]folio.SiteSpace{{ID: "a", SectionID: "s1", Path: "a", Default: true}, {ID: "b", SectionID: "s1", Path: "b", Position: 1},
			{ID: "c", SectionID: "s2", Path: "c", Default: true}})
	if c := tr.Changes(); !c.empty() {
		t.Fatalf("a normal tree as loaded has changes: %+v", c)
	}
	// b goes next to c: a moved row, parked then updated.
	if err := tr.MoveSpace(tr.SiteSpace("b"), folio.StructurePosition{After: &folio.StructurePointer{Type: folio.KindSiteSpace, ID: "c"}}); err != nil {
		t.Fatal(err)
	}
	c := tr.Changes()
	if len(c.MoveSpaces) != 1 || c.MoveSpaces[0].ID != "b" || len(c.UpdateSpaces) != 1 || c.UpdateSpaces[0].SectionID != "s2" {
		t.Fatalf("after a move: %+v", c)
	}
	tr.Saved()
	// Removing s1 takes its site space a with it; s2 becomes the default.
	tr.RemoveSection("s1")
	c = tr.Changes()
	if len(c.DeleteSections) != 1 || c.DeleteSections[0] != "s1" || len(c.DeleteSpaces) != 1 || c.DeleteSpaces[0] != "a" ||
		c.DefaultSection == nil || *c.DefaultSection != "s2" || len(c.UpdateSections) != 1 {
		t.Fatalf("after removing a section: %+v", c)
	}
	tr.Saved()
	if c := tr.Changes(); !c.empty() || site.DefaultSiteSection != "s2" {
		t.Fatalf("after Saved: %+v, default %q", c, site.DefaultSiteSection)
	}
}

func (c Changes) empty() bool {
	return len(c.CreateGroups)+len(c.UpdateGroups)+len(c.CreateSections)+len(c.UpdateSections)+len(c.DeleteSections)+
		len(c.DeleteGroups)+len(c.DeleteSpaces)+len(c.MoveSpaces)+len(c.UpdateSpaces)+len(c.CreateSpaces) == 0 && c.DefaultSection == nil
}
