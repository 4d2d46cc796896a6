package httpapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/golang-jwt/jwt/v5"
)

type publishingAuth struct {
	Object, Backend, PrivateKey, FallbackURL string
}

// signVisitor signs visitor claims with a site's private key (HS256), valid
// for ttl from the server's clock.
func signVisitor(t testing.TB, s *apitest.Server, key string, ttl time.Duration, claims map[string]any) string {
	t.Helper()
	c := jwt.MapClaims{"exp": s.Clock.Now().Add(ttl).Unix()}
	for k, v := range claims {
		c[k] = v
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// lookupVisitor is lookupURL with a visitor payload.
func lookupVisitor(t testing.TB, s *apitest.Server, u, jwtToken string, unsigned map[string]any, redirectOnError bool, want int) lookupBody {
	t.Helper()
	visitor := map[string]any{}
	if jwtToken != "" {
		visitor["jwtToken"] = jwtToken
	}
	if unsigned != nil {
		visitor["unsignedClaims"] = unsigned
	}
	var out lookupBody
	r := s.Do(t, "", "POST", "/v1/urls/published", map[string]any{"url": u, "visitor": visitor, "redirectOnError": redirectOnError})
	r.WantStatus(t, want)
	if want == 200 {
		r.JSON(t, &out)
	}
	return out
}

// TestSitePublishingAuthMatrix: the visitor authentication of a site, its
// private key included, is for the callers who manage the site; members
// below the create role get 403, guests and callers outside the
// organization 404. Refused writes change nothing.
func TestSitePublishingAuthMatrix(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		sp := newSpace(t, s, admin, a.Org, "Guide")
		st := newSite(t, s, admin, a.Org, map[string]any{"title": "Docs", "visibility": "visitor-auth", "spaces": []string{sp}})
		auth := "/v1/orgs/" + a.Org + "/sites/" + st.ID + "/publishing/auth"
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		n := 0
		manage := func(ok int) map[string]int {
			return apitest.Want(apitest.NoAccess, apitest.AnyActor, 403, apitest.Admin, ok, apitest.Create, ok)
		}
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "getSitePublishingAuthById", Method: "GET", Path: fixed(auth), Want: manage(200)},
			{Name: "updateSitePublishingAuthById", Method: "PATCH", Path: fixed(auth), State: apitest.Self,
				Body: func(*apitest.Actors) any {
					n++
					return map[string]any{"backend": "custom", "fallbackURL": fmt.Sprintf("https://login.example.com/%d", n)}
				},
				Want: manage(200)},
			{Name: "regenerateSitePublishingAuthById", Method: "POST", Path: fixed(auth + "/regenerate"),
				State: apitest.Trim("/regenerate"), Want: manage(200)},
		})
	})
}

