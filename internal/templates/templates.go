package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// The template ids, in the order IDs returns them.
const (
	Blank         = "blank"
	ProductDocs   = "product-docs"
	KnowledgeBase = "knowledge-base"
	Changelog     = "changelog"
	APIReference  = "api-reference"
)

var ids = []string{Blank, ProductDocs, KnowledgeBase, Changelog, APIReference}

//go:embed pages
var files embed.FS

// Input is what applying a template may use besides its own content.
type Input struct {
	// OpenAPI is a spec document (JSON or YAML, OpenAPI 3.x) from which
	// api-reference generates its pages; optional, and ignored by the other
	// templates.
	OpenAPI []byte
	// Title is the space title, used in the templates' text; optional
	// (each template has a neutral fallback). Pages generated from an
	// OpenAPI document use the document's info.title instead.
	Title string
}

// Template describes a built-in template for listings (the reference's
// SpaceTemplate): its id, name, one-line subtitle and emoji (hex codepoints).
type Template struct {
	ID       string
	Title    string
	Subtitle string
	Emoji    string
}

// IDs returns the template ids in a stable order.
func IDs() []string { return slices.Clone(ids) }

// List returns every template's description, in the order of IDs.
func List() []Template {
	out := make([]Template, 0, len(ids))
	for _, id := range ids {
		m := catalog[id]
		out = append(out, Template{ID: id, Title: m.Title, Subtitle: m.Subtitle, Emoji: emojiCode(m.Emoji)})
	}
	return out
}

// Build returns the content of template id as a snapshot (tree and
// documents), with fresh page ids and slugs unique among siblings. An unknown
// id is an Invalid error on field "id"; an OpenAPI document api-reference
// cannot read is an Invalid error on field "params.contentRefs". Content that
// fails validation otherwise is a bug, reported as Internal.
func Build(id string, in Input) (*content.Snapshot, error) {
	m, ok := catalog[id]
	if !ok {
		return nil, folio.FieldErrorf("id", "template %q does not exist; use one of: %s", id, strings.Join(ids, ", "))
	}
	if id == APIReference && len(bytes.TrimSpace(in.OpenAPI)) > 0 {
		return buildFromSpec(in)
	}
	return buildStatic(id, m, in)
}

// manifest is a template folder's manifest.json.
type manifest struct {
	Title    string     `json:"title"`
	Subtitle string     `json:"subtitle"`
	Emoji    string     `json:"emoji"`
	Fallback string     `json:"fallbackTitle"` // stands for {{title}} when the space has none
	Pages    []pageSpec `json:"pages"`
}

// pageSpec is one page of a manifest. Type defaults to document; a document
// without File is an empty page. Slug defaults to the slugified title.
type pageSpec struct {
	Title       string     `json:"title"`
	Type        string     `json:"type"`
	File        string     `json:"file"`
	Slug        string     `json:"slug"`
	Emoji       string     `json:"emoji"`
	Description string     `json:"description"`
	Pages       []pageSpec `json:"pages"`
}

// catalog holds every template's manifest by id. The manifests are embedded,
// so a broken one is a build mistake: the package panics at start-up, which
// every test run shows at once.
var catalog = mustLoadCatalog()

func mustLoadCatalog() map[string]*manifest {
	out := make(map[string]*manifest, len(ids))
	for _, id := range ids {
		b, err := files.ReadFile("pages/" + id + "/manifest.json")
		if err != nil {
			panic(fmt.Sprintf("templates: %s: %v", id, err))
		}
		var m manifest
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			panic(fmt.Sprintf("templates: %s/manifest.json: %v", id, err))
		}
		out[id] = &m
	}
	return out
}

// pendingDoc is a document page whose Markdown is converted once every page
// has its id, so links between pages can resolve.
type pendingDoc struct {
	page *content.Page
	file string
}

