package content

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shape renders a tree as parent>id:title lines for comparison.
func shape(tr *Tree) []string {
	var out []string
	for _, n := range Nodes(tr) {
		out = append(out, n.Parent+">"+n.Page.ID+":"+n.Page.Title)
	}
	return out
}

func fields(cs []Conflict) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.PageID+c.FileID+"/"+c.Field)
	}
	return out
}

func TestMerge(t *testing.T) {
	base := tree(pg("a", pg("a1"), pg("a2")), pg("b"), pg("c"))
	ed := func(tr *Tree, id string, fn func(p *Page)) *Tree {
		t.Helper()
		out, err := tr.Edit(id, fn)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	title := func(s string) func(p *Page) { return func(p *Page) { p.Title = s } }
	docA, docB, docM := HashDocument(NewDocument("A")), HashDocument(NewDocument("B")), HashDocument(NewDocument("M"))
	tests := []struct {
		name      string
		ours      *Tree
		theirs    *Tree
		mergeDoc  func(b, o, t Hash) (Hash, bool)
		want      []string
		conflicts []string
		check     func(t *testing.T, out *Tree)
	}{
		{name: "added on theirs after preceding sibling",
			ours:   ed(base, "a", func(p *Page) { p.Pages = append([]*Page{pg("o1")}, p.Pages...) }),
			theirs: ed(base, "a", func(p *Page) { p.Pages = []*Page{p.Pages[0], pg("t1"), p.Pages[1]} }),
			want:   []string{">a:Title a", "a>o1:Title o1", "a>a1:Title a1", "a>t1:Title t1", "a>a2:Title a2", ">b:Title b", ">c:Title c"}},
		{name: "removed on one side, unchanged on other",
			ours:   base.Fork(),
			theirs: func() *Tree { f := base.Fork(); f.Pages = f.Pages[:2]; return f }(),
			want:   []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">b:Title b"}},
		{name: "removed on ours, modified on theirs",
			ours:      func() *Tree { f := base.Fork(); f.Pages = f.Pages[:2]; return f }(),
			theirs:    ed(base, "c", title("C!")),
			want:      []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">b:Title b", ">c:C!"},
			conflicts: []string{"c/removed"}},
		{name: "fields merge one by one",
			ours:   ed(base, "b", title("B!")),
			theirs: ed(base, "b", func(p *Page) { p.Hidden = true }),
			check: func(t *testing.T, out *Tree) {
				n, _ := Find(out, "b")
				if n.Page.Title != "B!" || !n.Page.Hidden {
					t.Fatalf("b = %+v", n.Page)
				}
			}},
		{name: "same change on both sides",
			ours: ed(base, "b", title("B!")), theirs: ed(base, "b", title("B!")),
			want: []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">b:B!", ">c:Title c"}},
		{name: "field conflict, ours wins",
			ours: ed(base, "b", title("Ours")), theirs: ed(base, "b", title("Theirs")),
			want:      []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">b:Ours", ">c:Title c"},
			conflicts: []string{"b/title"}},
		{name: "document on one side",
			ours:   base.Fork(),
			theirs: ed(base, "b", func(p *Page) { p.Document = docB }),
			check: func(t *testing.T, out *Tree) {
				if n, _ := Find(out, "b"); n.Page.Document != docB {
					t.Fatal("theirs' document not taken")
				}
			}},
		{name: "documents merged by mergeDoc",
			ours:     ed(base, "b", func(p *Page) { p.Document = docA }),
			theirs:   ed(base, "b", func(p *Page) { p.Document = docB }),
			mergeDoc: func(b, o, t Hash) (Hash, bool) { return docM, o == docA && t == docB },
			check: func(t *testing.T, out *Tree) {
				if n, _ := Find(out, "b"); n.Page.Document != docM {
					t.Fatal("merged document not used")
				}
			}},
		{name: "documents conflict without mergeDoc",
			ours:      ed(base, "b", func(p *Page) { p.Document = docA }),
			theirs:    ed(base, "b", func(p *Page) { p.Document = docB }),
			conflicts: []string{"b/document"},
			check: func(t *testing.T, out *Tree) {
				if n, _ := Find(out, "b"); n.Page.Document != docA {
					t.Fatal("ours' document not kept")
				}
			}},
		{name: "move on theirs",
			ours: ed(base, "b", title("B!")),
			theirs: func() *Tree {
				f := ed(base, "c", func(p *Page) { p.Pages = []*Page{base.Pages[1]} })
				f.Pages = []*Page{f.Pages[0], f.Pages[2]}
				return f
			}(),
			want: []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">c:Title c", "c>b:B!"}},
		{name: "conflicting moves, ours wins",
			ours: func() *Tree {
				f := ed(base, "a", func(p *Page) { p.Pages = append(p.Pages, base.Pages[2]) })
				f.Pages = f.Pages[:2]
				return f
			}(),
			theirs: func() *Tree {
				f := ed(base, "b", func(p *Page) { p.Pages = []*Page{base.Pages[2]} })
				f.Pages = f.Pages[:2]
				return f
			}(),
			want:      []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", "a>c:Title c", ">b:Title b"},
			conflicts: []string{"c/parent"}},
		{name: "reorder on theirs only",
			ours: ed(base, "c", title("C!")),
			theirs: func() *Tree {
				f := base.Fork()
				f.Pages[0], f.Pages[2] = f.Pages[2], f.Pages[0]
				return f
			}(),
			want: []string{">c:C!", ">b:Title b", ">a:Title a", "a>a1:Title a1", "a>a2:Title a2"}},
		{name: "slug clash renamed",
			ours: ed(base, "b", func(p *Page) { p.Pages = []*Page{pg("x")} }),
			theirs: ed(base, "b", func(p *Page) {
				q := pg("y")
				q.Slug = "x"
				p.Pages = []*Page{q}
			}),
			want:      []string{">a:Title a", "a>a1:Title a1", "a>a2:Title a2", ">b:Title b", "b>y:Title y", "b>x:Title x", ">c:Title c"},
			conflicts: []string{"x/slug"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, conflicts := Merge(base, tt.ours, tt.theirs, tt.mergeDoc)
			if err := out.Validate(); err != nil {
				t.Fatalf("result invalid: %v", err)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, shape(out)); diff != "" {
					t.Errorf("tree (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tt.conflicts, fields(conflicts)); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}
