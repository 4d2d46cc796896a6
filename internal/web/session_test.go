package web_test

import (
	"net/url"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
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
