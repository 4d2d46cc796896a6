package content

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// checkNodeMap fails unless m holds exactly want.
func checkNodeMap(t *testing.T, what string, m NodeMap, want map[string]PageNode, ids []string) {
	t.Helper()
	if m.Len() != len(want) {
		t.Fatalf("%s: Len() = %d, want %d", what, m.Len(), len(want))
	}
	for _, id := range ids {
		got, ok := m.Node(id)
		w, wok := want[id]
		if ok != wok || got != w {
			t.Fatalf("%s: Node(%q) = %v, %v; want %v, %v", what, id, got, ok, w, wok)
		}
	}
}

// TestNodeMapVersions edits a map in random batches against a plain map and
// checks that every older version still answers as it did when made, with
// the real hash and with hashes that collide in every bit.
func TestNodeMapVersions(t *testing.T) {
	hashes := map[string]func(string) uint64{
		"maphash": hamtHash,
		"low bits": func(id string) uint64 { // equal for ids of one length
			return uint64(len(id))
		},
		"constant": func(string) uint64 { return 42 },
	}
	for name, hash := range hashes {
		t.Run(name, func(t *testing.T) {
			saved := hamtHash
			hamtHash = hash
			t.Cleanup(func() { hamtHash = saved })

			r := rand.New(rand.NewPCG(1, 2))
			var ids []string
			for i := range 400 {
				ids = append(ids, fmt.Sprintf("page-%d", i))
			}
			ids = append(ids, "absent", "")
			type version struct {
				m    NodeMap
				want map[string]PageNode
			}
			var versions []version
			m, want := NodeMap{}, map[string]PageNode{}
			for batch := range 60 {
				b := m.Edit()
				for range r.IntN(40) {
					id := ids[r.IntN(len(ids)-2)]
					if r.IntN(3) == 0 {
						b.Delete(id)
						delete(want, id)
						continue
					}
					n := PageNode{Page: &Page{ID: id}, Parent: "p", Index: batch, Depth: r.IntN(5)}
					b.Set(n)
					want[id] = n
					if got, ok := b.Node(id); !ok || got != n {
						t.Fatalf("builder: Node(%q) = %v, %v right after Set", id, got, ok)
					}
				}
				// A map handed out in the middle of a batch must not see the
				// rest of it.
				mid := b.Map()
				midWant := clone(want)
				id := ids[r.IntN(len(ids)-2)]
				b.Delete(id)
				delete(want, id)
				m = b.Map()
				versions = append(versions, version{mid, midWant}, version{m, clone(want)})
				for i, v := range versions {
					checkNodeMap(t, fmt.Sprintf("batch %d, version %d", batch, i), v.m, v.want, ids)
				}
			}
		})
	}
}

func clone(m map[string]PageNode) map[string]PageNode {
	c := make(map[string]PageNode, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestNewNodeMap checks the index of a tree against NodesByID.
func TestNewNodeMap(t *testing.T) {
	tree := &Tree{}
	for i := range 30 {
		p := &Page{ID: fmt.Sprintf("g%d", i), Type: PageGroup, Title: "G"}
		for j := range 20 {
			p.Pages = append(p.Pages, &Page{ID: fmt.Sprintf("g%d-%d", i, j), Type: PageDocument, Title: "D"})
		}
		tree.Pages = append(tree.Pages, p)
	}
	want := NodesByID(tree)
	m := NewNodeMap(tree)
	ids := []string{"nope"}
	for id := range want {
		ids = append(ids, id)
	}
	checkNodeMap(t, "NewNodeMap", m, want, ids)
	if (NodeMap{}).Len() != 0 {
		t.Fatal("zero NodeMap is not empty")
	}
	if _, ok := (NodeMap{}).Node("g1"); ok {
		t.Fatal("zero NodeMap finds a page")
	}
}

func BenchmarkNodeMap(b *testing.B) {
	tree := &Tree{}
	for i := range 100 {
		p := &Page{ID: fmt.Sprintf("group-%d", i), Type: PageGroup}
		for j := range 100 {
			p.Pages = append(p.Pages, &Page{ID: fmt.Sprintf("page-%d-%d", i, j), Type: PageDocument})
		}
		tree.Pages = append(tree.Pages, p)
	}
	m := NewNodeMap(tree)
	b.Run("node", func(b *testing.B) {
		for i := range b.N {
			if _, ok := m.Node(fmt.Sprintf("page-%d-%d", i%100, i/100%100)); !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("edit-two", func(b *testing.B) {
		for i := range b.N {
			e := m.Edit()
			n, _ := m.Node("group-7")
			e.Set(n)
			n, _ = m.Node("page-7-7")
			e.Set(n)
			m = e.Map()
			_ = i
		}
	})
	b.Run("build-10100", func(b *testing.B) {
		for range b.N {
			NewNodeMap(tree)
		}
	})
	b.Run("build-10100-gomap", func(b *testing.B) {
		for range b.N {
			NodesByID(tree)
		}
	})
}
