package content

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
)

// Conflict is a change both sides made differently, or a removal on one side
// of something the other side changed. Field names what clashed: a page field
// such as "title", or "document", "parent", "removed", "slug", "file",
// "variable". The result of Merge holds ours' version unless Message says
// otherwise.
type Conflict struct {
	PageID  string
	FileID  string
	Field   string
	Message string
}

// entry is a page's own version and its place in one tree.
type entry struct {
	page   *Page
	parent string
	index  int
}

// pageField is one metadata field merged on its own.
type pageField struct {
	name string
	get  func(p *Page) any
	set  func(dst, src *Page)
}

var pageFields = []pageField{
	{"type", func(p *Page) any { return p.Type }, func(d, s *Page) { d.Type = s.Type }},
	{"title", func(p *Page) any { return p.Title }, func(d, s *Page) { d.Title = s.Title }},
	{"emoji", func(p *Page) any { return p.Emoji }, func(d, s *Page) { d.Emoji = s.Emoji }},
	{"icon", func(p *Page) any { return p.Icon }, func(d, s *Page) { d.Icon = s.Icon }},
	{"slug", func(p *Page) any { return p.Slug }, func(d, s *Page) { d.Slug = s.Slug }},
	{"description", func(p *Page) any { return p.Description }, func(d, s *Page) { d.Description = s.Description }},
	{"layout", func(p *Page) any { return p.Layout }, func(d, s *Page) { d.Layout = s.Clone().Layout }},
	{"cover", func(p *Page) any { return canonCover(p.Cover) }, func(d, s *Page) { d.Cover = s.Clone().Cover }},
	{"hidden", func(p *Page) any { return p.Hidden }, func(d, s *Page) { d.Hidden = s.Hidden }},
	{"noIndex", func(p *Page) any { return p.NoIndex }, func(d, s *Page) { d.NoIndex = s.NoIndex }},
	{"noRobotsIndex", func(p *Page) any { return p.NoRobotsIndex }, func(d, s *Page) { d.NoRobotsIndex = s.NoRobotsIndex }},
	{"variables", func(p *Page) any { return emptyNil(p.Variables) }, func(d, s *Page) { d.Variables = s.Clone().Variables }},
	{"metaLinks", func(p *Page) any { return p.MetaLinks }, func(d, s *Page) { d.MetaLinks = s.Clone().MetaLinks }},
	{"git", func(p *Page) any { return p.Git }, func(d, s *Page) { d.Git = s.Clone().Git }},
	{"computed", func(p *Page) any { return string(canonRaw(p.Computed)) }, func(d, s *Page) { d.Computed = s.Clone().Computed }},
	{"target", func(p *Page) any { return string(canonRaw(p.Target)) }, func(d, s *Page) { d.Target = s.Clone().Target }},
}

func emptyNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// changedFrom reports whether p differs from base in its own fields,
// document or parent; children changes alone do not count.
func changedFrom(base, p entry) bool {
	return base.parent != p.parent || base.page.Document != p.page.Document || base.page.ownKey() != p.page.ownKey()
}

