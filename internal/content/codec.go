package content

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Objects are the stored form of a tree (docs/content-design.md): every
// page subtree, every tree and every document is kept once under its hash, in
// exactly the canonical bytes that were hashed. A page object lists its
// children by hash, so two revisions share every unchanged subtree and
// writing a revision stores only the pages on the paths to its changes.

// Object kinds.
const (
	KindDocument = "document"
	KindPage     = "page"
	KindTree     = "tree"
)

// Object is one stored piece of a revision: Data hashes to Hash under Kind.
type Object struct {
	Hash Hash
	Kind string
	Data []byte
}

// pageBytes returns the canonical encoding of a page, children by hash.
func (p *Page) canonBytes() []byte {
	c := p.ownCanon()
	if len(p.Pages) > 0 {
		c.Pages = make([]string, len(p.Pages))
		for i, child := range p.Pages {
			c.Pages[i] = child.Hash().String()
		}
	}
	b, _ := json.Marshal(c) // only strings, bools, floats and valid raw JSON
	return b
}

func (t *Tree) canonBytes() []byte {
	c := treeCanon{Pages: make([]string, len(t.Pages)), Variables: t.Variables}
	for i, p := range t.Pages {
		c.Pages[i] = p.Hash().String()
	}
	c.Files = slices.Clone(t.Files)
	slices.SortStableFunc(c.Files, func(a, b File) int { return strings.Compare(a.ID, b.ID) })
	c.ReusableContents = slices.Clone(t.ReusableContents)
	for i := range c.ReusableContents {
		c.ReusableContents[i].Computed = canonRaw(c.ReusableContents[i].Computed)
	}
	slices.SortStableFunc(c.ReusableContents, func(a, b ReusableContent) int { return strings.Compare(a.ID, b.ID) })
	if len(c.Variables) == 0 {
		c.Variables = nil
	}
	b, _ := json.Marshal(c)
	return b
}

// DocumentObject returns the stored form of a document.
func DocumentObject(doc *Document) (Object, error) {
	b, err := doc.MarshalJSON()
	if err != nil {
		return Object{}, fmt.Errorf("encode document: %w", err)
	}
	return Object{Hash: sum("folio.document.v1", b), Kind: KindDocument, Data: b}, nil
}

// TreeObjects returns the objects t needs that base does not already hold:
// the tree itself and every page subtree whose hash is not among base's
// pages at the same level under the same parent. Unchanged subtrees are not
// walked, so an edit of one page costs O(depth × siblings) whatever the size
// of the tree. base may be nil (everything is new). Storing an object twice
// is harmless: objects are immutable and written with "do nothing on
// conflict".
func TreeObjects(base, t *Tree) []Object {
	var out []Object
	var walk func(old, pages []*Page)
	walk = func(old, pages []*Page) {
		have := make(map[Hash]*Page, len(old))
		for _, p := range old {
			have[p.Hash()] = p
		}
		oldByID := make(map[string]*Page, len(old))
		for _, p := range old {
			oldByID[p.ID] = p
		}
		for _, p := range pages {
			if _, ok := have[p.Hash()]; ok {
				continue
			}
			var prev []*Page
			if o := oldByID[p.ID]; o != nil {
				prev = o.Pages
			}
			walk(prev, p.Pages)
			out = append(out, Object{Hash: p.Hash(), Kind: KindPage, Data: p.canonBytes()})
		}
	}
	var old []*Page
	if base != nil {
		old = base.Pages
	}
	walk(old, t.Pages)
	out = append(out, Object{Hash: t.Hash(), Kind: KindTree, Data: t.canonBytes()})
	return out
}

// Fetch loads stored objects by hash; a hash it cannot find is left out.
type Fetch func(hashes []Hash) (map[Hash][]byte, error)

