package web_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/httpapi"
)

// TestSignInNextStaysOnServer checks that the page after sign-in is a path
// of this server whatever next holds: browsers drop tabs and newlines and
// read a backslash as a slash, so "/\t/evil.example" is another host.
func TestSignInNextStaysOnServer(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		cases := []struct{ name, next, want string }{
			{"tab", "/\t/evil.example", "/"},
			{"vertical tab", "/\v/evil.example", "/"},
			{"delete", "/\x7f/evil.example", "/"},
			{"newline", "/\n/evil.example", "/"},
			{"carriage return", "/\r/evil.example", "/"},
			{"nul", "/\x00/evil.example", "/"},
			{"backslash", "/\\evil.example", "/"},
			{"slash backslash", "/\\/evil.example", "/"},
			{"two slashes", "//evil.example/x", "/"},
			{"three slashes", "///evil.example/x", "/"},
			{"encoded slash", "/%2F/evil.example", "/"},
			{"absolute", "https://evil.example/x", "/"},
			{"scheme relative path", "javascript:alert(1)", "/"},
			{"relative", "evil.example", "/"},
			{"empty", "", "/"},
			{"path", "/o/" + org, "/o/" + org},
			{"path with query", "/o/" + org + "?q=a%20b&x=1", "/o/" + org + "?q=a%20b&x=1"},
			{"path with fragment", "/s/x/~/comments#c-1", "/s/x/~/comments#c-1"},
		}
		b := signIn(t, s, u.Email)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				// Signed in, the sign-in page redirects at once.
				b.get(t, "/signin?next="+url.QueryEscape(c.next)).redirect(t, c.want)
				// Signed out, after a password sign-in (the hidden next field).
				newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}, "next": {c.next}}).redirect(t, c.want)
			})
		}
	})
}

// TestPasswordChangeRateLimit: guessing the current password on the
// account page is charged to the sign-in budget of the account and of the
// address, as a password sign-in is; a refused attempt changes nothing.
func TestPasswordChangeRateLimit(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{RateLimits: httpapi.RateLimits{Sensitive: 3}}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email) // one attempt of the account's three
		for range 2 {
			b.post(t, "/account/password", url.Values{"current": {"wrong guess!"}, "password": {"a new password"}, "confirm": {"a new password"}}).
				want(t, 400, "the current password is not right")
		}
		p := b.post(t, "/account/password", url.Values{"current": {password}, "password": {"a new password"}, "confirm": {"a new password"}}).
			want(t, 429, "too many sign-in attempts")
		if p.Header.Get("Retry-After") == "" || p.Header.Get("Set-Cookie") != "" {
			t.Fatalf("429 headers %v", p.Header)
		}
		// Nothing changed, and sign-in shares the budget.
		if _, err := s.App.SignIn(context.Background(), u.Email, "a new password"); err == nil {
			t.Fatal("a refused change set the password")
		}
		if _, err := s.App.SignIn(context.Background(), u.Email, password); err != nil {
			t.Fatalf("the password after a refused change: %v", err)
		}
		newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}}).want(t, 429, "too many sign-in attempts")
	})
}
