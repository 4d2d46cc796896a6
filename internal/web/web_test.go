package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/httpapi"
)

const password = "correct horse battery"

// browser is an HTTP client with cookies that does not follow redirects,
// as a test of each step wants to see them.
type browser struct {
	s    *apitest.Server
	c    *http.Client
	csrf string
}

func newBrowser(s *apitest.Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{s: s, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type page struct {
	Status int
	Header http.Header
	Body   string
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) do(t *testing.T, req *http.Request) page {
	t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if m := csrfRE.FindStringSubmatch(string(body)); m != nil {
		b.csrf = m[1]
	}
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

func (b *browser) get(t *testing.T, path string) page {
	t.Helper()
	req, _ := http.NewRequest("GET", b.s.URL+path, nil)
	return b.do(t, req)
}

// post sends a form as a page of the app would: same origin, with the
// session's CSRF token unless the form sets its own.
func (b *browser) post(t *testing.T, path string, form url.Values, header ...string) page {
	t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok && b.csrf != "" {
		form.Set("csrf", b.csrf)
	}
	req, _ := http.NewRequest("POST", b.s.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.s.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.do(t, req)
}

func (p page) want(t *testing.T, status int, contains ...string) page {
	t.Helper()
	if p.Status != status {
		t.Fatalf("status %d, want %d; body:\n%s", p.Status, status, p.Body)
	}
	for _, c := range contains {
		if !strings.Contains(p.Body, c) {
			t.Fatalf("body lacks %q:\n%s", c, p.Body)
		}
	}
	return p
}

func (p page) redirect(t *testing.T, location string) page {
	t.Helper()
	if p.Status != http.StatusSeeOther && p.Status != http.StatusFound {
		t.Fatalf("status %d, want a redirect to %s; body:\n%s", p.Status, location, p.Body)
	}
	if got := p.Header.Get("Location"); got != location {
		t.Fatalf("redirect to %q, want %q", got, location)
	}
	return p
}

// member makes a member of org with a password.
func member(t *testing.T, s *apitest.Server, org folio.ID, role folio.Role) (*folio.User, string) {
	t.Helper()
	u, tok := s.Member(t, org, role)
	if _, err := s.App.SetPassword(context.Background(), u.Email, password); err != nil {
		t.Fatal(err)
	}
	return u, tok
}

func signIn(t *testing.T, s *apitest.Server, email string) *browser {
	t.Helper()
	b := newBrowser(s)
	b.post(t, "/signin", url.Values{"email": {email}, "password": {password}, "next": {"/"}}).redirect(t, "/")
	b.get(t, "/") // picks up the CSRF token
	return b
}

// space creates a space with one page of Markdown.
func space(t *testing.T, s *apitest.Server, org folio.ID, admin, title, md string) folio.ID {
	t.Helper()
	var sp struct{ ID string }
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title}).WantStatus(t, 201).JSON(t, &sp)
	if md != "" {
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import", map[string]any{"source": "markdown",
			"url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(md))}).WantStatus(t, 201)
	}
	return sp.ID
}

func titles(t *testing.T, s *apitest.Server, tok, spaceID string) string {
	t.Helper()
	c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: userOf(t, s, tok)}, spaceID, "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	content.Walk(c.Tree, func(n content.PageNode) bool {
		out = append(out, strings.Repeat(">", n.Depth-1)+n.Page.Title)
		return true
	})
	return strings.Join(out, ",")
}

