package app

import (
	"slices"
	"strings"
	"sync"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/lru"
)

// Revision trees and documents are immutable and addressed by hash, so every
// server process may cache them without coordination: a cached value can
// never be stale, only evicted.

// revTree is a decoded revision tree with the lookups the reads need,
// built on first use. Its pages are shared with other trees and must never
// be changed.
//
// The page lookup of a tree made by a commit is a new version of its base's
// (derive) that shares all but the entries the commit placed anew, so that
// committing an edit does not copy a map of every page. Paths are built on
// first read.
type revTree struct {
	tree  *content.Tree
	pages int // number of pages, for the cache's accounting and lookups

	once  sync.Once
	nodes content.NodeMap // every page by id
	files map[string]int  // index of each file in tree.Files by id
	byID  []content.File  // the files ordered by id, for lists

	pathsOnce sync.Once
	paths     map[string]string // document and group page paths by id
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
		rt.nodes = content.NewNodeMap(rt.tree)
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

// one weighs every cache entry alike, for caches bounded by their number
// of entries.
func one[K comparable, V any](K, V) int64 { return 1 }

// cacheStats names a cache's counters and occupancy for the metrics.
func cacheStats(name, unit string, s lru.Stats) CacheStats {
	return CacheStats{Name: name, Unit: unit, Hits: s.Hits, Misses: s.Misses, Evictions: s.Evictions,
		Entries: s.Entries, Size: int(s.Used), Limit: int(s.Limit)}
}

// derive gives rt, the tree of a commit on top of base, its page lookup as
// a new version of base's, from the commit's changes, without walking what
// the two trees share: only the sibling lists holding pages that are not
// base's (by pointer) are visited, and the subtrees of pages that moved.
// Removed pages come from the diff. The new version shares all but the
// edited paths of base's lookup (content.NodeMap), so its cost follows the
// size of the edit, not of the space. The file lookups are base's when the
// commit kept base's files as they were.
func (rt *revTree) derive(base *revTree, changes []content.Change) {
	parent := base.index().nodes
	rt.once.Do(func() {
		if sameFiles(rt.tree.Files, base.tree.Files) {
			rt.files, rt.byID = base.files, base.byID
		} else {
			rt.indexFiles()
		}
		b := parent.Edit()
		for _, ch := range changes {
			if ch.Kind == content.Removed && ch.PageID != "" {
				b.Delete(ch.PageID)
			}
		}
		// place records a page at its new place; whole re-walks its subtree.
		// basePages is the base's list of the page's parent when it did not
		// move: a page at its index there is in place with its subtree, which
		// spares the lookup.
		var place func(p *content.Page, basePages []*content.Page, parentID string, index, depth int, whole bool)
		place = func(p *content.Page, basePages []*content.Page, parentID string, index, depth int, whole bool) {
			if !whole && index < len(basePages) && basePages[index] == p {
				return
			}
			old, had := parent.Node(p.ID)
			n := content.PageNode{Page: p, Parent: parentID, Index: index, Depth: depth}
			if had && old == n {
				return // shared, in place: its subtree is unchanged
			}
			b.Set(n)
			moved := had && (old.Parent != parentID || old.Depth != depth)
			if !whole && had && old.Page == p && !moved {
				return // shared, only its index changed
			}
			var kids []*content.Page
			if had && !moved {
				kids = old.Page.Pages
			}
			for i, c := range p.Pages {
				place(c, kids, p.ID, i, depth+1, whole || moved)
			}
		}
		for i, p := range rt.tree.Pages {
			place(p, base.tree.Pages, "", i, 1, false)
		}
		rt.nodes = b.Map()
	})
}

// sameFiles reports whether a and b list the same files in the same order,
// so that lookups built for one serve the other. Commits copy the list
// (Tree.Fork), so it compares values, without allocating.
func sameFiles(a, b []content.File) bool { return slices.Equal(a, b) }
