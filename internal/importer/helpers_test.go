package importer

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// file is one member of a test archive.
type file struct {
	name string
	body string
}

// makeZip writes files into a deflated zip archive, in order.
func makeZip(t testing.TB, files ...file) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range files {
		fw, err := w.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate})
		if err != nil {
			t.Fatalf("zip create %s: %v", f.name, err)
		}
		if _, err := fw.Write([]byte(f.body)); err != nil {
			t.Fatalf("zip write %s: %v", f.name, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("zip close: %v", err)
	}
	return buf.Bytes()
}

// importZip imports files with the default limits and checks the tree.
func importZip(t testing.TB, files ...file) *content.Snapshot {
	t.Helper()
	b := makeZip(t, files...)
	s, err := Zip(bytes.NewReader(b), int64(len(b)), Limits{})
	if err != nil {
		t.Fatalf("Zip: %v", err)
	}
	checkSnapshot(t, s)
	return s
}

// checkSnapshot fails unless the tree validates and every document and blob
// it names is in the snapshot and valid.
func checkSnapshot(t testing.TB, s *content.Snapshot) {
	t.Helper()
	if err := s.Tree.Validate(); err != nil {
		t.Fatalf("Tree.Validate: %v", err)
	}
	content.Walk(s.Tree, func(n content.PageNode) bool {
		if h := n.Page.Document; !h.IsZero() {
			doc := s.Documents[h]
			if doc == nil {
				t.Fatalf("page %q: document %s missing from the snapshot", n.Page.Title, h)
			}
			if err := doc.Validate("document"); err != nil {
				t.Fatalf("page %q: %v", n.Page.Title, err)
			}
		}
		return true
	})
	for _, f := range s.Tree.Files {
		if _, ok := s.Blobs[f.Blob]; !ok {
			t.Fatalf("file %s: blob missing", f.Name)
		}
	}
}

// outline writes the tree one page a line: indentation, type (when not a
// document), title and slug.
func outline(s *content.Snapshot) string {
	var b strings.Builder
	content.Walk(s.Tree, func(n content.PageNode) bool {
		b.WriteString(strings.Repeat("  ", n.Depth-1))
		if n.Page.Type != content.PageDocument {
			b.WriteString(n.Page.Type + " ")
		}
		fmt.Fprintf(&b, "%s [%s]", n.Page.Title, n.Page.Slug)
		if n.Page.Type == content.PageLink {
			fmt.Fprintf(&b, " -> %s", n.Page.Target)
		}
		if n.Page.Document.IsZero() && n.Page.Type == content.PageDocument {
			b.WriteString(" (empty)")
		}
		b.WriteString("\n")
		return true
	})
	return b.String()
}

// pageByTitle returns the first page with the given title.
func pageByTitle(t testing.TB, s *content.Snapshot, title string) *content.Page {
	t.Helper()
	var found *content.Page
	content.Walk(s.Tree, func(n content.PageNode) bool {
		if found == nil && n.Page.Title == title {
			found = n.Page
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no page titled %q in\n%s", title, outline(s))
	}
	return found
}

// docMarkdown writes a page's document as Markdown, with references as
// page:ID and file:ID.
func docMarkdown(t testing.TB, s *content.Snapshot, p *content.Page) string {
	t.Helper()
	doc := s.Documents[p.Document]
	if doc == nil {
		return ""
	}
	md, err := markdown.FromDocument(doc, nil)
	if err != nil {
		t.Fatalf("FromDocument: %v", err)
	}
	return strings.TrimSpace(string(md))
}

// refs returns every data.ref of a document, in order.
func refs(doc *content.Document) []map[string]any {
	var out []map[string]any
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for _, n := range nodes {
			if r, ok := n.Data["ref"].(map[string]any); ok {
				out = append(out, r)
			}
			walk(n.Nodes)
			for _, f := range n.Fragments {
				walk(f.Nodes)
			}
		}
	}
	if doc != nil {
		walk(doc.Nodes)
	}
	return out
}

// wantInvalid fails unless err is an Invalid folio error whose message
// holds want.
func wantInvalid(t testing.TB, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want Invalid %q", want)
	}
	var fe *folio.Error
	if !errors.As(err, &fe) || fe.Kind != folio.Invalid {
		t.Fatalf("err = %v (kind %v), want Invalid", err, folio.KindOf(err))
	}
	if !strings.Contains(fe.Message, want) {
		t.Fatalf("message = %q, want it to contain %q", fe.Message, want)
	}
}
