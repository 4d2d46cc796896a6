package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// A revision's tree is a Merkle tree: every page's hash covers its own fields,
// its document's hash and its children's hashes, so two revisions share every
// unchanged subtree by hash, forks share pointers, and Diff skips equal
// subtrees without walking them.
//
// Canonical encodings, each hashed with SHA-256 after a domain tag and a NUL
// byte ("folio.document.v1", "folio.page.v1", "folio.tree.v1"):
//   - a document is its MarshalJSON output: compact, known properties in a fixed
//     order, every map's keys sorted bytewise, strings escaped as encoding/json
//     does. Nil and empty maps differ, so Normalize before hashing.
//   - a page is a compact JSON object of its own fields in the declared order
//     of pageCanon (maps sorted, empty fields omitted, raw JSON re-encoded with
//     sorted keys), its document hash in hex and its children's hashes in hex,
//     in order. Path is derived from slugs and is not hashed.
//   - a tree is a compact JSON object of its top-level page hashes in order,
//     its files and reusable contents sorted by id, and its variables.

// Page types.
const (
	PageDocument = "document"
	PageGroup    = "group"
	PageLink     = "link"
)

// Limits enforced by Tree.Validate. The reference sets only a minimum title
// length; MaxTitleLength is ours. Emoji, icon and description limits are the
// reference's.
const (
	MaxTitleLength       = 255
	MaxDescriptionLength = 300
	MaxEmojiLength       = 50
	MaxPageDepth         = 16
	MaxPages             = 50000
)

// Hash is the SHA-256 content address of a document, page subtree or tree.
// The zero Hash means "none", such as the document of a group page.
type Hash [32]byte

// String returns the hash in lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is the zero Hash.
func (h Hash) IsZero() bool { return h == Hash{} }

// MarshalText encodes the hash as hex; the zero Hash encodes as "".
func (h Hash) MarshalText() ([]byte, error) {
	if h.IsZero() {
		return []byte{}, nil
	}
	return []byte(h.String()), nil
}

// UnmarshalText decodes hex as written by MarshalText; errors are Invalid.
func (h *Hash) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*h = Hash{}
		return nil
	}
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// ParseHash parses 64 hex digits; anything else is an Invalid error.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 64 {
		return h, folio.Errorf(folio.Invalid, "hash must be 64 hex digits")
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, folio.Errorf(folio.Invalid, "hash must be 64 hex digits")
	}
	return h, nil
}

func sum(tag string, body []byte) Hash {
	d := sha256.New()
	d.Write([]byte(tag))
	d.Write([]byte{0})
	d.Write(body)
	var h Hash
	d.Sum(h[:0])
	return h
}

// HashDocument returns the content address of doc over its canonical JSON
// (see the package's tree.go comment); a nil doc hashes to the zero Hash.
func HashDocument(doc *Document) Hash {
	if doc == nil {
		return Hash{}
	}
	b, err := doc.MarshalJSON()
	if err != nil {
		// Only values JSON cannot hold (NaN, channels) get here, and never from
		// a decoded document; fmt prints maps sorted, so this stays deterministic.
		return sum("folio.document.gofmt.v1", fmt.Appendf(nil, "%#v", *doc))
	}
	return sum("folio.document.v1", b)
}

// Layout holds a document page's display options (RevisionPageLayoutOptions).
type Layout struct {
	Width           string `json:"width,omitempty"`     // "default" or "wide"
	Cover           bool   `json:"cover,omitempty"`     // show the cover
	CoverSize       string `json:"coverSize,omitempty"` // "hero" or "full"
	Title           bool   `json:"title,omitempty"`
	Description     bool   `json:"description,omitempty"`
	TableOfContents bool   `json:"tableOfContents,omitempty"`
	Outline         bool   `json:"outline,omitempty"`
	Pagination      bool   `json:"pagination,omitempty"`
	Metadata        bool   `json:"metadata,omitempty"`
}