// Merge merges ours and theirs, both forked from base, page by page (by id):
//   - a page added on one side is kept; added on both, it is merged as if
//     base had an empty page;
//   - a page removed on one side and unchanged on the other is removed;
//     removed on one side but changed (fields, document or parent) on the
//     other, the changed page is kept and a "removed" Conflict recorded;
//   - metadata fields merge one by one: a field changed on one side takes
//     that side's value; changed on both to different values, ours wins and a
//     Conflict names the field;
//   - a document changed on one side takes that side's hash; changed on both,
//     mergeDoc(base, ours, theirs) decides, and a nil mergeDoc or a false
//     result keeps ours with a "document" Conflict;
//   - the parent merges like a field ("parent" Conflict, ours wins), and a
//     merge that would put a page under its own descendant keeps ours' parent;
//   - children keep ours' order (theirs' if only theirs reordered), and pages
//     only the other side placed there go after their preceding sibling there;
//   - a kept page whose parent was removed brings the parent back (Conflict);
//   - files and reusable contents merge by id as whole values, and variables
//     by name, with the same rules.
//
// Finally clashing sibling slugs are renamed as FillSlugs does, each rename
// a "slug" Conflict. Conflicts are sorted by page id, file id and field.
// The result shares with ours the pages (and whole subtrees) the merge kept
// as they were in ours, so that its cost and the cost of storing it follow
// what changed; it shares no other page with the inputs.
func Merge(base, ours, theirs *Tree, mergeDoc func(base, ours, theirs Hash) (Hash, bool)) (*Tree, []Conflict) {
	m := &merger{b: map[string]entry{}, o: map[string]entry{}, t: map[string]entry{}, mergeDoc: mergeDoc,
		result: map[string]*Page{}, parent: map[string]string{}, asOurs: map[string]bool{}, quiet: map[string]bool{},
		listed: map[string]bool{}}
	var ids []string
	m.walk([3][]*Page{topOf(ours), topOf(theirs), topOf(base)}, "", &ids)
	for _, id := range ids {
		m.page(id)
	}
	m.restoreParents()
	m.breakCycles(ids)
	m.tops = [3][]*Page{topOf(ours), topOf(theirs), topOf(base)}
	m.kids = map[string][]string{}
	for _, id := range ids {
		if m.result[id] != nil {
			m.kids[m.parent[id]] = append(m.kids[m.parent[id]], id)
		}
	}
	out := &Tree{Pages: m.build("")}
	for _, fix := range m.fillSlugs(out.Pages) {
		if fix.old != "" {
			m.conflicts = append(m.conflicts, Conflict{PageID: fix.pageID, Field: "slug",
				Message: "slug " + fix.old + " clashed with a sibling and became " + fix.new})
		}
	}
	out.Files = mergeByID(filesOf(base), filesOf(ours), filesOf(theirs), func(f File) string { return f.ID }, func(id string) {
		m.conflicts = append(m.conflicts, Conflict{FileID: id, Field: "file", Message: "both sides changed or one removed the file"})
	})
	out.ReusableContents = mergeByID(reusableOf(base), reusableOf(ours), reusableOf(theirs), func(r ReusableContent) string { return r.ID }, func(id string) {
		m.conflicts = append(m.conflicts, Conflict{Field: "reusableContent", Message: "both sides changed reusable content " + id})
	})
	out.Variables = m.variables(varsOf(base), varsOf(ours), varsOf(theirs))
	slices.SortStableFunc(m.conflicts, func(a, b Conflict) int {
		return cmp.Or(cmp.Compare(a.PageID, b.PageID), cmp.Compare(a.FileID, b.FileID), cmp.Compare(a.Field, b.Field))
	})
	return out, m.conflicts
}

type merger struct {
	b, o, t   map[string]entry
	mergeDoc  func(base, ours, theirs Hash) (Hash, bool)
	result    map[string]*Page // merged pages without children
	parent    map[string]string
	conflicts []Conflict
	tops      [3][]*Page          // top-level pages of ours, theirs and base
	kids      map[string][]string // merged pages by merged parent, in allIDs order
	// asOurs marks merged pages whose own fields, document and parent are
	// ours': when their children end up as ours' too, ours' page itself is
	// the result, so that what the merge did not change stays shared (and
	// its hash known) instead of being copied.
	asOurs map[string]bool
	// quiet marks pages whose whole subtree is the same in the three trees
	// at the same place: their descendants are not indexed, and ours'
	// subtree is the result.
	quiet  map[string]bool
	listed map[string]bool // ids already in walk's list
}

// walk indexes the pages of three sibling lists of one parent (ours',
// theirs' and base's children of the same page, or the top levels) and,
// below each page, their children the same way; ids gets each page id
// once. A page found in the three lists with the same subtree hash is
// quiet: nothing below it changed on either side, so it is not walked and
// a merge costs what changed, not the size of the trees. A page found in
// only some of the lists (moved, added or removed) is walked in full
// wherever it is found.
func (m *merger) walk(lists [3][]*Page, parent string, ids *[]string) {
	maps := [3]map[string]entry{m.o, m.t, m.b}
	var pos [3]map[string]int
	for k, l := range lists {
		pos[k] = make(map[string]int, len(l))
		for i, p := range l {
			pos[k][p.ID] = i
		}
	}
	done := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			if done[p.ID] {
				continue
			}
			done[p.ID] = true
			var pages [3]*Page
			for k := range lists {
				if i, ok := pos[k][p.ID]; ok {
					pages[k] = lists[k][i]
					maps[k][p.ID] = entry{page: pages[k], parent: parent, index: i}
				}
			}
			if !m.listed[p.ID] {
				m.listed[p.ID] = true
				*ids = append(*ids, p.ID)
			}
			if pages[0] != nil && pages[1] != nil && pages[2] != nil && sameSubtree(pages[0], pages[2]) && sameSubtree(pages[1], pages[2]) {
				m.quiet[p.ID] = true
				continue
			}
			var kids [3][]*Page
			for k, pg := range pages {
				if pg != nil {
					kids[k] = pg.Pages
				}
			}
			m.walk(kids, p.ID, ids)
		}
	}
}

