package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestSiteMatrix covers every site route for every actor: members read
// sites, members with the create role or higher manage them, guests do not
// see them, and callers outside the organization get 404. Refused writes
// change nothing.
func TestSiteMatrix(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		sp := newSpace(t, s, admin, a.Org, "Published")
		st := newSite(t, s, admin, a.Org, map[string]any{"title": "Docs", "visibility": "share-link", "spaces": []string{sp}})
		list := "/v1/orgs/" + a.Org + "/sites"
		base := list + "/" + st.ID
		var prof struct {
			Structure struct{ Structure []struct{ ID string } }
		}
		s.Do(t, admin, "GET", base+"/published", nil).WantStatus(t, 200).JSON(t, &prof)
		ss := prof.Structure.Structure[0].ID
		var link struct{ ID string }
		s.Do(t, admin, "POST", base+"/share-links", `{"name":"Partners"}`).WantStatus(t, 201).JSON(t, &link)
		var red struct{ ID string }
		dest := map[string]any{"kind": "site-space", "siteSpaceId": ss}
		s.Do(t, admin, "POST", base+"/redirects", map[string]any{"source": "/old", "destination": dest}).WantStatus(t, 201).JSON(t, &red)

		n := 0
		fresh := func() int { n++; return n }
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		freshSite := func(*apitest.Actors) string {
			return list + "/" + newSite(t, s, admin, a.Org, map[string]any{"title": fmt.Sprint("Doomed ", fresh())}).ID
		}
		read := apitest.Want(apitest.NoAccess, apitest.AnyActor, 200)
		listing := apitest.Want(apitest.NotMembers, apitest.AnyActor, 200, apitest.Guest, 403)
		manage := func(ok int) map[string]int {
			return apitest.Want(apitest.NoAccess, apitest.AnyActor, 403, apitest.Admin, ok, apitest.Create, ok)
		}
		sitesList := apitest.Paths(fixed(list))
		cases := []apitest.Case{
			{Name: "listSites", Method: "GET", Path: fixed(list), Want: listing},
			{Name: "createSite", Method: "POST", Path: fixed(list), State: sitesList,
				Body: func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Site ", fresh())} },
				Want: apitest.Want(apitest.NotMembers, apitest.AnyActor, 403, apitest.Admin, 201, apitest.Create, 201)},
			{Name: "getSiteById", Method: "GET", Path: fixed(base), Want: read},
			{Name: "updateSiteById", Method: "PATCH", Path: fixed(base), State: apitest.Self,
				Body: func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Docs ", fresh())} },
				Want: manage(200)},
			{Name: "deleteSiteById", Method: "DELETE", Path: freshSite, State: apitest.Self,
				Want: apitest.Want(apitest.NotMembers, apitest.AnyActor, 403, apitest.Admin, 204, apitest.Create, 204)},
			{Name: "publishSite", Method: "POST", Path: fixed(base + "/publish"), State: apitest.Trim("/publish"),
				Reset: func(*apitest.Actors) { s.Do(t, admin, "POST", base+"/unpublish", nil).WantStatus(t, 200) },
				Want:  manage(200)},
			{Name: "unpublishSite", Method: "POST", Path: fixed(base + "/unpublish"), State: apitest.Trim("/unpublish"),
				Reset: func(*apitest.Actors) { s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200) },
				Want:  manage(200)},
			{Name: "getPublishedContentSite", Method: "GET", Path: fixed(base + "/published"), Want: read},
			{Name: "listSiteShareLinks", Method: "GET", Path: fixed(base + "/share-links"), Want: manage(200)},
			{Name: "createSiteShareLink", Method: "POST", Path: fixed(base + "/share-links"), State: apitest.Self,
				Body: `{"name":"More"}`, Want: manage(201)},
			{Name: "updateSiteShareLinkById", Method: "PATCH", Path: fixed(base + "/share-links/" + link.ID),
				State: apitest.Paths(fixed(base + "/share-links")),
				Body:  func(*apitest.Actors) any { return map[string]any{"name": fmt.Sprint("Name ", fresh())} },
				Want:  manage(200)},
			{Name: "deleteSiteShareLinkById", Method: "DELETE", State: apitest.Paths(fixed(base + "/share-links")),
				Path: func(*apitest.Actors) string {
					var l struct{ ID string }
					s.Do(t, admin, "POST", base+"/share-links", `{"name":"Doomed"}`).WantStatus(t, 201).JSON(t, &l)
					return base + "/share-links/" + l.ID
				}, Want: manage(204)},
			{Name: "createSiteRedirect", Method: "POST", Path: fixed(base + "/redirects"), State: apitest.Self,
				Body: func(*apitest.Actors) any {
					return map[string]any{"source": fmt.Sprint("/r", fresh()), "destination": dest}
				}, Want: manage(201)},
			{Name: "listSiteRedirects", Method: "GET", Path: fixed(base + "/redirects"), Want: read},
			{Name: "getSiteRedirectBySource", Method: "GET", Path: fixed(base + "/redirect?source=/old"), Want: read},
			{Name: "updateSiteRedirectById", Method: "PATCH", Path: fixed(base + "/redirects/" + red.ID),
				State: apitest.Paths(fixed(base + "/redirects")),
				Body:  func(*apitest.Actors) any { return map[string]any{"source": fmt.Sprint("/old", fresh())} },
				Reset: func(*apitest.Actors) {
					s.Do(t, admin, "PATCH", base+"/redirects/"+red.ID, `{"source":"/old"}`).WantStatus(t, 200)
				},
				Want: manage(200)},
			{Name: "deleteSiteRedirectById", Method: "DELETE", State: apitest.Paths(fixed(base + "/redirects")),
				Path: func(*apitest.Actors) string {
					var r struct{ ID string }
					s.Do(t, admin, "POST", base+"/redirects", map[string]any{"source": fmt.Sprint("/d", fresh()),
						"destination": dest}).WantStatus(t, 201).JSON(t, &r)
					return base + "/redirects/" + r.ID
				}, Want: manage(204)},
			{Name: "getSiteCustomizationById", Method: "GET", Path: fixed(base + "/customization"), Want: read},
			{Name: "updateSiteCustomizationById", Method: "PUT", Path: fixed(base + "/customization"), State: apitest.Self,
				Body: func(*apitest.Actors) any { return customization(t, fmt.Sprint("Custom ", fresh())) },
				Want: manage(200)},
			{Name: "getSiteSpaceCustomizationById", Method: "GET", Path: fixed(base + "/site-spaces/" + ss + "/customization"), Want: read},
			{Name: "overrideSiteSpaceCustomizationById", Method: "PATCH", Path: fixed(base + "/site-spaces/" + ss + "/customization"),
				State: apitest.Self,
				Body:  func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Variant ", fresh())} },
				Want:  manage(200)},
			{Name: "deleteSiteSpaceCustomizationById", Method: "DELETE", Path: fixed(base + "/site-spaces/" + ss + "/customization"),
				State: apitest.Self,
				Reset: func(*apitest.Actors) {
					s.Do(t, admin, "PATCH", base+"/site-spaces/"+ss+"/customization", `{"title":"Variant"}`).WantStatus(t, 200)
				},
				Want: manage(204)},
		}
		apitest.Matrix(t, s, a, cases)
	})
}

// customization is the default customization document with a title: the
// reference requires every part of it in a PUT.
func customization(t testing.TB, title string) map[string]any {
	var doc map[string]any
	if err := json.Unmarshal([]byte(folio.DefaultCustomization), &doc); err != nil {
		t.Fatal(err)
	}
	doc["title"] = title
	return doc
}
