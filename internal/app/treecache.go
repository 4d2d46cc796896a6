package app

import (
	"container/list"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/foliodocs/folio/internal/content"
)

// Revision trees and documents are immutable and addressed by hash, so every
// server process may cache them without coordination: a cached value can
// never be stale, only evicted.

// revTree is a decoded revision tree with the lookups the reads need,
// built on first use: a commit creates the tree of its new revision without
// paying for them. Its pages are shared with other trees and must never be
// changed.
type revTree struct {
	tree  *content.Tree
	pages int // number of pages, for the cache's accounting

	once  sync.Once
	nodes map[string]content.PageNode // every page by id
	paths map[string]string           // document and group page paths by id
	files map[string]int              // index of each file in tree.Files by id
	byID  []content.File              // the files ordered by id, for lists
}

// indexFiles builds the file lookups.
func (rt *revTree) indexFiles() {
	rt.files = make(map[string]int, len(rt.tree.Files))
	for i, f := range rt.tree.Files {
		rt.files[f.ID] = i
	}
	rt.byID = slices.SortedFunc(slices.Values(rt.tree.Files), func(a, b content.File) int { return strings.Compare(a.ID, b.ID) })
}

// newRevTree wraps a tree of the given number of pages (-1: count them).
func newRevTree(t *content.Tree, pages int) *revTree {
	if pages < 0 {
		pages = 0
		content.Walk(t, func(content.PageNode) bool { pages++; return true })
	}
	return &revTree{tree: t, pages: pages}
}

// index builds the lookups once and returns rt.
func (rt *revTree) index() *revTree {
	rt.once.Do(func() {
		rt.nodes = content.NodesByID(rt.tree)
		rt.paths = content.Paths(rt.tree)
		rt.indexFiles()
	})
	return rt
}

// weight is the cost of keeping the tree in the cache, in pages and files.
func (rt *revTree) weight() int { return rt.pages + len(rt.tree.Files) + 1 }

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

// derive gives rt, the tree of a commit on top of base, its lookups from
// base's and the commit's changes, without walking what the two trees
// share: the maps are copied (a memory copy), then only the sibling lists
// holding pages that are not base's, by pointer, are visited, and the
// subtrees of pages that moved or changed their slug. Removed pages come
// from the diff.
func (rt *revTree) derive(base *revTree, changes []content.Change) {
	base.index()
	rt.once.Do(func() {
		nodes := maps.Clone(base.nodes)
		paths := maps.Clone(base.paths)
		for _, ch := range changes {
			if ch.Kind == content.Removed && ch.PageID != "" {
				delete(nodes, ch.PageID)
				delete(paths, ch.PageID)
			}
		}
		// place records a page at its new place; whole re-walks its subtree.
		var place func(p *content.Page, parent, parentPath string, index, depth int, whole bool)
		place = func(p *content.Page, parent, parentPath string, index, depth int, whole bool) {
			old, had := base.nodes[p.ID]
			nodes[p.ID] = content.PageNode{Page: p, Parent: parent, Index: index, Depth: depth}
			path := ""
			if p.Type != content.PageLink {
				path = p.Slug
				if parentPath != "" {
					path = parentPath + "/" + p.Slug
				}
				paths[p.ID] = path
			} else {
				delete(paths, p.ID)
			}
			if !whole && had && old.Page == p {
				if old.Parent == parent && old.Depth == depth && base.paths[p.ID] == path {
					return // shared, in place: its subtree is unchanged
				}
				whole = true // moved: every descendant's depth or path changed
			}
			if had && (old.Parent != parent || old.Depth != depth || base.paths[p.ID] != path) {
				whole = true
			}
			for i, c := range p.Pages {
				place(c, p.ID, path, i, depth+1, whole)
			}
		}
		for i, p := range rt.tree.Pages {
			place(p, "", "", i, 1, false)
		}
		rt.nodes, rt.paths = nodes, paths
		rt.indexFiles()
	})
}