// TestSitePublishingAuth: the shapes and rules of publishing/auth: a key
// created on first read and kept, sealed in the database; the fallback URL
// set, kept, removed with null; bad bodies refused without change; a new
// key on regenerate.
func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		path := "/v1/orgs/" + org + "/sites/" + st.ID + "/publishing/auth"
		var first, again publishingAuth
		s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &first)
		s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &again)
		if first.Object != "publishing-auth" || first.Backend != "custom" || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(first.PrivateKey) ||
			first.FallbackURL != "" || again != first {
			t.Fatalf("publishing auth %+v then %+v", first, again)
		}
		// Sealed at rest: the database holds no trace of the key.
		err := s.DB.Read(context.Background(), func(tx *store.Tx) error {
			a, err := store.GetSitePublishingAuth(context.Background(), tx, st.ID)
			if err == nil && (a.SealedKey == "" || strings.Contains(a.SealedKey, first.PrivateKey)) {
				err = fmt.Errorf("key stored as %q", a.SealedKey)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}

		var got publishingAuth
		s.Do(t, admin, "PATCH", path, map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/start"}).
			WantStatus(t, 200).JSON(t, &got)
		if got.FallbackURL != "https://login.example.com/start" || got.PrivateKey != first.PrivateKey {
			t.Fatalf("after PATCH: %+v", got)
		}
		before := s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Body
		for _, c := range []struct {
			name string
			body any
		}{
			{"no backend", map[string]any{"fallbackURL": "https://x.example.com"}},
			{"unknown backend", map[string]any{"backend": "ldap"}},
			{"integration backend", map[string]any{"backend": "integration"}},
			{"relative fallback", map[string]any{"backend": "custom", "fallbackURL": "/login"}},
			{"javascript fallback", map[string]any{"backend": "custom", "fallbackURL": "javascript:alert(1)"}},
			{"long fallback", map[string]any{"backend": "custom", "fallbackURL": "https://x.example.com/" + strings.Repeat("a", 2048)}},
		} {
			s.DoUnchecked(t, admin, "PATCH", path, c.body).WantStatus(t, 400)
			if after := s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Body; string(after) != string(before) {
				t.Fatalf("%s: a refused PATCH changed the auth: %s", c.name, after)
			}
		}
		s.Do(t, admin, "PATCH", path, map[string]any{"backend": "custom"}).WantStatus(t, 200).JSON(t, &got)
		if got.FallbackURL != "https://login.example.com/start" {
			t.Fatalf("an absent fallbackURL changed it: %+v", got)
		}
		got = publishingAuth{}
		s.Do(t, admin, "PATCH", path, map[string]any{"backend": "custom", "fallbackURL": nil}).WantStatus(t, 200).JSON(t, &got)
		if got.FallbackURL != "" {
			t.Fatalf("null kept the fallbackURL: %+v", got)
		}
		s.Do(t, admin, "POST", path+"/regenerate", nil).WantStatus(t, 200).JSON(t, &got)
		if got.PrivateKey == first.PrivateKey || len(got.PrivateKey) != 64 {
			t.Fatalf("regenerate kept the key: %+v", got)
		}
		s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &again)
		if again.PrivateKey != got.PrivateKey {
			t.Fatalf("the regenerated key was not kept: %+v", again)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/nosuchsite/publishing/auth", nil).WantStatus(t, 404)
	})
}

// TestSitePublishingAuthWithoutServerKey: a server with no key (PostgreSQL
// without FOLIO_SECRET_KEY) answers 503 rather than keep a key in clear.
func TestSitePublishingAuthWithoutServerKey(t *testing.T) {
	t.Parallel()
	apitest.RunOptions(t, apitest.Options{NoSecretKey: true}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/"+st.ID+"/publishing/auth", nil).
			WantError(t, 503, "FOLIO_SECRET_KEY")
	})
}