// Cover is a document page's cover image; Ref and RefDark are ContentRefs.
type Cover struct {
	Ref     json.RawMessage `json:"ref,omitempty"`
	RefDark json.RawMessage `json:"refDark,omitempty"`
	YPos    float64         `json:"yPos,omitempty"`
	Height  float64         `json:"height,omitempty"`
}

// MetaLinks are a page's canonical and alternate URLs for search engines.
type MetaLinks struct {
	Canonical  string   `json:"canonical,omitempty"`
	Alternates []string `json:"alternates,omitempty"`
}

// GitSync locates the blob a page or file was synced from (GitSyncBlob).
type GitSync struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// Page is one node of a revision's page tree. ID is stable across revisions;
// Path is computed from slugs (see Paths) and not part of the hash. A page
// must not be changed in place once it has been hashed: Hash caches its
// result, so edit copies (Tree.Edit does this along the path).
type Page struct {
	ID            string            `json:"id"`
	Type          string            `json:"type"` // PageDocument, PageGroup or PageLink
	Title         string            `json:"title"`
	Emoji         string            `json:"emoji,omitempty"`
	Icon          string            `json:"icon,omitempty"`
	Slug          string            `json:"slug,omitempty"`
	Path          string            `json:"path,omitempty"`
	Description   string            `json:"description,omitempty"`
	Layout        *Layout           `json:"layout,omitempty"`
	Cover         *Cover            `json:"cover,omitempty"`
	Hidden        bool              `json:"hidden,omitempty"`
	NoIndex       bool              `json:"noIndex,omitempty"`
	NoRobotsIndex bool              `json:"noRobotsIndex,omitempty"`
	Variables     map[string]string `json:"variables,omitempty"`
	MetaLinks     *MetaLinks        `json:"metaLinks,omitempty"`
	Git           *GitSync          `json:"git,omitempty"`
	Computed      json.RawMessage   `json:"computed,omitempty"` // ComputedContentSourceDocument
	Target        json.RawMessage   `json:"target,omitempty"`   // ContentRef of a link page
	Document      Hash              `json:"document,omitzero"`  // zero for groups, links and empty documents
	Pages         []*Page           `json:"pages,omitempty"`

	memo atomic.Pointer[pageMemo]
}

// pageMemo caches a page's hash. owner guards against copies: a copied Page
// shares the memo pointer but not the address, so it recomputes.
type pageMemo struct {
	owner *Page
	hash  Hash
}

// File is a file attached to a revision; Blob addresses its bytes.
type File struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	ContentType string   `json:"contentType"`
	Size        int64    `json:"size"`
	Width       float64  `json:"width,omitempty"`
	Height      float64  `json:"height,omitempty"`
	Blob        Hash     `json:"blob,omitzero"`
	Git         *GitSync `json:"git,omitempty"`
}

// ReusableContent is a block of content shared by pages of the revision.
type ReusableContent struct {
	ID       string          `json:"id"`
	Title    string          `json:"title"`
	Document Hash            `json:"document,omitzero"`
	Git      *GitSync        `json:"git,omitempty"`
	Computed json.RawMessage `json:"computed,omitempty"`
}

// Tree is the content of one revision. Trees share unchanged pages by pointer,
// so Fork is O(1) and Edit copies only the path to the edited page.
type Tree struct {
	Pages            []*Page           `json:"pages"`
	Files            []File            `json:"files,omitempty"`
	ReusableContents []ReusableContent `json:"reusableContents,omitempty"`
	Variables        map[string]string `json:"variables,omitempty"`
}

