package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// rendererPage is a page of a revision as GitBook's renderer reads it.
type rendererPage struct {
	ID, Type, Path, DocumentID string
	Layout                     *struct{ Width string }
	URLs                       struct{ App string }
	Pages                      []rendererPage
}

// TestSiteTokenRendererReads covers the reads GitBook's renderer makes
// with a site token beyond the space and its pages: the revision with
// metadata (page tree with id, type, path, layout and children; file
// download URLs that work without a token), a page's document, a page by
// encoded path and as Markdown, documents by id, reusable contents,
// change requests (never), OpenAPI specifications (404 until they exist)
// and users. Each answers 404 to a token of another site, for a space no
// published site shows, and for a revision that is not the current one;
// writes are refused and change nothing.
func TestSiteTokenRendererReads(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &me)
		guide := newSpace(t, s, admin, org, "Guide")
		secret := newSpace(t, s, admin, org, "Secret")
		hidden := newSpace(t, s, admin, org, "Hidden")
		old := importInto(t, s, admin, guide, "", "markdown", []byte("# Old\n\nOld text.\n"))
		importInto(t, s, admin, guide, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md":               "# Summary\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n",
			"README.md":                "# Welcome\n\nStart here.\n",
			"guide/README.md":          "# Guide\n\nThe guide.\n",
			"guide/setup.md":           "# Setup\n\nSet it up.\n\n![Logo](../.gitbook/assets/logo.png)\n",
			".gitbook/assets/logo.png": string(tinyPNG()),
		}))
		for _, sp := range []string{secret, hidden} {
			importInto(t, s, admin, sp, "", "markdown", []byte("# Private\n\nNot for you.\n"))
		}
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		other := newSite(t, s, admin, org, map[string]any{"title": "Other", "spaces": []string{secret}})
		sites := "/v1/orgs/" + org + "/sites/"
		s.Do(t, admin, "POST", sites+st.ID+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "POST", sites+other.ID+"/publish", nil).WantStatus(t, 200)
		l := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200)
		if !l.Complete {
			t.Fatalf("lookup not complete: %+v", l)
		}
		tok := l.APIToken
		otherTok := lookupURL(t, s, "https://folio.test/sites/"+other.ID, 200).APIToken

		// The revision with metadata, as the renderer asks for it.
		var sp struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200).JSON(t, &sp)
		revPath := "/v1/spaces/" + guide + "/revisions/" + sp.Revision
		var rev struct {
			ID    string
			URLs  struct{ App string }
			Pages []rendererPage
			Files []struct{ Name, DownloadURL string }
		}
		s.Do(t, tok, "GET", revPath+"?metadata=true", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != sp.Revision || rev.URLs.App == "" || len(rev.Pages) != 3 || len(rev.Files) != 1 {
			t.Fatalf("revision %+v", rev)
		}
		group := rev.Pages[2] // after the old page and the welcome page
		if group.ID == "" || group.Type != "document" || group.Path != "guide" || group.Layout == nil ||
			group.URLs.App == "" || len(group.Pages) != 1 {
			t.Fatalf("page %+v", group)
		}
		setup := group.Pages[0]
		if setup.Path != "guide/setup" || setup.Layout == nil || setup.Layout.Width == "" || setup.DocumentID == "" {
			t.Fatalf("child page %+v", setup)
		}
		resp, err := http.Get(s.URL + strings.TrimPrefix(rev.Files[0].DownloadURL, apitest.PublicURL))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("download URL of %s: %d %s", rev.Files[0].Name, resp.StatusCode, resp.Header.Get("Content-Type"))
		}

		// reads lists the renderer's reads of a revision of a space (its
		// current one when revision is empty), on its first page.
		reads := func(space, revision string) []string {
			var v struct{ Revision string }
			s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &v)
			if revision == "" {
				revision = v.Revision
			}
			var pages struct{ Pages []rendererPage }
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+revision+"/pages", nil).WantStatus(t, 200).JSON(t, &pages)
			p := pages.Pages[0]
			base := "/v1/spaces/" + space + "/revisions/" + revision
			return []string{
				base + "?metadata=true",
				base + "/page/" + p.ID + "/document?evaluated=deterministic-only",
				base + "/page/" + p.ID + "?format=markdown",
				base + "/path/" + url.PathEscape(p.Path),
				base + "/reusable-contents/rc1/document",
				"/v1/spaces/" + space + "/documents/" + p.DocumentID,
			}
		}
		// A page's document, by encoded path, as Markdown, and by
		// document id.
		var doc struct {
			Object string
			Nodes  []json.RawMessage
		}
		docPath := revPath + "/page/" + setup.ID + "/document"
		s.Do(t, tok, "GET", docPath+"?evaluated=deterministic-only&dereferenced=reusable-contents", nil).
			WantStatus(t, 200).JSON(t, &doc)
		if doc.Object != "document" || len(doc.Nodes) == 0 {
			t.Fatalf("page document %+v", doc)
		}
		var byPath struct{ ID string }
		s.Do(t, tok, "GET", revPath+"/path/"+url.PathEscape("guide/setup"), nil).WantStatus(t, 200).JSON(t, &byPath)
		if byPath.ID != setup.ID {
			t.Fatalf("page by encoded path: %+v, want %s", byPath, setup.ID)
		}
		var md struct{ Markdown string }
		s.Do(t, tok, "GET", revPath+"/page/"+setup.ID+"?format=markdown&format.markdown.refs=stable", nil).
			WantStatus(t, 200).JSON(t, &md)
		if !strings.Contains(md.Markdown, "Set it up.") {
			t.Fatalf("markdown %q", md.Markdown)
		}
		docByID := "/v1/spaces/" + guide + "/documents/" + setup.DocumentID
		for _, who := range []string{tok, admin} {
			var d struct{ Object string }
			s.Do(t, who, "GET", docByID, nil).WantStatus(t, 200).JSON(t, &d)
			if d.Object != "document" {
				t.Fatalf("document by id %+v", d)
			}
		}
		// Members read documents of any revision.
		for _, p := range reads(guide, old.Revision)[1:2] {
			s.Do(t, admin, "GET", p, nil).WantStatus(t, 200)
		}
		s.Do(t, admin, "GET", docPath, nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", docPath+"?evaluated=maybe", nil).WantError(t, 400, "evaluated")
		s.Do(t, admin, "GET", docByID+"?schema=old", nil).WantError(t, 400, "schema")
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/documents/nothex", nil).WantStatus(t, 404)
		s.Do(t, tok, "GET", "/v1/users/"+me.ID, nil).WantStatus(t, 200)
		// Calls of the renderer Folio does not answer: 404, which it takes
		// as "none".
		for _, p := range []string{revPath + "/page/" + setup.ID + "/meta-links", "/v1/spaces/" + guide + "/embed?url=https://example.com"} {
			if r := s.DoUnchecked(t, tok, "GET", p, nil); r.Status != 404 {
				t.Errorf("GET %s: %d, want 404", p, r.Status)
			}
		}

		// Reusable contents: the space has none.
		for _, who := range []string{tok, admin} {
			s.Do(t, who, "GET", revPath+"/reusable-contents/rc1/document?evaluated=deterministic-only", nil).WantStatus(t, 404)
		}
		// OpenAPI specifications: the site token reads its organization's
		// public ones (GitBook's renderer does, for OpenAPI blocks), never
		// another's, and changes none.
		org2, admin2 := s.Org(t)
		text := map[string]any{"text": "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses:\n        \"200\": {description: ok}\n"}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "petstore", "source": text}).WantStatus(t, 201)
		s.Do(t, admin2, "POST", "/v1/orgs/"+org2+"/openapi", map[string]any{"slug": "petstore", "source": text}).WantStatus(t, 201)
		for range 5 {
			if n, _ := s.Jobs.RunDue(context.Background()); n == 0 {
				break
			}
		}
		// A private specification: members only (anyone can get a public
		// site's token).
		content := "/v1/orgs/" + org + "/openapi/petstore/versions/latest/content"
		s.Do(t, admin, "GET", content, nil).WantStatus(t, 200)
		s.Do(t, tok, "GET", content, nil).WantStatus(t, 404)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"visibility": "public"}).WantStatus(t, 200)
		s.Do(t, admin2, "PATCH", "/v1/orgs/"+org2+"/openapi/petstore", map[string]any{"visibility": "public"}).WantStatus(t, 200)
		for _, c := range []struct {
			who, org string
			want     int
		}{{tok, org, 200}, {admin, org, 200}, {tok, org2, 404}, {admin, org2, 404}} {
			s.Do(t, c.who, "GET", "/v1/orgs/"+c.org+"/openapi/petstore/versions/latest/content", nil).WantStatus(t, c.want)
		}
		s.Do(t, tok, "GET", "/v1/orgs/"+org+"/openapi/nope/versions/latest/content", nil).WantStatus(t, 404)
		s.Do(t, tok, "PATCH", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"visibility": "public"}).WantError(t, 403, "a site API token only reads the published content of its site")
		// Change requests are drafts: a member reads them, a site token never.
		var cr struct{ ID string }
		s.Do(t, admin, "POST", "/v1/spaces/"+guide+"/change-requests", map[string]any{"subject": "Draft"}).
			WantStatus(t, 201).JSON(t, &cr)
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/change-requests/"+cr.ID, nil).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/spaces/"+guide+"/change-requests/"+cr.ID, nil).WantStatus(t, 404)

		// Another site's token, a space no site of the token shows, a
		// space no site publishes, an older revision: 404.
		for _, c := range []struct {
			name, tok string
			paths     []string
		}{
			{"another site's token", otherTok, reads(guide, "")},
			{"another site's space", tok, reads(secret, "")},
			{"an unpublished space", tok, reads(hidden, "")},
			{"an older revision", tok, reads(guide, old.Revision)[:4]},
		} {
			for _, p := range c.paths {
				if r := s.Do(t, c.tok, "GET", p, nil); r.Status != 404 {
					t.Errorf("%s: GET %s: %d, want 404: %s", c.name, p, r.Status, r.Body)
				}
			}
		}
		s.Do(t, otherTok, "GET", "/v1/spaces/"+guide+"/change-requests/"+cr.ID, nil).WantStatus(t, 404)

		// Writes: refused before anything happens.
		state := func() string {
			var b strings.Builder
			for _, p := range []string{"/v1/spaces/" + guide, "/v1/spaces/" + guide + "/content",
				"/v1/spaces/" + guide + "/change-requests/" + cr.ID, sites + st.ID + "/customization"} {
				b.Write(s.Do(t, admin, "GET", p, nil).WantStatus(t, 200).Body)
			}
			return b.String()
		}
		before := state()
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"POST", "/v1/spaces/" + guide + "/change-requests", map[string]any{"subject": "Mine"}},
			{"PATCH", "/v1/spaces/" + guide + "/change-requests/" + cr.ID, map[string]any{"subject": "Hacked"}},
			{"POST", "/v1/spaces/" + guide + "/change-requests/" + cr.ID + "/merge", nil},
			{"PUT", sites + st.ID + "/customization", map[string]any{"title": "Hacked"}},
			{"POST", "/v1/spaces/" + guide + "/content/page/" + setup.ID + "/import",
				map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# X\n"))}},
		} {
			if r := s.DoUnchecked(t, tok, c.method, c.path, c.body); r.Status != 403 {
				t.Errorf("%s %s: %d, want 403: %s", c.method, c.path, r.Status, r.Body)
			}
		}
		if after := state(); after != before {
			t.Fatalf("a refused write changed something:\n%s\n%s", before, after)
		}
	})
}