func userOf(t *testing.T, s *apitest.Server, tok string) folio.ID {
	t.Helper()
	c, err := s.App.Authenticate(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	return c.UserID
}

func TestSignInAndOut(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		b := newBrowser(s)
		b.get(t, "/").redirect(t, "/signin?next=%2F")
		b.get(t, "/signin").want(t, 200, `<label for="email">Email</label>`, `<label for="password">Password</label>`,
			`<button type="submit" class="primary">Sign in</button>`, "Sign in with SSO")
		p := b.post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}, "next": {"/"}}).redirect(t, "/")
		cookie := p.Header.Get("Set-Cookie")
		for _, want := range []string{"folio_session=", "Path=/", "HttpOnly", "SameSite=Lax"} {
			if !strings.Contains(cookie, want) {
				t.Fatalf("cookie %q lacks %s", cookie, want)
			}
		}
		if strings.Contains(cookie, "Secure") {
			t.Fatalf("cookie %q is Secure on an http server", cookie)
		}
		home := b.get(t, "/").want(t, 200, "Your organizations", u.DisplayName, "Sign out")
		if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") {
			t.Fatalf("CSP %q", csp)
		}
		old := b.c.Jar.Cookies(mustURL(s.URL))
		b.post(t, "/signout", nil).redirect(t, "/signin")
		b.get(t, "/").redirect(t, "/signin?next=%2F")
		// The old cookie no longer signs in: the session ended on the server.
		b.c.Jar.SetCookies(mustURL(s.URL), old)
		b.get(t, "/").redirect(t, "/signin?next=%2F")
	})
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestSecureCookieOnHTTPS(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{PublicURL: "https://folio.test"}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		p := newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}})
		if c := p.Header.Get("Set-Cookie"); !strings.HasPrefix(c, "__Host-folio_session=") || !strings.Contains(c, "Secure") {
			t.Fatalf("cookie on https: %q", c)
		}
	})
}

func TestSignInFailuresLookAlike(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		noPassword, _ := s.Member(t, org, folio.RoleEdit)
		wrong := newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {"not the password"}}).
			want(t, 401, "the email or password is not right")
		for _, email := range []string{"nobody@example.com", noPassword.Email} {
			other := newBrowser(s).post(t, "/signin", url.Values{"email": {email}, "password": {"not the password"}})
			if other.Status != wrong.Status || strings.ReplaceAll(other.Body, email, u.Email) != wrong.Body {
				t.Fatalf("%s answers differently:\n%d %s\nvs\n%d %s", email, other.Status, other.Body, wrong.Status, wrong.Body)
			}
			if other.Header.Get("Set-Cookie") != "" {
				t.Fatal("a failed sign-in set a cookie")
			}
		}
	})
}

func TestSignInRateLimit(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{RateLimits: httpapi.RateLimits{Sensitive: 3}}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		b := newBrowser(s)
		for range 3 {
			b.post(t, "/signin", url.Values{"email": {u.Email}, "password": {"wrong password!"}}).want(t, 401)
		}
		p := b.post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}}).want(t, 429, "too many sign-in attempts")
		if p.Header.Get("Retry-After") == "" || p.Header.Get("Set-Cookie") != "" {
			t.Fatalf("429 headers %v", p.Header)
		}
	})
}

func TestCrossSiteRequestsRefused(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		b := signIn(t, s, u.Email)
		before := titles(t, s, tok, sp)
		path := "/s/" + sp + "/~/pages"
		b.post(t, path, url.Values{"title": {"No token"}, "csrf": {""}}).want(t, 403, "another site")
		b.post(t, path, url.Values{"title": {"Bad token"}, "csrf": {"0123456789abcdef0123456789abcdef"}}).want(t, 403)
		b.post(t, path, url.Values{"title": {"Evil origin"}}, "Origin", "https://evil.example").want(t, 403)
		b.post(t, path, url.Values{"title": {"Cross site"}}, "Sec-Fetch-Site", "cross-site").want(t, 403)
		if got := titles(t, s, tok, sp); got != before {
			t.Fatalf("refused requests changed the pages: %s, was %s", got, before)
		}
		b.post(t, path, url.Values{"title": {"Allowed"}}).want(t, 303)
		if got := titles(t, s, tok, sp); got != before+",Allowed" {
			t.Fatalf("pages %s", got)
		}
	})
}

