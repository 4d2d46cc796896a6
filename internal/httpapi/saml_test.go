package httpapi_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

type samlProvider struct {
	ID, Label, Status, SSOURL, EntityID string
	DefaultRole                         *string
	DefaultTeam                         *struct{ ID string }
	Service                             struct{ ACSURL, StartURL, EntityID string }
}

// samlSetup makes an organization with a team and an active provider
// trusted by a test IdP.
func samlSetup(t *testing.T, s *apitest.Server) (org, admin string, idp *ssotest.IdP, p samlProvider, team string) {
	t.Helper()
	org, admin = s.Org(t)
	var tm struct{ ID string }
	s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", `{"title":"SSO people"}`).WantStatus(t, 201).JSON(t, &tm)
	idp = ssotest.New(t)
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/saml", map[string]any{
		"label": "Okta", "entityID": idp.EntityID, "ssoURL": idp.SSOURL, "certificate": idp.CertPEM,
		"defaultTeam": tm.ID, "defaultRole": "edit",
	}).WantStatus(t, 201).JSON(t, &p)
	meta := s.Do(t, "", "GET", "/v1/orgs/"+org+"/saml/"+p.ID+"/metadata", nil).WantStatus(t, 200)
	idp.Trust(t, meta.Body)
	return org, admin, idp, p, tm.ID
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// startLogin follows folio's start URL to the IdP and returns the form the
// IdP answers with.
func startLogin(t *testing.T, s *apitest.Server, idp *ssotest.IdP, p samlProvider) (action, resp, state string) {
	t.Helper()
	return startLoginIn(t, s, noRedirect, idp, p)
}

// startLoginIn is startLogin in a browser: c keeps the cookie that binds
// the login to it.
func startLoginIn(t *testing.T, s *apitest.Server, c *http.Client, idp *ssotest.IdP, p samlProvider) (action, resp, state string) {
	t.Helper()
	res, err := c.Get(s.URL + strings.TrimPrefix(p.Service.StartURL, apitest.PublicURL))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("start: %d", res.StatusCode)
	}
	return idp.Login(t, res.Header.Get("Location"))
}

