package reader_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/reader"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// bigSite imports a space of 10,100 pages (100 folders of 100 pages and a
// README each, ~500 words with headings, lists, code and links) and
// publishes it as a public site; it returns the reader paths of every
// 97th page of the folders.
func bigSite(b *testing.B, s *apitest.Server) []string {
	org, admin := s.Org(b)
	archive := corpus.Zip(100, 100, 500, 2)
	zs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(archive) }))
	b.Cleanup(zs.Close)
	var sp struct{ ID string }
	s.Do(b, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Big"}).WantStatus(b, 201).JSON(b, &sp)
	s.Do(b, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import",
		map[string]any{"source": "zip", "url": zs.URL + "/docs.zip"}).WantStatus(b, 201)
	var st struct{ ID string }
	s.Do(b, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{sp.ID}}).
		WantStatus(b, 201).JSON(b, &st)
	s.Do(b, admin, "POST", "/v1/orgs/"+org+"/sites/"+st.ID+"/publish", nil).WantStatus(b, 200)
	type pg struct {
		Path  string
		Pages []pg
	}
	var tree struct{ Pages []pg }
	s.Do(b, admin, "GET", "/v1/spaces/"+sp.ID+"/content/pages", nil).WantStatus(b, 200).JSON(b, &tree)
	var paths []string
	i := 0
	for _, f := range tree.Pages {
		for _, p := range f.Pages {
			if i%97 == 0 {
				paths = append(paths, "/sites/"+st.ID+"/"+p.Path)
			}
			i++
		}
	}
	if i != 10000 {
		b.Fatalf("%d pages in folders, want 10000", i)
	}
	return paths
}

// BenchmarkReader10000 serves reader pages of a published 10,000-page
// space in process, over ~100 pages in turn: "cached" once their parts
// are in the cache (after a first round), "uncached" with the cache off,
// so that every request loads the document and renders it (highlighting,
// navigation, templates). The site lookup is done on every request in
// both.
func BenchmarkReader10000(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			paths := bigSite(b, s)
			get := func(b *testing.B, h http.Handler, path string) {
				req := httptest.NewRequest("GET", path, nil)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
				}
				b.SetBytes(int64(rec.Body.Len()))
			}
			for _, c := range []struct {
				name  string
				bytes int
			}{{"cached", reader.DefaultCacheBytes}, {"uncached", 0}} {
				b.Run(c.name, func(b *testing.B) {
					h := reader.New(s.App, apitest.PublicURL, nil)
					h.SetCacheBytes(c.bytes)
					for _, p := range paths {
						get(b, h, p)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := range b.N {
						get(b, h, paths[i%len(paths)])
					}
				})
			}
		})
	}
}
