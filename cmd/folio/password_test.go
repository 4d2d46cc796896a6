package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var signInLinkRE = regexp.MustCompile(`(http://\S+)/signin/link/(\S+)`)

// postForm posts a form as the web app's pages do and returns the status.
func postForm(t *testing.T, u string, form url.Values) int {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestFirstAdminSignsInAndSetsPassword: serve prints a one-time sign-in
// link for the first admin, which works once; "folio users password" sets
// a password from standard input, with which the admin signs in.
func TestFirstAdminSignsInAndSetsPassword(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		ctx := context.Background()
		_, args := storeLocation(t, kind)
		s := startServe(t, args...)
		m := signInLinkRE.FindStringSubmatch(s.out.String())
		if m == nil {
			t.Fatalf("serve printed no sign-in link:\n%s", s.out)
		}
		if m[1] != s.base {
			t.Fatalf("the link is on %s, the server on %s", m[1], s.base)
		}
		if code := postForm(t, s.base+"/signin/link", url.Values{"token": {m[2]}}); code != 303 {
			t.Fatalf("the sign-in link answers %d", code)
		}
		if code := postForm(t, s.base+"/signin/link", url.Values{"token": {m[2]}}); code != 401 {
			t.Fatalf("the sign-in link used twice answers %d", code)
		}
		s.stop(t)

		var out strings.Builder
		in := withStdin(ctx, strings.NewReader("a long enough password\n"))
		if err := run(in, append([]string{"users", "password", "--email", "admin@localhost"}, args...), noenv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Set the password of admin@localhost") {
			t.Fatalf("users password printed %q", out.String())
		}
		for _, c := range []struct{ email, stdin, want string }{
			{"admin@localhost", "short\n", "at least 10 characters"},
			{"nobody@example.com", "a long enough password\n", "not found"},
			{"", "a long enough password\n", "--email is required"},
		} {
			err := run(withStdin(ctx, strings.NewReader(c.stdin)), append([]string{"users", "password", "--email", c.email}, args...), noenv, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("users password %q: %v, want %q", c.email, err, c.want)
			}
		}

		s = startServe(t, args...)
		if strings.Contains(s.out.String(), "/signin/link/") {
			t.Fatal("a second start printed a sign-in link")
		}
		if code := postForm(t, s.base+"/signin", url.Values{"email": {"admin@localhost"}, "password": {"a long enough password"}}); code != 303 {
			t.Fatalf("sign-in with the set password answers %d", code)
		}
		if code := postForm(t, s.base+"/signin", url.Values{"email": {"admin@localhost"}, "password": {"short"}}); code != 401 {
			t.Fatalf("sign-in with a refused password answers %d", code)
		}
	})
}