// postACS posts an IdP form to folio's assertion consumer service.
func postACS(t *testing.T, s *apitest.Server, action, resp, state string, accept string) (int, string) {
	t.Helper()
	form := url.Values{"SAMLResponse": {resp}, "RelayState": {state}}
	req, _ := http.NewRequest("POST", s.URL+strings.TrimPrefix(action, apitest.PublicURL), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestSAMLLoginEndToEnd(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin, idp, p, team := samlSetup(t, s)
		if p.Status != "active" || p.Service.ACSURL != apitest.PublicURL+"/v1/orgs/"+org+"/saml/"+p.ID+"/acs" ||
			p.DefaultTeam == nil || p.DefaultTeam.ID != team || *p.DefaultRole != "edit" {
			t.Fatalf("provider %+v", p)
		}
		// The login page lists the provider without a token.
		var logins struct {
			Items []struct{ ID, Label, StartURL string }
		}
		s.Do(t, "", "GET", "/v1/orgs/"+org+"/sso", nil).WantStatus(t, 200).JSON(t, &logins)
		if len(logins.Items) != 1 || logins.Items[0].StartURL != p.Service.StartURL || logins.Items[0].Label != "Okta" {
			t.Fatalf("sso logins %+v", logins)
		}

		idp.SetUser("grace@example.com", "Grace Hopper")
		action, resp, state := startLogin(t, s, idp, p)
		code, body := postACS(t, s, action, resp, state, "application/json")
		if code != 200 {
			t.Fatalf("acs: %d %s", code, body)
		}
		var login struct {
			User         struct{ ID, Email, DisplayName string }
			Organization string
			Token        string
		}
		(&apitest.Response{Body: []byte(body)}).JSON(t, &login)
		if login.User.Email != "grace@example.com" || login.User.DisplayName != "Grace Hopper" || login.Organization != org {
			t.Fatalf("login %+v", login)
		}
		var m struct {
			Role  *string
			SSO   bool
			Teams int
		}
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org+"/members/"+login.User.ID, nil).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "edit" || !m.SSO || m.Teams != 1 {
			t.Fatalf("SSO member %+v", m)
		}
		// The same response cannot be used twice.
		if code, body := postACS(t, s, action, resp, state, "application/json"); code != 400 || !strings.Contains(body, "start again") {
			t.Fatalf("replay: %d %s", code, body)
		}
		// With SSO enforced the SSO member keeps access; others lose it.
		_, plain := s.Member(t, org, folio.RoleRead)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"sso":true}`).WantStatus(t, 200)
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200)
		s.Do(t, plain, "GET", "/v1/orgs/"+org, nil).WantError(t, 403, "single sign-on")

		// A second login gives an HTML page and leaves the profile alone: an
		// organization's IdP does not rewrite accounts.
		idp.SetUser("grace@example.com", "Rear Admiral Hopper")
		// A browser's login lands in the web application, signed in.
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar}
		action, resp, state = startLoginIn(t, s, &http.Client{Jar: jar, CheckRedirect: noRedirect.CheckRedirect}, idp, p)
		res, err := browser.PostForm(s.URL+strings.TrimPrefix(action, apitest.PublicURL), url.Values{"SAMLResponse": {resp}, "RelayState": {state}})
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Request.URL.Path != "/o/"+org || !strings.Contains(string(page), "Collections and spaces") ||
			!strings.Contains(string(page), "Grace Hopper") {
			t.Fatalf("html acs: %d at %s %s", res.StatusCode, res.Request.URL, page)
		}
		var u struct{ DisplayName string }
		s.Do(t, login.Token, "GET", "/v1/user", nil).JSON(t, &u)
		if u.DisplayName != "Grace Hopper" {
			t.Fatalf("display name %q", u.DisplayName)
		}

		// The SSO token works only in its organization, and so do tokens made with it.
		other, _ := s.Org(t)
		var l struct {
			Count int
			Items []struct{ ID string }
		}
		s.Do(t, login.Token, "GET", "/v1/orgs", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].ID != org {
			t.Fatalf("orgs of an SSO token: %+v", l)
		}
		s.Do(t, login.Token, "POST", "/v1/orgs", `{"title":"Escape"}`).WantError(t, 403, "works only inside")
		s.Do(t, login.Token, "GET", "/v1/orgs/"+other, nil).WantError(t, 404, "organization not found")
		var child struct{ Token string }
		s.Do(t, login.Token, "POST", "/v1/user/tokens", `{"label":"child"}`).WantStatus(t, 201).JSON(t, &child)
		s.Do(t, child.Token, "POST", "/v1/orgs", `{"title":"Escape"}`).WantError(t, 403, "works only inside")
		s.Do(t, child.Token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200)
		// It expires after a day.
		s.Clock.Set(time.Now().Add(25 * time.Hour))
		s.App.FlushTokenCache()
		s.Do(t, login.Token, "GET", "/v1/user", nil).WantError(t, 401, "API token")
		s.Clock.Set(time.Time{})
	})
}

func TestSAMLRefusesBadResponses(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin, idp, p, _ := samlSetup(t, s)
		members := func() int {
			var l struct{ Count int }
			s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members", nil).JSON(t, &l)
			return l.Count
		}
		before := members()

		// Tampered: one byte of the (encrypted, signed) response changed.
		action, resp, state := startLogin(t, s, idp, p)
		raw, _ := base64.StdEncoding.DecodeString(resp)
		i := strings.Index(string(raw), "CipherValue>") + 40
		raw[i] ^= 0x01
		if code, body := postACS(t, s, action, base64.StdEncoding.EncodeToString(raw), state, "application/json"); code != 400 || !strings.Contains(body, "not valid") {
			t.Fatalf("tampered: %d %s", code, body)
		}
		// Expired: the answer arrives five minutes after it was issued.
		action, resp, state = startLogin(t, s, idp, p)
		s.Clock.Set(time.Now().Add(5 * time.Minute))
		if code, body := postACS(t, s, action, resp, state, "application/json"); code != 400 || !strings.Contains(body, "not valid") {
			t.Fatalf("expired: %d %s", code, body)
		}
		s.Clock.Set(time.Time{})
		// IdP-initiated logins and unknown states are refused.
		action, resp, state = idp.IdPInitiated(t, p.Service.EntityID)
		if code, _ := postACS(t, s, action, resp, state, "application/json"); code != 400 {
			t.Fatalf("IdP-initiated: %d", code)
		}
		if code, _ := postACS(t, s, action, "", "", "application/json"); code != 400 {
			t.Fatalf("empty form: %d", code)
		}
		if members() != before {
			t.Fatal("a refused response added a member")
		}
		// Forms only.
		r := s.Do(t, "", "POST", "/v1/orgs/"+org+"/saml/"+p.ID+"/acs", `{"SAMLResponse":"x"}`)
		r.WantError(t, 415, "form")
	})
}

// TestSAMLCannotTakeOverAccounts checks that an organization's identity
// provider cannot sign in as an account of someone who is not its member,
// and that the email it vouches for does not open other organizations.
func TestSAMLCannotTakeOverAccounts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		victimOrg, victimAdmin := s.Org(t)
		var victim struct{ ID, Email, DisplayName string }
		s.Do(t, victimAdmin, "GET", "/v1/user", nil).JSON(t, &victim)
		s.Do(t, victimAdmin, "PATCH", "/v1/orgs/"+victimOrg, `{"emailDomains":["victimcorp.example"]}`).WantStatus(t, 200)

		// Mallory makes her own organization and identity provider.
		_, mallory, idp, p, _ := samlSetup(t, s)
		_ = mallory
		idp.SetUser(victim.Email, "pwned")
		action, resp, state := startLogin(t, s, idp, p)
		if code, body := postACS(t, s, action, resp, state, "application/json"); code != 400 || !strings.Contains(body, "not a member") {
			t.Fatalf("asserting someone else's account: %d %s", code, body)
		}
		var u struct{ DisplayName string }
		s.Do(t, victimAdmin, "GET", "/v1/user", nil).JSON(t, &u)
		if u.DisplayName != victim.DisplayName {
			t.Fatalf("the victim's profile changed to %q", u.DisplayName)
		}

		// A new account in the victim's domain, vouched for by Mallory's IdP,
		// is not verified for joining the victim's organization.
		idp.SetUser("mallory@victimcorp.example", "Mallory")
		action, resp, state = startLogin(t, s, idp, p)
		code, body := postACS(t, s, action, resp, state, "application/json")
		if code != 200 {
			t.Fatalf("new account: %d %s", code, body)
		}
		var login struct{ Token string }
		(&apitest.Response{Body: []byte(body)}).JSON(t, &login)
		s.Do(t, login.Token, "POST", "/v1/orgs/"+victimOrg+"/join", nil).WantError(t, 403, "works only inside")
		var victimMembers struct{ Count int }
		s.Do(t, victimAdmin, "GET", "/v1/orgs/"+victimOrg+"/members", nil).JSON(t, &victimMembers)
		if victimMembers.Count != 1 {
			t.Fatalf("the victim organization has %d members", victimMembers.Count)
		}
	})
}

// TestSAMLLinksInvitedMembers checks that someone invited by email signs in
// through SSO as the invited account.
func TestSAMLLinksInvitedMembers(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin, idp, p, _ := samlSetup(t, s)
		var inv struct{ Users []string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/invites", `{"emails":["invited@example.com"],"role":"review"}`).WantStatus(t, 200).JSON(t, &inv)
		idp.SetUser("invited@example.com", "Invited Person")
		action, resp, state := startLogin(t, s, idp, p)
		code, body := postACS(t, s, action, resp, state, "application/json")
		if code != 200 {
			t.Fatalf("acs: %d %s", code, body)
		}
		var login struct {
			User  struct{ ID string }
			Token string
		}
		(&apitest.Response{Body: []byte(body)}).JSON(t, &login)
		if login.User.ID != inv.Users[0] {
			t.Fatalf("signed in as %s, invited %s", login.User.ID, inv.Users[0])
		}
		var m struct {
			Role *string
			SSO  bool
		}
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org+"/members/"+login.User.ID, nil).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "review" || !m.SSO {
			t.Fatalf("invited member after SSO: %+v", m)
		}
	})
}

func TestSAMLProviderValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		other, otherAdmin := s.Org(t)
		var otherTeam struct{ ID string }
		s.Do(t, otherAdmin, "PUT", "/v1/orgs/"+other+"/teams", `{"title":"Theirs"}`).WantStatus(t, 201).JSON(t, &otherTeam)
		idp := ssotest.New(t)
		path := "/v1/orgs/" + org + "/saml"
		long := func(n int) string { return strings.Repeat("a", n) }
		for _, c := range []struct {
			name string
			body map[string]any
			code int
			msg  string
		}{
			{"label/missing", map[string]any{}, 400, "label is required"},
			{"label/empty", map[string]any{"label": ""}, 400, "label must be 1 to 30"},
			{"label/longest", map[string]any{"label": long(30)}, 201, ""},
			{"label/too long", map[string]any{"label": long(31)}, 400, "label must be 1 to 30"},
			{"entityID/longest", map[string]any{"label": "x", "entityID": long(1024)}, 201, ""},
			{"entityID/too long", map[string]any{"label": "x", "entityID": long(1025)}, 400, "entityID"},
			{"certificate/too long", map[string]any{"label": "x", "certificate": long(10001)}, 400, "certificate"},
			{"certificate/not PEM", map[string]any{"label": "x", "certificate": "hello"}, 400, "certificate"},
			{"certificate/valid", map[string]any{"label": "x", "certificate": idp.CertPEM}, 201, ""},
			{"ssoURL/not a URL", map[string]any{"label": "x", "ssoURL": "idp"}, 400, "ssoURL"},
			{"ssoURL/too long", map[string]any{"label": "x", "ssoURL": "https://idp.example/" + long(2030)}, 400, "ssoURL"},
			{"defaultTeam/other organization", map[string]any{"label": "x", "defaultTeam": otherTeam.ID}, 400, "defaultTeam"},
			{"defaultRole/unknown", map[string]any{"label": "x", "defaultRole": "owner"}, 400, "defaultRole"},
			{"defaultRole/guest", map[string]any{"label": "x", "defaultRole": nil}, 201, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := s.DoUnchecked(t, admin, "POST", path, c.body) // pending providers have no ssoURL yet
				if c.code != 201 {
					r.WantError(t, c.code, c.msg)
					return
				}
				var p samlProvider
				r.WantStatus(t, 201).JSON(t, &p)
				if p.Status != "pending" {
					t.Errorf("status %q for an unconfigured provider", p.Status)
				}
			})
		}
		// PATCH completes a provider; only active ones are listed for login.
		var p samlProvider
		s.DoUnchecked(t, admin, "POST", path, `{"label":"Later"}`).WantStatus(t, 201).JSON(t, &p)
		var logins struct{ Items []any }
		s.Do(t, "", "GET", "/v1/orgs/"+org+"/sso", nil).JSON(t, &logins)
		if len(logins.Items) != 0 {
			t.Fatalf("pending providers listed: %v", logins.Items)
		}
		s.Do(t, admin, "PATCH", path+"/"+p.ID, map[string]any{"entityID": idp.EntityID, "ssoURL": idp.SSOURL, "certificate": idp.CertPEM}).
			WantStatus(t, 200).JSON(t, &p)
		if p.Status != "active" {
			t.Fatalf("status after PATCH %q", p.Status)
		}
		s.Do(t, admin, "PATCH", path+"/"+p.ID, `{"label":""}`).WantError(t, 400, "label")
		s.Do(t, "", "GET", "/v1/orgs/"+org+"/sso", nil).JSON(t, &logins)
		if len(logins.Items) != 1 {
			t.Fatalf("active provider not listed: %v", logins.Items)
		}
		s.Do(t, admin, "GET", path+"/"+p.ID, nil).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", path+"/"+p.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", path+"/"+p.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", path+"/"+p.ID, nil).WantError(t, 404, "SAML provider not found")
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "GET", path, nil).WantError(t, 403, "admins")
		s.Do(t, otherAdmin, "GET", path, nil).WantError(t, 404, "organization not found")
		s.Do(t, "", "GET", "/v1/orgs/nope/sso", nil).WantError(t, 404, "organization not found")
	})
}

// newSAMLBrowser is an HTTP client with cookies that does not follow redirects.
func newSAMLBrowser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: noRedirect.CheckRedirect}
}

// postForm posts an IdP's form to the ACS as a browser does (no JSON).
func postForm(t *testing.T, s *apitest.Server, c *http.Client, action, resp, state string) *http.Response {
	t.Helper()
	res, err := c.PostForm(s.URL+strings.TrimPrefix(action, apitest.PublicURL), url.Values{"SAMLResponse": {resp}, "RelayState": {state}})
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// TestSAMLBrowserSignInIsBoundToItsBrowser: an identity provider's answer
// captured in one browser and posted from another (a page of the attacker
// submitting it) signs that browser in as no one; posted from the browser
// that started the sign-in, it works.
func TestSAMLBrowserSignInIsBoundToItsBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _, idp, p, _ := samlSetup(t, s)
		idp.SetUser("mallory@example.com", "Mallory")
		attacker, victim := newSAMLBrowser(), newSAMLBrowser()
		// Both starts: the API's (the provider's start URL) and the web application's.
		for _, start := range []string{p.Service.StartURL, apitest.PublicURL + "/signin/sso/" + org + "/" + p.ID} {
			res, err := attacker.Get(s.URL + strings.TrimPrefix(start, apitest.PublicURL))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusFound {
				t.Fatalf("%s: %d", start, res.StatusCode)
			}
			action, resp, state := idp.Login(t, res.Header.Get("Location"))
			res = postForm(t, s, victim, action, resp, state)
			if res.StatusCode != 400 || strings.Contains(strings.Join(res.Header.Values("Set-Cookie"), ";"), "folio_session=") {
				t.Fatalf("%s: another browser's answer: %d %v", start, res.StatusCode, res.Header)
			}
			for _, c := range victim.Jar.Cookies(mustParse(t, s.URL)) {
				if c.Name == "folio_session" {
					t.Fatalf("%s: the victim got a session", start)
				}
			}
			// A forged cookie of another value does not help either.
			forged := newSAMLBrowser()
			forged.Jar.SetCookies(mustParse(t, s.URL), []*http.Cookie{{Name: "folio_saml", Value: "forged", Path: "/"}})
			if res := postForm(t, s, forged, action, resp, state); res.StatusCode != 400 {
				t.Fatalf("%s: a forged cookie: %d", start, res.StatusCode)
			}
			// The browser that started it signs in.
			res = postForm(t, s, attacker, action, resp, state)
			if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/o/"+org {
				t.Fatalf("%s: the starting browser: %d %v", start, res.StatusCode, res.Header)
			}
		}
	})
}

// TestSAMLWebStartRateLimit: the web application's SAML start, which
// records a login each time, counts against the sign-in limit.
func TestSAMLWebStartRateLimit(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{RateLimits: httpapi.RateLimits{Sensitive: 3}}, func(t *testing.T, s *apitest.Server) {
		org, _, _, p, _ := samlSetup(t, s)
		for i := range 4 {
			res, err := noRedirect.Get(s.URL + "/signin/sso/" + org + "/" + p.ID)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if want := map[bool]int{true: http.StatusFound, false: http.StatusTooManyRequests}[i < 3]; res.StatusCode != want {
				t.Fatalf("start %d: %d, want %d", i+1, res.StatusCode, want)
			}
		}
	})
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestSAMLStartCookieOnHTTPS: on https the binding cookie has the __Host-
// prefix, is Secure and HttpOnly, and SameSite=None, since the identity
// provider posts to the ACS from its own site.
func TestSAMLStartCookieOnHTTPS(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{PublicURL: "https://folio.test"}, func(t *testing.T, s *apitest.Server) {
		org, _, _, p, _ := samlSetup(t, s)
		for _, start := range []string{"/signin/sso/" + org + "/" + p.ID, "/v1/orgs/" + org + "/saml/" + p.ID + "/start"} {
			res, err := noRedirect.Get(s.URL + start)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			c := res.Header.Get("Set-Cookie")
			for _, want := range []string{"__Host-folio_saml=", "Path=/", "HttpOnly", "Secure", "SameSite=None", "Max-Age=600"} {
				if res.StatusCode != http.StatusFound || !strings.Contains(c, want) {
					t.Fatalf("%s: %d, cookie %q lacks %s", start, res.StatusCode, c, want)
				}
			}
		}
	})
}
