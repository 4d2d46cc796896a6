package content

import (
	"slices"
	"sort"
	"strings"
)

// ChangeKind says what happened to a page or file between two trees.
type ChangeKind string

// The change kinds. Moved means the parent changed; a new position under the
// same parent is Modified with FieldPosition.
const (
	Added    ChangeKind = "added"
	Removed  ChangeKind = "removed"
	Modified ChangeKind = "modified"
	Moved    ChangeKind = "moved"
)

// Fields is a set of the parts of a page that changed.
type Fields uint8

// The parts of a page that Diff reports.
const (
	FieldMetadata Fields = 1 << iota // any own field: title, slug, layout…
	FieldDocument                    // the document hash
	FieldPosition                    // the parent or the place among siblings
)

// Has reports whether every field in f2 is in f.
func (f Fields) Has(f2 Fields) bool { return f&f2 == f2 }

// String lists the fields, such as "metadata|document".
func (f Fields) String() string {
	var parts []string
	for _, x := range []struct {
		f    Fields
		name string
	}{{FieldMetadata, "metadata"}, {FieldDocument, "document"}, {FieldPosition, "position"}} {
		if f.Has(x.f) {
			parts = append(parts, x.name)
		}
	}
	return strings.Join(parts, "|")
}

// Change is one difference between two trees, about a page (PageID set) or a
// file (FileID set). From and To are the parent ids before and after ("" is
// the top level) for pages that were added, removed or moved. Page is the
// page as it is in the new tree for added, modified and moved pages, so
// callers need no index of the new tree to read it; it is nil for removed
// pages and for files. It is shared with the new tree: do not change it.
type Change struct {
	Kind   ChangeKind
	PageID string
	FileID string
	Fields Fields
	From   string
	To     string
	Page   *Page
}

// DiffStats reports the work Diff did: Visited counts the page pairs or pages
// it examined, which is about depth × fanout per changed page because equal
// subtrees are skipped by hash.
type DiffStats struct {
	Visited int
}

// Diff returns the changes from a to b: pages in the order found (top-down),
// then files by id. Unchanged subtrees are skipped by comparing hashes.
func Diff(a, b *Tree) []Change {
	changes, _ := DiffWithStats(a, b)
	return changes
}

// placed is a page seen on one side only while diffing, with its parent.
type placed struct {
	page   *Page
	parent string
	index  int
}

type differ struct {
	stats   DiffStats
	changes []Change
	// Pages found only on one side so far; a page in both is a move.
	gone, came map[string]placed
	order      []string // ids of gone and came in discovery order
}

// DiffWithStats is Diff that also reports how many pages it visited.
func DiffWithStats(a, b *Tree) ([]Change, DiffStats) {
	d := &differ{gone: map[string]placed{}, came: map[string]placed{}}
	d.lists("", a.Pages, b.Pages)
	// Pages seen on one side only are added or removed, unless seen on both
	// sides under different parents: then they moved.
	for _, id := range d.order {
		g, inGone := d.gone[id]
		c, inCame := d.came[id]
		switch {
		case inGone && inCame && g.parent != c.parent:
			d.changes = append(d.changes, Change{Kind: Moved, PageID: id, From: g.parent, To: c.parent,
				Fields: FieldPosition | ownFields(g.page, c.page), Page: c.page})
		case inGone && inCame:
			// A child of a moved page that stayed with it.
			f := ownFields(g.page, c.page)
			if g.index != c.index {
				f |= FieldPosition
			}
			if f != 0 {
				d.changes = append(d.changes, Change{Kind: Modified, PageID: id, Fields: f, From: g.parent, To: c.parent, Page: c.page})
			}
		case inGone:
			d.changes = append(d.changes, Change{Kind: Removed, PageID: id, From: g.parent})
		case inCame:
			d.changes = append(d.changes, Change{Kind: Added, PageID: id, To: c.parent, Page: c.page})
		}
	}
	d.changes = append(d.changes, diffFiles(a.Files, b.Files)...)
	return d.changes, d.stats
}

// ownFields compares what a page holds itself, children aside.
func ownFields(a, b *Page) Fields {
	var f Fields
	if a.Document != b.Document {
		f |= FieldDocument
	}
	if a.ownKey() != b.ownKey() {
		f |= FieldMetadata
	}
	return f
}

