package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// BenchmarkSpacePage10000 measures the server side of a space's page in
// the app (issue 27's goal: under 50 ms p99) on a space of 10,100 pages of
// ~500 words: the whole page tree and one page rendered as the reader
// renders it, through the server's handler with a session cookie.
func BenchmarkSpacePage10000(b *testing.B) {
	archive := corpus.Zip(100, 100, 500, 2)
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			s := apitest.New(b, kind, apitest.Options{})
			org, admin := s.Org(b)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
			b.Cleanup(ts.Close)
			var sp struct{ ID string }
			s.Do(b, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Bench"}).WantStatus(b, 201).JSON(b, &sp)
			s.Do(b, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import", map[string]any{"source": "zip", "url": ts.URL + "/d.zip"}).WantStatus(b, 201)
			u, _ := s.Member(b, org, folio.RoleEdit)
			if _, err := s.App.SetPassword(ctx, u.Email, password); err != nil {
				b.Fatal(err)
			}
			secret, err := s.App.SignIn(ctx, u.Email, password)
			if err != nil {
				b.Fatal(err)
			}
			c, err := s.App.GetContent(ctx, folio.Caller{UserID: u.ID}, sp.ID, "")
			if err != nil {
				b.Fatal(err)
			}
			var paths []string
			for id, p := range c.Paths() {
				if len(paths) < 100 && id != "" {
					paths = append(paths, "/s/"+sp.ID+"/"+p)
				}
			}
			durations := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				req := httptest.NewRequest("GET", paths[i%len(paths)], nil)
				req.AddCookie(&http.Cookie{Name: "folio_session", Value: secret})
				rec := httptest.NewRecorder()
				start := time.Now()
				s.Handler.ServeHTTP(rec, req)
				durations = append(durations, time.Since(start))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", req.URL, rec.Code)
				}
			}
			slices.Sort(durations)
			b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
