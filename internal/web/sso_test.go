package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/sso/ssotest"
	"github.com/foliodocs/folio/internal/store"
)

// idpBrowser is a browser that follows redirects, between Folio (reached
// by its public URL, which the transport sends to the test server) and an
// identity provider, as a real one does.
type idpBrowser struct {
	s *apitest.Server
	c *http.Client
}

// publicTransport sends requests for the server's public URL to the test
// server: the redirect URL Folio gives a provider is its public one.
type publicTransport struct{ public, real *url.URL }

func (p publicTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host == p.public.Host {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = p.real.Scheme, p.real.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

func newIdPBrowser(s *apitest.Server) *idpBrowser {
	jar, _ := cookiejar.New(nil)
	return &idpBrowser{s: s, c: &http.Client{Jar: jar,
		Transport: publicTransport{public: mustURL(s.PublicURL), real: mustURL(s.URL)}}}
}

// get follows a path of Folio's (or an absolute URL) to the end of its
// redirects and returns the page and where it ended.
func (b *idpBrowser) get(t *testing.T, path string) (page, string) {
	t.Helper()
	u := path
	if strings.HasPrefix(path, "/") {
		u = b.s.PublicURL + path
	}
	resp, err := b.c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}, resp.Request.URL.String()
}

// noRedirect makes the browser stop at the next redirect (and returns a
// function that makes it follow them again).
func (b *idpBrowser) noRedirect() func() {
	b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func() { b.c.CheckRedirect = nil }
}

var oidcLinkRE = regexp.MustCompile(`href="(/signin/oidc/[^"]+)">Sign in with ([^<]+)<`)

// addOIDCProvider configures a provider for idp through the SSO page's
// form and returns its id.
func addOIDCProvider(t *testing.T, s *apitest.Server, admin *browser, org folio.ID, idp *ssotest.OIDC, label string) folio.ID {
	t.Helper()
	admin.post(t, "/o/"+org+"/sso/oidc", url.Values{"label": {label}, "issuer": {idp.URL}, "clientID": {idp.ClientID},
		"clientSecret": {idp.ClientSecret}, "scopes": {"groups openid"}, "defaultRole": {"edit"}}).
		redirect(t, "/o/"+org+"/sso?saved=added")
	ps, err := s.App.ListOIDCLogins(context.Background(), org)
	if err != nil || len(ps) == 0 {
		t.Fatalf("providers %v, %v", ps, err)
	}
	return ps[len(ps)-1].ID
}

func sealedSecret(t *testing.T, s *apitest.Server, org, id folio.ID) string {
	t.Helper()
	var sealed string
	err := s.DB.Read(context.Background(), func(tx *store.Tx) (err error) {
		_, sealed, err = store.GetOIDCProvider(context.Background(), tx, org, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

// TestOIDCProviderConfiguredOnSSOPage: an admin adds, edits and removes an
// OpenID Connect provider through the SSO page's forms; the client secret
// is stored sealed and never shown; bad input changes nothing; the page
// and its forms are refused to members who are not admins.
func TestOIDCProviderConfiguredOnSSOPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		idp := ssotest.NewOIDC(t)
		b := signIn(t, s, admin.Email)
		b.get(t, "/o/"+org+"/sso").want(t, 200, "<h1>Single sign-on</h1>", "No OpenID Connect providers yet.",
			"No SAML providers yet.", `<label for="oidc-new-issuer">Issuer URL</label>`, `aria-current="page">Single sign-on</a>`)

		// Bad input: a clear message, the form keeps what was typed, nothing is stored.
		bad := b.post(t, "/o/"+org+"/sso/oidc", url.Values{"label": {"Acme ID"}, "issuer": {"not a url"}, "clientID": {"c"},
			"clientSecret": {"typed secret"}, "defaultRole": {"review"}}).
			want(t, 400, "issuer must be an absolute http or https URL. Nothing was changed.", `value="Acme ID"`,
				`<details class="menu" open>`, `<option selected>review</option>`)
		if strings.Contains(bad.Body, "typed secret") {
			t.Fatal("a refused form shows the secret back")
		}
		if ps, _ := s.App.ListOIDCLogins(context.Background(), org); len(ps) != 0 {
			t.Fatalf("a refused form stored %v", ps)
		}

		id := addOIDCProvider(t, s, b, org, idp, "Acme ID")
		redirect := apitest.PublicURL + "/signin/oidc/" + org + "/" + id + "/callback"
		p := b.get(t, "/o/"+org+"/sso?saved=added").want(t, 200, "The provider was added.", "Acme ID",
			`<code id="oidc-`+id+`-redirect">`+redirect+`</code>`, `data-copy="oidc-`+id+`-redirect"`,
			"Stored, sealed with the server key", "openid email profile groups", "<code>"+idp.URL+"</code>")
		if strings.Contains(p.Body, idp.ClientSecret) {
			t.Fatal("the SSO page shows the client secret")
		}
		sealed := sealedSecret(t, s, org, id)
		if strings.Contains(sealed, idp.ClientSecret) || !strings.HasPrefix(sealed, "s1.") {
			t.Fatalf("the stored client secret is not sealed: %q", sealed)
		}

		// Editing with an empty secret keeps the stored one.
		b.post(t, "/o/"+org+"/sso/oidc/"+id, url.Values{"label": {"Acme"}, "issuer": {idp.URL}, "clientID": {idp.ClientID},
			"clientSecret": {""}, "scopes": {""}, "defaultRole": {"comment"}}).redirect(t, "/o/"+org+"/sso?saved=updated")
		if got := sealedSecret(t, s, org, id); got != sealed {
			t.Fatal("an empty secret field changed the stored secret")
		}
		b.get(t, "/o/"+org+"/sso").want(t, 200, `<h3 id="oidc-`+id+`">Acme</h3>`, "<dd>comment</dd>")

		// Members who are not admins are refused the page and its forms.
		e := signIn(t, s, editor.Email)
		if p := e.get(t, "/o/"+org); strings.Contains(p.Body, "/sso\"") {
			t.Fatal("a non-admin is offered the SSO page")
		}
		e.get(t, "/o/"+org+"/sso").want(t, 403, "only organization admins")
		e.post(t, "/o/"+org+"/sso/oidc/"+id+"/delete", nil).want(t, 403)
		e.post(t, "/o/"+org+"/sso/oidc", url.Values{"label": {"Evil"}, "issuer": {idp.URL}, "clientID": {"x"}}).want(t, 403)
		if ps, _ := s.App.ListOIDCLogins(context.Background(), org); len(ps) != 1 || ps[0].Label != "Acme" {
			t.Fatalf("refused forms changed the providers: %v", ps)
		}
		// Another organization's admin gets 404.
		org2, _ := s.Org(t)
		other, _ := member(t, s, org2, folio.RoleAdmin)
		o := signIn(t, s, other.Email)
		o.get(t, "/o/"+org+"/sso").want(t, 404)
		o.post(t, "/o/"+org+"/sso/oidc/"+id+"/delete", nil).want(t, 404)

		// Every change is in the audit log.
		log := s.Do(t, adminTok, "GET", "/v1/orgs/"+org+"/audit-log", nil).WantStatus(t, 200)
		for _, action := range []string{"oidc.created", "oidc.updated"} {
			if !strings.Contains(string(log.Body), action) {
				t.Fatalf("audit log lacks %s: %s", action, log.Body)
			}
		}
		if strings.Contains(string(log.Body), idp.ClientSecret) {
			t.Fatal("the audit log holds the client secret")
		}

		b.post(t, "/o/"+org+"/sso/oidc/"+id+"/delete", nil).redirect(t, "/o/"+org+"/sso?saved=removed")
		b.get(t, "/o/"+org+"/sso").want(t, 200, "No OpenID Connect providers yet.")
		if log := s.Do(t, adminTok, "GET", "/v1/orgs/"+org+"/audit-log", nil); !strings.Contains(string(log.Body), "oidc.deleted") {
			t.Fatalf("audit log lacks oidc.deleted: %s", log.Body)
		}
	})
}

// TestOIDCSignIn: a member signs in through the organization's OpenID
// Connect provider end to end over HTTP and lands in the app with a
// session; a new verified email joins with the provider's role; a wrong
// state, nonce or PKCE verifier, an unverified email and another
// organization's provider are refused and sign no one in.
func TestOIDCSignIn(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		u, _ := s.Member(t, org, folio.RoleComment)
		idp := ssotest.NewOIDC(t)
		idp.Now = s.Clock.Now
		id := addOIDCProvider(t, s, signIn(t, s, admin.Email), org, idp, "Acme ID")

		// The sign-in page offers the provider.
		m := newIdPBrowser(s)
		p, _ := m.get(t, "/signin?next=%2Fo%2F"+org)
		link := oidcLinkRE.FindStringSubmatch(p.Body)
		if link == nil || link[1] != "/signin/oidc/"+org+"/"+id || link[2] != "Acme ID" {
			t.Fatalf("sign-in page links %v:\n%s", link, p.Body)
		}

		idp.SignIn(ssotest.OIDCUser{Email: u.Email, EmailVerified: true, Name: "Uma Member"})
		p, at := m.get(t, link[1])
		p.want(t, 200, "Collections and spaces")
		if mustURL(at).Path != "/o/"+org {
			t.Fatalf("landed at %s", at)
		}
		a := idp.Authorizations()[0]
		if a.Get("redirect_uri") != apitest.PublicURL+"/signin/oidc/"+org+"/"+id+"/callback" || a.Get("state") == "" ||
			a.Get("nonce") == "" || a.Get("code_challenge_method") != "S256" || a.Get("scope") != "openid email profile groups" {
			t.Fatalf("authorization request %v", a)
		}
		// The session is a database session of the user, confined to the organization.
		acc, _ := m.get(t, "/account")
		acc.want(t, 200, u.Email)
		s.DB.Read(ctx, func(tx *store.Tx) error {
			mem, err := store.GetMember(ctx, tx, org, u.ID)
			if err == nil && !mem.SSO {
				t.Error("the member was not marked an SSO member")
			}
			return err
		})

		// A new, verified email joins with the provider's role.
		n := newIdPBrowser(s)
		idp.SignIn(ssotest.OIDCUser{Email: "newcomer@example.com", EmailVerified: true, Name: "New Comer"})
		n.get(t, link[1])
		p, _ = n.get(t, "/o/"+org)
		p.want(t, 200, "Collections and spaces")
		s.DB.Read(ctx, func(tx *store.Tx) error {
			nu, err := store.GetUserByEmail(ctx, tx, "newcomer@example.com")
			if err != nil {
				t.Fatal(err)
			}
			mem, err := store.GetMember(ctx, tx, org, nu.ID)
			if err != nil || mem.Role != folio.RoleEdit || !mem.SSO {
				t.Fatalf("newcomer membership %+v, %v", mem, err)
			}
			return nil
		})

		signedOut := func(b *idpBrowser) {
			t.Helper()
			if _, at := b.get(t, "/o/"+org); !strings.Contains(at, "/signin?next=") {
				t.Fatalf("a refused sign-in signed in: at %s", at)
			}
		}

		// An unverified email is refused, and no account is made.
		x := newIdPBrowser(s)
		idp.SignIn(ssotest.OIDCUser{Email: "unverified@example.com", EmailVerified: false})
		p, _ = x.get(t, link[1])
		p.want(t, 400, "did not say the email address is verified")
		signedOut(x)
		s.DB.Read(ctx, func(tx *store.Tx) error {
			if _, err := store.GetUserByEmail(ctx, tx, "unverified@example.com"); !folio.IsNotFound(err) {
				t.Fatalf("an unverified sign-in made an account: %v", err)
			}
			return nil
		})

		// A forged nonce is refused.
		idp.SignIn(ssotest.OIDCUser{Email: u.Email, EmailVerified: true})
		idp.ForgeNonce("forged")
		p, _ = x.get(t, link[1])
		p.want(t, 400, "the ID token does not answer this sign-in")
		signedOut(x)
		idp.ForgeNonce("")

		// A callback whose state is not this browser's is refused, even
		// with a real code: a link to someone else's callback signs no one in.
		attacker := newIdPBrowser(s)
		stop := attacker.noRedirect()
		start, _ := attacker.get(t, link[1])
		authz, _ := attacker.get(t, start.Header.Get("Location"))
		callback := authz.Header.Get("Location")
		stop()
		// Another organization's callback does not take this provider's
		// sign-in, even in the browser that began it.
		org2, _ := s.Org(t)
		p, _ = attacker.get(t, "/signin/oidc/"+org2+"/"+id+"/callback?"+mustURL(callback).RawQuery)
		p.want(t, 404, "OIDC provider not found")
		signedOut(attacker)
		victim := newIdPBrowser(s)
		p, _ = victim.get(t, callback)
		p.want(t, 400, "not started in this browser")
		signedOut(victim)
		// The same with a state cookie of its own: the state must be this browser's.
		vstop := victim.noRedirect()
		victim.get(t, link[1])
		vstop()
		p, _ = victim.get(t, callback)
		p.want(t, 400, "not started in this browser")
		signedOut(victim)

		// A code redeemed with another sign-in's PKCE verifier is refused:
		// the victim's own state, with the attacker's code.
		vstop = victim.noRedirect()
		vstart, _ := victim.get(t, link[1])
		vauthz, _ := victim.get(t, vstart.Header.Get("Location"))
		vstop()
		vq := mustURL(vauthz.Header.Get("Location")).Query()
		aq := mustURL(callback).Query()
		p, _ = victim.get(t, "/signin/oidc/"+org+"/"+id+"/callback?"+url.Values{"state": {vq.Get("state")}, "code": {aq.Get("code")}}.Encode())
		p.want(t, 400, "the provider refused the authorization code")
		signedOut(victim)
		// A state is used once, even with its browser's cookie.
		victim.c.Jar.SetCookies(mustURL(s.PublicURL), []*http.Cookie{{Name: "folio_oidc", Value: vq.Get("state"), Path: "/"}})
		p, _ = victim.get(t, vauthz.Header.Get("Location"))
		p.want(t, 400, "this sign-in was not started here or has expired")
		signedOut(victim)

		// Another organization's provider cannot be used through this one.
		p, _ = newIdPBrowser(s).get(t, "/signin/oidc/"+org2+"/"+id)
		p.want(t, 404)
		p, _ = newIdPBrowser(s).get(t, "/signin/oidc/"+org2+"/"+id+"/callback?state=x&code=y")
		p.want(t, 400)
		if p, _ := newIdPBrowser(s).get(t, "/signin?org="+org2); strings.Contains(p.Body, "Acme ID") {
			t.Fatal("another organization's sign-in page offers the provider")
		}
	})
}