// TestPublishedSiteCustomizationComplete: getPublishedContentSite answers
// every part of the reference's SiteCustomizationSettings for the site and
// for each of its site spaces, with Folio's defaults where nothing is set
// (the apitest validator checks the whole answer against the schema), the
// site space's overrides merged, and scripts.
func TestPublishedSiteCustomizationComplete(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide, api}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		// A partial document: what it leaves out keeps the defaults, and
		// its header link and footer group get the lists they lack.
		s.DoUnchecked(t, admin, "PUT", base+"/customization", map[string]any{
			"styling": map[string]any{"primaryColor": map[string]any{"light": "#112233", "dark": "#445566"}},
			"header": map[string]any{"links": []any{map[string]any{"title": "Home",
				"to": map[string]any{"kind": "url", "url": "https://example.com"}}}},
			"footer":  map[string]any{"groups": []any{map[string]any{"title": "More"}}},
			"favicon": map[string]any{"icon": map[string]any{"light": "https://example.com/l.png", "dark": "https://example.com/d.png"}},
		}).WantStatus(t, 200)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		over := prof.Structure.Structure[1].ID
		s.Do(t, admin, "PATCH", base+"/site-spaces/"+over+"/customization", `{"styling":{"font":"Roboto"},"favicon":{"emoji":"1f4d8"}}`).WantStatus(t, 200)

		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken
		var pub struct {
			Customizations struct {
				Site       map[string]any
				SiteSpaces map[string]map[string]any
			}
			Scripts []any
		}
		raw := s.Do(t, tok, "GET", base+"/published", nil).WantStatus(t, 200)
		raw.JSON(t, &pub)
		if pub.Scripts == nil || !strings.Contains(string(raw.Body), `"scripts":[]`) {
			t.Fatalf("scripts missing: %s", raw.Body)
		}
		required := []string{"styling", "internationalization", "favicon", "header", "footer", "themes", "pdf", "feedback",
			"ai", "advancedCustomization", "trademark", "externalLinks", "pagination", "pageActions", "git",
			"privacyPolicy", "socialPreview", "insights"}
		check := func(name string, c map[string]any, font string) {
			t.Helper()
			for _, k := range required {
				if _, ok := c[k]; !ok {
					t.Errorf("%s customization has no %s: %v", name, k, c)
				}
			}
			styling := c["styling"].(map[string]any)
			if styling["font"] != font || styling["primaryColor"].(map[string]any)["dark"] != "#445566" ||
				styling["sidebar"] == nil || styling["monospaceFont"] == nil {
				t.Errorf("%s styling %v", name, styling)
			}
			if links := c["header"].(map[string]any)["links"].([]any); len(links) != 1 {
				t.Errorf("%s header links %v", name, links)
			}
			if c["pdf"].(map[string]any)["enabled"] != true || c["themes"].(map[string]any)["default"] == nil ||
				c["pageActions"].(map[string]any)["markdown"] == nil || c["internationalization"].(map[string]any)["locale"] != "en" {
				t.Errorf("%s defaults missing: %v", name, c)
			}
		}
		check("site", pub.Customizations.Site, "Inter")
		if len(pub.Customizations.SiteSpaces) != 2 {
			t.Fatalf("site spaces' customizations: %v", pub.Customizations.SiteSpaces)
		}
		check("default site space", pub.Customizations.SiteSpaces[prof.Structure.Structure[0].ID], "Inter")
		check("overridden site space", pub.Customizations.SiteSpaces[over], "Roboto")
		if fav := pub.Customizations.SiteSpaces[over]["favicon"].(map[string]any); len(fav) != 1 || fav["emoji"] != "1f4d8" {
			t.Errorf("overridden favicon %v", fav)
		}
	})
}

