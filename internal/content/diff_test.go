package content

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	base := tree(pg("a", pg("a1"), pg("a2")), pg("b"), pg("c"))
	base.Files = []File{{ID: "f1", Name: "x.png"}, {ID: "f2", Name: "y.png"}}
	edit := func(id string, fn func(p *Page)) *Tree {
		out, err := base.Edit(id, fn)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		name string
		b    *Tree
		want []Change
	}{
		{"same", base.Fork(), nil},
		{"added", edit("b", func(p *Page) { p.Pages = []*Page{pg("b1", pg("b11"))} }),
			[]Change{{Kind: Added, PageID: "b1", To: "b"}, {Kind: Added, PageID: "b11", To: "b1"}}},
		{"removed", edit("a", func(p *Page) { p.Pages = p.Pages[:1] }),
			[]Change{{Kind: Removed, PageID: "a2", From: "a"}}},
		{"metadata", edit("a1", func(p *Page) { p.Title = "New" }),
			[]Change{{Kind: Modified, PageID: "a1", Fields: FieldMetadata, From: "a", To: "a"}}},
		{"document", edit("c", func(p *Page) { p.Document = HashDocument(NewDocument("new")) }),
			[]Change{{Kind: Modified, PageID: "c", Fields: FieldDocument}}},
		{"moved", func() *Tree {
			b := edit("a", func(p *Page) { p.Pages = p.Pages[1:] })
			b, _ = b.Edit("c", func(p *Page) { p.Pages = []*Page{base.Pages[0].Pages[0]} })
			return b
		}(), []Change{{Kind: Moved, PageID: "a1", Fields: FieldPosition, From: "a", To: "c"}}},
		{"reorder", func() *Tree {
			b := base.Fork()
			b.Pages[0], b.Pages[2] = b.Pages[2], b.Pages[0]
			return b
		}(), []Change{{Kind: Modified, PageID: "c", Fields: FieldPosition}, {Kind: Modified, PageID: "b", Fields: FieldPosition}}},
		{"moved with child edited", func() *Tree {
			b := edit("a", func(p *Page) { p.Pages = nil })
			a2 := base.Pages[0].Pages[1].Clone()
			a2.Title = "New"
			moved := base.Pages[0].Clone()
			moved.Pages[1] = a2
			b, _ = b.Edit("b", func(p *Page) { p.Pages = []*Page{moved} })
			return removeTop(b, "a")
		}(), []Change{
			{Kind: Moved, PageID: "a", Fields: FieldPosition, To: "b"},
			{Kind: Modified, PageID: "a2", Fields: FieldMetadata, From: "a", To: "a"},
		}},
		{"files", func() *Tree {
			b := base.Fork()
			b.Files = []File{{ID: "f1", Name: "x2.png"}, {ID: "f3"}}
			return b
		}(), []Change{{Kind: Modified, FileID: "f1", Fields: FieldMetadata}, {Kind: Removed, FileID: "f2"}, {Kind: Added, FileID: "f3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, changePages(t, base, tt.b, Diff(base, tt.b))); diff != "" {
				t.Fatalf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

// bigTree builds fanout^levels leaf pages under fanout-ary inner pages.
func bigTree(fanout, levels int) (*Tree, int) {
	n := 0
	var level func(prefix string, depth int) []*Page
	level = func(prefix string, depth int) []*Page {
		if depth > levels {
			return nil
		}
		out := make([]*Page, fanout)
		for i := range out {
			id := fmt.Sprintf("%s-%d", prefix, i)
			n++
			out[i] = &Page{ID: id, Type: PageDocument, Title: id, Slug: id, Pages: level(id, depth+1)}
		}
		return out
	}
	return &Tree{Pages: level("p", 1)}, n
}

func TestDiffSkipsEqualSubtrees(t *testing.T) {
	a, n := bigTree(10, 4)
	if n < 10000 {
		t.Fatalf("tree has %d pages", n)
	}
	a.Hash()
	b, err := a.Edit("p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	if err != nil {
		t.Fatal(err)
	}
	changes, stats := DiffWithStats(a, b)
	changes = changePages(t, a, b, changes)
	want := []Change{{Kind: Modified, PageID: "p-3-4-5-6", Fields: FieldMetadata, From: "p-3-4-5", To: "p-3-4-5"}}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Fatalf("Diff (-want +got):\n%s", diff)
	}
	if p := changes0(DiffWithStats(a, b)).Page; p == nil || p.Title != "edited" {
		t.Fatalf("Change.Page = %+v, want the edited page", p)
	}
	if bound := 4 * 10; stats.Visited > bound {
		t.Fatalf("visited %d pages of %d, want at most depth×fanout = %d", stats.Visited, n, bound)
	}
}

// removeTop returns t without its top-level page id.
func removeTop(t *Tree, id string) *Tree {
	out := t.Fork()
	out.Pages = slices.DeleteFunc(out.Pages, func(p *Page) bool { return p.ID == id })
	return out
}

// changePages checks that every change carries the page as it is in b (nil
// for removed pages and files) and returns the changes without it, for cmp.
func changePages(t *testing.T, a, b *Tree, changes []Change) []Change {
	t.Helper()
	out := slices.Clone(changes)
	for i, c := range changes {
		out[i].Page = nil
		if c.PageID == "" || c.Kind == Removed {
			if c.Page != nil {
				t.Errorf("change %d (%s %s%s) has a page", i, c.Kind, c.PageID, c.FileID)
			}
			continue
		}
		n, err := Find(b, c.PageID)
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		if c.Page != n.Page {
			t.Errorf("change %d (%s %s): Page = %p, want the new tree's %p", i, c.Kind, c.PageID, c.Page, n.Page)
		}
		if old, err := Find(a, c.PageID); err == nil && old.Page == c.Page && c.Fields&(FieldMetadata|FieldDocument) != 0 {
			t.Errorf("change %d (%s %s): Page is the old version", i, c.Kind, c.PageID)
		}
	}
	return out
}

func changes0(changes []Change, _ DiffStats) Change { return changes[0] }