func TestSessionEndsWhenPasswordChanges(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		a, other := signIn(t, s, u.Email), signIn(t, s, u.Email)
		a.get(t, "/account").want(t, 200, "Change password", `<label for="current">Current password</label>`)
		a.post(t, "/account/password", url.Values{"current": {"wrong one!!"}, "password": {"a new password"}, "confirm": {"a new password"}}).
			want(t, 400, "the current password is not right")
		other.get(t, "/").want(t, 200)
		a.post(t, "/account/password", url.Values{"current": {password}, "password": {"a new password"}, "confirm": {"a new password"}}).
			redirect(t, "/account?changed=1")
		a.get(t, "/account?changed=1").want(t, 200, "Your password was changed")
		other.get(t, "/").redirect(t, "/signin?next=%2F")
		newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}}).want(t, 401)
		newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {"a new password"}}).want(t, 303)
		// A session confined by SAML to one organization cannot set a
		// password, which would sign in outside it.
		if _, err := s.App.ChangePassword(context.Background(), folio.Caller{UserID: u.ID, Org: org}, "a new password", "another password"); folio.KindOf(err) != folio.Forbidden {
			t.Fatalf("a SAML session set a password: %v", err)
		}
		// An operator's reset (folio users password) ends every session.
		if _, err := s.App.SetPassword(context.Background(), u.Email, "reset by the operator"); err != nil {
			t.Fatal(err)
		}
		a.get(t, "/").redirect(t, "/signin?next=%2F")
	})
}

func TestSessionEndsWhenMemberRemoved(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		b.get(t, "/o/"+org).want(t, 200)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/members/"+u.ID, nil).WantStatus(t, 204)
		b.get(t, "/o/"+org).redirect(t, "/signin?next=%2Fo%2F"+org)
		newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}}).want(t, 401)
	})
}

func TestSignInLinkWorksOnce(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := s.Member(t, org, folio.RoleAdmin)
		tok, err := s.App.CreateSignInLink(context.Background(), u.ID)
		if err != nil {
			t.Fatal(err)
		}
		b := newBrowser(s)
		// Opening the link changes nothing: a button signs in.
		b.get(t, "/signin/link/"+tok).want(t, 200, `<button type="submit" class="primary">Sign in</button>`)
		b.get(t, "/signin/link/"+tok).want(t, 200)
		b.post(t, "/signin/link", url.Values{"token": {tok}}).redirect(t, "/account?welcome=1")
		b.get(t, "/account?welcome=1").want(t, 200, "Set a password", u.Email)
		newBrowser(s).post(t, "/signin/link", url.Values{"token": {tok}}).want(t, 401, "used already or has expired")
		// The first password needs no current one.
		b.post(t, "/account/password", url.Values{"password": {password}, "confirm": {password}}).redirect(t, "/account?changed=1")
		signIn(t, s, u.Email)
	})
}

func TestSignInLinkExpires(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := s.Member(t, org, folio.RoleAdmin)
		tok, err := s.App.CreateSignInLink(context.Background(), u.ID)
		if err != nil {
			t.Fatal(err)
		}
		s.Clock.Advance(app.SignInLinkTTL + 1)
		newBrowser(s).post(t, "/signin/link", url.Values{"token": {tok}}).want(t, 401)
	})
}

func TestIdleSessionEnds(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		s.Clock.Set(s.Clock.Now())
		b := signIn(t, s, u.Email)
		s.Clock.Advance(app.SessionIdle - 1)
		b.get(t, "/").want(t, 200) // used: idle time starts again
		s.Clock.Advance(app.SessionIdle - 1)
		b.get(t, "/").want(t, 200)
		s.Clock.Advance(app.SessionLifetime)
		b.get(t, "/").redirect(t, "/signin?next=%2F")
	})
}

func TestAppLinksLandOnAppPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		var col struct {
			ID   string
			URLs struct{ App string }
		}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}).WantStatus(t, 201).JSON(t, &col)
		var sp struct {
			ID   string
			URLs struct{ App string }
		}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Handbook", "parent": col.ID}).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import", map[string]any{"source": "markdown",
			"url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte("# Getting started\n\nFirst **steps**.\n"))}).WantStatus(t, 201)
		var o struct{ URLs struct{ App string } }
		s.Do(t, tok, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		var pages struct {
			Pages []struct {
				Title string
				URLs  struct{ App string }
			}
		}
		s.Do(t, tok, "GET", "/v1/spaces/"+sp.ID+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		var rev struct{ URLs struct{ App string } }
		s.Do(t, tok, "GET", "/v1/spaces/"+sp.ID+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		var cr struct{ URLs struct{ App string } }
		s.Do(t, tok, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Fix typos"}).WantStatus(t, 201).JSON(t, &cr)
		links := []struct{ link, want string }{
			{o.URLs.App, "Handbook"},
			{col.URLs.App, "Handbook"},
			{sp.URLs.App, "First <strong>steps</strong>"},
			{pages.Pages[0].URLs.App, "First <strong>steps</strong>"},
			{rev.URLs.App, "Getting started"},
			{cr.URLs.App, "Fix typos"},
		}
		b := newBrowser(s)
		for _, l := range links {
			path := strings.TrimPrefix(l.link, apitest.PublicURL)
			if path == l.link {
				t.Fatalf("link %s is not on the server", l.link)
			}
			// Signed out: to sign-in, and back after it.
			b.get(t, path).redirect(t, "/signin?next="+url.QueryEscape(path))
		}
		b.post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}, "next": {strings.TrimPrefix(sp.URLs.App, apitest.PublicURL)}}).
			redirect(t, "/s/"+sp.ID)
		for _, l := range links {
			b.get(t, strings.TrimPrefix(l.link, apitest.PublicURL)).want(t, 200, l.want)
		}
		// Sign-in never sends the browser elsewhere.
		newBrowser(s).post(t, "/signin", url.Values{"email": {u.Email}, "password": {password}, "next": {"//evil.example/x"}}).redirect(t, "/")
	})
}

func TestReaderSeesNoEditControls(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		r, tok := member(t, s, org, folio.RoleRead)
		w, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		before := titles(t, s, tok, sp)
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: r.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID

		writer := signIn(t, s, w.Email)
		writer.get(t, "/s/"+sp).want(t, 200, "New page", "Page actions", "Rename", "Delete page", `/edit">Edit</a>`)

		reader := signIn(t, s, r.Email)
		p := reader.get(t, "/s/"+sp).want(t, 200, "Hello.")
		for _, control := range []string{"New page", "Page actions", "Rename", "Delete page", "Create page", `/edit">Edit</a>`, "/~/pages"} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("a reader is offered %q", control)
			}
		}
		// Forged requests with the reader's own valid token are refused.
		reader.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Forged"}}).want(t, 403, "you cannot edit")
		reader.post(t, "/s/"+sp+"/~/pages/"+pageID+"/rename", url.Values{"title": {"Forged"}}).want(t, 403)
		reader.post(t, "/s/"+sp+"/~/pages/"+pageID+"/delete", url.Values{"confirm": {"yes"}}).want(t, 403)
		if got := titles(t, s, tok, sp); got != before {
			t.Fatalf("refused requests changed the pages: %s, was %s", got, before)
		}
		// A stranger to the space does not learn it exists.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, stranger.Email).get(t, "/s/"+sp).want(t, 404)
	})
}