// TestVisitorAuthLookup: resolvePublishedContentByUrl on a visitor-auth
// site answers only to a JWT signed with the site's current key: expired,
// forged, alg none and wrongly signed tokens get 401, or the fallback URL
// as an external redirect when the site has one (always without a token,
// with a bad token when redirectOnError). The site API token carries the
// claims, and closes when the key is regenerated.
func TestVisitorAuthLookup(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello.\n"))
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "visibility": "visitor-auth", "spaces": []string{guide}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		siteURL := "https://folio.test/sites/" + st.ID

		// No key yet: nothing opens the site.
		lookupVisitor(t, s, siteURL, signVisitor(t, s, "guess", time.Hour, nil), nil, false, 401)
		var auth publishingAuth
		s.Do(t, admin, "GET", base+"/publishing/auth", nil).WantStatus(t, 200).JSON(t, &auth)

		good := signVisitor(t, s, auth.PrivateKey, time.Hour, map[string]any{"email": "ann@example.com", "plan": "pro"})
		l := lookupVisitor(t, s, siteURL, good, map[string]any{"lang": "fr"}, false, 200)
		p := tokenPayload(t, l.APIToken)
		claims, _ := p["claims"].(map[string]any)
		if l.Space != guide || claims["email"] != "ann@example.com" || claims["plan"] != "pro" ||
			claims["unsigned"].(map[string]any)["lang"] != "fr" {
			t.Fatalf("lookup %+v, token payload %v", l, p)
		}
		s.Do(t, l.APIToken, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200)

		parts := strings.Split(good, ".")
		body, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		m["plan"] = "enterprise"
		b, _ := json.Marshal(m)
		forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		noExp, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"plan": "pro"}).SignedString([]byte(auth.PrivateKey))
		hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, jwt.MapClaims{"exp": s.Clock.Now().Add(time.Hour).Unix()}).
			SignedString([]byte(auth.PrivateKey))
		for name, bad := range map[string]string{
			"expired":   signVisitor(t, s, auth.PrivateKey, -time.Minute, nil),
			"forged":    forged,
			"alg none":  none,
			"wrong key": signVisitor(t, s, strings.Repeat("0", 64), time.Hour, nil),
			"no exp":    noExp,
			"HS512":     hs512,
			"garbage":   "not-a-jwt",
		} {
			if r := s.Do(t, "", "POST", "/v1/urls/published", map[string]any{"url": siteURL,
				"visitor": map[string]any{"jwtToken": bad}}); r.Status != 401 {
				t.Errorf("%s token: status %d, want 401", name, r.Status)
			}
		}
		lookupVisitor(t, s, siteURL, "", map[string]any{"email": "ann@example.com"}, false, 401)

		// A fallback URL: the visitor is sent there to sign in.
		s.Do(t, admin, "PATCH", base+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/start?app=docs"}).
			WantStatus(t, 200)
		r := lookupVisitor(t, s, siteURL+"/intro", "", nil, false, 200)
		if r.Target != "external" || r.Redirect != "https://login.example.com/start?app=docs&location=%2Fintro" {
			t.Fatalf("redirect without a token: %+v", r)
		}
		lookupVisitor(t, s, siteURL, forged, nil, false, 401)
		if r = lookupVisitor(t, s, siteURL, forged, nil, true, 200); r.Target != "external" {
			t.Fatalf("redirectOnError with a bad token: %+v", r)
		}

		// A new key closes the old tokens and what they opened at once.
		s.Do(t, admin, "POST", base+"/publishing/auth/regenerate", nil).WantStatus(t, 200).JSON(t, &auth)
		lookupVisitor(t, s, siteURL, good, nil, false, 401)
		s.Do(t, l.APIToken, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 404)
		s.Do(t, l.APIToken, "GET", base+"/published", nil).WantStatus(t, 404)
		fresh := lookupVisitor(t, s, siteURL, signVisitor(t, s, auth.PrivateKey, time.Hour, nil), nil, false, 200)
		s.Do(t, fresh.APIToken, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200)

		// Unpublished: 404 whatever the token.
		s.Do(t, admin, "POST", base+"/unpublish", nil).WantStatus(t, 200)
		lookupVisitor(t, s, siteURL, signVisitor(t, s, auth.PrivateKey, time.Hour, nil), nil, false, 404)
	})
}

