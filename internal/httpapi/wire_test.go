package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/buildinfo"
	"github.com/foliodocs/folio/internal/httpapi"

	"go.yaml.in/yaml/v3"
)

func TestAuthentication(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		cases := []struct {
			name   string
			header string
		}{
			{"missing header", ""},
			{"not bearer", "Basic " + token},
			{"empty token", "Bearer "},
			{"malformed token", "Bearer nope"},
			{"unknown token", "Bearer folio_" + strings.Repeat("A", 43)},
		}
		for _, c := range cases {
			h := http.Header{}
			if c.header != "" {
				h.Set("Authorization", c.header)
			}
			r := s.DoRaw(t, "", "GET", "/v1/user", h, nil)
			r.WantError(t, 401, "API token")
			if r.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s: no WWW-Authenticate header", c.name)
			}
		}
		s.Do(t, token, "GET", "/v1/user", nil).WantStatus(t, 200)
		// The scheme is case-insensitive.
		h := http.Header{"Authorization": {"bearer " + token}}
		s.DoRaw(t, "", "GET", "/v1/user", h, nil).WantStatus(t, 200)
	})
}

func TestWireErrors(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{MaxBody: 1024}, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		path := "/v1/orgs/" + org

		t.Run("unknown route is 404", func(t *testing.T) {
			s.Do(t, token, "GET", "/v1/nothing-here", nil).WantError(t, 404, "no route")
			s.Do(t, "", "GET", "/nothing", nil).WantError(t, 404, "no route")
		})
		t.Run("wrong method is 405 with Allow", func(t *testing.T) {
			r := s.Do(t, token, "DELETE", path, nil)
			r.WantError(t, 405, "not allowed")
			if got := r.Header.Get("Allow"); got != "GET, PATCH" {
				t.Errorf("Allow = %q, want %q", got, "GET, PATCH")
			}
		})
		t.Run("non-JSON body is 415", func(t *testing.T) {
			h := http.Header{"Content-Type": {"text/plain"}}
			s.DoRaw(t, token, "PATCH", path, h, []byte(`{"title":"Plain"}`)).WantError(t, 415, "JSON")
			s.DoRaw(t, token, "PATCH", path, http.Header{}, []byte(`{"title":"None"}`)).WantError(t, 415, "JSON")
		})
		t.Run("JSON with charset is accepted", func(t *testing.T) {
			h := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
			s.DoRaw(t, token, "PATCH", path, h, []byte(`{"title":"Charset"}`)).WantStatus(t, 200)
		})
		t.Run("malformed JSON is 400", func(t *testing.T) {
			s.Do(t, token, "PATCH", path, `{"title":`).WantError(t, 400, "malformed JSON")
			s.Do(t, token, "PATCH", path, `{"title":"a"} {}`).WantError(t, 400, "single JSON value")
			s.Do(t, token, "PATCH", path, `[1]`).WantError(t, 400, "expected an object")
		})
		t.Run("wrong field type names the field", func(t *testing.T) {
			s.Do(t, token, "PATCH", path, `{"title":5}`).WantError(t, 400, `"title"`)
			s.Do(t, token, "PATCH", path, `{"sso":"yes"}`).WantError(t, 400, `"sso"`)
			s.Do(t, token, "PATCH", path, `{"emailDomains":"a.com"}`).WantError(t, 400, `"emailDomains"`)
			s.Do(t, token, "PATCH", path, `{"mergeRules":{"type":1}}`).WantError(t, 400, `"mergeRules.type"`)
		})
		t.Run("body over the limit is 413", func(t *testing.T) {
			big := `{"title":"` + strings.Repeat("x", 2000) + `"}`
			s.Do(t, token, "PATCH", path, big).WantError(t, 413, "larger than")
			// Without Content-Length the limit still holds while reading.
			h := http.Header{"Content-Type": {"application/json"}}
			r := s.DoRawChunked(t, token, "PATCH", path, h, []byte(big))
			r.WantError(t, 413, "larger than")
		})
		t.Run("failed requests change nothing", func(t *testing.T) {
			var o struct{ Title string }
			s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &o)
			if o.Title != "Charset" {
				t.Fatalf("title = %q after rejected requests, want %q", o.Title, "Charset")
			}
		})
		t.Run("request id is echoed or made", func(t *testing.T) {
			h := http.Header{"X-Request-Id": {"abc-123"}}
			if got := s.DoRaw(t, token, "GET", "/v1/user", h, nil).Header.Get("X-Request-Id"); got != "abc-123" {
				t.Errorf("X-Request-Id = %q, want the client's", got)
			}
			if got := s.Do(t, token, "GET", "/v1/user", nil).Header.Get("X-Request-Id"); len(got) < 16 {
				t.Errorf("X-Request-Id = %q, want a generated id", got)
			}
		})
	})
}