func TestPageTreeForms(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "")
		b := signIn(t, s, u.Email)
		b.get(t, "/s/"+sp).want(t, 200, "This space has no pages yet")
		for _, title := range []string{"One", "Two", "Three"} {
			p := b.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {title}})
			b.get(t, p.Header.Get("Location")).want(t, 303)
		}
		b.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Reference"}, "type": {"group"}}).want(t, 303)
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: u.ID}, sp, "")
		id := map[string]string{}
		for _, p := range c.Tree.Pages {
			id[p.Title] = p.ID
		}
		steps := []struct {
			page, action string
			form         url.Values
			want         string
		}{
			{"Two", "up", nil, "Two,One,Three,Reference"},
			{"Two", "down", nil, "One,Two,Three,Reference"},
			{"Three", "indent", nil, "One,Two,>Three,Reference"},
			{"Three", "rename", url.Values{"title": {"Third"}}, "One,Two,>Third,Reference"},
			{"Three", "outdent", nil, "One,Two,Third,Reference"},
			{"One", "delete", url.Values{"confirm": {"yes"}}, "Two,Third,Reference"},
		}
		for _, st := range steps {
			b.post(t, "/s/"+sp+"/~/pages/"+id[st.page]+"/"+st.action, st.form).want(t, 303)
			if got := titles(t, s, tok, sp); got != st.want {
				t.Fatalf("after %s %s: %s, want %s", st.action, st.page, got, st.want)
			}
		}
		b.post(t, "/s/"+sp+"/~/pages/"+id["Two"]+"/up", nil).want(t, 400, "cannot move further")
		b.post(t, "/s/"+sp+"/~/pages/"+id["Two"]+"/delete", nil).want(t, 400, "tick the box")
		b.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"  "}}).want(t, 400, "title is required")
		b.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Sub"}, "parent": {"nope"}}).want(t, 404)
		if got := titles(t, s, tok, sp); got != "Two,Third,Reference" {
			t.Fatalf("refused requests changed the pages: %s", got)
		}
		// History lists each revision with its author.
		b.get(t, "/s/"+sp+"/~/revisions").want(t, 200, "Edited", u.DisplayName, "current")
		// A locked space offers no tree operations and refuses them (its
		// edits go into change requests).
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		p := b.get(t, "/s/"+sp).want(t, 200, "This space is locked")
		if strings.Contains(p.Body, "New page") {
			t.Fatal("a locked space offers New page")
		}
		b.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Locked"}}).want(t, 403, "locked")
	})
}

func TestSearchAndHome(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Onboarding\n\nThe flamingo policy.\n")
		b := signIn(t, s, u.Email)
		b.get(t, "/").want(t, 200, "Recent spaces", `href="/s/`+sp+`"`, "Handbook")
		b.get(t, "/o/"+org+"?q=flamingo").want(t, 200, `Results for “flamingo”`, "Onboarding")
		b.get(t, "/o/"+org+"?q=zebra").want(t, 200, "Nothing matched")
	})
}

func TestChangeRequestDiff(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nKeep this.\n\nOld line.\n")
		var cr struct{ Number int }
		s.Do(t, tok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Rewrite"}).WantStatus(t, 201).JSON(t, &cr)
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: u.ID}, sp, "")
		md := "# Guide\n\nKeep this.\n\nNew line.\n"
		s.Do(t, tok, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content/page/%s/import", sp, cr.Number, c.Tree.Pages[0].ID),
			map[string]any{"source": "markdown", "url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(md))}).WantStatus(t, 201)
		b := signIn(t, s, u.Email)
		b.get(t, "/s/"+sp+"/~/changes").want(t, 200, "#1 Rewrite")
		b.get(t, "/s/"+sp+"/~/changes?status=merged").want(t, 200, "No change requests with this status")
		b.get(t, fmt.Sprintf("/s/%s/~/changes/%d", sp, cr.Number)).want(t, 200, "Rewrite", "Content changed",
			`<div class="blk blk-same"><p>Keep this.</p>`,
			`<div class="blk blk-removed"><span class="sr">Removed: </span><p>Old line.</p>`,
			`<div class="blk blk-added"><span class="sr">Added: </span><p>New line.</p>`)
		b.get(t, fmt.Sprintf("/s/%s/~/changes/99", sp)).want(t, 404)
	})
}

func TestSignInPageOffersSSO(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		b := newBrowser(s)
		// Going to an organization, the sign-in page looks up its providers.
		b.get(t, "/o/"+org).redirect(t, "/signin?next=%2Fo%2F"+org)
		b.get(t, "/signin?next=%2Fo%2F"+org).want(t, 200, "Sign in with SSO", "This organization has no single sign-on.",
			`<label for="org">Organization ID</label>`)
		// An unknown organization gets the same answer.
		b.get(t, "/signin?org=nope").want(t, 200, "This organization has no single sign-on.")
		b.get(t, "/signin/sso/"+org+"/nope").want(t, 404)
	})
}