// TestAdaptiveLookup: the conditions of site spaces and sections decide,
// per visitor, what the lookup finds and what the site API token reads:
// signed claims from a JWT (on a public site too), unsigned claims under
// claims.unsigned, which never override a signed claim.
func TestAdaptiveLookup(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		beta := newSpace(t, s, admin, org, "Beta")
		staff := newSpace(t, s, admin, org, "Staff")
		importInto(t, s, admin, beta, "", "markdown", []byte("# News\n\nSoon.\n"))
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide, beta}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		s.Do(t, admin, "PUT", base+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
			"type": "object", "additionalProperties": false,
			"properties": map[string]any{
				"role": map[string]any{"type": "string", "description": "Role"},
				"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
					"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "Beta"}}},
			},
		}}).WantStatus(t, 200)
		var structure struct {
			Structure []struct{ ID, Path, Title string }
		}
		s.Do(t, admin, "GET", base+"/structure", nil).WantStatus(t, 200).JSON(t, &structure)
		var betaSS, guideSS string
		for _, x := range structure.Structure {
			if x.Path == "beta" {
				betaSS = x.ID
			} else {
				guideSS = x.ID
			}
		}
		s.Do(t, admin, "PATCH", base+"/site-spaces/"+betaSS, map[string]any{"condition": "visitor.claims.unsigned.beta == true || visitor.claims.role == \"admin\""}).
			WantStatus(t, 200)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		var auth publishingAuth
		s.Do(t, admin, "GET", base+"/publishing/auth", nil).WantStatus(t, 200).JSON(t, &auth)
		siteURL := "https://folio.test/sites/" + st.ID

		spaces := func(l lookupBody) []string {
			var out []string
			for _, x := range tokenPayload(t, l.APIToken)["spaces"].([]any) {
				out = append(out, x.(string))
			}
			return out
		}
		// Nobody in particular: the beta space does not exist for them.
		anon := lookupVisitor(t, s, siteURL, "", nil, false, 200)
		if slices.Contains(spaces(anon), beta) {
			t.Fatalf("anonymous token reads beta: %v", spaces(anon))
		}
		// Its path is a page path of the visible space, like any other
		// (the renderer answers its own 404 page).
		if l := lookupVisitor(t, s, siteURL+"/beta", "", nil, false, 200); l.SiteSpace != guideSS || l.Pathname != "beta" {
			t.Fatalf("the beta path for an anonymous visitor: %+v", l)
		}
		s.Do(t, anon.APIToken, "GET", "/v1/spaces/"+beta, nil).WantStatus(t, 404)
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, anon.APIToken, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		if len(prof.Structure.Structure) != 1 || prof.Structure.Structure[0].ID != guideSS {
			t.Fatalf("published structure for an anonymous visitor: %+v", prof)
		}

		// Unsigned claim, and a signed one, open it.
		for name, l := range map[string]lookupBody{
			"unsigned": lookupVisitor(t, s, siteURL+"/beta", "", map[string]any{"beta": true}, false, 200),
			"signed":   lookupVisitor(t, s, siteURL+"/beta", signVisitor(t, s, auth.PrivateKey, time.Hour, map[string]any{"role": "admin"}), nil, false, 200),
		} {
			if l.Space != beta || !slices.Contains(spaces(l), beta) {
				t.Fatalf("%s: lookup %+v spaces %v", name, l, spaces(l))
			}
			s.Do(t, l.APIToken, "GET", "/v1/spaces/"+beta+"/content", nil).WantStatus(t, 200)
		}
		// Unsigned claims never override signed ones: a role among them is
		// only claims.unsigned.role, and a signed "unsigned" claim wins. The
		// beta path is then a page path of the guide space.
		notBeta := func(l lookupBody) {
			t.Helper()
			if l.Space == beta || l.Pathname != "beta" || slices.Contains(spaces(l), beta) {
				t.Fatalf("beta reached: %+v", l)
			}
		}
		notBeta(lookupVisitor(t, s, siteURL+"/beta", signVisitor(t, s, auth.PrivateKey, time.Hour, map[string]any{"role": "reader"}),
			map[string]any{"role": "admin"}, false, 200))
		notBeta(lookupVisitor(t, s, siteURL+"/beta", signVisitor(t, s, auth.PrivateKey, time.Hour, map[string]any{"unsigned": map[string]any{"beta": false}}),
			map[string]any{"beta": true}, false, 200))
		// A token that does not verify gives no signed claims on a public site.
		notBeta(lookupVisitor(t, s, siteURL+"/beta", signVisitor(t, s, "wrong", time.Hour, map[string]any{"role": "admin"}), nil, false, 200))

		// The condition is checked on every call: narrowing it closes what
		// the token read.
		open := lookupVisitor(t, s, siteURL+"/beta", "", map[string]any{"beta": true}, false, 200)
		s.Do(t, admin, "PATCH", base+"/site-spaces/"+betaSS, map[string]any{"condition": "visitor.claims.role == \"admin\""}).WantStatus(t, 200)
		s.Do(t, open.APIToken, "GET", "/v1/spaces/"+beta, nil).WantStatus(t, 404)

		// A hidden default site space: the first visible one stands in.
		s.Do(t, admin, "PATCH", base, map[string]any{"defaultSiteSpace": betaSS}).WantStatus(t, 200)
		l := lookupVisitor(t, s, siteURL, "", nil, false, 200)
		if l.Space != guide || l.BasePath != "/sites/"+st.ID+"/guide" {
			t.Fatalf("stand-in default: %+v", l)
		}

		// Sections: a hidden section is absent with its site spaces.
		var sec struct{ ID, Path string }
		s.Do(t, admin, "POST", base+"/sections", map[string]any{"spaceId": staff, "title": "Staff"}).WantStatus(t, 201).JSON(t, &sec)
		s.Do(t, admin, "PATCH", base+"/sections/"+sec.ID, map[string]any{"condition": "visitor.claims.role == \"staff\""}).WantStatus(t, 200)
		if l := lookupVisitor(t, s, siteURL+"/"+sec.Path, "", nil, false, 200); l.SiteSection == sec.ID || l.Space == staff ||
			l.Pathname != sec.Path {
			t.Fatalf("a hidden section reached: %+v", l)
		}
		if anon = lookupVisitor(t, s, siteURL, "", nil, false, 200); slices.Contains(spaces(anon), staff) {
			t.Fatalf("a hidden section's space in the token: %v", spaces(anon))
		}
		staffTok := signVisitor(t, s, auth.PrivateKey, time.Hour, map[string]any{"role": "staff"})
		if l = lookupVisitor(t, s, siteURL+"/"+sec.Path, staffTok, nil, false, 200); l.Space != staff || l.SiteSection != sec.ID {
			t.Fatalf("section lookup for staff: %+v", l)
		}
		if !slices.Contains(spaces(l), staff) {
			t.Fatalf("staff token %v", tokenPayload(t, l.APIToken))
		}
	})
}

