package reader_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/golang-jwt/jwt/v5"
)

// getCookies fetches a reader path with cookies, without following
// redirects.
func getCookies(t *testing.T, s *apitest.Server, path string, cookies ...*http.Cookie) page {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	c := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return page{status: res.StatusCode, header: res.Header, body: string(b)}
}

// cookie returns the named cookie a page sets, or nil.
func (p page) cookie(name string) *http.Cookie {
	for _, c := range (&http.Response{Header: p.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (f *fixture) visitorKey(t *testing.T) string {
	t.Helper()
	var auth struct{ PrivateKey string }
	f.s.Do(t, f.admin, "GET", f.siteAPI+"/publishing/auth", nil).WantStatus(t, 200).JSON(t, &auth)
	return auth.PrivateKey
}

func sign(t *testing.T, s *apitest.Server, key string, ttl time.Duration, claims map[string]any) string {
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

// TestVisitorAuth: a visitor-auth site opens to a JWT signed with its key
// in jwt_token, kept in an HttpOnly cookie scoped to the site and checked
// again on every request; expired, forged, alg none and wrongly signed
// tokens get 401, or the fallback URL when the site has one; a new key
// closes the cookie at once.
func TestVisitorAuth(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{"visibility": "visitor-auth"})
		f.publish(t)
		base := "/sites/" + f.site
		p := get(t, s, nil, "", base+"/").want(t, 401, "Authentication required")
		if strings.Contains(p.body, "Welcome") {
			t.Fatal("visitor-auth content served")
		}
		key := f.visitorKey(t)
		tok := sign(t, s, key, time.Hour, map[string]any{"email": "ann@example.com"})
		p = get(t, s, nil, "", base+"/?jwt_token="+tok).want(t, 200, "<h1>Welcome</h1>", `<meta name="robots" content="noindex">`)
		c := p.cookie("folio_visitor")
		if c == nil || c.Value != tok || !c.HttpOnly || c.Path != base+"/" || c.SameSite != http.SameSiteLaxMode {
			t.Fatalf("visitor cookie %+v (Set-Cookie %q)", c, p.header.Values("Set-Cookie"))
		}
		// The cookie alone opens the next pages.
		getCookies(t, s, base+"/welcome", &http.Cookie{Name: "folio_visitor", Value: tok}).want(t, 200, "<h1>Welcome</h1>")

		parts := strings.Split(tok, ".")
		forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"email":"eve@example.com","exp":9999999999}`)) + "." + parts[2]
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		for name, bad := range map[string]string{
			"expired":   sign(t, s, key, -time.Minute, nil),
			"forged":    forged,
			"alg none":  none,
			"wrong key": sign(t, s, "another-key", time.Hour, nil),
		} {
			if p := get(t, s, nil, "", base+"/?jwt_token="+url.QueryEscape(bad)); p.status != 401 || p.cookie("folio_visitor") != nil {
				t.Errorf("%s token: status %d, cookie %v", name, p.status, p.cookie("folio_visitor"))
			}
			getCookies(t, s, base+"/welcome", &http.Cookie{Name: "folio_visitor", Value: bad}).want(t, 401)
		}

		// A fallback URL: refused visitors go there, with where they were
		// going in location.
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/sso"}).
			WantStatus(t, 200)
		p = get(t, s, nil, "", base+"/welcome")
		if p.status != http.StatusFound || p.header.Get("Location") != "https://login.example.com/sso?location=%2Fwelcome" {
			t.Fatalf("fallback: %d %q", p.status, p.header.Get("Location"))
		}

		// A new key closes the kept cookie at once, and clears it.
		s.Do(t, f.admin, "POST", f.siteAPI+"/publishing/auth/regenerate", nil).WantStatus(t, 200)
		p = getCookies(t, s, base+"/welcome", &http.Cookie{Name: "folio_visitor", Value: tok})
		if p.status != http.StatusFound {
			t.Fatalf("old cookie after regenerate: %d", p.status)
		}
		if c := p.cookie("folio_visitor"); c == nil || c.MaxAge >= 0 {
			t.Fatalf("the stale cookie is not cleared: %+v", c)
		}
		get(t, s, nil, "", base+"/?jwt_token="+sign(t, s, f.visitorKey(t), time.Hour, nil)).want(t, 200, "<h1>Welcome</h1>")
	})
}

// TestAdaptiveContent: site spaces and sections under a condition are
// absent from the navigation and the sitemap, and answer 404, unless the
// visitor's claims satisfy it: unsigned claims from visitor.* query
// parameters (kept in a cookie) or a gitbook-visitor-public cookie, signed
// ones from a JWT, which unsigned ones never override.
func TestAdaptiveContent(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		beta := f.newSpace(t, "Beta", "# Beta news\n\nSoon.\n")
		var ss struct{ ID, Path string }
		s.Do(t, f.admin, "POST", f.siteAPI+"/site-spaces", map[string]any{"spaceId": beta}).WantStatus(t, 201).JSON(t, &ss)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ss.ID,
			map[string]any{"condition": `visitor.claims.unsigned.beta == true || visitor.claims.role == "admin"`}).WantStatus(t, 200)
		f.publish(t)
		base := "/sites/" + f.site
		betaURL := base + "/" + ss.Path

		// Nobody in particular.
		p := get(t, s, nil, "", base+"/").want(t, 200, "<h1>Welcome</h1>")
		if strings.Contains(p.body, betaURL) {
			t.Fatalf("the hidden site space is in the navigation:\n%s", p.body)
		}
		get(t, s, nil, "", betaURL).want(t, 404)
		if p = get(t, s, nil, "", base+"/sitemap.xml").want(t, 200, "<urlset"); strings.Contains(p.body, betaURL) {
			t.Fatalf("the hidden site space is in the sitemap:\n%s", p.body)
		}

		// Unsigned claims from the query, kept in a cookie, and from a
		// cookie of the visitor's own.
		p = get(t, s, nil, "", betaURL+"?visitor.beta=true").want(t, 200, "<h1>Beta news</h1>")
		kept := p.cookie("gitbook-visitor-public-url")
		if kept == nil || kept.Path != base+"/" {
			t.Fatalf("visitor.* claims not kept: %q", p.header.Values("Set-Cookie"))
		}
		getCookies(t, s, betaURL, kept).want(t, 200, "<h1>Beta news</h1>")
		p = getCookies(t, s, base+"/", &http.Cookie{Name: "gitbook-visitor-public", Value: url.QueryEscape(`{"beta":true}`)}).want(t, 200)
		if !strings.Contains(p.body, betaURL) {
			t.Fatalf("the visible site space is not in the navigation:\n%s", p.body)
		}
		get(t, s, nil, "", betaURL+"?visitor.beta=false").want(t, 404)

		// Signed claims from a JWT, on a public site too.
		key := f.visitorKey(t)
		get(t, s, nil, "", betaURL+"?jwt_token="+sign(t, s, key, time.Hour, map[string]any{"role": "admin"})).want(t, 200, "<h1>Beta news</h1>")
		get(t, s, nil, "", betaURL+"?jwt_token="+sign(t, s, "wrong", time.Hour, map[string]any{"role": "admin"})).want(t, 404)
		// Unsigned claims never override signed ones.
		get(t, s, nil, "", betaURL+"?visitor.role=admin").want(t, 404)
		get(t, s, nil, "", betaURL+"?visitor.beta=true&jwt_token="+
			sign(t, s, key, time.Hour, map[string]any{"unsigned": map[string]any{"beta": false}})).want(t, 404)

		// Sections: a hidden section is absent with its site spaces.
		api := f.newSpace(t, "API", "# Endpoints\n\nGET things.\n")
		var sec struct{ ID, Path string }
		s.Do(t, f.admin, "POST", f.siteAPI+"/sections", map[string]any{"spaceId": api, "title": "Internal API"}).WantStatus(t, 201).JSON(t, &sec)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/sections/"+sec.ID, map[string]any{"condition": `visitor.claims.role == "staff"`}).WantStatus(t, 200)
		if p = get(t, s, nil, "", base+"/").want(t, 200); strings.Contains(p.body, "Internal API") {
			t.Fatalf("the hidden section is in the navigation:\n%s", p.body)
		}
		get(t, s, nil, "", base+"/"+sec.Path).want(t, 404)
		staff := sign(t, s, key, time.Hour, map[string]any{"role": "staff"})
		get(t, s, nil, "", base+"/"+sec.Path+"?jwt_token="+staff).want(t, 200, "<h1>Endpoints</h1>", "Internal API")
	})
}

// TestHiddenDefaultSiteSpace: when the default site space is hidden from a
// visitor, the site's root shows the first one they see.
func TestHiddenDefaultSiteSpace(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		other := f.newSpace(t, "Other", "# Other home\n\nHi.\n")
		var ss struct{ ID string }
		s.Do(t, f.admin, "POST", f.siteAPI+"/site-spaces", map[string]any{"spaceId": other}).WantStatus(t, 201).JSON(t, &ss)
		var st struct {
			Structure []struct {
				ID      string
				Default bool
			}
		}
		s.Do(t, f.admin, "GET", f.siteAPI+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		for _, x := range st.Structure {
			if x.Default {
				s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+x.ID, map[string]any{"condition": "visitor.claims.unsigned.old == true"}).WantStatus(t, 200)
			}
		}
		f.publish(t)
		get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200, "<h1>Other home</h1>")
		get(t, s, nil, "", "/sites/"+f.site+"/?visitor.old=true").want(t, 200, "<h1>Welcome</h1>")
	})
}