// TestAppLinks: for a signed-out visitor, the urls.app links of spaces and
// pages lead to the page on a public site that publishes the space, and
// otherwise (unpublished, unlisted, revisions, change requests,
// organizations) to the web application's sign-in, and back (internal/web
// tests the signed-in side). The lookup finds the published links.
func TestAppLinks(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		home := newSpace(t, s, admin, org, "Home")
		guide := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello.\n"))
		var sp struct {
			Revision string
			URLs     struct{ App string }
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200).JSON(t, &sp)
		var pages struct{ Pages []rendererPage }
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		page := pages.Pages[0]
		var o struct{ URLs struct{ App string } }
		s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		var rev struct{ URLs struct{ App string } }
		s.Do(t, admin, "GET", "/v1/spaces/"+guide+"/content", nil).WantStatus(t, 200).JSON(t, &rev)

		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		get := func(u string) (int, string, string) {
			t.Helper()
			if !strings.HasPrefix(u, apitest.PublicURL+"/") {
				t.Fatalf("link %q is not under the public URL", u)
			}
			resp, err := client.Get(s.URL + strings.TrimPrefix(u, apitest.PublicURL))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, resp.Header.Get("Location"), string(b)
		}
		noApp := func(u, id string) {
			t.Helper()
			code, loc, body := get(u)
			want := "/signin?next=" + url.QueryEscape(strings.TrimPrefix(u, apitest.PublicURL))
			if code != 303 || loc != want || !strings.Contains(u, id) {
				t.Fatalf("%s: %d %q, want sign-in at %s; %s", u, code, loc, want, body)
			}
		}
		noApp(sp.URLs.App, guide)
		noApp(page.URLs.App, guide)
		noApp(o.URLs.App, org)

		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{home, guide}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		var prof struct {
			Structure struct {
				Structure []struct{ URLs struct{ Published string } }
			}
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		published := prof.Structure.Structure[1].URLs.Published
		if code, loc, _ := get(sp.URLs.App); code != 302 || loc != published {
			t.Fatalf("space link: %d %q, want %s", code, loc, published)
		}
		code, loc, _ := get(page.URLs.App)
		if code != 302 || loc != published+"/"+page.Path {
			t.Fatalf("page link: %d %q", code, loc)
		}
		if code, _, body := get(loc); code != 200 || !strings.Contains(body, "Hello.") {
			t.Fatalf("the reader at %s: %d", loc, code)
		}
		if l := lookupURL(t, s, strings.Replace(loc, "http://", "https://", 1), 200); l.Space != guide || l.Pathname != page.Path {
			t.Fatalf("lookup of %s: %+v", loc, l)
		}
		noApp(rev.URLs.App, guide)
		noApp(sp.URLs.App+"/~/changes/1", guide)

		// Unlisted sites are not found from a space id.
		s.Do(t, admin, "PATCH", base, map[string]any{"visibility": "unlisted"}).WantStatus(t, 200)
		noApp(sp.URLs.App, guide)
	})
}

