package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// importPinFiles is a representative import without links between pages
// (their references carry random page ids): generated pages, headings that
// repeat, Markdown kept as source (soft line breaks, HTML, footnotes), a
// hint, a table, two pages with the same content and an HTML page.
func importPinFiles() map[string][]byte {
	files := map[string][]byte{}
	for i := range 6 {
		files[fmt.Sprintf("guide/page-%d.md", i)] = []byte(corpus.Page(fmt.Sprintf("Guide %d", i), 300+40*i, uint64(i+1)))
	}
	files["guide/README.md"] = []byte(corpus.Page("Guide", 200, 9))
	same := "# Same\n\nThe same text in two pages.\n\n## Again\n\n## Again\n"
	files["a/same.md"], files["b/same.md"] = []byte(same), []byte(same)
	files["mixed.md"] = []byte(strings.Join([]string{
		"---", "title: Mixed", "description: Everything at once", "---",
		"Intro line one\nline two, **bold** and _em_ and `code`.", "",
		"## Setup {#setup}", "",
		"<div>raw html</div>", "",
		"A footnote[^1].", "", "[^1]: The note.", "",
		"{% hint style=\"info\" %}", "Hinted *text*.", "{% endhint %}", "",
		"| a | b |", "|---|---|", "| 1 | 2 |", "",
		"1. one", "   - nested [out](https://example.com/x)", "2. two", "",
		"```go", "fmt.Println(1)", "```", "",
		"> quoted", "> lines", "",
	}, "\n"))
	files["page.html"] = []byte(`<html><head><title>Html</title></head><body><h1>Html page</h1><p>Some <b>bold</b> text.</p><h2>Part</h2><ul><li>x</li></ul></body></html>`)
	return files
}

// TestImportStoresSameDocuments pins the documents an import stores: the
// hash of their sorted object hashes (each the hash of a stored document's
// bytes) is the one the import stored before its memory was reduced
// (docs/performance.md, "Import memory"), on both stores.
func TestImportStoresSameDocuments(t *testing.T) {
	const want = "b8caf9e60a7c6a515b47494374d7577d5541d9e0b5ffd795d5acf548aedd4cb2"
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			c := newGCCluster(t, kind, 1, 10*time.Minute)
			a := c.apps[0]
			ctx := context.Background()
			space := c.importZip(t, a, "Pinned", importPinFiles())
			got, err := a.GetContent(ctx, c.admin, space, "")
			if err != nil {
				t.Fatal(err)
			}
			var hashes []string
			pages := 0
			var walk func(ps []*content.Page)
			walk = func(ps []*content.Page) {
				for _, p := range ps {
					pages++
					if !p.Document.IsZero() && !slices.Contains(hashes, p.Document.String()) {
						hashes = append(hashes, p.Document.String())
					}
					walk(p.Pages)
				}
			}
			walk(got.Tree.Pages)
			if pages != 13 || len(hashes) != 10 {
				t.Fatalf("%d pages with %d documents, want 13 with 10", pages, len(hashes))
			}
			// Every document is stored, under the hash of its bytes.
			var objs map[string]store.Object
			if err := c.dbs[0].Read(ctx, func(tx *store.Tx) (err error) {
				objs, err = store.GetObjects(ctx, tx, hashes)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			for _, h := range hashes {
				o, ok := objs[h]
				if !ok {
					t.Fatalf("document %s is not stored", h)
				}
				if o.Kind != content.KindDocument {
					t.Fatalf("object %s is a %s", h, o.Kind)
				}
				if !content.KeyedJSON(o.Data) {
					t.Errorf("document %s is stored without its keys: %s", h, o.Data)
				}
			}
			slices.Sort(hashes)
			sum := sha256.Sum256([]byte(strings.Join(hashes, "\n")))
			if g := hex.EncodeToString(sum[:]); g != want {
				t.Errorf("stored documents hash to %s, want %s", g, want)
			}
		})
	}
}
