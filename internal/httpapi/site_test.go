package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

type siteBody struct {
	ID         string
	Title      string
	Visibility string
	Published  bool
	Hostname   string
	Basename   string
	Proxy      *struct{ Origin string }
	SiteSpaces int
	URLs       struct{ Published string }
}

func newSite(t testing.TB, s *apitest.Server, token, org string, body map[string]any) siteBody {
	t.Helper()
	var out siteBody
	s.Do(t, token, "POST", "/v1/orgs/"+org+"/sites", body).WantStatus(t, 201).JSON(t, &out)
	return out
}

// TestSiteLifecycle creates a site with spaces, lists it with each
// filter, publishes and unpublishes it and deletes it.
func TestSiteLifecycle(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		if st.Visibility != "public" || st.Published || st.SiteSpaces != 1 || st.URLs.Published != "" {
			t.Fatalf("created %+v", st)
		}
		newSite(t, s, admin, org, map[string]any{"title": "Other"})
		base := "/v1/orgs/" + org + "/sites"
		count := func(q string) int {
			var l struct{ Count int }
			s.Do(t, admin, "GET", base+q, nil).WantStatus(t, 200).JSON(t, &l)
			return l.Count
		}
		for q, want := range map[string]int{"": 2, "?space=" + sp: 1, "?title=doc": 1, "?published=true": 0, "?published=false": 2} {
			if got := count(q); got != want {
				t.Errorf("list %q: %d sites, want %d", q, got, want)
			}
		}
		var pub siteBody
		s.Do(t, admin, "POST", base+"/"+st.ID+"/publish", nil).WantStatus(t, 200).JSON(t, &pub)
		if !pub.Published || !strings.HasSuffix(pub.URLs.Published, "/sites/"+st.ID) {
			t.Fatalf("published %+v", pub)
		}
		if got := count("?published=true"); got != 1 {
			t.Errorf("published sites: %d", got)
		}
		s.Do(t, admin, "POST", base+"/"+st.ID+"/unpublish", nil).WantStatus(t, 200).JSON(t, &pub)
		if pub.Published {
			t.Fatal("still published")
		}
		s.Do(t, admin, "DELETE", base+"/"+st.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", base+"/"+st.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", base+"/"+st.ID, nil).WantError(t, 404, "site not found")
	})
}

// TestSiteValidation covers every limit of createSite and updateSiteById
// and the omitted-versus-null rules of PATCH.
func TestSiteValidation(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		base := "/v1/orgs/" + org + "/sites"
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"title/too short", map[string]any{"title": "D"}, 400},
			{"title/shortest", map[string]any{"title": "Do"}, 201},
			{"title/longest", map[string]any{"title": strings.Repeat("a", 128)}, 201},
			{"title/too long", map[string]any{"title": strings.Repeat("a", 129)}, 400},
			{"type/unknown", map[string]any{"title": "Docs", "type": "deluxe"}, 400},
			{"visibility/unknown", map[string]any{"title": "Docs", "visibility": "secret"}, 400},
			{"spaces/unknown", map[string]any{"title": "Docs", "spaces": []string{"nope"}}, 400},
		} {
			if r := s.Do(t, admin, "POST", base, c.body); r.Status != c.want {
				t.Errorf("create %s: %d, want %d (%s)", c.name, r.Status, c.want, r.Body)
			}
		}
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs"})
		path := base + "/" + st.ID
		for _, c := range []struct {
			name string
			body string
			want int
		}{
			{"title/too short", `{"title":"D"}`, 400},
			{"title/null", `{"title":null}`, 400},
			{"title/longest", `{"title":"` + strings.Repeat("b", 128) + `"}`, 200},
			{"visibility/unknown", `{"visibility":"secret"}`, 400},
			{"visibility/share-link", `{"visibility":"share-link"}`, 200},
			{"basename/empty", `{"basename":""}`, 400},
			{"basename/null", `{"basename":null}`, 400},
			{"basename/longest", `{"basename":"` + strings.Repeat("c", 100) + `"}`, 200},
			{"basename/too long", `{"basename":"` + strings.Repeat("c", 101) + `"}`, 400},
			{"agentsContext/unknown", `{"agentsContext":"maybe"}`, 400},
			{"agentsContext/excluded", `{"agentsContext":"excluded"}`, 200},
			{"adaptiveContent/no enabled", `{"adaptiveContent":{}}`, 400},
			{"adaptiveContent/enabled", `{"adaptiveContent":{"enabled":true}}`, 200},
			{"proxy/no path", `{"proxy":"example.com"}`, 400},
			{"proxy/scheme", `{"proxy":"https://example.com/docs"}`, 400},
			{"proxy/too long", `{"proxy":"example.com/` + strings.Repeat("d", 501) + `"}`, 400},
			{"proxy/longest", `{"proxy":"example.com/` + strings.Repeat("d", 500) + `"}`, 200},
			{"hostname/two labels", `{"hostname":"example.com"}`, 400},
			{"hostname/upper case", `{"hostname":"Docs.example.com"}`, 400},
			{"hostname/too long", `{"hostname":"` + strings.Repeat("a.", 256) + `com"}`, 400},
			{"hostname/valid", `{"hostname":"docs.example.com"}`, 200},
			{"defaultSiteSpace/unknown", `{"defaultSiteSpace":"nope"}`, 400},
			{"defaultSiteSection/unknown", `{"defaultSiteSection":"nope"}`, 400},
		} {
			if r := s.Do(t, admin, "PATCH", path, c.body); r.Status != c.want {
				t.Errorf("patch %s: %d, want %d (%s)", c.name, r.Status, c.want, r.Body)
			}
		}
		// Omitted fields stay; null removes the proxy and the hostname.
		var got siteBody
		s.Do(t, admin, "PATCH", path, `{}`).WantStatus(t, 200).JSON(t, &got)
		if got.Proxy == nil || got.Hostname != "docs.example.com" || got.Basename == "" || got.Visibility != "share-link" {
			t.Fatalf("after an empty PATCH: %+v", got)
		}
		got = siteBody{}
		s.Do(t, admin, "PATCH", path, `{"proxy":null,"hostname":null}`).WantStatus(t, 200).JSON(t, &got)
		if got.Proxy != nil || got.Hostname != "" || got.Basename == "" || got.Visibility != "share-link" {
			t.Fatalf("after nulls: %+v", got)
		}
	})
}