// sameSubtree reports whether two pages have the same subtree: the same
// pointer, or the same hash (known for stored pages, else computed).
func sameSubtree(a, b *Page) bool {
	return a == b || a.Hash() == b.Hash()
}

func (m *merger) conflict(id, field, msg string) {
	m.conflicts = append(m.conflicts, Conflict{PageID: id, Field: field, Message: msg})
}

func (m *merger) page(id string) {
	b, inB := m.b[id]
	o, inO := m.o[id]
	t, inT := m.t[id]
	switch {
	case !inO && !inT:
		return
	case inB && !inO:
		if !changedFrom(b, t) {
			return
		}
		m.conflict(id, "removed", "ours removed the page but theirs changed it; theirs' page is kept")
		m.keep(id, t)
		return
	case inB && !inT:
		if !changedFrom(b, o) {
			return
		}
		m.conflict(id, "removed", "theirs removed the page but ours changed it; ours' page is kept")
		m.keep(id, o)
		return
	case !inO:
		m.keep(id, t)
		return
	case !inT:
		m.keep(id, o)
		return
	}
	if m.quiet[id] {
		m.result[id] = o.page
		m.parent[id] = o.parent
		m.asOurs[id] = true
		return
	}
	if inB && o.parent == b.parent && t.parent == b.parent && sameOwn(o.page, b.page) && sameOwn(t.page, b.page) {
		// Neither side changed the page itself: the common case, decided
		// without comparing field by field.
		m.keep(id, o)
		m.asOurs[id] = true
		return
	}
	if !inB {
		b = entry{page: &Page{ID: id}, parent: o.parent}
		if o.parent != t.parent {
			b.parent = "\x00none"
		}
	}
	p := o.page.Clone()
	p.Pages = nil
	for _, f := range pageFields {
		bv, ov, tv := f.get(b.page), f.get(o.page), f.get(t.page)
		switch {
		case reflect.DeepEqual(ov, bv):
			f.set(p, t.page)
		case reflect.DeepEqual(tv, bv), reflect.DeepEqual(ov, tv):
		default:
			m.conflict(id, f.name, "both sides changed "+f.name+"; ours is kept")
		}
	}
	bd, od, td := b.page.Document, o.page.Document, t.page.Document
	switch {
	case od == bd:
		p.Document = td
	case td == bd, od == td:
	default:
		merged, ok := Hash{}, false
		if m.mergeDoc != nil {
			merged, ok = m.mergeDoc(bd, od, td)
		}
		if ok {
			p.Document = merged
		} else {
			m.conflict(id, "document", "both sides changed the document; ours is kept")
		}
	}
	parent := o.parent
	switch {
	case o.parent == b.parent:
		parent = t.parent
	case t.parent == b.parent, o.parent == t.parent:
	default:
		m.conflict(id, "parent", "both sides moved the page to different parents; ours is kept")
	}
	m.result[id] = p
	m.parent[id] = parent
	m.asOurs[id] = parent == o.parent && p.Document == o.page.Document && p.ownKey() == o.page.ownKey()
}

// sameOwn reports whether two versions of a page have the same own fields
// and document, children aside: by pointer or by subtree hash first (both
// cheap for stored pages, whose hashes are known), else field by field.
func sameOwn(a, b *Page) bool {
	if a == b {
		return true
	}
	if a.Document != b.Document {
		return false
	}
	if a.hashKnown() && b.hashKnown() && a.Hash() == b.Hash() {
		return true
	}
	return a.ownKey() == b.ownKey()
}

func (m *merger) keep(id string, e entry) {
	p := e.page.Clone()
	p.Pages = nil
	m.result[id] = p
	m.parent[id] = e.parent
}

