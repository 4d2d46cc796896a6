package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// serveBytes serves body at any path on loopback, for imports by URL.
func serveBytes(b testing.TB, body []byte) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	b.Cleanup(ts.Close)
	return ts.URL + "/docs.zip"
}

// importURL imports a zip served at u into a new space and returns the
// space id.
func importURL(b testing.TB, s *apitest.Server, token, org, u string) string {
	space := newSpace(b, s, token, org, "Bench")
	s.Do(b, token, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "zip", "url": u}).WantStatus(b, 201)
	return space
}

// BenchmarkImport1000Pages imports a 1,000-page zip (20 folders of 49 pages
// and their READMEs, ~300 words each) into a new space per iteration,
// through the API: fetch, parse, store, index.
func BenchmarkImport1000Pages(b *testing.B) {
	archive := corpus.Zip(20, 49, 300, 1)
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			org, token := s.Org(b)
			u := serveBytes(b, archive)
			b.ResetTimer()
			for range b.N {
				importURL(b, s, token, org, u)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/import")
		})
	}
}

// percentiles reports the p50 and p99 of durations.
func percentiles(b *testing.B, durations []time.Duration) {
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds())/1000, "p99-ms")
}

// timeGets serves GETs of paths in turn through h and reports percentiles.
func timeGets(b *testing.B, h http.Handler, token string, paths []string) {
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		req := httptest.NewRequest("GET", paths[i%len(paths)], nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		durations = append(durations, time.Since(start))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", req.URL, rec.Code, rec.Body)
		}
	}
	percentiles(b, durations)
}

// BenchmarkContent10000 measures reads and one-page edits on a space of
// 10,100 pages of ~500 words (100 folders of 100 pages and a README each),
// imported once per store.
func BenchmarkContent10000(b *testing.B) {
	archive := corpus.Zip(100, 100, 500, 2)
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			org, token := s.Org(b)
			start := time.Now()
			space := importURL(b, s, token, org, serveBytes(b, archive))
			b.Logf("%s: imported 10,100 pages in %v", kind, time.Since(start))
			var pages struct {
				Pages []struct {
					ID    string
					Pages []struct{ ID string }
				}
			}
			s.Do(b, token, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(b, 200).JSON(b, &pages)
			var ids []string
			for _, p := range pages.Pages {
				for _, c := range p.Pages {
					ids = append(ids, c.ID)
				}
			}
			if len(ids) != 10000 {
				b.Fatalf("%d leaf pages, want 10000", len(ids))
			}

			b.Run("get-page", func(b *testing.B) {
				var paths []string
				for i := 0; i < len(ids); i += 97 {
					paths = append(paths, "/v1/spaces/"+space+"/content/page/"+ids[i]+"?format=document")
				}
				timeGets(b, s.Handler, token, paths)
			})
			// Common, mid-frequency and rare words, a two-word query and a
			// prefix of the last word: all of them in turn, then each alone.
			queries := []string{corpus.Word(3), corpus.Word(40), corpus.Word(400),
				corpus.Word(5) + " " + corpus.Word(60), corpus.Word(80)[:4], "install"}
			searchPath := func(q string) string { return "/v1/spaces/" + space + "/search?query=" + url.QueryEscape(q) }
			b.Run("search", func(b *testing.B) {
				var paths []string
				for _, q := range queries {
					paths = append(paths, searchPath(q))
				}
				timeGets(b, s.Handler, token, paths)
			})
			for _, q := range queries {
				b.Run("search-"+q, func(b *testing.B) {
					timeGets(b, s.Handler, token, []string{searchPath(q)})
				})
			}
			b.Run("edit-one-page", func(b *testing.B) {
				editOnePage(b, s, token, space, ids)
			})
			// The same edit in spaces of 1,010 and 101 pages of the same
			// database (same search index), the edited page in a list of
			// 100 siblings as above: the cost must not grow with the space.
			for _, size := range []struct {
				name             string
				folders, perPart int
			}{{"1010", 10, 100}, {"101", 1, 100}} {
				small := importURL(b, s, token, org, serveBytes(b, corpus.Zip(size.folders, size.perPart, 500, 3)))
				smallIDs := leafPages(b, s, token, small)
				b.Run("edit-one-page-"+size.name, func(b *testing.B) {
					editOnePage(b, s, token, small, smallIDs)
				})
			}
		})
	}
}

// leafPages returns the ids of the space's pages that have no children.
func leafPages(b *testing.B, s *apitest.Server, token, space string) []string {
	type page struct {
		ID    string
		Pages []page
	}
	var tree struct{ Pages []page }
	s.Do(b, token, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(b, 200).JSON(b, &tree)
	var ids []string
	var walk func([]page)
	walk = func(pages []page) {
		for _, p := range pages {
			if len(p.Pages) == 0 {
				ids = append(ids, p.ID)
			}
			walk(p.Pages)
		}
	}
	walk(tree.Pages)
	return ids
}

// editOnePage replaces one page's document per iteration, through the page
// import endpoint: a new revision that changes one page. The new document
// is a page of about 500 words like the ones it replaces, so that every
// edit indexes and unindexes as much text whatever the space.
func editOnePage(b *testing.B, s *apitest.Server, token, space string, ids []string) {
	var bodies [][]byte
	for i := range 64 {
		doc := corpus.Page(fmt.Sprintf("Edited page %d", i), 500, uint64(1000+i))
		body, _ := json.Marshal(map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte(doc))})
		bodies = append(bodies, body)
	}
	// The label tells the edits apart from the imports in a CPU profile
	// (go tool pprof -tagfocus bench=10000).
	label := pprof.Labels("bench", fmt.Sprint(len(ids)))
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		body := bodies[i%len(bodies)]
		req := httptest.NewRequest("POST", "/v1/spaces/"+space+"/content/page/"+ids[(i*37)%len(ids)]+"/import", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		start := time.Now()
		pprof.Do(req.Context(), label, func(context.Context) { s.Handler.ServeHTTP(rec, req) })
		durations = append(durations, time.Since(start))
		if rec.Code != http.StatusCreated {
			b.Fatalf("edit: %d %s", rec.Code, rec.Body)
		}
	}
	percentiles(b, durations)
}
