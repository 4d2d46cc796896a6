package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
)

type lookupBody struct {
	Site, SiteSection, SiteSpace, Space, Organization        string
	Pathname, BasePath, SiteBasePath, CanonicalURL, APIToken string
	ShareKey                                                 string
	Complete                                                 bool
	Target, Redirect                                         string
}

func lookupURL(t testing.TB, s *apitest.Server, u string, want int) lookupBody {
	t.Helper()
	var out lookupBody
	r := s.Do(t, "", "POST", "/v1/urls/published", map[string]any{"url": u})
	r.WantStatus(t, want)
	if want == 200 {
		r.JSON(t, &out)
	}
	return out
}

// tokenPayload decodes a JWT's payload without verifying it, as GitBook's
// renderer does.
func tokenPayload(t testing.TB, tok string) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("apiToken %q is not a JWT", tok)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResolvePublishedContentByURL looks up URLs of published sites by path
// prefix and by hostname, with site-space and page paths, redirects, and
// the URLs that answer 404.
func TestResolvePublishedContentByURL(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello.\n"))
		var pages struct{ Pages []struct{ ID, Path string } }
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		if len(pages.Pages) == 0 {
			t.Fatal("no pages")
		}
		page := pages.Pages[0]
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide, api}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		siteURL := "https://folio.test/sites/" + st.ID
		// The canonical URL keeps the form asked for, not the public URL's.
		canonical := siteURL

		// The renderer's body, with nested unsigned visitor claims.
		s.Do(t, "", "POST", "/v1/urls/published", map[string]any{"url": siteURL, "redirectOnError": false,
			"visitor": map[string]any{"unsignedClaims": map[string]any{"a": map[string]any{"b": 1}}}}).WantStatus(t, 404)

		// Unpublished: nothing.
		lookupURL(t, s, siteURL, 404)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)

		l := lookupURL(t, s, siteURL, 200)
		if l.Site != st.ID || l.Space != guide || l.Organization != org || l.SiteBasePath != "/sites/"+st.ID ||
			l.BasePath != "/sites/"+st.ID || l.Pathname != "" || l.Complete || l.CanonicalURL != canonical {
			t.Fatalf("lookup of the site root: %+v", l)
		}
		l = lookupURL(t, s, "http://folio.test/sites/"+st.ID+"/"+page.Path, 200)
		if l.Space != guide || l.Pathname != page.Path || !l.Complete || l.CanonicalURL != "http://folio.test/sites/"+st.ID+"/"+page.Path {
			t.Fatalf("lookup of a page: %+v", l)
		}
		l = lookupURL(t, s, siteURL+"/api", 200)
		if l.Space != api || l.BasePath != "/sites/"+st.ID+"/api" || l.Pathname != "" || !l.Complete {
			t.Fatalf("lookup of the second site space: %+v", l)
		}
		if l := lookupURL(t, s, siteURL+"/no-such-page", 200); l.Space != guide || l.Pathname != "no-such-page" || !l.Complete {
			t.Fatalf("lookup of a path that is no page: %+v", l)
		}
		for _, u := range []string{
			"https://folio.test/sites/nosuchsite",
			"https://elsewhere.test/sites/" + st.ID,
		} {
			lookupURL(t, s, u, 404)
		}

		// Redirects.
		s.Do(t, admin, "POST", base+"/redirects", map[string]any{"source": "/old",
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": l.SiteSpace}}).WantStatus(t, 201)
		l = lookupURL(t, s, siteURL+"/old", 200)
		if l.Target != "content" || l.Redirect != canonical+"/api" {
			t.Fatalf("redirect: %+v", l)
		}

		// A hostname with a basename.
		s.Do(t, admin, "PATCH", base, map[string]any{"hostname": "docs.example.com", "basename": "guide"}).WantStatus(t, 200)
		lookupURL(t, s, siteURL, 404)
		lookupURL(t, s, "https://docs.example.com/", 404)
		l = lookupURL(t, s, "https://docs.example.com/guide/"+page.Path, 200)
		if l.SiteBasePath != "/guide" || l.Pathname != page.Path || l.CanonicalURL != "https://docs.example.com/guide/"+page.Path {
			t.Fatalf("lookup by hostname: %+v", l)
		}
		p := tokenPayload(t, l.APIToken)
		if p["kind"] != "site" || p["site"] != st.ID || p["organization"] != org || p["space"] != guide ||
			p["siteSpace"] != l.SiteSpace || len(p["spaces"].([]any)) != 2 {
			t.Fatalf("token payload %v", p)
		}
		exp := time.Unix(int64(p["exp"].(float64)), 0)
		if now := s.Clock.Now(); !exp.After(now.Add(2*time.Minute)) || exp.After(now.Add(2*time.Hour)) {
			t.Fatalf("token expires at %v (now %v)", exp, now)
		}

		// Share-link sites need the key; visitor-auth sites a visitor token
		// (siteauth_test.go).
		s.Do(t, admin, "PATCH", base, map[string]any{"visibility": "share-link"}).WantStatus(t, 200)
		var link struct{ URLs struct{ Published string } }
		s.Do(t, admin, "POST", base+"/share-links", map[string]any{"name": "x"}).WantStatus(t, 201).JSON(t, &link)
		lookupURL(t, s, "https://docs.example.com/guide", 404)
		key := link.URLs.Published[strings.Index(link.URLs.Published, "shareKey=")+len("shareKey="):]
		if l = lookupURL(t, s, "https://docs.example.com/guide?shareKey="+key, 200); l.ShareKey != key {
			t.Fatalf("share-link lookup %+v", l)
		}
		lookupURL(t, s, "https://docs.example.com/guide?shareKey=wrong", 404)
		s.Do(t, admin, "PATCH", base, map[string]any{"visibility": "visitor-auth"}).WantStatus(t, 200)
		lookupURL(t, s, "https://docs.example.com/guide?shareKey="+key, 401)
	})
}