// pageCanon is the canonical shape hashed for a page; field order is fixed.
type pageCanon struct {
	ID            string            `json:"id"`
	Type          string            `json:"type"`
	Title         string            `json:"title"`
	Emoji         string            `json:"emoji,omitempty"`
	Icon          string            `json:"icon,omitempty"`
	Slug          string            `json:"slug,omitempty"`
	Description   string            `json:"description,omitempty"`
	Layout        *Layout           `json:"layout,omitempty"`
	Cover         *Cover            `json:"cover,omitempty"`
	Hidden        bool              `json:"hidden,omitempty"`
	NoIndex       bool              `json:"noIndex,omitempty"`
	NoRobotsIndex bool              `json:"noRobotsIndex,omitempty"`
	Variables     map[string]string `json:"variables,omitempty"`
	MetaLinks     *MetaLinks        `json:"metaLinks,omitempty"`
	Git           *GitSync          `json:"git,omitempty"`
	Computed      json.RawMessage   `json:"computed,omitempty"`
	Target        json.RawMessage   `json:"target,omitempty"`
	Document      string            `json:"document,omitempty"`
	Pages         []string          `json:"pages,omitempty"`
}

// canonRaw re-encodes raw JSON with sorted keys and no spaces, so equal
// values hash equally; invalid JSON is kept as a JSON string of its bytes.
func canonRaw(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		b, _ := json.Marshal(string(raw))
		return b
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func canonCover(c *Cover) *Cover {
	if c == nil {
		return nil
	}
	return &Cover{Ref: canonRaw(c.Ref), RefDark: canonRaw(c.RefDark), YPos: c.YPos, Height: c.Height}
}

// ownCanon returns the page's own fields in canonical form, without children.
func (p *Page) ownCanon() pageCanon {
	c := pageCanon{
		ID: p.ID, Type: p.Type, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Slug: p.Slug,
		Description: p.Description, Layout: p.Layout, Cover: canonCover(p.Cover),
		Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex,
		Variables: p.Variables, MetaLinks: p.MetaLinks, Git: p.Git,
		Computed: canonRaw(p.Computed), Target: canonRaw(p.Target),
	}
	if len(c.Variables) == 0 {
		c.Variables = nil
	}
	if !p.Document.IsZero() {
		c.Document = p.Document.String()
	}
	return c
}

// ownKey returns the canonical bytes of the page's own metadata (no
// document, no children), used by Diff and Merge to compare metadata.
func (p *Page) ownKey() string {
	c := p.ownCanon()
	c.Document = ""
	b, _ := json.Marshal(c)
	return string(b)
}

// Hash returns the Merkle hash of the page's subtree: its own fields, its
// document hash and its children's hashes in order. It is cached per page.
func (p *Page) Hash() Hash {
	if m := p.memo.Load(); m != nil && m.owner == p {
		return m.hash
	}
	h := sum("folio.page.v1", p.canonBytes())
	p.memo.Store(&pageMemo{owner: p, hash: h})
	return h
}

// Clone returns a copy of the page's own fields sharing its children slice's
// elements (a new slice); maps, pointers and raw JSON are copied too, so the
// copy can be edited freely.
func (p *Page) Clone() *Page {
	c := &Page{
		ID: p.ID, Type: p.Type, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Slug: p.Slug, Path: p.Path,
		Description: p.Description, Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex,
		Computed: bytes.Clone(p.Computed), Target: bytes.Clone(p.Target), Document: p.Document,
		Pages: slices.Clone(p.Pages),
	}
	if p.Variables != nil {
		c.Variables = make(map[string]string, len(p.Variables))
		for k, v := range p.Variables {
			c.Variables[k] = v
		}
	}
	if p.Layout != nil {
		l := *p.Layout
		c.Layout = &l
	}
	if p.Cover != nil {
		cv := Cover{Ref: bytes.Clone(p.Cover.Ref), RefDark: bytes.Clone(p.Cover.RefDark), YPos: p.Cover.YPos, Height: p.Cover.Height}
		c.Cover = &cv
	}
	if p.MetaLinks != nil {
		c.MetaLinks = &MetaLinks{Canonical: p.MetaLinks.Canonical, Alternates: slices.Clone(p.MetaLinks.Alternates)}
	}
	if p.Git != nil {
		g := *p.Git
		c.Git = &g
	}
	return c
}

type treeCanon struct {
	Pages            []string          `json:"pages"`
	Files            []File            `json:"files,omitempty"`
	ReusableContents []ReusableContent `json:"reusableContents,omitempty"`
	Variables        map[string]string `json:"variables,omitempty"`
}

// Hash returns the Merkle hash of the whole revision: top-level page hashes
// in order, files and reusable contents by id, and variables.
func (t *Tree) Hash() Hash { return sum("folio.tree.v1", t.canonBytes()) }

// Fork returns a new tree sharing every page, file and reusable content with
// t; it costs O(top-level pages + files) pointer copies and no hashing.
func (t *Tree) Fork() *Tree {
	f := &Tree{
		Pages:            slices.Clone(t.Pages),
		Files:            slices.Clone(t.Files),
		ReusableContents: slices.Clone(t.ReusableContents),
	}
	if t.Variables != nil {
		f.Variables = make(map[string]string, len(t.Variables))
		for k, v := range t.Variables {
			f.Variables[k] = v
		}
	}
	return f
}

// Edit returns a new tree in which the page with the given id has been
// replaced by a clone that edit changed; the page's ancestors are copied and
// everything else is shared with t. An unknown id is a NotFound error.
func (t *Tree) Edit(pageID string, edit func(p *Page)) (*Tree, error) {
	return t.EditAt(findChain(t.Pages, pageID), pageID, edit)
}

// EditAt is Edit for a page whose place is known: chain holds its index
// among its siblings at each level from the top (as PageNode.Index along
// its ancestors), so the tree is not searched. A chain that does not lead
// to pageID is a NotFound error.
func (t *Tree) EditAt(chain []int, pageID string, edit func(p *Page)) (*Tree, error) {
	notFound := folio.Errorf(folio.NotFound, "page %s not found", pageID)
	if len(chain) == 0 {
		return nil, notFound
	}
	out := t.Fork()
	list := out.Pages
	for depth, idx := range chain {
		if idx < 0 || idx >= len(list) {
			return nil, notFound
		}
		c := list[idx].Clone()
		if depth == len(chain)-1 {
			if c.ID != pageID {
				return nil, notFound
			}
			edit(c)
		}
		list[idx] = c
		list = c.Pages
	}
	return out, nil
}

// findChain returns the indexes leading from pages to the page with id.
func findChain(pages []*Page, id string) []int {
	for i, p := range pages {
		if p.ID == id {
			return []int{i}
		}
		if rest := findChain(p.Pages, id); rest != nil {
			return append([]int{i}, rest...)
		}
	}
	return nil
}

// PageNode is a page with its place in the tree: its parent's id ("" at the top
// level), its index among its siblings and its depth (1 at the top level).
type PageNode struct {
	Page   *Page
	Parent string
	Index  int
	Depth  int
}

// Walk calls fn for every page in depth-first pre-order; returning false
// from fn skips the page's children.
func Walk(t *Tree, fn func(n PageNode) bool) {
	var walk func(parent string, pages []*Page, depth int)
	walk = func(parent string, pages []*Page, depth int) {
		for i, p := range pages {
			if fn(PageNode{Page: p, Parent: parent, Index: i, Depth: depth}) {
				walk(p.ID, p.Pages, depth+1)
			}
		}
	}
	walk("", t.Pages, 1)
}

// Nodes returns every page of t in depth-first pre-order with its place.
func Nodes(t *Tree) []PageNode {
	var out []PageNode
	Walk(t, func(n PageNode) bool { out = append(out, n); return true })
	return out
}

// Find returns the page with the given id and its place; a missing page is
// a NotFound error.
func Find(t *Tree, pageID string) (PageNode, error) {
	var found *PageNode
	Walk(t, func(n PageNode) bool {
		if found != nil {
			return false
		}
		if n.Page.ID == pageID {
			found = &n
			return false
		}
		return true
	})
	if found == nil {
		return PageNode{}, folio.Errorf(folio.NotFound, "page %s not found", pageID)
	}
	return *found, nil
}

// FindByPath returns the document or group page whose slugs from the root
// spell path ("parent/child", surrounding slashes ignored); a missing page is
// a NotFound error.
func FindByPath(t *Tree, path string) (PageNode, error) {
	path = strings.Trim(path, "/")
	parts := strings.Split(path, "/")
	pages, parent := t.Pages, ""
	for depth, slug := range parts {
		var next *Page
		idx := -1
		for i, p := range pages {
			if p.Type != PageLink && p.Slug == slug {
				next, idx = p, i
				break
			}
		}
		if next == nil {
			return PageNode{}, folio.Errorf(folio.NotFound, "page %q not found", path)
		}
		if depth == len(parts)-1 {
			return PageNode{Page: next, Parent: parent, Index: idx, Depth: depth + 1}, nil
		}
		pages, parent = next.Pages, next.ID
	}
	return PageNode{}, folio.Errorf(folio.NotFound, "page %q not found", path)
}

// Validate checks the tree's rules: unique non-empty page ids, valid types,
// titles of 1–MaxTitleLength characters, slugs present and unique among
// siblings, no documents on groups or links, a target on links, groups only at
// the top level, no children under links, depth ≤ MaxPageDepth and at most
// MaxPages pages. Errors are Invalid, with Field naming the page. The first
// error in depth-first pre-order is reported; ValidateEdit gives the same
// verdicts for an edited tree without walking what it shares with its base.
func (t *Tree) Validate() error {
	v := treeChecker{ids: make(map[string]struct{}, countPages(t.Pages, MaxPages+1))}
	return v.list(t.Pages, 1)
}

// treeChecker is the state of Validate's walk. path holds the index of each
// page from the top down to the page being checked; field names are built
// from it only when an error is reported.
type treeChecker struct {
	ids   map[string]struct{}
	count int
	path  []int
}

func (v *treeChecker) list(pages []*Page, depth int) error {
	v.path = append(v.path, 0)
	var slugs siblingSlugs
	for i, p := range pages {
		v.path[depth-1] = i
		if p == nil {
			return nilPage(v.path)
		}
		v.count++
		if v.count > MaxPages {
			return tooManyPages()
		}
		if err := checkHead(p, depth, v.path); err != nil {
			return err
		}
		if _, dup := v.ids[p.ID]; dup {
			return duplicateID(v.path, p.ID)
		}
		v.ids[p.ID] = struct{}{}
		if err := checkBody(p, depth, v.path); err != nil {
			return err
		}
		if err := slugs.claim(p, v.path); err != nil {
			return err
		}
		if err := v.list(p.Pages, depth+1); err != nil {
			return err
		}
	}
	v.path = v.path[:depth-1]
	return nil
}

// countPages sizes Validate's id set: it counts pages down to one level
// past MaxPageDepth, stopping soon after limit.
func countPages(pages []*Page, limit int) int {
	var count func(pages []*Page, depth int) int
	count = func(pages []*Page, depth int) int {
		n := len(pages)
		if depth > MaxPageDepth {
			return n
		}
		for _, p := range pages {
			if n > limit {
				break
			}
			if p != nil {
				n += count(p.Pages, depth+1)
			}
		}
		return n
	}
	return min(count(pages, 1), limit)
}

// fieldAt names the page at path ("pages[3].pages[1]") followed by suffix.
func fieldAt(path []int, suffix string) string {
	b := make([]byte, 0, len(path)*10+len(suffix))
	for k, i := range path {
		if k > 0 {
			b = append(b, '.')
		}
		b = append(b, "pages["...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ']')
	}
	return string(append(b, suffix...))
}

func nilPage(path []int) error {
	return folio.FieldErrorf(fieldAt(path, ""), "page must not be null")
}

func tooManyPages() error {
	return folio.FieldErrorf("pages", "a revision holds at most %d pages", MaxPages)
}

func duplicateID(path []int, id string) error {
	return folio.FieldErrorf(fieldAt(path, ".id"), "page id %s is used twice", id)
}

// checkHead runs the checks Validate makes on a page before its id's
// uniqueness: depth and a non-empty id.
func checkHead(p *Page, depth int, path []int) error {
	if depth > MaxPageDepth {
		return folio.FieldErrorf(fieldAt(path, ""), "pages nest at most %d levels deep", MaxPageDepth)
	}
	if p.ID == "" {
		return folio.FieldErrorf(fieldAt(path, ".id"), "page id is required")
	}
	return nil
}

// checkBody runs the checks Validate makes on a page's own fields after its
// id's uniqueness, up to and excluding the uniqueness of its slug.
func checkBody(p *Page, depth int, path []int) error {
	if n := utf8.RuneCountInString(p.Title); n < 1 || n > MaxTitleLength {
		return folio.FieldErrorf(fieldAt(path, ".title"), "title must be 1–%d characters", MaxTitleLength)
	}
	if utf8.RuneCountInString(p.Description) > MaxDescriptionLength {
		return folio.FieldErrorf(fieldAt(path, ".description"), "description must be at most %d characters", MaxDescriptionLength)
	}
	if utf8.RuneCountInString(p.Emoji) > MaxEmojiLength || utf8.RuneCountInString(p.Icon) > MaxEmojiLength {
		return folio.FieldErrorf(fieldAt(path, ""), "emoji and icon must be at most %d characters", MaxEmojiLength)
	}
	switch p.Type {
	case PageDocument:
	case PageGroup:
		if depth > 1 {
			return folio.FieldErrorf(fieldAt(path, ".type"), "group pages are only allowed at the top level")
		}
		if !p.Document.IsZero() {
			return folio.FieldErrorf(fieldAt(path, ".document"), "a group page has no document")
		}
	case PageLink:
		if !p.Document.IsZero() {
			return folio.FieldErrorf(fieldAt(path, ".document"), "a link page has no document")
		}
		if target := bytes.TrimSpace(p.Target); len(target) == 0 || string(target) == "null" {
			return folio.FieldErrorf(fieldAt(path, ".target"), "a link page needs a target")
		}
		if len(p.Pages) > 0 {
			return folio.FieldErrorf(fieldAt(path, ".pages"), "a link page has no child pages")
		}
	default:
		return folio.FieldErrorf(fieldAt(path, ".type"), "page type must be document, group or link")
	}
	if p.Type != PageLink && (p.Slug == "" || strings.Contains(p.Slug, "/")) {
		return folio.FieldErrorf(fieldAt(path, ".slug"), "slug must be non-empty and contain no slash")
	}
	return nil
}

// siblingSlugs holds the slugs taken in one sibling list and the page
// holding each. Short lists are scanned, longer ones use a map.
type siblingSlugs struct {
	few  [16]slugHolder
	n    int
	many map[string]string
}

type slugHolder struct{ slug, id string }

// claim records p's slug, or reports the sibling that already holds it.
// Link pages have no slug.
func (s *siblingSlugs) claim(p *Page, path []int) error {
	if p.Type == PageLink {
		return nil
	}
	if s.many == nil {
		for _, h := range s.few[:s.n] {
			if h.slug == p.Slug {
				return slugTaken(path, p.Slug, h.id)
			}
		}
		if s.n < len(s.few) {
			s.few[s.n] = slugHolder{p.Slug, p.ID}
			s.n++
			return nil
		}
		s.many = make(map[string]string, 2*len(s.few))
		for _, h := range s.few {
			s.many[h.slug] = h.id
		}
	}
	if other, dup := s.many[p.Slug]; dup {
		return slugTaken(path, p.Slug, other)
	}
	s.many[p.Slug] = p.ID
	return nil
}

func slugTaken(path []int, slug, other string) error {
	return folio.FieldErrorf(fieldAt(path, ".slug"), "slug %q is used by sibling page %s", slug, other)
}