// restoreParents brings back removed parents of kept pages, from the side
// that still has them, until every parent exists.
func (m *merger) restoreParents() {
	for changed := true; changed; {
		changed = false
		for id, parent := range m.parent {
			if parent == "" || m.result[parent] != nil {
				continue
			}
			e, ok := m.o[parent]
			if !ok {
				e, ok = m.t[parent]
			}
			if !ok {
				// Cannot happen: a parent comes from the tree holding the child.
				m.parent[id] = ""
				continue
			}
			m.conflict(parent, "removed", "the page was removed but the other side placed page "+id+" under it; it is kept")
			m.keep(parent, e)
			changed = true
		}
	}
}

// breakCycles resets to ours' parent (or the top level) any page whose
// merged ancestry loops, which happens when each side moved one page under
// the other.
func (m *merger) breakCycles(ids []string) {
	for _, id := range ids {
		if m.result[id] == nil {
			continue
		}
		seen := map[string]bool{}
		for cur := id; cur != ""; cur = m.parent[cur] {
			if seen[cur] {
				fallback := ""
				if o, ok := m.o[id]; ok && m.result[o.parent] != nil {
					fallback = o.parent
				}
				m.parent[id] = fallback
				if m.inCycle(id) {
					m.parent[id] = ""
				}
				m.conflict(id, "parent", "the merged moves made a page its own ancestor; ours' parent is kept")
				break
			}
			seen[cur] = true
		}
	}
}

func (m *merger) inCycle(id string) bool {
	seen := map[string]bool{}
	for cur := id; cur != ""; cur = m.parent[cur] {
		if seen[cur] {
			return true
		}
		seen[cur] = true
	}
	return false
}

// childIDs returns a parent's children in one tree, "" meaning the top level.
func childIDs(idx map[string]entry, parent string, tree []*Page) []string {
	pages := tree
	if parent != "" {
		e, ok := idx[parent]
		if !ok {
			return nil
		}
		pages = e.page.Pages
	}
	ids := make([]string, len(pages))
	for i, p := range pages {
		ids[i] = p.ID
	}
	return ids
}