func TestHealthAndMetrics(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		r := s.Do(t, "", "GET", "/healthz", nil).WantStatus(t, 200)
		// The test server runs no job runner of its own (tests call RunDue).
		if m := r.Map(t); m["status"] != "ok" || m["store"] != s.Store || m["jobs"] != "off" {
			t.Errorf("healthz body = %v", m)
		}
		// The build, as "folio version" prints it (go test stamps no revision).
		build := buildinfo.Read()
		var h struct{ Build buildinfo.Info }
		r.JSON(t, &h)
		if diff := cmp.Diff(build, h.Build); diff != "" {
			t.Errorf("healthz build (-want +got):\n%s", diff)
		}
		_, token := s.User(t)
		s.Do(t, token, "GET", "/v1/user", nil).WantStatus(t, 200)
		s.Do(t, "", "GET", "/v1/user", nil).WantStatus(t, 401)
		s.Do(t, token, "GET", "/v1/user/tokens", nil) // the token again: from the cache
		body := string(s.Do(t, "", "GET", "/metrics", nil).WantStatus(t, 200).Body)
		// The caches: the token was verified once and then found in the cache.
		if hits := metricValue(t, body, `folio_cache_hits_total{cache="tokens"}`); hits < 1 {
			t.Errorf("token cache hits = %v, want at least 1", hits)
		}
		if misses := metricValue(t, body, `folio_cache_misses_total{cache="tokens"}`); misses < 1 {
			t.Errorf("token cache misses = %v, want at least 1", misses)
		}
		for _, want := range []string{
			`folio_http_requests_total{method="GET",route="GET /v1/user",status="200"} 1`,
			`folio_http_requests_total{method="GET",route="GET /v1/user",status="401"} 1`,
			`folio_http_request_duration_seconds_count{method="GET",route="GET /v1/user",status="200"} 1`,
			`folio_http_request_duration_seconds_count{method="GET",route="GET /v1/user",status="401"} 1`,
			"folio_jobs_queued 0", "folio_jobs_running 0", "folio_jobs_failed_recent 0", "folio_jobs_oldest_due_seconds 0",
			`go_sql_open_connections{db_name="folio_read"}`, `go_sql_open_connections{db_name="folio_write"}`,
			`go_sql_wait_count_total{db_name="folio_write"}`,
			`folio_cache_limit{cache="trees",unit="pages"} 50000`,
			`folio_cache_limit{cache="documents",unit="bytes"} 8.388608e+06`,
			`folio_cache_entries{cache="revisions"}`, `folio_cache_evictions_total{cache="site_profiles"} 0`,
			"go_gc_heap_live_bytes ", "go_gc_heap_goal_bytes ",
			fmt.Sprintf(`folio_build_info{goversion=%q,modified="%t",revision=%q,time=%q,version=%q} 1`,
				build.GoVersion, build.Modified, build.Revision, build.Time, build.Version),
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

// metricValue reads the value of one series from a /metrics body.
func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	for line := range strings.Lines(body) {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("%s: %v", series, err)
			}
			return f
		}
	}
	t.Fatalf("metrics lack %s", series)
	return 0
}

// TestHealthzWithoutDatabase: a server whose database does not answer says
// so with 503 and the error body.
func TestHealthzWithoutDatabase(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		if err := s.DB.Close(); err != nil {
			t.Fatal(err)
		}
		s.Do(t, "", "GET", "/healthz", nil).WantError(t, 503, "the database does not answer")
	})
}

// TestDefaultBodyLimit: without a configured limit, bodies over 10 MiB are
// refused with 413 before the handler reads them.
func TestDefaultBodyLimit(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		h := httpapi.New(httpapi.Config{App: s.App, PublicURL: apitest.PublicURL})
		post := func(size int) int {
			body := `{"title":"` + strings.Repeat("a", size-len(`{"title":""}`)) + `"}`
			req := httptest.NewRequest("POST", "/v1/orgs", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec.Code
		}
		if code := post(httpapi.DefaultMaxBody + 1); code != 413 {
			t.Fatalf("a body of 10 MiB + 1 byte: %d, want 413", code)
		}
		// At the limit the body is read and judged on its content (a title
		// that long is invalid).
		if code := post(httpapi.DefaultMaxBody); code != 400 {
			t.Fatalf("a body of 10 MiB: %d, want 400", code)
		}
	})
}

// TestAlertRulesNameExportedMetrics: every metric the example alert rules
// (docs/prometheus-alerts.yml) use is one the server exports, so a renamed
// metric cannot leave an alert that never fires.
func TestAlertRulesNameExportedMetrics(t *testing.T) {
	raw, err := os.ReadFile("../../docs/prometheus-alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert string `yaml:"alert"`
				Expr  string `yaml:"expr"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(raw, &rules); err != nil {
		t.Fatalf("docs/prometheus-alerts.yml: %v", err)
	}
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		// Families with labels appear once they have a sample: one request
		// and one job run give them theirs.
		h := httpapi.New(httpapi.Config{App: s.App, PublicURL: apitest.PublicURL})
		h.JobObserver()("deliver-webhook", "succeeded", time.Millisecond)
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/healthz", nil))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body := rec.Body.String()
		name := regexp.MustCompile(`\b(?:folio|go_sql)_[a-z_]+`)
		n := 0
		for _, g := range rules.Groups {
			for _, r := range g.Rules {
				for _, m := range name.FindAllString(r.Expr, -1) {
					n++
					family := m
					for _, suffix := range []string{"_bucket", "_count", "_sum"} {
						family = strings.TrimSuffix(family, suffix)
					}
					if !strings.Contains(body, "# TYPE "+family+" ") {
						t.Errorf("alert %s uses %s, which /metrics does not export", r.Alert, m)
					}
				}
			}
		}
		if n < 5 {
			t.Errorf("found %d metric names in the rules, want the file's", n)
		}
	})
}
