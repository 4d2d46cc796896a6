package web_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// appLink is a urls.app link found in an API answer, with the resource
// type it belongs to (its "object" field, or the key it was found under).
type appLink struct{ kind, link string }

// collectAppLinks walks a decoded JSON value and returns every urls.app
// link in it.
func collectAppLinks(v any, under string, out *[]appLink) {
	switch x := v.(type) {
	case map[string]any:
		if u, ok := x["urls"].(map[string]any); ok {
			if app, ok := u["app"].(string); ok && app != "" {
				kind, _ := x["object"].(string)
				if kind == "" {
					kind = under
				}
				*out = append(*out, appLink{kind, app})
			}
		}
		for k, e := range x {
			collectAppLinks(e, k, out)
		}
	case []any:
		for _, e := range x {
			collectAppLinks(e, under, out)
		}
	}
}

// TestEveryAppLinkLands walks every urls.app link the API returns for each
// resource type that has one (organization, collection, space, page,
// revision, change request, site, integration, installation, OpenAPI
// specification): signed out, each leads to sign-in and back; signed in as
// an administrator, each answers the app's page for it (after at most one
// redirect within the app, for the links that name no organization).
func TestEveryAppLinkLands(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		var col struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}).WantStatus(t, 201).JSON(t, &col)
		var sp struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Handbook", "parent": col.ID}).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import", map[string]any{"source": "markdown",
			"url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte("# Getting started\n\nFirst **steps**.\n"))}).WantStatus(t, 201)
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Fix typos"}).WantStatus(t, 201)
		var site struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Public docs"}).WantStatus(t, 201).JSON(t, &site)
		s.Do(t, admin, "POST", "/v1/integrations/web-links", map[string]any{"runtime": "v2", "title": "Links", "description": "Lands",
			"scopes": []string{"space:content:read"}, "organization": org, "previewImages": []string{}, "target": "all", "visibility": "public",
			"script": "export default {fetch: async () => new Response('hi')};"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/integrations/web-links/installations", map[string]any{"organization": org}).WantStatus(t, 201)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petstore}}).WantStatus(t, 201)

		var links []appLink
		for _, path := range []string{
			"/v1/orgs/" + org, "/v1/orgs/" + org + "/collections", "/v1/orgs/" + org + "/spaces",
			"/v1/spaces/" + sp.ID + "/content", "/v1/spaces/" + sp.ID + "/content/pages", "/v1/spaces/" + sp.ID + "/change-requests",
			"/v1/orgs/" + org + "/sites", "/v1/integrations/web-links", "/v1/orgs/" + org + "/installations", "/v1/orgs/" + org + "/openapi",
		} {
			var v any
			if err := json.Unmarshal(s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Body, &v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			collectAppLinks(v, "", &links)
		}
		kinds := map[string]bool{}
		for _, l := range links {
			kinds[l.kind] = true
		}
		var got []string
		for k := range kinds {
			got = append(got, k)
		}
		sort.Strings(got)
		for _, want := range []string{"change-request", "collection", "installation", "integration", "openapi-spec",
			"organization", "pages", "revision", "site", "space"} {
			if !kinds[want] {
				t.Fatalf("no urls.app link of a %s found; found %v", want, got)
			}
		}

		out := newBrowser(s)
		in := signIn(t, s, u.Email)
		seen := map[string]bool{}
		for _, l := range links {
			path := strings.TrimPrefix(l.link, apitest.PublicURL)
			if path == l.link {
				t.Fatalf("%s link %s is not on the server", l.kind, l.link)
			}
			if seen[path] {
				continue
			}
			seen[path] = true
			out.get(t, path).redirect(t, "/signin?next="+url.QueryEscape(path))
			p := in.get(t, path)
			if p.Status == 302 || p.Status == 303 {
				next := p.Header.Get("Location")
				if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/signin") {
					t.Fatalf("%s link %s redirects to %q", l.kind, path, next)
				}
				p = in.get(t, next)
			}
			if p.Status != 200 || !strings.Contains(p.Body, `<main id="main"`) {
				t.Fatalf("%s link %s: %d, not an app page:\n%.400s", l.kind, path, p.Status, p.Body)
			}
		}
	})
}
