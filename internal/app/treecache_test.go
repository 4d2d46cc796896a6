package app

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// testTree builds fanout^levels pages with ids and slugs from their place.
func testTree(fanout, levels int) *content.Tree {
	var level func(prefix string, depth int) []*content.Page
	level = func(prefix string, depth int) []*content.Page {
		if depth > levels {
			return nil
		}
		out := make([]*content.Page, fanout)
		for i := range out {
			id := fmt.Sprintf("%s-%d", prefix, i)
			out[i] = &content.Page{ID: id, Type: content.PageDocument, Title: id, Slug: id, Pages: level(id, depth+1)}
		}
		return out
	}
	return &content.Tree{Pages: level("p", 1)}
}

type nodeView struct {
	Parent       string
	Index, Depth int
	Same         bool
}

// check compares a derived index with one built from scratch.
func checkDerived(t *testing.T, name string, got *revTree, removedIDs []string) {
	t.Helper()
	want := content.NodesByID(got.tree)
	view := func(lookup func(id string) (content.PageNode, bool)) map[string]nodeView {
		out := map[string]nodeView{}
		for id := range want {
			if n, ok := lookup(id); ok {
				out[id] = nodeView{Parent: n.Parent, Index: n.Index, Depth: n.Depth, Same: n.Page == want[id].Page}
			}
		}
		return out
	}
	if d := cmp.Diff(view(want.Node), view(got.index().nodes.Node)); d != "" {
		t.Fatalf("%s: nodes (-want +got):\n%s", name, d)
	}
	if got.nodes.Len() != len(want) {
		t.Fatalf("%s: %d pages, want %d", name, got.nodes.Len(), len(want))
	}
	// Pages removed by the edit are gone from the lookup.
	for _, id := range removedIDs {
		if _, ok := want[id]; !ok {
			if _, ok := got.nodes.Node(id); ok {
				t.Fatalf("%s: removed page %s is still found", name, id)
			}
		}
	}
}

// detach removes the page id from t (a copy of the path) and returns it.
func detach(t *testing.T, tr *content.Tree, id string) (*content.Tree, *content.Page) {
	t.Helper()
	n, err := content.Find(tr, id)
	if err != nil {
		t.Fatal(err)
	}
	if n.Parent == "" {
		out := tr.Fork()
		out.Pages = slices.Delete(out.Pages, n.Index, n.Index+1)
		return out, n.Page
	}
	out, err := tr.Edit(n.Parent, func(p *content.Page) { p.Pages = slices.Delete(p.Pages, n.Index, n.Index+1) })
	if err != nil {
		t.Fatal(err)
	}
	return out, n.Page
}