// LoadTree rebuilds the tree stored under root, loading one level of pages
// per call to fetch. The pages' hashes are taken from the store, not
// recomputed.
func LoadTree(root Hash, fetch Fetch) (*Tree, error) {
	got, err := fetch([]Hash{root})
	if err != nil {
		return nil, err
	}
	data, ok := got[root]
	if !ok {
		return nil, fmt.Errorf("tree object %s is missing", root)
	}
	tc, top, err := decodeTree(data)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", root, err)
	}
	t := &Tree{Files: tc.Files, ReusableContents: tc.ReusableContents, Variables: tc.Variables}
	type slot struct {
		list *[]*Page
		i    int
	}
	// Level by level: each pending child hash is filled into its slot.
	level := map[Hash][]slot{}
	t.Pages = make([]*Page, len(top))
	for i, h := range top {
		level[h] = append(level[h], slot{&t.Pages, i})
	}
	for len(level) > 0 {
		hashes := make([]Hash, 0, len(level))
		for h := range level {
			hashes = append(hashes, h)
		}
		got, err := fetch(hashes)
		if err != nil {
			return nil, err
		}
		next := map[Hash][]slot{}
		for _, h := range hashes {
			data, ok := got[h]
			if !ok {
				return nil, fmt.Errorf("page object %s is missing", h)
			}
			for _, s := range level[h] {
				p, children, err := decodePage(h, data)
				if err != nil {
					return nil, err
				}
				(*s.list)[s.i] = p
				for i, c := range children {
					next[c] = append(next[c], slot{&p.Pages, i})
				}
			}
		}
		level = next
	}
	return t, nil
}

// decodeTree decodes a tree object and the hashes of its top-level pages.
func decodeTree(data []byte) (treeCanon, []Hash, error) {
	var tc treeCanon
	if err := json.Unmarshal(data, &tc); err != nil {
		return tc, nil, fmt.Errorf("decode tree: %w", err)
	}
	pages := make([]Hash, len(tc.Pages))
	for i, s := range tc.Pages {
		h, err := ParseHash(s)
		if err != nil {
			return tc, nil, fmt.Errorf("decode tree: %w", err)
		}
		pages[i] = h
	}
	return tc, pages, nil
}

// decodePage rebuilds a page's own fields from its object and returns its
// children's hashes; the children slice is allocated for the caller to fill.
func decodePage(h Hash, data []byte) (*Page, []Hash, error) {
	var c pageCanon
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, nil, fmt.Errorf("decode page %s: %w", h, err)
	}
	p := &Page{ID: c.ID, Type: c.Type, Title: c.Title, Emoji: c.Emoji, Icon: c.Icon, Slug: c.Slug,
		Description: c.Description, Layout: c.Layout, Cover: c.Cover, Hidden: c.Hidden, NoIndex: c.NoIndex,
		NoRobotsIndex: c.NoRobotsIndex, Variables: c.Variables, MetaLinks: c.MetaLinks, Git: c.Git,
		Computed: c.Computed, Target: c.Target}
	if c.Document != "" {
		d, err := ParseHash(c.Document)
		if err != nil {
			return nil, nil, fmt.Errorf("decode page %s: %w", h, err)
		}
		p.Document = d
	}
	children := make([]Hash, len(c.Pages))
	for i, s := range c.Pages {
		ch, err := ParseHash(s)
		if err != nil {
			return nil, nil, fmt.Errorf("decode page %s: %w", h, err)
		}
		children[i] = ch
	}
	if len(children) > 0 {
		p.Pages = make([]*Page, len(children))
	}
	p.memo.Store(&pageMemo{owner: p, hash: h})
	return p, children, nil
}

// Refs returns what a stored object refers to, for garbage collection:
// the page objects to read in turn, the documents, and the file blobs. A
// document refers to nothing stored by hash (files by id, through the tree).
func Refs(kind string, data []byte) (pages, documents, blobs []Hash, err error) {
	switch kind {
	case KindTree:
		var tc treeCanon
		if tc, pages, err = decodeTree(data); err != nil {
			return nil, nil, nil, err
		}
		for _, rc := range tc.ReusableContents {
			if !rc.Document.IsZero() {
				documents = append(documents, rc.Document)
			}
		}
		for _, f := range tc.Files {
			if !f.Blob.IsZero() {
				blobs = append(blobs, f.Blob)
			}
		}
	case KindPage:
		p, children, err := decodePage(Hash{}, data)
		if err != nil {
			return nil, nil, nil, err
		}
		pages = children
		if !p.Document.IsZero() {
			documents = append(documents, p.Document)
		}
	}
	return pages, documents, blobs, nil
}