// TestSiteAPIToken checks what a site API token reads: its site's published
// profile, redirects, spaces, pages and files, and its organization's
// members; and what it does not: another site, a space its site does not
// publish, an older revision, anything else, and any write, each refusal
// changing nothing. Expired, forged and unpublished cases answer 401 or 404.
func TestSiteAPIToken(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &me)
		guide := newSpace(t, s, admin, org, "Guide")
		secret := newSpace(t, s, admin, org, "Secret")
		hidden := newSpace(t, s, admin, org, "Hidden")
		first := importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello.\n"))
		importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello again.\n"))
		var pages struct{ Pages []struct{ ID, Path string } }
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		page := pages.Pages[0]
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		other := newSite(t, s, admin, org, map[string]any{"title": "Other", "spaces": []string{secret}})
		sites := "/v1/orgs/" + org + "/sites/"
		s.Do(t, admin, "POST", sites+st.ID+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "POST", sites+other.ID+"/publish", nil).WantStatus(t, 200)
		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken

		// What it reads.
		for _, path := range []string{
			sites + st.ID + "/published",
			"/v1/spaces/" + guide,
			"/v1/spaces/" + guide + "/content",
			"/v1/spaces/" + guide + "/content/pages",
			"/v1/spaces/" + guide + "/content/page/" + page.ID,
			"/v1/spaces/" + guide + "/content/path/" + page.Path,
			"/v1/spaces/" + guide + "/content/files",
			"/v1/users/" + me.ID,
		} {
			s.Do(t, tok, "GET", path, nil).WantStatus(t, 200)
		}
		s.Do(t, tok, "GET", sites+st.ID+"/redirect?source=/nowhere", nil).WantStatus(t, 404)

		// What it does not: each refusal changes nothing.
		state := func() string {
			var b strings.Builder
			for _, p := range []string{"/v1/spaces/" + guide, "/v1/spaces/" + guide + "/content", "/v1/spaces/" + secret,
				"/v1/spaces/" + hidden, sites + st.ID, sites + other.ID, "/v1/orgs/" + org, "/v1/user/tokens"} {
				b.Write(s.Do(t, admin, "GET", p, nil).WantStatus(t, 200).Body)
			}
			return b.String()
		}
		before := state()
		for _, c := range []struct {
			method, path string
			body         any
			want         int
		}{
			{"GET", "/v1/spaces/" + secret, nil, 404},
			{"GET", "/v1/spaces/" + secret + "/content", nil, 404},
			{"GET", "/v1/spaces/" + hidden, nil, 404},
			{"GET", "/v1/spaces/" + hidden + "/content/pages", nil, 404},
			{"GET", sites + other.ID + "/published", nil, 404},
			{"GET", sites + other.ID + "/redirect?source=/x", nil, 404},
			{"GET", "/v1/spaces/" + guide + "/revisions/" + first.Revision, nil, 404},
			{"GET", "/v1/user", nil, 403},
			{"GET", "/v1/orgs", nil, 403},
			{"GET", "/v1/orgs/" + org, nil, 403},
			{"GET", "/v1/orgs/" + org + "/spaces", nil, 403},
			{"GET", "/v1/orgs/" + org + "/members", nil, 403},
			{"GET", strings.TrimSuffix(sites, "/"), nil, 403},
			{"GET", sites + st.ID, nil, 403},
			{"GET", sites + st.ID + "/share-links", nil, 403},
			{"GET", "/v1/spaces/" + guide + "/change-requests", nil, 403},
			{"PATCH", "/v1/spaces/" + guide, map[string]any{"title": "Hacked"}, 403},
			{"DELETE", "/v1/spaces/" + guide, nil, 403},
			{"POST", "/v1/spaces/" + guide + "/content/import", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# X\n"))}, 403},
			{"PATCH", sites + st.ID, map[string]any{"title": "Hacked"}, 403},
			{"POST", sites + st.ID + "/unpublish", nil, 403},
			{"POST", sites + st.ID + "/share-links", map[string]any{"name": "x"}, 403},
			{"POST", sites + st.ID + "/redirects", map[string]any{"source": "/a", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "x"}}, 403},
			{"POST", "/v1/user/tokens", map[string]any{"label": "x"}, 403},
			{"POST", "/v1/orgs", map[string]any{"title": "Mine"}, 403},
		} {
			r := s.DoUnchecked(t, tok, c.method, c.path, c.body)
			if r.Status != c.want {
				t.Errorf("%s %s: status %d, want %d: %s", c.method, c.path, r.Status, c.want, r.Body)
			}
		}
		if after := state(); after != before {
			t.Fatalf("a refused request changed something:\n%s\n%s", before, after)
		}

		// Forged and expired tokens.
		parts := strings.Split(tok, ".")
		payload := tokenPayload(t, tok)
		payload["spaces"] = []string{guide, secret}
		b, _ := json.Marshal(payload)
		forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		for _, bad := range []string{forged, none, parts[0] + "." + parts[1] + ".AAAA", "eyJ.x.y"} {
			s.Do(t, bad, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 401)
		}
		s.Clock.Advance(61 * time.Minute)
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 401)
		tok = lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200)

		// The key of another share-link site does not widen the token.
		s.Do(t, admin, "PATCH", sites+other.ID, map[string]any{"visibility": "share-link"}).WantStatus(t, 200)
		var link struct{ URLs struct{ Published string } }
		s.Do(t, admin, "POST", sites+other.ID+"/share-links", map[string]any{"name": "x"}).WantStatus(t, 201).JSON(t, &link)
		key := link.URLs.Published[strings.Index(link.URLs.Published, "shareKey=")+len("shareKey="):]
		s.Do(t, admin, "GET", "/v1/spaces/"+secret+"?shareKey="+key, nil).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/spaces/"+secret+"?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, tok, "GET", sites+other.ID+"/published?shareKey="+key, nil).WantStatus(t, 404)

		// Unpublishing the site closes what its tokens read at once.
		s.Do(t, admin, "POST", sites+st.ID+"/unpublish", nil).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 404)
		s.Do(t, tok, "GET", sites+st.ID+"/published", nil).WantStatus(t, 404)
	})
}

