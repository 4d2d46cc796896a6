package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// The benchmarks run the whole handler chain (token check, permission,
// query, JSON) in process, on each store, with parallel callers.

func benchServer(b *testing.B, kind string) (*apitest.Server, string, string) {
	s := apitest.New(b, kind, apitest.Options{})
	org, token := s.Org(b)
	for i := range 49 {
		s.Do(b, token, "POST", "/v1/orgs", fmt.Sprintf(`{"title":"Bench %d"}`, i)).WantStatus(b, 201)
	}
	return s, org, token
}

func benchRequest(b *testing.B, h http.Handler, token, method, path string, body func(i int) string) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			var req *http.Request
			if body != nil {
				req = httptest.NewRequest(method, path, strings.NewReader(body(i)))
				req.Header.Set("Content-Type", "application/json")
			} else {
				req = httptest.NewRequest(method, path, nil)
			}
			req.Header.Set("Authorization", "Bearer "+token)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
			}
		}
	})
}

func BenchmarkGetOrganization(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s, org, token := benchServer(b, kind)
			benchRequest(b, s.Handler, token, "GET", "/v1/orgs/"+org, nil)
		})
	}
}

func BenchmarkListOrganizations50(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s, _, token := benchServer(b, kind)
			benchRequest(b, s.Handler, token, "GET", "/v1/orgs?limit=50", nil)
		})
	}
}

func BenchmarkUpdateOrganization(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s, org, token := benchServer(b, kind)
			benchRequest(b, s.Handler, token, "PATCH", "/v1/orgs/"+org, func(i int) string {
				return fmt.Sprintf(`{"title":"Bench org %d"}`, i)
			})
		})
	}
}

// benchGetP99 runs GET path one request at a time through the handler and
// reports the p99 latency beside ns/op.
func benchGetP99(b *testing.B, h http.Handler, token, path string) {
	timeGets(b, h, token, []string{path})
}