// TestOIDCIssuerGoesThroughTheGuard: requests to a tenant's issuer go
// through the outbound guard, so an issuer on the server's own network is
// refused when private addresses are not allowed.
func TestOIDCIssuerGoesThroughTheGuard(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{GuardPrivate: true}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		idp := ssotest.NewOIDC(t)
		id := addOIDCProvider(t, s, signIn(t, s, admin.Email), org, idp, "Internal ID")
		b := newBrowser(s)
		b.get(t, "/signin/oidc/"+org+"/"+id).want(t, 400, "discovery document could not be read")
		if n := len(idp.Authorizations()); n != 0 {
			t.Fatalf("%d authorizations reached a guarded issuer", n)
		}
	})
}

// TestSAMLProviderConfiguredOnSSOPage: an admin adds a SAML provider
// through the SSO page, sees the values to give the identity provider
// (ACS URL, entity ID, metadata URL, selectable text with copy buttons),
// edits and removes it.
func TestSAMLProviderConfiguredOnSSOPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		b := signIn(t, s, admin.Email)
		b.post(t, "/o/"+org+"/sso/saml", url.Values{"label": {"Okta"}, "entityID": {""}, "ssoURL": {"ftp://idp"},
			"certificate": {""}, "defaultRole": {"read"}}).want(t, 400, "ssoURL must be an absolute http or https URL", `value="Okta"`)
		var l struct{ Items []struct{ ID string } }
		s.Do(t, adminTok, "GET", "/v1/orgs/"+org+"/saml", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 0 {
			t.Fatalf("a refused form stored %v", l.Items)
		}
		b.post(t, "/o/"+org+"/sso/saml", url.Values{"label": {"Okta"}, "entityID": {""}, "ssoURL": {""},
			"certificate": {""}, "defaultRole": {"review"}}).redirect(t, "/o/"+org+"/sso?saved=added")
		// Unchecked: the wire answers a pending provider's ssoURL as "",
		// which GitBook's schema (format uri) does not allow.
		s.DoUnchecked(t, adminTok, "GET", "/v1/orgs/"+org+"/saml", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 1 {
			t.Fatalf("providers %v", l.Items)
		}
		id := l.Items[0].ID
		base := apitest.PublicURL + "/v1/orgs/" + org + "/saml/" + id
		b.get(t, "/o/"+org+"/sso").want(t, 200, "Okta", "Not configured yet",
			`<code id="saml-`+id+`-acs">`+base+`/acs</code>`, `<code id="saml-`+id+`-entity">`+base+`/metadata</code>`,
			`<code id="saml-`+id+`-metadata">`+base+`/metadata</code>`,
			`<button type="button" class="copy" data-copy="saml-`+id+`-acs" aria-label="Copy the ACS URL of Okta" hidden>Copy</button>`,
			"<dd>review</dd>", `<script src="/assets/copy.`)
		b.post(t, "/o/"+org+"/sso/saml/"+id, url.Values{"label": {"Okta SSO"}, "entityID": {"https://idp.example/meta"},
			"ssoURL": {"https://idp.example/sso"}, "certificate": {""}, "defaultRole": {"edit"}}).redirect(t, "/o/"+org+"/sso?saved=updated")
		var p struct {
			Label, EntityID, SSOURL, DefaultRole string
		}
		s.Do(t, adminTok, "GET", "/v1/orgs/"+org+"/saml/"+id, nil).WantStatus(t, 200).JSON(t, &p)
		if p.Label != "Okta SSO" || p.EntityID != "https://idp.example/meta" || p.SSOURL != "https://idp.example/sso" || p.DefaultRole != "edit" {
			t.Fatalf("provider after edit %+v", p)
		}
		b.post(t, "/o/"+org+"/sso/saml/"+id+"/delete", nil).redirect(t, "/o/"+org+"/sso?saved=removed")
		b.get(t, "/o/"+org+"/sso?saved=removed").want(t, 200, "The provider was removed.", "No SAML providers yet.")
	})
}

