package content

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

// Helpers that edit a tree the way the app does: through Fork and Edit, so
// the result shares every untouched page with its input.

// editList returns t with the children of parentID ("" is the top level)
// replaced by fn's result; fn gets a copy it may change.
func editList(tb testing.TB, t *Tree, parentID string, fn func([]*Page) []*Page) *Tree {
	tb.Helper()
	if parentID == "" {
		out := t.Fork()
		out.Pages = fn(out.Pages)
		return out
	}
	out, err := t.Edit(parentID, func(p *Page) { p.Pages = fn(p.Pages) })
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func insertAt(tb testing.TB, t *Tree, parentID string, idx int, ps ...*Page) *Tree {
	tb.Helper()
	return editList(tb, t, parentID, func(l []*Page) []*Page {
		return slices.Insert(l, min(max(idx, 0), len(l)), ps...)
	})
}

func removePage(tb testing.TB, t *Tree, id string) *Tree {
	tb.Helper()
	n, err := Find(t, id)
	if err != nil {
		tb.Fatal(err)
	}
	// With repeated ids the parent Edit finds may be another page.
	return editList(tb, t, n.Parent, func(l []*Page) []*Page {
		if i := slices.IndexFunc(l, func(p *Page) bool { return p != nil && p.ID == id }); i >= 0 {
			return slices.Delete(l, i, i+1)
		}
		return l
	})
}

// movePage moves the page (the same pointer) under parentID at idx, counted
// after its removal.
func movePage(tb testing.TB, t *Tree, id, parentID string, idx int) *Tree {
	tb.Helper()
	n, err := Find(t, id)
	if err != nil {
		tb.Fatal(err)
	}
	return insertAt(tb, removePage(tb, t, id), parentID, idx, n.Page)
}

func setPage(tb testing.TB, t *Tree, id string, fn func(p *Page)) *Tree {
	tb.Helper()
	out, err := t.Edit(id, fn)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func linkPage(id string) *Page {
	return &Page{ID: id, Type: PageLink, Title: "L", Target: json.RawMessage(`{"kind":"url","url":"https://x"}`)}
}

// sameVerdict fails unless ValidateEdit agrees with Validate on t.
func sameVerdict(tb testing.TB, base, t *Tree, idx MapIndex) error {
	tb.Helper()
	want := t.Validate()
	got := t.ValidateEdit(base, idx)
	if (want == nil) != (got == nil) {
		tb.Fatalf("ValidateEdit = %v, Validate = %v", got, want)
	}
	if want != nil {
		w, ok1 := want.(*folio.Error)
		g, ok2 := got.(*folio.Error)
		if !ok1 || !ok2 || *w != *g {
			tb.Fatalf("ValidateEdit = %#v,\nValidate = %#v", got, want)
		}
	}
	return want
}

// editBase is a valid tree with groups, links, cousins sharing a slug ("x")
// and a chain d, d1…d14 reaching depth MaxPageDepth-1.
func editBase() *Tree {
	b1 := pg("b1")
	b1.Slug = "x"
	a1 := pg("a1")
	a1.Slug = "x"
	g := &Page{ID: "g", Type: PageGroup, Title: "G", Slug: "g", Pages: []*Page{
		pg("a", a1, pg("a2", pg("a21"))),
		pg("b", b1),
	}}
	chain := pg("d14")
	for i := 13; i >= 1; i-- {
		chain = pg(fmt.Sprint("d", i), chain)
	}
	base := tree(g, pg("c", pg("c1"), linkPage("l")), pg("d", chain))
	base.Hash()
	return base
}

func TestValidateEdit(t *testing.T) {
	base := editBase()
	if err := base.Validate(); err != nil {
		t.Fatal(err)
	}
	idx := NodesByID(base)
	ptr := func(id string) *Page { return idx[id].Page }
	title := func(s string) func(p *Page) { return func(p *Page) { p.Title = s } }
	const a21 = "pages[0].pages[0].pages[1].pages[0]"
	tests := []struct {
		name  string
		build func(tb testing.TB) *Tree
		field string // "" means valid
	}{
		{"fork", func(tb testing.TB) *Tree { return base.Fork() }, ""},
		{"retitle deep", func(tb testing.TB) *Tree { return setPage(tb, base, "a21", title("new")) }, ""},
		{"retitle empty", func(tb testing.TB) *Tree { return setPage(tb, base, "a21", title("")) }, a21 + ".title"},
		{"title too long", func(tb testing.TB) *Tree {
			return setPage(tb, base, "d14", title(strings.Repeat("é", MaxTitleLength+1)))
		}, "pages[2]" + strings.Repeat(".pages[0]", 14) + ".title"},
		{"emoji too long", func(tb testing.TB) *Tree {
			return setPage(tb, base, "c1", func(p *Page) { p.Emoji = strings.Repeat("x", MaxEmojiLength+1) })
		}, "pages[1].pages[0]"},
		{"slug of a later shared sibling", func(tb testing.TB) *Tree {
			return setPage(tb, base, "a", func(p *Page) { p.Slug = "b" })
		}, "pages[0].pages[1].slug"},
		{"slug of an earlier shared sibling", func(tb testing.TB) *Tree {
			return setPage(tb, base, "b", func(p *Page) { p.Slug = "a" })
		}, "pages[0].pages[1].slug"},
		{"slug empty", func(tb testing.TB) *Tree { return setPage(tb, base, "b1", func(p *Page) { p.Slug = "" }) },
			"pages[0].pages[1].pages[0].slug"},
		{"slug with slash", func(tb testing.TB) *Tree { return setPage(tb, base, "c", func(p *Page) { p.Slug = "c/d" }) },
			"pages[1].slug"},
		{"new page", func(tb testing.TB) *Tree { return insertAt(tb, base, "a2", 0, pg("new")) }, ""},
		{"new page, id used earlier", func(tb testing.TB) *Tree { return insertAt(tb, base, "c", 9, pg("a1")) },
			"pages[1].pages[2].id"},
		{"new page, id used later in a shared subtree", func(tb testing.TB) *Tree {
			return insertAt(tb, base, "", 0, pg("c1"))
		}, "pages[2].pages[0].id"},
		{"new page, id used deep in a later shared subtree", func(tb testing.TB) *Tree {
			return insertAt(tb, base, "", 0, pg("a21"))
		}, "pages[1].pages[0].pages[1].pages[0].id"},
		{"new pages, ids used in a later shared subtree: first in pre-order", func(tb testing.TB) *Tree {
			return insertAt(tb, base, "", 0, pg("b1"), pg("a21"), pg("a1"))
		}, "pages[3].pages[0].pages[0].id"},
		{"id changed to one used earlier", func(tb testing.TB) *Tree {
			return setPage(tb, base, "b1", func(p *Page) { p.ID = "a1" })
		}, "pages[0].pages[1].pages[0].id"},
		{"id empty", func(tb testing.TB) *Tree {
			return insertAt(tb, base, "c", 0, &Page{Type: PageDocument, Title: "t", Slug: "s"})
		}, "pages[1].pages[0].id"},
		{"shared subtree listed twice", func(tb testing.TB) *Tree { return insertAt(tb, base, "", 9, ptr("g")) },
			"pages[3].id"},
		{"shared subtree copied at its depth", func(tb testing.TB) *Tree { return insertAt(tb, base, "b", 9, ptr("a2")) },
			"pages[0].pages[1].pages[1].id"},
		{"shared subtree copied before its shared ancestor", func(tb testing.TB) *Tree {
			return insertAt(tb, base, "", 0, pg("n", pg("m", ptr("a2"))))
		}, "pages[1].pages[0].pages[1].id"},
		{"shared ancestor of an edited page copied", func(tb testing.TB) *Tree {
			return insertAt(tb, setPage(tb, base, "a21", title("new")), "c", 9, ptr("a"))
		}, "pages[1].pages[2].id"},
		{"shared ancestor of an edited page copied before it", func(tb testing.TB) *Tree {
			tr := setPage(tb, base, "a21", title("new"))
			tr = movePage(tb, tr, "c", "", 0)
			return insertAt(tb, tr, "c", 0, ptr("a"))
		}, "pages[1].pages[0].id"},
		{"moved at the same depth", func(tb testing.TB) *Tree { return movePage(tb, base, "a2", "b", 0) }, ""},
		{"moved at the same depth, slug clash", func(tb testing.TB) *Tree { return movePage(tb, base, "b1", "a", 9) },
			"pages[0].pages[0].pages[2].slug"},
		{"moved deeper within the limit", func(tb testing.TB) *Tree { return movePage(tb, base, "a2", "d13", 9) }, ""},
		{"moved deeper past the limit", func(tb testing.TB) *Tree { return movePage(tb, base, "a2", "d14", 0) },
			"pages[2]" + strings.Repeat(".pages[0]", 16)},
		{"moved up", func(tb testing.TB) *Tree { return movePage(tb, base, "a", "", 9) }, ""},
		{"group moved under a page", func(tb testing.TB) *Tree { return movePage(tb, base, "g", "c", 0) },
			"pages[0].pages[0].type"},
		{"shared group copied under a page", func(tb testing.TB) *Tree { return insertAt(tb, base, "c", 0, ptr("g")) },
			"pages[1].pages[0].id"},
		{"group with a document", func(tb testing.TB) *Tree {
			return setPage(tb, base, "g", func(p *Page) { p.Document = HashDocument(NewDocument("x")) })
		}, "pages[0].document"},
		{"unknown type", func(tb testing.TB) *Tree { return setPage(tb, base, "a1", func(p *Page) { p.Type = "sheet" }) },
			"pages[0].pages[0].pages[0].type"},
		{"link without target", func(tb testing.TB) *Tree { return setPage(tb, base, "l", func(p *Page) { p.Target = nil }) },
			"pages[1].pages[1].target"},
		{"link with children", func(tb testing.TB) *Tree { return insertAt(tb, base, "l", 0, pg("k")) },
			"pages[1].pages[1].pages"},
		{"nil page", func(tb testing.TB) *Tree { return insertAt(tb, base, "c", 1, nil) }, "pages[1].pages[1]"},
		{"deleted", func(tb testing.TB) *Tree { return removePage(tb, base, "a2") }, ""},
		{"deleted top", func(tb testing.TB) *Tree { return removePage(tb, base, "g") }, ""},
		{"deleted then re-added elsewhere as new", func(tb testing.TB) *Tree {
			return insertAt(tb, removePage(tb, base, "a"), "", 0, pg("a"))
		}, ""},
		{"shared pages reordered", func(tb testing.TB) *Tree {
			tr := base.Fork()
			tr.Pages[0], tr.Pages[2] = tr.Pages[2], tr.Pages[0]
			return tr
		}, ""},
		{"two errors: the first in pre-order", func(tb testing.TB) *Tree {
			return insertAt(tb, setPage(tb, base, "a21", title("")), "", 0, pg("c1"))
		}, "pages[1]" + a21[len("pages[0]"):] + ".title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := baseJSON(t, base)
			tr := tt.build(t)
			err := sameVerdict(t, base, tr, idx)
			field := ""
			if err != nil {
				field = err.(*folio.Error).Field
			}
			if field != tt.field {
				t.Fatalf("Validate() = %v, want an error on %q", err, tt.field)
			}
			if baseJSON(t, base) != before {
				t.Fatal("the edit changed base")
			}
		})
	}
	t.Run("nil base falls back to Validate", func(t *testing.T) {
		tr := setPage(t, base, "a21", title(""))
		if err := tr.ValidateEdit(nil, idx); err == nil || err.Error() != tr.Validate().Error() {
			t.Fatalf("ValidateEdit(nil) = %v", err)
		}
		if err := tr.ValidateEdit(base, nil); err == nil || err.Error() != tr.Validate().Error() {
			t.Fatalf("ValidateEdit(nil index) = %v", err)
		}
	})
}

// TestValidateEditSkipsSharedSubtrees breaks a base page in place, which a
// real base never has: Validate sees it, ValidateEdit must not look.
func TestValidateEditSkipsSharedSubtrees(t *testing.T) {
	base, _ := bigTree(10, 4)
	base.Hash()
	idx := NodesByID(base)
	tr := setPage(t, base, "p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	idx["p-7-1-2-3"].Page.Title = "" // inside a shared subtree
	if tr.Validate() == nil {
		t.Fatal("Validate missed the broken page")
	}
	if err := tr.ValidateEdit(base, idx); err != nil {
		t.Fatalf("ValidateEdit walked a shared subtree: %v", err)
	}
	// At another depth the subtree is walked.
	moved := insertAt(t, tr, "p-3-4", 0, idx["p-7-1-2"].Page)
	if err := moved.ValidateEdit(base, idx); err == nil {
		t.Fatal("ValidateEdit skipped a subtree moved to another depth")
	}
}

func TestValidateEditPageLimit(t *testing.T) {
	// MaxPages-1 pages: 99 top pages with 499 children and one with 498.
	var top []*Page
	n := 0
	for i := 0; n < MaxPages-1; i++ {
		p := &Page{ID: fmt.Sprint("t", i), Type: PageDocument, Title: "t", Slug: fmt.Sprint("t", i)}
		n++
		for j := 0; j < 499 && n < MaxPages-1; j++ {
			p.Pages = append(p.Pages, &Page{ID: fmt.Sprint("t", i, "-", j), Type: PageDocument, Title: "c", Slug: fmt.Sprint("c", j)})
			n++
		}
		top = append(top, p)
	}
	base := tree(top...)
	base.Hash()
	if err := base.Validate(); err != nil {
		t.Fatal(err)
	}
	idx := NodesByID(base)
	if len(idx) != MaxPages-1 {
		t.Fatalf("base has %d pages", len(idx))
	}
	tests := []struct {
		name  string
		build func() *Tree
		valid bool
	}{
		{"retitle", func() *Tree { return setPage(t, base, "t5-7", func(p *Page) { p.Title = "x" }) }, true},
		{"one more page", func() *Tree { return insertAt(t, base, "t5", 0, pg("new")) }, true},
		{"two more pages", func() *Tree { return insertAt(t, base, "t5", 0, pg("new"), pg("new2")) }, false},
		{"two more, two fewer", func() *Tree {
			tr := insertAt(t, base, "t5", 0, pg("new"), pg("new2"))
			return removePage(t, removePage(t, tr, "t9-1"), "t9-2")
		}, true},
		{"two more pages and a title error after them", func() *Tree {
			tr := insertAt(t, base, "", 0, pg("new"), pg("new2"))
			return setPage(t, tr, "t90-1", func(p *Page) { p.Title = "" })
		}, false},
		{"one more page and a title error", func() *Tree {
			tr := insertAt(t, base, "", 0, pg("new"))
			return setPage(t, tr, "t90-1", func(p *Page) { p.Title = "" })
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sameVerdict(t, base, tt.build(), idx)
			if (err == nil) != tt.valid {
				t.Fatalf("Validate() = %v, want valid %v", err, tt.valid)
			}
		})
	}
}

// randomTree returns a valid tree of about n pages with groups, links,
// slugs repeated among cousins and chains up to MaxPageDepth.
func randomTree(r *rand.Rand, n int) *Tree {
	type node struct {
		p     *Page
		depth int
	}
	var nodes []node
	out := &Tree{}
	words := []string{"a", "b", "c", "d", "e"}
	chains := 3 + 7*r.IntN(2) // in 10: how often a page goes under the last one
	for i := range n {
		id := fmt.Sprint("p", i)
		parent := -1
		if len(nodes) > 0 && r.IntN(5) > 0 {
			parent = r.IntN(len(nodes))
			if r.IntN(10) < chains { // long chains, up to MaxPageDepth
				parent = len(nodes) - 1
			}
			if nodes[parent].p.Type == PageLink || nodes[parent].depth >= MaxPageDepth {
				parent = -1
			}
		}
		list, depth := &out.Pages, 1
		if parent >= 0 {
			list, depth = &nodes[parent].p.Pages, nodes[parent].depth+1
		}
		p := &Page{ID: id, Type: PageDocument, Title: "T " + id, Document: HashDocument(NewDocument(id))}
		switch k := r.IntN(10); {
		case k == 0 && depth == 1:
			p.Type, p.Document = PageGroup, Hash{}
		case k == 1:
			p = linkPage(id)
		}
		if p.Type != PageLink {
			p.Slug = words[r.IntN(len(words))]
			for _, s := range *list {
				if s.Slug == p.Slug {
					p.Slug = id
				}
			}
		}
		*list = append(*list, p)
		nodes = append(nodes, node{p, depth})
	}
	out.Hash()
	return out
}

// randomEdit applies one random edit to tr through Fork and Edit. Pages come
// from tr or, to be listed twice, from base. last allows a nil page.
func randomEdit(tb testing.TB, r *rand.Rand, base, tr *Tree, seq *int, last bool) *Tree {
	tb.Helper()
	nodes := Nodes(tr)
	baseNodes := Nodes(base)
	if len(nodes) == 0 {
		return insertAt(tb, tr, "", 0, pg("fresh"))
	}
	pick := func() PageNode { return nodes[r.IntN(len(nodes))] }
	// A parent: "" (the top level) or a page id, and an index in its list.
	parent := func() (string, int) {
		if r.IntN(4) == 0 {
			return "", r.IntN(len(tr.Pages) + 1)
		}
		n := pick()
		if r.IntN(3) == 0 { // the deepest page: depth errors
			for _, m := range nodes {
				if m.Depth > n.Depth {
					n = m
				}
			}
		}
		return n.Page.ID, r.IntN(len(n.Page.Pages) + 1)
	}
	fresh := func() *Page {
		*seq++
		id := fmt.Sprint("n", *seq)
		if r.IntN(4) == 0 { // an id in use
			id = baseNodes[r.IntN(len(baseNodes))].Page.ID
		}
		p := pg(id)
		p.Slug = []string{"a", "b", "c", id}[r.IntN(4)]
		if r.IntN(5) == 0 {
			p.Slug = ""
		}
		if r.IntN(4) == 0 {
			p.Pages = []*Page{pg(fmt.Sprint("n", *seq, "-kid"))}
		}
		return p
	}
	n := pick()
	switch r.IntN(16) {
	case 14, 15: // under the deepest page: depth errors
		moved := tr
		if r.IntN(2) == 0 {
			moved = removePage(tb, tr, n.Page.ID)
		}
		var deepest PageNode
		for _, m := range Nodes(moved) {
			if m.Depth > deepest.Depth && m.Page.Type != PageLink {
				deepest = m
			}
		}
		if deepest.Page == nil {
			return tr
		}
		return insertAt(tb, moved, deepest.Page.ID, 0, n.Page)
	case 0:
		return setPage(tb, tr, n.Page.ID, func(p *Page) {
			p.Title = []string{"new", "", strings.Repeat("x", MaxTitleLength+1)}[r.IntN(3)]
		})
	case 1:
		return setPage(tb, tr, n.Page.ID, func(p *Page) {
			switch r.IntN(4) {
			case 0:
				p.Slug = ""
			case 1:
				p.Slug = "a/b"
			default:
				p.Slug = []string{"a", "b", "c", "d", "e"}[r.IntN(5)]
			}
		})
	case 2, 3:
		id, i := parent()
		return insertAt(tb, tr, id, i, fresh())
	case 4, 5: // list a base page (and its subtree) once more
		id, i := parent()
		return insertAt(tb, tr, id, i, baseNodes[r.IntN(len(baseNodes))].Page)
	case 6, 7:
		moved := removePage(tb, tr, n.Page.ID)
		if len(moved.Pages) == 0 {
			return moved
		}
		rest := Nodes(moved)
		if r.IntN(4) == 0 {
			return insertAt(tb, moved, "", r.IntN(len(moved.Pages)+1), n.Page)
		}
		to := rest[r.IntN(len(rest))]
		return insertAt(tb, moved, to.Page.ID, r.IntN(len(to.Page.Pages)+1), n.Page)
	case 8:
		return removePage(tb, tr, n.Page.ID)
	case 9:
		return setPage(tb, tr, n.Page.ID, func(p *Page) {
			switch r.IntN(4) {
			case 0:
				p.Type, p.Document = PageGroup, Hash{}
			case 1:
				p.Type, p.Document = PageGroup, HashDocument(NewDocument("g"))
			case 2:
				p.Type, p.Target = PageLink, json.RawMessage(`{"kind":"url","url":"https://x"}`)
				if r.IntN(2) == 0 {
					p.Document = Hash{}
				}
			default:
				p.Type = "sheet"
			}
		})
	case 10: // wrap a page in a new one: its subtree moves one level down
		*seq++
		w := pg(fmt.Sprint("w", *seq), n.Page)
		w.Slug = n.Page.Slug
		if n.Page.Type == PageLink {
			w.Slug = w.ID
		}
		return editList(tb, tr, n.Parent, func(l []*Page) []*Page {
			if i := slices.IndexFunc(l, func(p *Page) bool { return p != nil && p.ID == n.Page.ID }); i >= 0 {
				l[i] = w
			}
			return l
		})
	case 11:
		return setPage(tb, tr, n.Page.ID, func(p *Page) {
			switch r.IntN(3) {
			case 0:
				p.ID = ""
			case 1:
				p.ID = baseNodes[r.IntN(len(baseNodes))].Page.ID
			default:
				p.Emoji = strings.Repeat("x", MaxEmojiLength+1)
			}
		})
	case 12:
		if last && r.IntN(3) == 0 {
			id, i := parent()
			return insertAt(tb, tr, id, i, nil)
		}
		return setPage(tb, tr, n.Page.ID, func(p *Page) { p.Description = strings.Repeat("x", MaxDescriptionLength+r.IntN(2)) })
	default: // a top-level group of base under some page
		for _, p := range base.Pages {
			if p.Type == PageGroup {
				id, i := parent()
				return insertAt(tb, tr, id, i, p)
			}
		}
		return tr
	}
}

// aliased reports whether a page that is not base's is listed twice:
// FillSlugs would handle it once per place, changing it in both.
func aliased(pages []*Page, frozen []bool) bool {
	seen := map[*Page]bool{}
	for i, p := range pages {
		if !frozen[i] && seen[p] {
			return true
		}
		seen[p] = true
	}
	return false
}

func hasNil(t *Tree) bool {
	var walk func([]*Page) bool
	walk = func(l []*Page) bool {
		for _, p := range l {
			if p == nil || walk(p.Pages) {
				return true
			}
		}
		return false
	}
	return walk(t.Pages)
}

func baseJSON(tb testing.TB, t *Tree) string {
	tb.Helper()
	b, err := json.Marshal(t)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// preorder lists the pages of t in pre-order (nil ones too).
func preorder(t *Tree) []*Page {
	var out []*Page
	var walk func([]*Page)
	walk = func(l []*Page) {
		for _, p := range l {
			out = append(out, p)
			if p != nil {
				walk(p.Pages)
			}
		}
	}
	walk(t.Pages)
	return out
}

func TestValidateEditRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	valid, invalid, same := 0, 0, 0
	kinds := map[string]int{}
	for iter := range 4000 {
		base := randomTree(r, 3+r.IntN(60))
		if err := base.Validate(); err != nil {
			t.Fatalf("random base: %v", err)
		}
		idx := NodesByID(base)
		before := baseJSON(t, base)
		baseHash := base.Hash()
		tr, seq := base, 0
		steps := 1 + r.IntN(4)
		for s := range steps {
			tr = randomEdit(t, r, base, tr, &seq, s == steps-1)
		}
		err := sameVerdict(t, base, tr, idx)
		if err == nil {
			valid++
		} else {
			invalid++
			msg := err.(*folio.Error).Message
			kinds[strings.Fields(msg)[0]+" "+strings.Fields(msg)[1]]++
		}

		// FillSlugsEdit: never changes base, agrees with FillSlugs unless
		// FillSlugs would have renamed a base page in place.
		var fixed *Tree
		var frozenBefore []bool
		var pagesBefore []*Page
		if !hasNil(tr) {
			fixed = new(Tree)
			if err := json.Unmarshal([]byte(baseJSON(t, tr)), fixed); err != nil {
				t.Fatal(err)
			}
			fixed.FillSlugs()
			pagesBefore = preorder(tr)
			for _, p := range pagesBefore {
				frozenBefore = append(frozenBefore, idx[p.ID].Page == p)
			}
		}
		slugsBefore := make([]string, len(pagesBefore))
		for i, p := range pagesBefore {
			slugsBefore[i] = p.Slug
		}
		tr.FillSlugsEdit(base, idx)
		if baseJSON(t, base) != before || base.Hash() != baseHash {
			t.Fatalf("iteration %d: FillSlugsEdit changed base", iter)
		}
		if err := sameVerdict(t, base, tr, idx); err != nil && strings.Contains(err.Error(), "slug") &&
			!strings.Contains(err.Error(), "slash") && fixed != nil {
			t.Fatalf("iteration %d: slug error after FillSlugsEdit: %v", iter, err)
		}
		if fixed == nil {
			continue
		}
		if (tr.Validate() == nil) != (fixed.Validate() == nil) {
			t.Fatalf("iteration %d: after FillSlugsEdit Validate = %v, after FillSlugs %v", iter, tr.Validate(), fixed.Validate())
		}
		want, got := preorder(fixed), preorder(tr)
		renamedBase := false
		for i, p := range want {
			if frozenBefore[i] && p.Slug != slugsBefore[i] {
				renamedBase = true
			}
		}
		if renamedBase || aliased(pagesBefore, frozenBefore) {
			continue
		}
		same++
		for i := range want {
			if want[i].Slug != got[i].Slug {
				t.Fatalf("iteration %d: page %d (%s) slug %q after FillSlugsEdit, %q after FillSlugs",
					iter, i, got[i].ID, got[i].Slug, want[i].Slug)
			}
		}
	}
	t.Logf("valid %d, invalid %d, FillSlugs compared %d; errors %v", valid, invalid, same, kinds)
	if valid < 400 || invalid < 400 {
		t.Fatalf("poor coverage: %d valid, %d invalid", valid, invalid)
	}
}

func TestFillSlugsEdit(t *testing.T) {
	base := editBase()
	idx := NodesByID(base)
	before, beforeHash := baseJSON(t, base), base.Hash()
	check := func(t *testing.T, tr *Tree) {
		t.Helper()
		if baseJSON(t, base) != before || base.Hash() != beforeHash {
			t.Fatal("FillSlugsEdit changed base")
		}
		if err := sameVerdict(t, base, tr, idx); err != nil {
			t.Fatalf("after FillSlugsEdit: %v", err)
		}
	}
	slugOf := func(tr *Tree, id string) string {
		n, err := Find(tr, id)
		if err != nil {
			t.Fatal(err)
		}
		return n.Page.Slug
	}
	t.Run("new page without slug next to shared siblings", func(t *testing.T) {
		tr := insertAt(t, base, "a", 0, &Page{ID: "n", Type: PageDocument, Title: "A2"})
		tr.FillSlugsEdit(base, idx)
		check(t, tr)
		if got := slugOf(tr, "n"); got != "a2-2" {
			t.Fatalf("new slug = %q, want a2-2", got)
		}
	})
	t.Run("new page holding a later shared sibling's slug is renamed", func(t *testing.T) {
		n := pg("n")
		n.Slug = "c"
		tr := insertAt(t, base, "", 0, n)
		tr.FillSlugsEdit(base, idx)
		check(t, tr)
		if slugOf(tr, "n") != "c-2" || tr.Pages[2] != idx["c"].Page {
			t.Fatalf("slugs: n %q, c %q (shared %v)", slugOf(tr, "n"), slugOf(tr, "c"), tr.Pages[2] == idx["c"].Page)
		}
	})
	t.Run("renamed page clashing with a shared sibling", func(t *testing.T) {
		tr := setPage(t, base, "b", func(p *Page) { p.Slug = "a" })
		tr.FillSlugsEdit(base, idx)
		check(t, tr)
		if slugOf(tr, "b") != "a-2" || slugOf(tr, "a") != "a" {
			t.Fatalf("slugs: a %q, b %q", slugOf(tr, "a"), slugOf(tr, "b"))
		}
	})
	t.Run("shared page moved next to a shared namesake", func(t *testing.T) {
		tr := movePage(t, base, "b1", "a", 9) // both slugs are "x"
		list := tr.Pages[0].Pages[0].Pages
		tr.FillSlugsEdit(base, idx)
		check(t, tr)
		moved := tr.Pages[0].Pages[0].Pages[2]
		if moved == idx["b1"].Page || moved.Slug != "x-2" || idx["b1"].Page.Slug != "x" {
			t.Fatalf("moved page %p slug %q, base page %p slug %q", moved, moved.Slug, idx["b1"].Page, idx["b1"].Page.Slug)
		}
		if list[2] != idx["b1"].Page {
			t.Fatal("the list was changed in place, not copied")
		}
		if tr.Pages[0].Pages[0].Pages[0] != idx["a1"].Page {
			t.Fatal("the earlier shared page was replaced")
		}
	})
	t.Run("new subtree", func(t *testing.T) {
		kid := &Page{ID: "k", Type: PageDocument, Title: "Kid"}
		kid2 := &Page{ID: "k2", Type: PageDocument, Title: "Kid"}
		tr := insertAt(t, base, "a21", 0, &Page{ID: "n", Type: PageDocument, Title: "New", Pages: []*Page{kid, kid2}})
		tr.FillSlugsEdit(base, idx)
		check(t, tr)
		if kid.Slug != "kid" || kid2.Slug != "kid-2" || slugOf(tr, "n") != "new" {
			t.Fatalf("slugs: n %q, k %q, k2 %q", slugOf(tr, "n"), kid.Slug, kid2.Slug)
		}
	})
	t.Run("nil base falls back to FillSlugs", func(t *testing.T) {
		tr := tree(&Page{ID: "a", Type: PageDocument, Title: "A"}, &Page{ID: "b", Type: PageDocument, Title: "A"})
		tr.FillSlugsEdit(nil, nil)
		if tr.Pages[0].Slug != "a" || tr.Pages[1].Slug != "a-2" {
			t.Fatalf("slugs %q %q", tr.Pages[0].Slug, tr.Pages[1].Slug)
		}
	})
}

func BenchmarkValidate10000(b *testing.B) {
	base, _ := bigTree(10, 4)
	tr, _ := base.Edit("p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateEdit10000(b *testing.B) {
	base, _ := bigTree(10, 4)
	base.Hash()
	idx := NodesByID(base)
	tr, _ := base.Edit("p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.ValidateEdit(base, idx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFillSlugs10000(b *testing.B) {
	base, _ := bigTree(10, 4)
	tr, _ := base.Edit("p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	b.ReportAllocs()
	for b.Loop() {
		tr.FillSlugs()
	}
}

func BenchmarkFillSlugsEdit10000(b *testing.B) {
	base, _ := bigTree(10, 4)
	base.Hash()
	idx := NodesByID(base)
	tr, _ := base.Edit("p-3-4-5-6", func(p *Page) { p.Title = "edited" })
	b.ReportAllocs()
	for b.Loop() {
		tr.FillSlugsEdit(base, idx)
	}
}