// TestResolvePublishedContentInSections looks up URLs of a site with
// sections: the default section at the site's root, another under its
// path, each with its siteSection in the answer and in the token.
func TestResolvePublishedContentInSections(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		importInto(t, s, admin, api, "", "markdown", []byte("# Intro\n\nHello.\n"))
		var pages struct{ Pages []struct{ ID, Path string } }
		s.Do(t, admin, "GET", "/v1/spaces/"+api+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		page := pages.Pages[0]
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		var sec struct{ ID, Path string }
		s.Do(t, admin, "POST", base+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &sec)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		siteURL := "https://folio.test/sites/" + st.ID

		root := lookupURL(t, s, siteURL, 200)
		if root.Space != guide || root.SiteSection == "" || root.SiteSection == sec.ID || root.BasePath != "/sites/"+st.ID {
			t.Fatalf("lookup of the default section: %+v", root)
		}
		l := lookupURL(t, s, siteURL+"/"+sec.Path+"/"+page.Path, 200)
		if l.Space != api || l.SiteSection != sec.ID || l.BasePath != "/sites/"+st.ID+"/"+sec.Path ||
			l.SiteBasePath != "/sites/"+st.ID || l.Pathname != page.Path {
			t.Fatalf("lookup in a section: %+v (section %+v)", l, sec)
		}
		if p := tokenPayload(t, l.APIToken); p["siteSection"] != sec.ID || len(p["spaces"].([]any)) != 2 {
			t.Fatalf("token payload %v", p)
		}
		s.Do(t, l.APIToken, "GET", "/v1/spaces/"+api+"/content/page/"+page.ID, nil).WantStatus(t, 200)
		if l := lookupURL(t, s, siteURL+"/"+sec.Path+"/no-such-page", 200); l.SiteSection != sec.ID || l.Pathname != "no-such-page" {
			t.Fatalf("lookup of a path that is no page in a section: %+v", l)
		}
	})
}