// TestSiteHostnameUnique checks that a hostname is unique across the
// server, whatever the organization, and free again once released.
func TestSiteHostnameUnique(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org1, admin1 := s.Org(t)
		org2, admin2 := s.Org(t)
		a := newSite(t, s, admin1, org1, map[string]any{"title": "One"})
		b := newSite(t, s, admin2, org2, map[string]any{"title": "Two"})
		pa := "/v1/orgs/" + org1 + "/sites/" + a.ID
		pb := "/v1/orgs/" + org2 + "/sites/" + b.ID
		s.Do(t, admin1, "PATCH", pa, `{"hostname":"docs.example.com","basename":"v1"}`).WantStatus(t, 200)
		s.Do(t, admin2, "PATCH", pb, `{"hostname":"docs.example.com"}`).WantError(t, 409, "hostname docs.example.com is already used by another site")
		var got siteBody
		s.Do(t, admin2, "GET", pb, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Hostname != "" {
			t.Fatalf("refused hostname was kept: %+v", got)
		}
		s.Do(t, admin1, "POST", pa+"/publish", nil).WantStatus(t, 200).JSON(t, &got)
		if got.URLs.Published != "https://docs.example.com/v1" {
			t.Errorf("published URL %q", got.URLs.Published)
		}
		s.Do(t, admin1, "PATCH", pa, `{"hostname":null}`).WantStatus(t, 200)
		s.Do(t, admin2, "PATCH", pb, `{"hostname":"docs.example.com"}`).WantStatus(t, 200)
	})
}

