package app

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/foliodocs/folio"
)

// checkTree fails unless the tree holds every invariant normalize promises.
func checkTree(t *testing.T, tr *siteTree, step string) {
	t.Helper()
	places := []folio.ID{""}
	if len(tr.sections) > 0 {
		if n := len(tr.spacesIn("")); n > 0 {
			t.Fatalf("%s: %d site spaces at the root of a site with sections", step, n)
		}
		places = places[1:]
		defaults := 0
		for _, s := range tr.sections {
			places = append(places, s.ID)
			if s.Default {
				defaults++
				if s.ID != tr.defaultSection {
					t.Fatalf("%s: section %s is default but the site names %s", step, s.ID, tr.defaultSection)
				}
			}
		}
		if defaults != 1 {
			t.Fatalf("%s: %d default sections", step, defaults)
		}
	} else if tr.defaultSection != "" {
		t.Fatalf("%s: default section %s without sections", step, tr.defaultSection)
	}
	for _, p := range places {
		sib := tr.spacesIn(p)
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
		for i, n := range tr.children(parent) {
			if n.position() != int64(i) {
				t.Fatalf("%s: %s at position %d, index %d", step, n.id(), n.position(), i)
			}
			if n.group != nil {
				walk(n.group.ID)
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
		tr := &siteTree{site: &folio.Site{ID: "site"}, origSections: map[folio.ID]folio.SiteSection{},
			origGroups: map[folio.ID]folio.SiteSectionGroup{}, origSpaces: map[folio.ID]folio.SiteSpace{}}
		pickSpace := func() *folio.SiteSpace {
			if len(tr.spaces) == 0 {
				return nil
			}
			return tr.spaces[rng.IntN(len(tr.spaces))]
		}
		for step := range 120 {
			name := fmt.Sprintf("seed %d step %d", seed, step)
			sp := &folio.Space{ID: folio.NewID(), Title: fmt.Sprint("Space ", rng.IntN(5))}
			switch op := rng.IntN(8); op {
			case 0, 1: // add a site space to the default section or the root
				section := tr.defaultSection
				ss := &folio.SiteSpace{ID: folio.NewID(), SpaceID: sp.ID, Path: uniquePath(tr.spacePaths(section, ""), "space")}
				tr.spaces = append(tr.spaces, ss)
				tr.placeSpace(ss, section, len(tr.spacesIn(section)))
			case 2: // add a section
				tr.newSection(folio.SiteSection{Title: sp.Title}, sp)
				// the root's spaces are gathered by normalize
			case 3: // delete a site space
				if ss := pickSpace(); ss != nil {
					tr.removeSpace(ss.ID)
				}
			case 4: // delete a section
				if len(tr.sections) > 0 {
					tr.removeSection(tr.sections[rng.IntN(len(tr.sections))].ID)
				}
			case 5: // move a site space next to another
				a, b := pickSpace(), pickSpace()
				if a != nil && b != nil {
					pos := folio.StructurePosition{After: &folio.StructurePointer{Type: folio.KindSiteSpace, ID: b.ID}}
					_ = tr.moveSpace(a, pos) // refusals are fine; the tree must stay valid
				}
			case 6: // add a group holding a section, or move a section next to a group
				g := &folio.SiteSectionGroup{ID: folio.NewID(), SiteID: "site", Title: "G"}
				tr.groups = append(tr.groups, g)
				tr.placeNode(node{group: g}, "", len(tr.children("")))
				if len(tr.sections) > 0 {
					s := tr.sections[rng.IntN(len(tr.sections))]
					tr.placeNode(node{section: s}, g.ID, 0)
				}
			case 7: // move a group or section next to a section
				if len(tr.sections) > 1 && len(tr.groups) > 0 {
					g := tr.groups[rng.IntN(len(tr.groups))]
					s := tr.sections[rng.IntN(len(tr.sections))]
					_ = tr.moveNode(node{group: g}, folio.StructurePosition{Before: &folio.StructurePointer{Type: folio.KindSiteSection, ID: s.ID}})
				}
			}
			tr.normalize()
			checkTree(t, tr, name)
		}
	}
}
