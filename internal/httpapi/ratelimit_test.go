package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/httpapi"
)

func TestRateLimits(t *testing.T) {
	limits := httpapi.RateLimits{PerToken: 5, PerAddress: 3, Sensitive: 2}
	apitest.RunOptions(t, apitest.Options{RateLimits: limits}, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		_, other := s.User(t)
		for i := range 5 {
			r := s.Do(t, token, "GET", "/v1/user", nil).WantStatus(t, 200)
			if r.Header.Get("X-RateLimit-Limit") != "5" || r.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(4-i) ||
				r.Header.Get("X-RateLimit-Reset") == "" {
				t.Fatalf("request %d headers %v", i, r.Header)
			}
		}
		r := s.DoUnchecked(t, token, "GET", "/v1/user", nil)
		r.WantError(t, 429, "too many requests: at most 5 a minute; retry in 12 s")
		if r.Header.Get("Retry-After") != "12" || r.Header.Get("X-RateLimit-Remaining") != "0" {
			t.Fatalf("refusal headers %v", r.Header)
		}
		// Another token has its own budget.
		s.Do(t, other, "GET", "/v1/user", nil).WantStatus(t, 200)

		// Sign-in and token routes are limited per address too.
		s.Do(t, other, "POST", "/v1/user/tokens", map[string]any{"label": "a"}).WantStatus(t, 201)
		s.Do(t, other, "POST", "/v1/user/tokens", map[string]any{"label": "b"}).WantStatus(t, 201)
		s.DoUnchecked(t, other, "POST", "/v1/user/tokens", map[string]any{"label": "c"}).WantStatus(t, 429)
		var l struct{ Items []any }
		s.Do(t, other, "GET", "/v1/user/tokens", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 3 { // the user's first token and the two made
			t.Fatalf("a refused request made a token: %d tokens", len(l.Items))
		}

		// Requests without a token share their address's budget: the
		// reader, public routes, and failed authentications.
		get := func(path, token string) int {
			req, _ := http.NewRequest("GET", s.URL+path, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if a, b, c := get("/sites/nope/", ""), get("/v1/files/nope", ""), get("/v1/user", "gb_api_wrong"); a != 404 || b == 429 || c != 401 {
			t.Fatalf("within the budget: %d %d %d", a, b, c)
		}
		if a, b, c := get("/sites/nope/", ""), get("/v1/files/nope", ""), get("/v1/user", "gb_api_wrong"); a != 429 || b != 429 || c != 429 {
			t.Fatalf("over the budget: %d %d %d", a, b, c)
		}
		// A valid token is not held back by its address.
		s.Do(t, other, "GET", "/v1/user", nil).WantStatus(t, 200)
	})
}

// Behind trusted proxies, the client address comes from the forwarding
// headers, for the limits and the audit log; from any other peer those
// headers are ignored.
func TestTrustedProxies(t *testing.T) {
	get := func(t *testing.T, s *apitest.Server, xff string) int {
		req, _ := http.NewRequest("GET", s.URL+"/sites/nope/", nil)
		req.Header.Set("X-Forwarded-For", xff)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	audited := func(t *testing.T, s *apitest.Server, xff string) string {
		org, admin := s.Org(t)
		h := http.Header{"X-Forwarded-For": {xff}, "Content-Type": {"application/json"}}
		s.DoRaw(t, admin, "PUT", "/v1/orgs/"+org+"/teams", h, []byte(`{"title":"T"}`)).WantStatus(t, 201)
		var l struct {
			Items []struct{ Action, Address string }
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/audit-log?action=team.created", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 1 {
			t.Fatalf("audit entries %+v", l.Items)
		}
		return l.Items[0].Address
	}
	limits := httpapi.RateLimits{PerAddress: 1}
	t.Run("trusted", func(t *testing.T) {
		proxies, _ := httpapi.ParseTrustedProxies("127.0.0.1, ::1")
		apitest.RunOptions(t, apitest.Options{RateLimits: limits, TrustedProxies: proxies}, func(t *testing.T, s *apitest.Server) {
			if a, b, c := get(t, s, "203.0.113.5"), get(t, s, "203.0.113.5"), get(t, s, "1.1.1.1, 203.0.113.6"); a != 404 || b != 429 || c != 404 {
				t.Fatalf("per forwarded client: %d %d %d, want 404 429 404", a, b, c)
			}
			// One IPv6 client is one /64.
			if a, b := get(t, s, "2001:db8:1:2::1"), get(t, s, "2001:db8:1:2::ffff"); a != 404 || b != 429 {
				t.Fatalf("IPv6 /64: %d %d, want 404 429", a, b)
			}
			if got := audited(t, s, "203.0.113.9, 127.0.0.1"); got != "203.0.113.9" {
				t.Fatalf("audit address %q", got)
			}
		})
	})
	t.Run("untrusted", func(t *testing.T) {
		apitest.RunOptions(t, apitest.Options{RateLimits: limits}, func(t *testing.T, s *apitest.Server) {
			// A spoofed header does not buy a new budget.
			if a, b := get(t, s, "203.0.113.5"), get(t, s, "203.0.113.6"); a != 404 || b != 429 {
				t.Fatalf("spoofed header: %d %d, want 404 429", a, b)
			}
			if got := audited(t, s, "203.0.113.9"); got != "127.0.0.1" {
				t.Fatalf("audit address %q", got)
			}
		})
	})
}
