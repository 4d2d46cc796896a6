package content

import "slices"

// Incremental checks. A tree made from a committed one with Tree.Edit or
// Tree.Fork shares every unchanged page with it by pointer, and a committed
// tree is valid, so most of a new tree needs no checking: ValidateEdit and
// FillSlugsEdit visit only the sibling lists that are not shared with the
// base, which costs O(depth × siblings) per edited page whatever the size of
// the space.

// Index finds the pages of a tree by id, with their places; ValidateEdit
// and FillSlugsEdit read the base tree through one. MapIndex, as built by
// NodesByID, is the plain one; callers may keep their own (an overlay on an
// older tree's index, say) to avoid building a map per revision.
type Index interface {
	Node(id string) (PageNode, bool)
	Len() int
}

// MapIndex is an Index held in a map.
type MapIndex map[string]PageNode

// Node returns the page with the given id.
func (m MapIndex) Node(id string) (PageNode, bool) { n, ok := m[id]; return n, ok }

// Len returns the number of pages.
func (m MapIndex) Len() int { return len(m) }

// NodesByID indexes every page of t by id with its place, as Nodes gives it;
// it is the baseIndex of ValidateEdit and FillSlugsEdit. With duplicate ids
// the last in pre-order wins.
func NodesByID(t *Tree) MapIndex {
	out := MapIndex{}
	Walk(t, func(n PageNode) bool { out[n.Page.ID] = n; return true })
	return out
}

// ValidateEdit returns what t.Validate() returns, the same error with the same
// field and message, provided base is valid (base.Validate() is nil) and
// baseIndex is NodesByID(base). It walks only what t does not share with
// base: a page of t that is baseIndex[id].Page and lies at the same depth as
// there is a shared subtree, valid as a whole, so only its place among its
// new siblings is checked (slug, id uniqueness), not its fields nor its
// descendants. Shared subtrees met at another depth are walked in full, as
// depth limits and the group rule depend on depth.
//
// Id uniqueness holds across shared subtrees through baseIndex's parent
// links: a base page is in t iff it or one of its base ancestors is met as a
// shared subtree. The page limit is checked against an upper bound, pages of t
// new to base plus baseIndex.Len(); a tree near MaxPages for which the bound
// does not settle it is validated in full. A nil base or baseIndex falls back
// to Validate.
func (t *Tree) ValidateEdit(base *Tree, baseIndex Index) error {
	if base == nil || baseIndex == nil {
		return t.Validate()
	}
	v := editChecker{base: baseIndex}
	if err := v.list(t.Pages, base.Pages, 1); err != nil {
		// Pages before the error are distinct, so at most walked of them are
		// outside base; Validate would have stopped on the page limit first
		// only if the error's page could be the (MaxPages+1)th.
		if v.walked+baseIndex.Len()+1 > MaxPages {
			return t.Validate()
		}
		return err
	}
	// No id repeats: shared subtrees are disjoint in base and hold none of the
	// walked pages' ids, so they hold at most baseIndex.Len() minus the walked
	// pages that base also has.
	if v.fresh+baseIndex.Len() > MaxPages {
		return t.Validate()
	}
	return nil
}

// editChecker is the state of ValidateEdit's walk. It meets pages in the
// order Validate does, and at each one reports what Validate would report
// there, so the first error it finds is Validate's.
type editChecker struct {
	base Index
	path []int
	// met holds the ids met so far, true for roots of shared subtrees.
	// An id is met once: a second time is an error and ends the walk.
	met map[string]bool
	// inner maps a base page id to the ids met so far of its base
	// descendants, each a repeat if the base page turns up as a shared root.
	// Base pages already met are left out: meeting one again as a shared
	// root is a repeat at its root, which comes first.
	inner map[string][]string
	// walked counts the pages checked one by one; fresh those of them
	// whose id is not in base.
	walked, fresh int
}

// isShared reports whether p, met at depth, is a shared subtree of base.
func (v *editChecker) isShared(p *Page, depth int) bool {
	n, ok := v.base.Node(p.ID)
	return ok && n.Page == p && n.Depth == depth
}

// seen reports whether a page with id was met already: itself, or the base
// page inside a shared subtree met before.
func (v *editChecker) seen(id string) bool {
	if _, ok := v.met[id]; ok {
		return true
	}
	n, ok := v.base.Node(id)
	if !ok {
		return false
	}
	// A valid base is at most MaxPageDepth deep; the bound only guards
	// against a corrupt index.
	for anc, k := n.Parent, 0; anc != "" && k < MaxPageDepth; anc, k = v.node(anc).Parent, k+1 {
		if v.met[anc] {
			return true
		}
	}
	return false
}

// meet records id as met, as a shared subtree's root when shared.
func (v *editChecker) meet(id string, shared bool) {
	if v.met == nil {
		v.met = make(map[string]bool, 64)
		v.inner = map[string][]string{}
	}
	v.met[id] = shared
	n, ok := v.base.Node(id)
	if !ok {
		return
	}
	for anc, k := n.Parent, 0; anc != "" && k < MaxPageDepth; anc, k = v.node(anc).Parent, k+1 {
		if _, ok := v.met[anc]; !ok {
			v.inner[anc] = append(v.inner[anc], id)
		}
	}
}

// repeatInside returns the error Validate reports inside the shared subtree
// root, met at v.path: the first page in pre-order whose id was met before.
func (v *editChecker) repeatInside(root string) error {
	var first []int
	var firstID string
	for _, id := range v.inner[root] {
		rel := v.below(root, id)
		if first == nil || slices.Compare(rel, first) < 0 {
			first, firstID = rel, id
		}
	}
	if first == nil {
		return nil
	}
	return duplicateID(append(slices.Clip(v.path), first...), firstID)
}