// TestSSORequirementToggle: an admin turns the organization's SSO
// requirement on from the SSO page; then a member's password session is
// refused while the member's OpenID Connect session works, and admins keep
// their way in. Others cannot change it.
func TestSSORequirementToggle(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, admin.Email)
		idp := ssotest.NewOIDC(t)
		idp.Now = s.Clock.Now
		id := addOIDCProvider(t, s, b, org, idp, "Acme ID")
		e := signIn(t, s, editor.Email)
		e.post(t, "/o/"+org+"/sso/require", url.Values{"required": {"on"}}).want(t, 403)
		var o struct{ SSO bool }
		s.Do(t, adminTok, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		if o.SSO {
			t.Fatal("a refused form turned SSO on")
		}
		b.post(t, "/o/"+org+"/sso/require", url.Values{"required": {"on"}}).redirect(t, "/o/"+org+"/sso?saved=required")
		b.get(t, "/o/"+org+"/sso").want(t, 200, `id="sso-required" checked`)
		s.Do(t, adminTok, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		if !o.SSO {
			t.Fatal("SSO is not required")
		}
		e.get(t, "/o/"+org).want(t, 403, "requires single sign-on")
		m := newIdPBrowser(s)
		idp.SignIn(ssotest.OIDCUser{Email: editor.Email, EmailVerified: true})
		p, _ := m.get(t, "/signin/oidc/"+org+"/"+id)
		p.want(t, 200, "Collections and spaces")
		b.get(t, "/o/"+org).want(t, 200)
		// Off again: the checkbox unticked sends nothing.
		b.post(t, "/o/"+org+"/sso/require", nil).redirect(t, "/o/"+org+"/sso?saved=required")
		e.get(t, "/o/"+org).want(t, 200)
	})
}