// TestLookupSectionedSiteSpaceURLs: in a site with sections, a site space
// is found at its section's path plus its own (its urls.published), and at
// its own path alone (as the reader serves it and urls.app links lead),
// and the app link of its space leads to a page the reader and the lookup
// both find.
func TestLookupSectionedSiteSpaceURLs(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		v2 := newSpace(t, s, admin, org, "Version two")
		for _, sp := range []string{guide, api, v2} {
			importInto(t, s, admin, sp, "", "markdown", []byte("# Intro\n\nText of "+sp+".\n"))
		}
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		var sec struct{ ID, Path string }
		s.Do(t, admin, "POST", base+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &sec)
		var ss struct {
			ID, Path string
			URLs     struct{ Published string }
		}
		s.Do(t, admin, "POST", base+"/site-spaces", map[string]any{"spaceId": v2, "sectionId": sec.ID}).WantStatus(t, 201)
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		var list struct {
			Items []struct {
				ID, Path string
				Space    struct{ ID string }
				URLs     struct{ Published string }
			}
		}
		s.Do(t, admin, "GET", base+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &list)
		for _, it := range list.Items {
			if it.Space.ID == v2 {
				ss.ID, ss.Path, ss.URLs.Published = it.ID, it.Path, it.URLs.Published
			}
		}
		siteURL := "https://folio.test/sites/" + st.ID
		if ss.URLs.Published != apitest.PublicURL+"/sites/"+st.ID+"/"+sec.Path+"/"+ss.Path {
			t.Fatalf("site space %+v (section %+v)", ss, sec)
		}
		for _, u := range []string{siteURL + "/" + sec.Path + "/" + ss.Path + "/intro", siteURL + "/" + ss.Path + "/intro"} {
			if l := lookupURL(t, s, u, 200); l.Space != v2 || l.SiteSpace != ss.ID || l.SiteSection != sec.ID || l.Pathname != "intro" {
				t.Fatalf("lookup of %s: %+v", u, l)
			}
		}
		if l := lookupURL(t, s, siteURL+"/"+sec.Path+"/intro", 200); l.Space != api {
			t.Fatalf("lookup of the section's default site space: %+v", l)
		}
		if l := lookupURL(t, s, siteURL+"/intro", 200); l.Space != guide {
			t.Fatalf("lookup of the default section: %+v", l)
		}

		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(s.URL + "/s/" + v2 + "/intro")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != 302 || !strings.HasPrefix(loc, apitest.PublicURL+"/sites/"+st.ID+"/") {
			t.Fatalf("app link: %d %q", resp.StatusCode, loc)
		}
		if l := lookupURL(t, s, loc, 200); l.Space != v2 || l.Pathname != "intro" {
			t.Fatalf("lookup of the app link's target %s: %+v", loc, l)
		}
		resp, err = http.Get(s.URL + strings.TrimPrefix(loc, apitest.PublicURL))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "Text of "+v2) {
			t.Fatalf("the reader at %s: %d", loc, resp.StatusCode)
		}
	})
}

