package markdown

import (
	"encoding/json"
	"flag"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// fakeResolver resolves "*.md" targets to "page-<base>" and
// ".gitbook/assets/*" targets to "file-<base>".
type fakeResolver struct{}

func (fakeResolver) Page(target string) (string, string, bool) {
	p, anchor, _ := strings.Cut(target, "#")
	if !strings.HasSuffix(p, ".md") {
		return "", "", false
	}
	return "page-" + strings.TrimSuffix(path.Base(p), ".md"), anchor, true
}

func (fakeResolver) File(target string) (string, bool) {
	if !strings.HasPrefix(target, ".gitbook/assets/") {
		return "", false
	}
	return "file-" + path.Base(target), true
}

// Reusable resolves ".gitbook/includes/*.md" targets to "reusable-<base>".
func (fakeResolver) Reusable(target string) (string, bool) {
	dir, file := path.Split(target)
	if !strings.HasSuffix(dir, ".gitbook/includes/") || !strings.HasSuffix(file, ".md") {
		return "", false
	}
	return "reusable-" + strings.TrimSuffix(file, ".md"), true
}

// fakeTarget is the inverse of fakeResolver.
type fakeTarget struct{}

func (fakeTarget) PagePath(id, anchor string) string {
	p := strings.TrimPrefix(id, "page-") + ".md"
	if anchor != "" {
		p += "#" + anchor
	}
	return p
}

func (fakeTarget) ReusablePath(id string) string {
	return "../.gitbook/includes/" + strings.TrimPrefix(id, "reusable-") + ".md"
}

func (fakeTarget) FilePath(id string) string {
	return ".gitbook/assets/" + strings.TrimPrefix(id, "file-")
}

func corpus(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.md")
	if err != nil || len(files) < 8 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	return files
}

func mustDoc(t *testing.T, src string, r Resolver) *content.Document {
	t.Helper()
	doc, err := ToDocument([]byte(src), r)
	if err != nil {
		t.Fatalf("ToDocument: %v", err)
	}
	if err := doc.Validate("document"); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return doc
}

// roundTrip checks that Markdown -> Document -> Markdown -> Document is stable.
func roundTrip(t *testing.T, doc *content.Document, r Resolver, lt LinkTarget) string {
	t.Helper()
	md, err := FromDocument(doc, lt)
	if err != nil {
		t.Fatalf("FromDocument: %v", err)
	}
	again := mustDoc(t, string(md), r)
	if diff := cmp.Diff(doc, again); diff != "" {
		t.Fatalf("Markdown -> Document -> Markdown -> Document changed (-first +second):\n%s\nMarkdown:\n%s", diff, md)
	}
	return string(md)
}

func TestGolden(t *testing.T) {
	for _, file := range corpus(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			doc := mustDoc(t, string(src), fakeResolver{})
			got, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(strings.TrimSpace(string(want)), string(got)); diff != "" {
				t.Errorf("golden mismatch (-want +got):\n%s", diff)
			}
			// The JSON form reads back as the same document.
			var decoded content.Document
			if err := json.Unmarshal(got, &decoded); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(doc, &decoded); diff != "" {
				t.Errorf("JSON round trip (-doc +decoded):\n%s", diff)
			}
			roundTrip(t, doc, fakeResolver{}, fakeTarget{})
			roundTrip(t, mustDoc(t, string(src), nil), nil, nil)
		})
	}
}

func TestToDocumentRejectsNonUTF8(t *testing.T) {
	_, err := ToDocument([]byte("bad \xff byte"), nil)
	if folio.KindOf(err) != folio.Invalid {
		t.Fatalf("err = %v, want Invalid", err)
	}
}
