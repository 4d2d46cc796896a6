package content

import (
	"fmt"
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
		{"files", func() *Tree {
			b := base.Fork()
			b.Files = []File{{ID: "f1", Name: "x2.png"}, {ID: "f3"}}
			return b
		}(), []Change{{Kind: Modified, FileID: "f1", Fields: FieldMetadata}, {Kind: Removed, FileID: "f2"}, {Kind: Added, FileID: "f3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Diff(base, tt.b)); diff != "" {
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
	want := []Change{{Kind: Modified, PageID: "p-3-4-5-6", Fields: FieldMetadata, From: "p-3-4-5", To: "p-3-4-5"}}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Fatalf("Diff (-want +got):\n%s", diff)
	}
	if bound := 4 * 10; stats.Visited > bound {
		t.Fatalf("visited %d pages of %d, want at most depth×fanout = %d", stats.Visited, n, bound)
	}
}