// TestLookupProxiedSite: a site behind a proxy is found at its proxy
// origin (host and path prefix, the longest first), and only there, with
// canonical URLs and redirects under that origin.
func TestLookupProxiedSite(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		importInto(t, s, admin, guide, "", "markdown", []byte("# Intro\n\nHello.\n"))
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		deeper := newSite(t, s, admin, org, map[string]any{"title": "API", "spaces": []string{api}})
		base := "/v1/orgs/" + org + "/sites/"
		s.Do(t, admin, "PATCH", base+st.ID, map[string]any{"proxy": "example.com/docs"}).WantStatus(t, 200)
		// The host is stored in lower case, as lookups compare it.
		var d struct{ Proxy struct{ Origin string } }
		s.Do(t, admin, "PATCH", base+deeper.ID, map[string]any{"proxy": "Example.COM/docs/api"}).WantStatus(t, 200).JSON(t, &d)
		if d.Proxy.Origin != "example.com/docs/api" {
			t.Fatalf("proxy origin stored as %q", d.Proxy.Origin)
		}
		lookupURL(t, s, "https://example.com/docs", 404) // not published yet
		var v struct{ URLs struct{ Published string } }
		s.Do(t, admin, "POST", base+st.ID+"/publish", nil).WantStatus(t, 200).JSON(t, &v)
		s.Do(t, admin, "POST", base+deeper.ID+"/publish", nil).WantStatus(t, 200)
		if v.URLs.Published != "https://example.com/docs" {
			t.Fatalf("published URL %q", v.URLs.Published)
		}

		l := lookupURL(t, s, "https://example.com/docs", 200)
		if l.Site != st.ID || l.Space != guide || l.SiteBasePath != "/docs" || l.BasePath != "/docs" ||
			l.Pathname != "" || l.CanonicalURL != "https://example.com/docs" || !l.Complete {
			t.Fatalf("lookup of the proxy origin: %+v", l)
		}
		l = lookupURL(t, s, "https://example.com/docs/intro", 200)
		if l.Pathname != "intro" || l.CanonicalURL != "https://example.com/docs/intro" {
			t.Fatalf("lookup of a page: %+v", l)
		}
		s.Do(t, l.APIToken, "GET", "/v1/spaces/"+guide+"/content/path/intro", nil).WantStatus(t, 200)
		if l = lookupURL(t, s, "https://example.com/docs/api", 200); l.Site != deeper.ID || l.SiteBasePath != "/docs/api" {
			t.Fatalf("the longer origin: %+v", l)
		}
		for _, u := range []string{
			"https://example.com/",
			"https://example.com/doc",
			"https://example.com/docsx/intro",
			"https://folio.test/sites/" + st.ID,
		} {
			lookupURL(t, s, u, 404)
		}
		if l = lookupURL(t, s, "https://example.com/docs/nothing", 200); l.Site != st.ID || l.Pathname != "nothing" {
			t.Fatalf("a path that is no page: %+v", l)
		}
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, admin, "GET", base+st.ID+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		s.Do(t, admin, "POST", base+st.ID+"/redirects", map[string]any{"source": "/old",
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": prof.Structure.Structure[0].ID}}).WantStatus(t, 201)
		if l = lookupURL(t, s, "https://example.com/docs/old", 200); l.Redirect != "https://example.com/docs" {
			t.Fatalf("redirect: %+v", l)
		}
	})
}