func TestDerivedIndexMatchesAFullOne(t *testing.T) {
	base := newRevTree(testTree(5, 3), -1)
	edits := map[string]func(t *testing.T, tr *content.Tree) *content.Tree{
		"retitle deep": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, _ := tr.Edit("p-1-2-3", func(p *content.Page) { p.Title = "x" })
			return out
		},
		"rename a parent's slug": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, _ := tr.Edit("p-2", func(p *content.Page) { p.Slug = "renamed" })
			return out
		},
		"move a subtree deeper": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, moved := detach(t, tr, "p-3")
			out, _ = out.Edit("p-0-0", func(p *content.Page) { p.Pages = append(p.Pages, moved) })
			return out
		},
		"move a subtree to a cousin at the same depth": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, moved := detach(t, tr, "p-3-1")
			out, _ = out.Edit("p-0", func(p *content.Page) { p.Pages = append(p.Pages, moved) })
			return out
		},
		"remove a subtree": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, _ := detach(t, tr, "p-4-1")
			return out
		},
		"insert first": func(t *testing.T, tr *content.Tree) *content.Tree {
			out, _ := tr.Edit("p-1", func(p *content.Page) {
				p.Pages = append([]*content.Page{{ID: "new", Type: content.PageDocument, Title: "New", Slug: "new",
					Pages: []*content.Page{{ID: "new-child", Type: content.PageDocument, Title: "C", Slug: "c"}}}}, p.Pages...)
			})
			return out
		},
		"append at the top": func(t *testing.T, tr *content.Tree) *content.Tree {
			out := tr.Fork()
			out.Pages = append(out.Pages, &content.Page{ID: "top", Type: content.PageDocument, Title: "Top", Slug: "top"})
			return out
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			next := edit(t, base.tree)
			rt := newRevTree(next, -1)
			rt.derive(base, content.Diff(base.tree, next))
			checkDerived(t, name, rt, allIDs(base))
		})
	}
	// Chains of random edits, each derived from the one before.
	r := rand.New(rand.NewPCG(1, 2))
	cur := base
	for i := range 200 {
		ids := allIDs(cur)
		if len(ids) < 20 {
			break
		}
		id := ids[r.IntN(len(ids))]
		var next *content.Tree
		switch r.IntN(4) {
		case 0:
			next, _ = cur.tree.Edit(id, func(p *content.Page) { p.Slug = fmt.Sprintf("s%d", i) })
		case 1:
			var moved *content.Page
			next, moved = detach(t, cur.tree, id)
			to := ids[r.IntN(len(ids))]
			if _, err := content.Find(next, to); err != nil || to == id {
				next.Pages = append(next.Pages, moved)
				break
			}
			next, _ = next.Edit(to, func(p *content.Page) { p.Pages = append(p.Pages, moved) })
		case 2:
			next, _ = detach(t, cur.tree, id)
		default:
			next, _ = cur.tree.Edit(id, func(p *content.Page) {
				p.Pages = append(p.Pages, &content.Page{ID: fmt.Sprintf("n%d", i), Type: content.PageDocument, Title: "N", Slug: "n"})
			})
		}
		rt := newRevTree(next, -1)
		rt.derive(cur, content.Diff(cur.tree, next))
		checkDerived(t, fmt.Sprintf("random edit %d", i), rt, ids)
		cur = rt
	}
}

// allIDs returns the sorted page ids of a tree.
func allIDs(rt *revTree) []string {
	var ids []string
	content.Walk(rt.tree, func(n content.PageNode) bool { ids = append(ids, n.Page.ID); return true })
	slices.Sort(ids)
	return ids
}

// TestDerivedFileLookups: a commit that keeps the files reuses the base's
// file lookups; one that changes them gets its own, which find every file.
func TestDerivedFileLookups(t *testing.T) {
	tree := testTree(2, 2)
	tree.Files = []content.File{{ID: "f-b", Name: "b.png"}, {ID: "f-a", Name: "a.png"}}
	base := newRevTree(tree, -1).index()

	retitled, _ := base.tree.Edit("p-1", func(p *content.Page) { p.Title = "x" })
	retitled = retitled.Fork() // as commits do (ownPages): a copy of the file list
	kept := newRevTree(retitled, -1)
	kept.derive(base, content.Diff(base.tree, retitled))
	if reflect.ValueOf(kept.files).Pointer() != reflect.ValueOf(base.files).Pointer() {
		t.Fatal("a commit that keeps the files rebuilt their lookups")
	}

	added := retitled.Fork()
	added.Files = append(added.Files, content.File{ID: "f-0", Name: "0.png"})
	grown := newRevTree(added, -1)
	grown.derive(kept, content.Diff(kept.tree, added))
	if len(grown.files) != 3 || grown.files["f-0"] != 2 || grown.files["f-a"] != 1 {
		t.Fatalf("file index %v", grown.files)
	}
	var ids []string
	for _, f := range grown.byID {
		ids = append(ids, f.ID)
	}
	if d := cmp.Diff([]string{"f-0", "f-a", "f-b"}, ids); d != "" {
		t.Fatalf("files by id (-want +got):\n%s", d)
	}
	if len(base.files) != 2 {
		t.Fatalf("the base's file index changed: %v", base.files)
	}
}