// below returns the indexes leading from base page root down to its
// descendant id.
func (v *editChecker) below(root, id string) []int {
	var rel []int
	for n := v.node(id); n.Page != nil && n.Page.ID != root && len(rel) < MaxPageDepth; n = v.node(n.Parent) {
		rel = append(rel, n.Index)
	}
	slices.Reverse(rel)
	return rel
}

// list checks the pages at depth; basePages is the base's list of the same
// parent at the same depth, if any, where a page at its index is shared
// without a lookup.
func (v *editChecker) list(pages, basePages []*Page, depth int) error {
	v.path = append(v.path, 0)
	var slugs siblingSlugs
	for i, p := range pages {
		v.path[depth-1] = i
		if p == nil {
			return nilPage(v.path)
		}
		if (i < len(basePages) && basePages[i] == p) || v.isShared(p, depth) {
			// Valid in base at this depth: only its id and slug can clash.
			if v.seen(p.ID) {
				return duplicateID(v.path, p.ID)
			}
			if err := slugs.claim(p, v.path); err != nil {
				return err
			}
			if err := v.repeatInside(p.ID); err != nil {
				return err
			}
			v.meet(p.ID, true)
			continue
		}
		v.walked++
		var kids []*Page
		if n, ok := v.base.Node(p.ID); !ok {
			v.fresh++
		} else if n.Depth == depth {
			kids = n.Page.Pages
		}
		if err := checkHead(p, depth, v.path); err != nil {
			return err
		}
		if v.seen(p.ID) {
			return duplicateID(v.path, p.ID)
		}
		v.meet(p.ID, false)
		if err := checkBody(p, depth, v.path); err != nil {
			return err
		}
		if err := slugs.claim(p, v.path); err != nil {
			return err
		}
		if err := v.list(p.Pages, kids, depth+1); err != nil {
			return err
		}
	}
	v.path = v.path[:depth-1]
	return nil
}

// FillSlugsEdit is FillSlugs for a tree made from base by Tree.Edit or
// Tree.Fork, with baseIndex = NodesByID(base): it visits only the sibling
// lists that are not shared with base and never changes a page of base (a
// page that is baseIndex[id].Page), whose slug is valid already. In a list
// that mixes base and new pages, base pages keep their slugs and a new page
// whose slug one of them holds is renamed (-2, -3…); when two base pages
// clash (one was moved next to the other), the later one is replaced in the
// list by a renamed copy. Lists are copied before being changed, so a list
// t shares with base stays as it is. A nil base or baseIndex falls back to
// FillSlugs.
func (t *Tree) FillSlugsEdit(base *Tree, baseIndex Index) {
	if base == nil || baseIndex == nil {
		t.FillSlugs()
		return
	}
	if pages, copied := fillSlugsEdit(t.Pages, base.Pages, baseIndex); copied {
		t.Pages = pages
	}
}

// node returns the base page with the given id, or the zero PageNode.
func (v *editChecker) node(id string) PageNode {
	n, _ := v.base.Node(id)
	return n
}

// fillSlugsEdit fills one sibling list and those below its new pages; it
// returns the list, copied when a page in it had to be replaced. basePages
// is the base's list of the same parent, if any: a page found at its index
// there is a base page without a lookup.
func fillSlugsEdit(pages, basePages []*Page, base Index) ([]*Page, bool) {
	// frozen[i]: pages[i] is a base page; kids[i]: the base's children of a
	// page that is not, when base has its id.
	frozen := make([]bool, len(pages))
	kids := make([][]*Page, len(pages))
	for i, p := range pages {
		if p == nil {
			continue
		}
		if i < len(basePages) && basePages[i] == p {
			frozen[i] = true
			continue
		}
		if n, ok := base.Node(p.ID); ok {
			frozen[i] = n.Page == p
			kids[i] = n.Page.Pages
		}
	}
	taken := map[string]bool{}
	// Slugs of base pages, each kept by the first base page holding it.
	holder := map[string]int{}
	for i, p := range pages {
		if p == nil || p.Type == PageLink || p.Slug == "" {
			continue
		}
		taken[p.Slug] = true
		if _, ok := holder[p.Slug]; !ok && frozen[i] {
			holder[p.Slug] = i
		}
	}
	out, copied := pages, false
	seen := map[string]bool{}
	for i, p := range pages {
		if p == nil {
			continue
		}
		if frozen[i] {
			if p.Type == PageLink {
				continue
			}
			if h, ok := holder[p.Slug]; ok && h == i {
				seen[p.Slug] = true
				continue
			}
			// A second base page with this slug (or, in an invalid base,
			// none): rename a copy. Its children are base pages whose list
			// is unchanged, hence valid.
			c := p.Clone()
			if c.Slug == "" {
				c.Slug = uniqueIn(taken, Slugify(c.Title))
			} else {
				c.Slug = uniqueIn(taken, c.Slug)
			}
			taken[c.Slug], seen[c.Slug] = true, true
			if !copied {
				out, copied = slices.Clone(pages), true
			}
			out[i] = c
			continue
		}
		if p.Type != PageLink {
			_, held := holder[p.Slug]
			switch {
			case p.Slug == "":
				p.Slug = uniqueIn(taken, Slugify(p.Title))
				taken[p.Slug] = true
			case seen[p.Slug] || held:
				p.Slug = uniqueIn(taken, p.Slug)
				taken[p.Slug] = true
			}
			seen[p.Slug] = true
		}
		if filled, ok := fillSlugsEdit(p.Pages, kids[i], base); ok {
			p.Pages = filled
		}
	}
	return out, copied
}