// lists compares the children of one parent present on both sides.
func (d *differ) lists(parent string, as, bs []*Page) {
	aIdx := make(map[string]int, len(as))
	for i, p := range as {
		aIdx[p.ID] = i
	}
	bIdx := make(map[string]int, len(bs))
	for i, p := range bs {
		bIdx[p.ID] = i
	}
	// Siblings present on both sides keep their position when they lie on a
	// longest increasing run of old indexes; the others were reordered.
	var common []int
	for _, p := range bs {
		if i, ok := aIdx[p.ID]; ok {
			common = append(common, i)
		}
	}
	stay := longestIncreasing(common)
	for _, p := range as {
		if _, ok := bIdx[p.ID]; !ok {
			d.stats.Visited++
			d.oneSide(d.gone, p, parent, aIdx[p.ID])
		}
	}
	for _, q := range bs {
		d.stats.Visited++
		i, ok := aIdx[q.ID]
		if !ok {
			d.oneSide(d.came, q, parent, bIdx[q.ID])
			continue
		}
		p := as[i]
		if p == q || p.Hash() == q.Hash() {
			if !stay[i] {
				d.changes = append(d.changes, Change{Kind: Modified, PageID: q.ID, Fields: FieldPosition, From: parent, To: parent, Page: q})
			}
			continue
		}
		f := ownFields(p, q)
		if !stay[i] {
			f |= FieldPosition
		}
		if f != 0 {
			d.changes = append(d.changes, Change{Kind: Modified, PageID: q.ID, Fields: f, From: parent, To: parent, Page: q})
		}
		d.lists(q.ID, p.Pages, q.Pages)
	}
}

// oneSide records a page and its whole subtree as seen on one side only; the
// subtree is walked because any descendant may have moved elsewhere.
func (d *differ) oneSide(into map[string]placed, p *Page, parent string, index int) {
	if _, ok := d.gone[p.ID]; !ok {
		if _, ok := d.came[p.ID]; !ok {
			d.order = append(d.order, p.ID)
		}
	}
	into[p.ID] = placed{page: p, parent: parent, index: index}
	for i, c := range p.Pages {
		d.stats.Visited++
		d.oneSide(into, c, p.ID, i)
	}
}

// longestIncreasing returns the members of one longest strictly increasing
// subsequence of seq, in O(n log n).
func longestIncreasing(seq []int) map[int]bool {
	tails := []int{} // indexes into seq
	prev := make([]int, len(seq))
	for i, v := range seq {
		j := sort.Search(len(tails), func(k int) bool { return seq[tails[k]] >= v })
		if j > 0 {
			prev[i] = tails[j-1]
		} else {
			prev[i] = -1
		}
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	out := make(map[int]bool, len(tails))
	if len(tails) == 0 {
		return out
	}
	for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
		out[seq[i]] = true
	}
	return out
}

// diffFiles compares files by id; any field change is Modified with
// FieldMetadata, a new Blob adds FieldDocument.
func diffFiles(as, bs []File) []Change {
	am := make(map[string]File, len(as))
	for _, f := range as {
		am[f.ID] = f
	}
	bm := make(map[string]File, len(bs))
	for _, f := range bs {
		bm[f.ID] = f
	}
	var out []Change
	for id, a := range am {
		b, ok := bm[id]
		if !ok {
			out = append(out, Change{Kind: Removed, FileID: id})
			continue
		}
		var f Fields
		if a.Blob != b.Blob {
			f |= FieldDocument
		}
		a.Blob, b.Blob = Hash{}, Hash{}
		if !fileEqual(a, b) {
			f |= FieldMetadata
		}
		if f != 0 {
			out = append(out, Change{Kind: Modified, FileID: id, Fields: f})
		}
	}
	for id := range bm {
		if _, ok := am[id]; !ok {
			out = append(out, Change{Kind: Added, FileID: id})
		}
	}
	slices.SortFunc(out, func(x, y Change) int { return strings.Compare(x.FileID, y.FileID) })
	return out
}

func fileEqual(a, b File) bool {
	ga, gb := a.Git, b.Git
	a.Git, b.Git = nil, nil
	if a != b {
		return false
	}
	if ga == nil || gb == nil {
		return ga == gb
	}
	return *ga == *gb
}