// TestVisitorKeyUnderAnotherServerKey: a server whose key changed cannot
// read a site's sealed visitor key: reading it answers 409, tokens do not
// open the site, and regenerating gives a new key it can read.
func TestVisitorKeyUnderAnotherServerKey(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "visibility": "visitor-auth", "spaces": []string{sp}})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+st.ID+"/publish", nil).WantStatus(t, 200)
		var auth publishingAuth
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/"+st.ID+"/publishing/auth", nil).WantStatus(t, 200).JSON(t, &auth)

		key, _ := seal.ParseKey(seal.NewKeyText())
		other, _ := seal.New(key)
		b := app.New(app.Config{DB: s.DB, Clock: s.Clock, PublicURL: apitest.PublicURL, Sealer: other})
		caller, err := b.Authenticate(ctx, admin)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.GetSitePublishingAuth(ctx, caller, org, st.ID); folio.KindOf(err) != folio.Conflict {
			t.Fatalf("reading a key sealed with another server key: %v", err)
		}
		tok := signVisitor(t, s, auth.PrivateKey, time.Hour, nil)
		if _, err := b.ResolvePublishedURL(ctx, "https://folio.test/sites/"+st.ID, app.Visitor{Token: tok}, false); folio.KindOf(err) != folio.Unauthenticated {
			t.Fatalf("a token with an unreadable key: %v", err)
		}
		fresh, err := b.RegenerateSitePublishingAuth(ctx, caller, org, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.GetSitePublishingAuth(ctx, caller, org, st.ID)
		if err != nil || got.PrivateKey != fresh.PrivateKey || got.PrivateKey == auth.PrivateKey {
			t.Fatalf("after regenerate: %v %+v", err, got)
		}
	})
}