func buildStatic(id string, m *manifest, in Input) (*content.Snapshot, error) {
	snap := content.NewSnapshot()
	byFile := map[string]string{}
	var docs []pendingDoc
	var add func(specs []pageSpec) []*content.Page
	add = func(specs []pageSpec) []*content.Page {
		out := make([]*content.Page, 0, len(specs))
		var slugs []string
		for _, s := range specs {
			p := &content.Page{ID: folio.NewID(), Type: s.Type, Title: s.Title,
				Emoji: emojiCode(s.Emoji), Description: s.Description}
			if p.Type == "" {
				p.Type = content.PageDocument
			}
			want := s.Slug
			if want == "" {
				want = content.Slugify(s.Title)
			}
			p.Slug = content.UniqueSlug(slugs, want)
			slugs = append(slugs, p.Slug)
			if s.File != "" {
				byFile[s.File] = p.ID
				docs = append(docs, pendingDoc{p, s.File})
			}
			p.Pages = add(s.Pages)
			out = append(out, p)
		}
		return out
	}
	snap.Tree.Pages = add(m.Pages)

	title := []byte(inlineText(in.Title))
	if len(title) == 0 {
		title = []byte(m.Fallback)
	}
	for _, d := range docs {
		src, err := files.ReadFile("pages/" + id + "/" + d.file)
		if err != nil {
			return nil, internalf(id, err)
		}
		src = bytes.ReplaceAll(src, []byte("{{title}}"), title)
		doc, err := markdown.ToDocument(src, fileResolver{dir: path.Dir(d.file), pages: byFile})
		if err != nil {
			return nil, internalf(id+"/"+d.file, err)
		}
		d.page.Document = snap.AddDocument(doc)
	}
	if err := check(snap); err != nil {
		return nil, internalf(id, err)
	}
	return snap, nil
}

// check applies the rules a revision must meet to a built snapshot.
func check(snap *content.Snapshot) error {
	if err := snap.Tree.Validate(); err != nil {
		return err
	}
	for _, n := range content.Nodes(snap.Tree) {
		h := n.Page.Document
		if h.IsZero() {
			continue
		}
		doc, ok := snap.Documents[h]
		if !ok {
			return fmt.Errorf("page %s: document %s missing", n.Page.ID, h)
		}
		if err := doc.Validate("document"); err != nil {
			return fmt.Errorf("page %s: %w", n.Page.ID, err)
		}
	}
	return nil
}

// internalf reports a template that does not build: a bug in the embedded
// content or in the generator, never the caller's fault, so its kind is
// Internal even when the cause is an Invalid error.
func internalf(what string, err error) error {
	return &folio.Error{Kind: folio.Internal, Message: "template " + what + " does not build", Err: err}
}

// fileResolver resolves relative links between a template's Markdown files
// ("quickstart.md#step-1") to the pages built from them.
type fileResolver struct {
	dir   string
	pages map[string]string // file path in the template folder -> page id
}

func (r fileResolver) Page(target string) (string, string, bool) {
	p, anchor, _ := strings.Cut(target, "#")
	if !strings.HasSuffix(p, ".md") {
		return "", "", false
	}
	id, ok := r.pages[path.Join(r.dir, p)]
	return id, anchor, ok
}

func (fileResolver) File(string) (string, bool) { return "", false }

// emojiCode writes an emoji as GitBook stores it: lowercase hex codepoints
// joined by "-", leaving out variation selectors and zero-width joiners
// (GitBook's renderer restores them).
func emojiCode(s string) string {
	parts := make([]string, 0, 2)
	for _, r := range s {
		if r == 0xfe0f || r == 0x200d {
			continue
		}
		parts = append(parts, strconv.FormatInt(int64(r), 16))
	}
	return strings.Join(parts, "-")
}

// inlineText turns text from outside (a space title, an OpenAPI summary)
// into Markdown that reads back as exactly that text on one line: runs of
// white space become one space and every ASCII punctuation character but
// "|" is backslash-escaped, which CommonMark allows for all of them. That
// also keeps "{%" from opening a GitBook block. Pipes only matter in tables,
// whose writer (md.table) escapes them.
func inlineText(s string) string {
	var b strings.Builder
	for i, f := range strings.Fields(s) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range f {
			if r < 0x80 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{}~", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
