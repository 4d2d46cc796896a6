package app

import (
	"container/list"
	"slices"
	"strings"
	"sync"

	"github.com/foliodocs/folio/internal/content"
)

// Revision trees and documents are immutable and addressed by hash, so every
// server process may cache them without coordination: a cached value can
// never be stale, only evicted.

// revTree is a decoded revision tree with the lookups the reads need,
// built on first use. Its pages are shared with other trees and must never
// be changed.
//
// The page lookup of a tree made by a commit is an overlay on its base's
// (derive): only the pages the commit placed anew, so that committing an
// edit does not copy a map of every page. Overlays are flattened into a
// full map every maxOverlayDepth generations. Paths are built on first read.
type revTree struct {
	tree  *content.Tree
	pages int // number of pages, for the cache's accounting and lookups

	once  sync.Once
	nodes *nodeIndex     // every page by id
	files map[string]int // index of each file in tree.Files by id
	byID  []content.File // the files ordered by id, for lists

	pathsOnce sync.Once
	paths     map[string]string // document and group page paths by id
}

// maxOverlayDepth bounds the chain of page lookups a read may walk.
const maxOverlayDepth = 32

// nodeIndex finds the pages of a tree by id: its own entries, then, unless
// the id is gone, its parent's (the index of the revision it was made
// from). It implements content.Index.
type nodeIndex struct {
	own    map[string]content.PageNode
	gone   map[string]bool
	parent *nodeIndex
	depth  int // 0 for a full index
	n      int
}

// Node returns the page with the given id and its place.
func (x *nodeIndex) Node(id string) (content.PageNode, bool) {
	for ix := x; ix != nil; ix = ix.parent {
		if n, ok := ix.own[id]; ok {
			return n, true
		}
		if ix.gone[id] {
			break
		}
	}
	return content.PageNode{}, false
}

// Len returns the number of pages.
func (x *nodeIndex) Len() int { return x.n }

func fullIndex(t *content.Tree, pages int) *nodeIndex {
	return &nodeIndex{own: content.NodesByID(t), n: pages}
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
		rt.nodes = fullIndex(rt.tree, rt.pages)
		rt.indexFiles()
	})
	return rt
}

// pathIndex returns the paths of the tree's pages, built on first use.
func (rt *revTree) pathIndex() map[string]string {
	rt.pathsOnce.Do(func() { rt.paths = content.Paths(rt.tree) })
	return rt.paths
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

// derive gives rt, the tree of a commit on top of base, its page lookup as
// an overlay on base's, from the commit's changes, without walking what the
// two trees share: only the sibling lists holding pages that are not base's
// (by pointer) are visited, and the subtrees of pages that moved. Removed
// pages come from the diff.
func (rt *revTree) derive(base *revTree, changes []content.Change) {
	parent := base.index().nodes
	rt.once.Do(func() {
		defer rt.indexFiles()
		if parent.depth >= maxOverlayDepth {
			rt.nodes = fullIndex(rt.tree, rt.pages)
			return
		}
		ix := &nodeIndex{own: map[string]content.PageNode{}, gone: map[string]bool{}, parent: parent,
			depth: parent.depth + 1, n: rt.pages}
		for _, ch := range changes {
			if ch.Kind == content.Removed && ch.PageID != "" {
				ix.gone[ch.PageID] = true
			}
		}
		// place records a page at its new place; whole re-walks its subtree.
		var place func(p *content.Page, parentID string, index, depth int, whole bool)
		place = func(p *content.Page, parentID string, index, depth int, whole bool) {
			old, had := parent.Node(p.ID)
			ix.own[p.ID] = content.PageNode{Page: p, Parent: parentID, Index: index, Depth: depth}
			delete(ix.gone, p.ID)
			moved := had && (old.Parent != parentID || old.Depth != depth)
			if !whole && had && old.Page == p && !moved {
				return // shared, in place: its subtree is unchanged
			}
			for i, c := range p.Pages {
				place(c, p.ID, i, depth+1, whole || moved)
			}
		}
		for i, p := range rt.tree.Pages {
			place(p, "", i, 1, false)
		}
		rt.nodes = ix
	})
}