// TestSiteShareKeys checks that a share key opens a published share-link
// site and its spaces to a caller with no membership, and that revoking or
// deleting the link closes them at once.
func TestSiteShareKeys(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, stranger := s.User(t)
		sp := newSpace(t, s, admin, org, "Secret guide")
		other := newSpace(t, s, admin, org, "Not shared")
		st := newSite(t, s, admin, org, map[string]any{"title": "Shared", "visibility": "share-link", "spaces": []string{sp}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		var link struct {
			ID   string
			URLs struct{ Published string }
		}
		s.Do(t, admin, "POST", base+"/share-links", `{"name":"Partners"}`).WantStatus(t, 201).JSON(t, &link)
		_, key, ok := strings.Cut(link.URLs.Published, "?shareKey=")
		if !ok || len(key) < 40 {
			t.Fatalf("share link URL %q carries no key", link.URLs.Published)
		}
		space := "/v1/spaces/" + sp
		s.Do(t, stranger, "GET", space, nil).WantStatus(t, 404)
		// Unpublished: the key opens nothing yet.
		s.Do(t, stranger, "GET", space+"?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, stranger, "GET", base+"/published?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		s.Do(t, stranger, "GET", space+"?shareKey="+key, nil).WantStatus(t, 200)
		s.Do(t, stranger, "GET", base+"/published?shareKey="+key, nil).WantStatus(t, 200)
		s.Do(t, stranger, "GET", base+"/published", nil).WantStatus(t, 404)
		s.Do(t, stranger, "GET", space+"?shareKey=wrong", nil).WantStatus(t, 404)
		s.Do(t, stranger, "GET", "/v1/spaces/"+other+"?shareKey="+key, nil).WantStatus(t, 404)
		// Revoked, then restored, then deleted.
		s.Do(t, admin, "PATCH", base+"/share-links/"+link.ID, `{"active":false}`).WantStatus(t, 200)
		s.Do(t, stranger, "GET", space+"?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, stranger, "GET", base+"/published?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, admin, "PATCH", base+"/share-links/"+link.ID, `{"active":true}`).WantStatus(t, 200)
		s.Do(t, stranger, "GET", space+"?shareKey="+key, nil).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", base+"/share-links/"+link.ID, nil).WantStatus(t, 204)
		s.Do(t, stranger, "GET", space+"?shareKey="+key, nil).WantStatus(t, 404)
		s.Do(t, admin, "DELETE", base+"/share-links/"+link.ID, nil).WantStatus(t, 204)

		// Limits of share links.
		for _, c := range []struct {
			name, body string
			want       int
		}{
			{"name/missing", `{}`, 400},
			{"name/empty", `{"name":""}`, 201},
			{"name/longest", `{"name":"` + strings.Repeat("n", 50) + `"}`, 201},
			{"name/too long", `{"name":"` + strings.Repeat("n", 51) + `"}`, 400},
		} {
			if r := s.Do(t, admin, "POST", base+"/share-links", c.body); r.Status != c.want {
				t.Errorf("share link %s: %d, want %d (%s)", c.name, r.Status, c.want, r.Body)
			}
		}
		pub := newSite(t, s, admin, org, map[string]any{"title": "Public"})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+pub.ID+"/share-links", `{"name":"x"}`).
			WantError(t, 400, "share links are only for sites whose visibility is share-link")
	})
}

// TestSiteRedirects covers redirect limits and resolution by source.
func TestSiteRedirects(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		sp2 := newSpace(t, s, admin, org, "API")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp, sp2}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		var prof struct {
			Structure struct {
				Type      string
				Structure []struct {
					ID, Path string
					Default  bool
				}
			}
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		if prof.Structure.Type != "siteSpaces" || len(prof.Structure.Structure) != 2 ||
			!prof.Structure.Structure[0].Default || prof.Structure.Structure[1].Path != "api" {
			t.Fatalf("structure %+v", prof.Structure)
		}
		ss := prof.Structure.Structure[1].ID
		dest := func(kind string) map[string]any {
			switch kind {
			case "site-space":
				return map[string]any{"kind": kind, "siteSpaceId": ss}
			case "site-page":
				return map[string]any{"kind": kind, "siteSpaceId": ss, "pageId": "pg1"}
			}
			return map[string]any{"kind": kind, "siteSectionId": "sec"}
		}
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"source/missing", map[string]any{"destination": dest("site-space")}, 400},
			{"source/relative", map[string]any{"source": "old", "destination": dest("site-space")}, 400},
			{"source/trailing slash", map[string]any{"source": "/old/", "destination": dest("site-space")}, 400},
			{"source/too long", map[string]any{"source": "/" + strings.Repeat("s", 512), "destination": dest("site-space")}, 400},
			{"source/longest", map[string]any{"source": "/" + strings.Repeat("s", 511), "destination": dest("site-space")}, 201},
			{"destination/missing", map[string]any{"source": "/a"}, 400},
			{"destination/unknown kind", map[string]any{"source": "/a", "destination": map[string]any{"kind": "url"}}, 400},
			{"destination/unknown site space", map[string]any{"source": "/a", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}}, 400},
			{"destination/section", map[string]any{"source": "/a", "destination": dest("site-section")}, 400},
			{"destination/page", map[string]any{"source": "/old/page", "destination": dest("site-page")}, 201},
			{"source/taken", map[string]any{"source": "/old/page", "destination": dest("site-space")}, 409},
		} {
			if r := s.Do(t, admin, "POST", base+"/redirects", c.body); r.Status != c.want {
				t.Errorf("redirect %s: %d, want %d (%s)", c.name, r.Status, c.want, r.Body)
			}
		}
		var res struct {
			Redirect struct{ ID, Source string }
			Target   string
		}
		s.Do(t, admin, "GET", base+"/redirect?source=/old/page", nil).WantStatus(t, 200).JSON(t, &res)
		if res.Redirect.Source != "/old/page" || !strings.HasSuffix(res.Target, "/sites/"+st.ID+"/api/~/page/pg1") {
			t.Fatalf("resolved %+v", res)
		}
		s.Do(t, admin, "GET", base+"/redirect?source=/missing", nil).WantError(t, 404, "redirect not found")
		s.Do(t, admin, "GET", base+"/redirect?source=bad", nil).WantStatus(t, 400)
		// Update: omitted destination stays.
		s.Do(t, admin, "PATCH", base+"/redirects/"+res.Redirect.ID, `{"source":"/new/page"}`).WantStatus(t, 200)
		s.Do(t, admin, "GET", base+"/redirect?source=/new/page", nil).WantStatus(t, 200).JSON(t, &res)
		if !strings.HasSuffix(res.Target, "/~/page/pg1") {
			t.Fatalf("destination changed: %+v", res)
		}
		var l struct{ Count int }
		s.Do(t, admin, "GET", base+"/redirects?search=NEW", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 {
			t.Errorf("search: %d redirects", l.Count)
		}
		s.Do(t, admin, "DELETE", base+"/redirects/"+res.Redirect.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", base+"/redirect?source=/new/page", nil).WantStatus(t, 404)
	})
}

