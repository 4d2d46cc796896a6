package app

import (
	"container/list"
	"sync"

	"github.com/foliodocs/folio/internal/content"
)

// Revision trees and documents are immutable and addressed by hash, so every
// server process may cache them without coordination: a cached value can
// never be stale, only evicted.

// revTree is a decoded revision tree with the lookups the reads need. Its
// pages are shared with other trees and must never be changed.
type revTree struct {
	tree  *content.Tree
	nodes map[string]content.PageNode // every page by id
	paths map[string]string           // document and group page paths by id
	files map[string]int              // index of each file in tree.Files by id
}

func newRevTree(t *content.Tree) *revTree {
	rt := &revTree{tree: t, nodes: map[string]content.PageNode{}, paths: content.Paths(t),
		files: make(map[string]int, len(t.Files))}
	content.Walk(t, func(n content.PageNode) bool { rt.nodes[n.Page.ID] = n; return true })
	for i, f := range t.Files {
		rt.files[f.ID] = i
	}
	return rt
}

// weight is the cost of keeping the tree in the cache, in pages and files.
func (rt *revTree) weight() int { return len(rt.nodes) + len(rt.tree.Files) + 1 }

// lru is a size-bounded least-recently-used cache.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	used  int
	order *list.List
	items map[K]*list.Element
	size  func(V) int
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](max int, size func(V) int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}, size: size}
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

func (c *lru[K, V]) put(k K, v V) {
	n := c.size(v)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(lruEntry[K, V]{k, v})
	c.used += n
	for c.used > c.max {
		last := c.order.Back()
		ent := last.Value.(lruEntry[K, V])
		c.order.Remove(last)
		delete(c.items, ent.key)
		c.used -= c.size(ent.val)
	}
}
