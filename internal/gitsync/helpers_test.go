package gitsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
	"github.com/foliodocs/folio/internal/markdown"
)

// loadDir reads a testdata folder as a repository tree.
func loadDir(t testing.TB, dir string) Files {
	t.Helper()
	files := Files{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	return files
}

// read reads files and checks the snapshot.
func read(t testing.TB, files Files, opts ReadOptions) *Result {
	t.Helper()
	res, err := Read(files, opts)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	checkSnapshot(t, res.Snapshot)
	return res
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
				t.Fatalf("page %q: document missing", n.Page.Title)
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

// outline writes the tree one page a line: indentation, type when not a
// document, title, slug, git path and link target.
func outline(s *content.Snapshot) string {
	var b strings.Builder
	content.Walk(s.Tree, func(n content.PageNode) bool {
		p := n.Page
		b.WriteString(strings.Repeat("  ", n.Depth-1))
		if p.Type != content.PageDocument {
			b.WriteString(p.Type + " ")
		}
		fmt.Fprintf(&b, "%s [%s]", p.Title, p.Slug)
		if p.Git != nil {
			fmt.Fprintf(&b, " %s", p.Git.Path)
		}
		if p.Type == content.PageLink {
			fmt.Fprintf(&b, " -> %s", p.Target)
		}
		if p.Type == content.PageDocument && p.Document.IsZero() {
			b.WriteString(" (empty)")
		}
		b.WriteString("\n")
		return true
	})
	return b.String()
}

// byTitle returns the first page with the given title.
func byTitle(t testing.TB, s *content.Snapshot, title string) *content.Page {
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

// body writes a page's document as Markdown with page:ID and file:ID
// references.
func body(t testing.TB, s *content.Snapshot, p *content.Page) string {
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

// wantInvalid fails unless err is Invalid and its message holds want.
func wantInvalid(t testing.TB, err error, want string) {
	t.Helper()
	var fe *folio.Error
	if err == nil || !errors.As(err, &fe) || fe.Kind != folio.Invalid {
		t.Fatalf("err = %v (kind %v), want Invalid %q", err, folio.KindOf(err), want)
	}
	if !strings.Contains(fe.Message, want) {
		t.Fatalf("message = %q, want it to contain %q", fe.Message, want)
	}
}

// diffFiles lists the paths whose bytes differ between two trees.
func diffFiles(want, got Files) string {
	var out []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			out = append(out, "missing "+p)
		case string(g) != string(w):
			out = append(out, fmt.Sprintf("differs %s:\n--- want\n%s\n--- got\n%s", p, w, g))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			out = append(out, "extra "+p)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func limits(pages, files int, fileBytes, total int64) importer.Limits {
	return importer.Limits{MaxPages: pages, MaxFiles: files, MaxFileBytes: fileBytes, MaxTotalBytes: total}
}
