package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
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
			b.Run("search", func(b *testing.B) {
				// Common, mid-frequency and rare words, a two-word query and a
				// prefix of the last word.
				var paths []string
				for _, q := range []string{corpus.Word(3), corpus.Word(40), corpus.Word(400),
					corpus.Word(5) + " " + corpus.Word(60), corpus.Word(80)[:4], "install"} {
					paths = append(paths, "/v1/spaces/"+space+"/search?query="+url.QueryEscape(q))
				}
				timeGets(b, s.Handler, token, paths)
			})
			b.Run("edit-one-page", func(b *testing.B) {
				editOnePage(b, s, token, space, ids)
			})
			// The same edit in a 102-page space of the same database (same
			// search index): the cost must not grow with the space.
			small := importURL(b, s, token, org, serveBytes(b, corpus.Zip(2, 50, 500, 3)))
			var smallPages struct {
				Pages []struct {
					Pages []struct{ ID string }
				}
			}
			s.Do(b, token, "GET", "/v1/spaces/"+small+"/content/pages", nil).WantStatus(b, 200).JSON(b, &smallPages)
			var smallIDs []string
			for _, p := range smallPages.Pages {
				for _, c := range p.Pages {
					smallIDs = append(smallIDs, c.ID)
				}
			}
			b.Run("edit-one-page-102", func(b *testing.B) {
				editOnePage(b, s, token, small, smallIDs)
			})
		})
	}
}

// editOnePage replaces one page's document per iteration, through the page
// import endpoint: a new revision that changes one page.
func editOnePage(b *testing.B, s *apitest.Server, token, space string, ids []string) {
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		body, _ := json.Marshal(map[string]any{"source": "markdown",
			"url": dataURL("text/markdown", fmt.Appendf(nil, "# Edited\n\nEdit number %d of this page.\n", i))})
		req := httptest.NewRequest("POST", "/v1/spaces/"+space+"/content/page/"+ids[(i*37)%len(ids)]+"/import", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		start := time.Now()
		s.Handler.ServeHTTP(rec, req)
		durations = append(durations, time.Since(start))
		if rec.Code != http.StatusCreated {
			b.Fatalf("edit: %d %s", rec.Code, rec.Body)
		}
	}
	percentiles(b, durations)
}