// TestSiteRedirectCount checks the bound on redirects per site.
func TestSiteRedirectCount(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		ss := prof.Structure.Structure[0].ID
		for i := 0; i < folio.MaxRedirects; i++ {
			s.Do(t, admin, "POST", base+"/redirects", map[string]any{"source": fmt.Sprintf("/r%d", i),
				"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}).WantStatus(t, 201)
		}
		s.Do(t, admin, "POST", base+"/redirects", map[string]any{"source": "/one-more",
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}).
			WantError(t, 400, fmt.Sprintf("a site has at most %d redirects", folio.MaxRedirects))
	})
}

// TestSiteCustomization covers customization validation and the
// site-space overrides: a value overrides, null removes the override.
func TestSiteCustomization(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		with := func(path string, v any) map[string]any {
			doc := customization(t, "Custom")
			m := doc
			keys := strings.Split(path, ".")
			for _, k := range keys[:len(keys)-1] {
				m = m[k].(map[string]any)
			}
			m[keys[len(keys)-1]] = v
			return doc
		}
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"title/too short", with("title", "C"), 400},
			{"primaryColor/not hex", with("styling.primaryColor", map[string]any{"light": "blue", "dark": "#000"}), 400},
			{"primaryColor/short hex", with("styling.primaryColor", map[string]any{"light": "#abc", "dark": "#000000"}), 200},
			{"tint/not hex", with("styling.tint", map[string]any{"color": map[string]any{"light": "tint", "dark": "#000"}}), 400},
			{"tint/no dark", with("styling.tint", map[string]any{"color": map[string]any{"light": "#eef"}}), 400},
			{"tint/hex", with("styling.tint", map[string]any{"color": map[string]any{"light": "#eef", "dark": "#101820"}}), 200},
			{"theme/unknown", with("styling.theme", "neon"), 400},
			{"themes.default/dark", with("themes.default", "dark"), 200},
			{"themes.default/auto", with("themes.default", "auto"), 400},
			{"header.links/too many", with("header.links", make([]any, 21)), 400},
			{"footer.copyright/too long", with("footer.copyright", strings.Repeat("c", 301)), 400},
			{"favicon/bad url", with("favicon", map[string]any{"icon": map[string]any{"light": "ftp://x", "dark": "https://x.io/a.png"}}), 400},
		} {
			if r := s.DoUnchecked(t, admin, "PUT", base+"/customization", c.body); r.Status != c.want {
				t.Errorf("customization %s: %d, want %d (%s)", c.name, r.Status, c.want, r.Body)
			}
		}
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		ss := base + "/site-spaces/" + prof.Structure.Structure[0].ID + "/customization"
		var doc struct {
			Title   string
			Styling struct{ Theme string }
		}
		s.Do(t, admin, "PATCH", ss, `{"title":"Variant","styling":{"theme":"bold"}}`).WantStatus(t, 200).JSON(t, &doc)
		if doc.Title != "Variant" || doc.Styling.Theme != "bold" {
			t.Fatalf("overridden %+v", doc)
		}
		s.Do(t, admin, "PATCH", ss, `{"styling":{"theme":"neon"}}`).WantStatus(t, 400)
		doc.Title = ""
		s.Do(t, admin, "PATCH", ss, `{"title":null}`).WantStatus(t, 200).JSON(t, &doc)
		if doc.Title != "Custom" || doc.Styling.Theme != "bold" {
			t.Fatalf("after null title %+v", doc)
		}
		s.Do(t, admin, "DELETE", ss, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", ss, nil).WantStatus(t, 204)
	})
}