// order merges the child order of one parent: the skeleton is ours' order
// unless only theirs reordered; the other side's pages go after their
// preceding sibling there.
func (m *merger) order(parent string, oursTop, theirsTop, baseTop []*Page) []string {
	if len(m.kids[parent]) == 0 {
		return nil
	}
	want := func(id string) bool { return m.result[id] != nil && m.parent[id] == parent }
	oList := childIDs(m.o, parent, oursTop)
	tList := childIDs(m.t, parent, theirsTop)
	bList := childIDs(m.b, parent, baseTop)
	skeleton, other := oList, tList
	if sameOrder(oList, bList) && !sameOrder(tList, bList) {
		skeleton, other = tList, oList
	}
	var out []string
	placed := map[string]bool{}
	for _, id := range skeleton {
		if want(id) && !placed[id] {
			out = append(out, id)
			placed[id] = true
		}
	}
	for i, id := range other {
		if !want(id) || placed[id] {
			continue
		}
		at := 0
		for j := i - 1; j >= 0; j-- {
			if k := slices.Index(out, other[j]); k >= 0 {
				at = k + 1
				break
			}
		}
		out = slices.Insert(out, at, id)
		placed[id] = true
	}
	// Pages placed here by neither side's list (a restored or re-parented
	// page) go last, sorted for determinism.
	var rest []string
	for _, id := range m.kids[parent] {
		if !placed[id] {
			rest = append(rest, id)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// sameOrder reports whether the ids both lists hold appear in the same order.
func sameOrder(a, b []string) bool {
	inB := map[string]bool{}
	for _, id := range b {
		inB[id] = true
	}
	inA := map[string]bool{}
	for _, id := range a {
		inA[id] = true
	}
	var x, y []string
	for _, id := range a {
		if inB[id] {
			x = append(x, id)
		}
	}
	for _, id := range b {
		if inA[id] {
			y = append(y, id)
		}
	}
	return slices.Equal(x, y)
}

func (m *merger) build(parent string) []*Page {
	ids := m.order(parent, m.tops[0], m.tops[1], m.tops[2])
	if len(ids) == 0 {
		return nil
	}
	pages := make([]*Page, 0, len(ids))
	for _, id := range ids {
		p := m.result[id]
		if m.quiet[id] {
			pages = append(pages, p) // ours' page, whole
			continue
		}
		p.Pages = m.build(id)
		if o, ok := m.o[id]; ok && m.asOurs[id] && slices.Equal(p.Pages, o.page.Pages) {
			p = o.page
		}
		pages = append(pages, p)
	}
	return pages
}

func topOf(t *Tree) []*Page {
	if t == nil {
		return nil
	}
	return t.Pages
}

// mergeByID merges lists of values keyed by id with the page rules: one-side
// changes win, and on a clash (both changed differently, or removed on one
// side and changed on the other) ours' state is kept and onConflict called.
func mergeByID[T any](base, ours, theirs []T, id func(T) string, onConflict func(id string)) []T {
	bm, tm := map[string]T{}, map[string]T{}
	for _, v := range base {
		bm[id(v)] = v
	}
	for _, v := range theirs {
		tm[id(v)] = v
	}
	om := map[string]bool{}
	var out []T
	for _, o := range ours {
		k := id(o)
		om[k] = true
		b, inB := bm[k]
		t, inT := tm[k]
		switch {
		case !inB && !inT:
			out = append(out, o)
		case inB && !inT:
			if reflect.DeepEqual(o, b) {
				continue // removed by theirs
			}
			onConflict(k)
			out = append(out, o)
		case reflect.DeepEqual(o, b):
			out = append(out, t)
		case !reflect.DeepEqual(t, b) && !reflect.DeepEqual(t, o):
			onConflict(k)
			out = append(out, o)
		default:
			out = append(out, o)
		}
	}
	for _, t := range theirs {
		k := id(t)
		if om[k] {
			continue
		}
		b, inB := bm[k]
		switch {
		case !inB:
			out = append(out, t)
		case !reflect.DeepEqual(t, b):
			onConflict(k) // removed by ours, changed by theirs: keep theirs
			out = append(out, t)
		}
	}
	return out
}

// variables merges name → value maps key by key.
func (m *merger) variables(b, o, t map[string]string) map[string]string {
	out := map[string]string{}
	keys := map[string]bool{}
	for _, mm := range []map[string]string{b, o, t} {
		for k := range mm {
			keys[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		bv, inB := b[k]
		ov, inO := o[k]
		tv, inT := t[k]
		sameO := inO == inB && ov == bv
		sameT := inT == inB && tv == bv
		switch {
		case sameO:
			if inT {
				out[k] = tv
			}
		case sameT || (inO == inT && ov == tv):
			if inO {
				out[k] = ov
			}
		default:
			m.conflicts = append(m.conflicts, Conflict{Field: "variable", Message: "both sides changed variable " + k})
			if inO {
				out[k] = ov
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func filesOf(t *Tree) []File {
	if t == nil {
		return nil
	}
	return t.Files
}

func reusableOf(t *Tree) []ReusableContent {
	if t == nil {
		return nil
	}
	return t.ReusableContents
}

func varsOf(t *Tree) map[string]string {
	if t == nil {
		return nil
	}
	return t.Variables
}

// shared reports whether a page of the result is ours' own (see build).
func (m *merger) shared(p *Page) bool {
	o, ok := m.o[p.ID]
	return ok && o.page == p
}

// fillSlugs is FillSlugs over the merged pages: a page of ours' that needs a
// new slug is copied first, and ours' subtrees, whose slugs ours already
// made unique, are not walked.
func (m *merger) fillSlugs(pages []*Page) []slugFix {
	var fixes []slugFix
	taken := map[string]bool{}
	for _, p := range pages {
		if p.Type != PageLink && p.Slug != "" {
			taken[p.Slug] = true
		}
	}
	seen := map[string]bool{}
	for i, p := range pages {
		if p.Type != PageLink {
			rename := func(s string) {
				if m.shared(p) {
					p = p.Clone()
					pages[i] = p
				}
				p.Slug = s
				taken[s] = true
			}
			switch {
			case p.Slug == "":
				s := uniqueIn(taken, Slugify(p.Title))
				fixes = append(fixes, slugFix{p.ID, "", s})
				rename(s)
			case seen[p.Slug]:
				s := uniqueIn(taken, p.Slug)
				fixes = append(fixes, slugFix{p.ID, p.Slug, s})
				rename(s)
			}
			seen[p.Slug] = true
		}
		if !m.shared(p) {
			fixes = append(fixes, m.fillSlugs(p.Pages)...)
		}
	}
	return fixes
}

// hashKnown reports whether the page's hash is cached (a stored page, or
// one hashed before), so that comparing hashes costs nothing.
func (p *Page) hashKnown() bool {
	m := p.memo.Load()
	return m != nil && m.owner == p
}
