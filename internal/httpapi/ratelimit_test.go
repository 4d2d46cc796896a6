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
