package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestSiteStructureMatrix covers every site structure and adaptive-content
// route for every actor: members read, members with the create role or
// higher change, guests and callers outside the organization get 404.
// Refused writes leave the whole structure (or the schema) unchanged.
func TestSiteStructureMatrix(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		sp := newSpace(t, s, admin, a.Org, "Published")
		st := newSite(t, s, admin, a.Org, map[string]any{"title": "Docs", "spaces": []string{sp}})
		base := "/v1/orgs/" + a.Org + "/sites/" + st.ID
		f := &structureFixture{s: s, admin: admin, org: a.Org, base: base}
		first := f.addSection(t, newSpace(t, s, admin, a.Org, "First"), nil)
		second := f.addSection(t, newSpace(t, s, admin, a.Org, "Second"), nil)
		var group groupBody
		s.Do(t, admin, "POST", base+"/section-groups", map[string]any{"title": "Group"}).WantStatus(t, 201).JSON(t, &group)
		s.Do(t, admin, "PUT", base+"/adaptive-schema", adaptiveSchemaBody).WantStatus(t, 200)
		movable := first.SiteSpaces[0].ID
		f.addSiteSpace(t, sp, first.ID)

		n := 0
		fresh := func() int { n++; return n }
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		structure := apitest.Paths(fixed(base + "/structure"))
		read := apitest.Want(apitest.NoAccess, apitest.AnyActor, 200)
		manage := func(ok int) map[string]int {
			return apitest.Want(apitest.NoAccess, apitest.AnyActor, 403, apitest.Admin, ok, apitest.Create, ok)
		}
		toFront := func(typ, id string) func(*apitest.Actors) {
			return func(*apitest.Actors) {
				secs := f.sections(t)
				ref := map[string]any{"type": "site-section", "id": secs[0].ID}
				if typ == "site-space" {
					ref = map[string]any{"type": "site-space", "id": f.sections(t)[0].SiteSpaces[0].ID}
				}
				s.Do(t, admin, "PATCH", base+"/structure/sort", map[string]any{"item": map[string]any{"type": typ, "id": id},
					"position": map[string]any{"before": ref}})
			}
		}
		cases := []apitest.Case{
			{Name: "getSiteStructure", Method: "GET", Path: fixed(base + "/structure"), Want: read},
			{Name: "sortSiteStructure", Method: "PATCH", Path: fixed(base + "/structure/sort"), State: structure,
				Reset: toFront("site-section", second.ID),
				Body: map[string]any{"item": map[string]any{"type": "site-section", "id": second.ID},
					"position": map[string]any{"after": map[string]any{"type": "site-section-group", "id": group.ID}}},
				Want: manage(200)},
			{Name: "listSiteSections", Method: "GET", Path: fixed(base + "/sections"), Want: read},
			{Name: "addSectionToSite", Method: "POST", Path: fixed(base + "/sections"), State: structure,
				Body: map[string]any{"spaceId": sp}, Want: manage(201)},
			{Name: "updateSiteSectionById", Method: "PATCH", Path: fixed(base + "/sections/" + second.ID), State: structure,
				Body: func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Title ", fresh())} },
				Want: manage(200)},
			{Name: "deleteSiteSectionById", Method: "DELETE", State: structure,
				Path: func(*apitest.Actors) string { return base + "/sections/" + f.addSection(t, sp, nil).ID },
				Want: manage(204)},
			{Name: "moveSiteSection", Method: "POST", Path: fixed(base + "/sections/" + second.ID + "/move"), State: structure,
				Reset: toFront("site-section", second.ID), Body: `{}`, Want: manage(200)},
			{Name: "listSiteSpaces", Method: "GET", Path: fixed(base + "/site-spaces"), Want: read},
			{Name: "addSpaceToSite", Method: "POST", Path: fixed(base + "/site-spaces"), State: structure,
				Body: map[string]any{"spaceId": sp}, Want: manage(201)},
			{Name: "updateSiteSpaceById", Method: "PATCH", Path: fixed(base + "/site-spaces/" + movable), State: structure,
				Body: func(*apitest.Actors) any { return map[string]any{"path": fmt.Sprint("p", fresh())} },
				Want: manage(200)},
			{Name: "deleteSiteSpaceById", Method: "DELETE", State: structure,
				Path: func(*apitest.Actors) string { return base + "/site-spaces/" + f.addSiteSpace(t, sp, first.ID).ID },
				Want: manage(204)},
			{Name: "moveSiteSpace", Method: "POST", Path: fixed(base + "/site-spaces/" + movable + "/move"), State: structure,
				Reset: toFront("site-space", movable), Body: `{}`, Want: manage(200)},
			{Name: "listSiteSectionGroups", Method: "GET", Path: fixed(base + "/section-groups"), Want: read},
			{Name: "addSectionGroupToSite", Method: "POST", Path: fixed(base + "/section-groups"), State: structure,
				Body: func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Group ", fresh())} },
				Want: manage(201)},
			{Name: "updateSiteSectionGroupById", Method: "PATCH", Path: fixed(base + "/section-groups/" + group.ID), State: structure,
				Body: func(*apitest.Actors) any { return map[string]any{"title": fmt.Sprint("Group ", fresh())} },
				Want: manage(200)},
			{Name: "deleteSiteSectionGroupById", Method: "DELETE", State: structure,
				Path: func(*apitest.Actors) string {
					var g groupBody
					s.Do(t, admin, "POST", base+"/section-groups", map[string]any{"title": "Doomed"}).WantStatus(t, 201).JSON(t, &g)
					return base + "/section-groups/" + g.ID
				}, Want: manage(204)},
			{Name: "addSectionToGroup", Method: "POST", Path: fixed(base + "/section-groups/" + group.ID + "/sections"),
				State: structure, Body: map[string]any{"sectionId": first.ID},
				Reset: func(*apitest.Actors) {
					s.Do(t, admin, "DELETE", base+"/section-groups/"+group.ID+"/sections/"+first.ID, nil)
				},
				Want: manage(201)},
			{Name: "removeSectionFromGroup", Method: "DELETE",
				Path: fixed(base + "/section-groups/" + group.ID + "/sections/" + first.ID), State: structure,
				Reset: func(*apitest.Actors) {
					s.Do(t, admin, "POST", base+"/section-groups/"+group.ID+"/sections", map[string]any{"sectionId": first.ID}).
						WantStatus(t, 201)
				},
				Want: manage(204)},
			{Name: "moveSiteSectionGroup", Method: "POST", Path: fixed(base + "/section-groups/" + group.ID + "/move"),
				State: structure, Reset: toFront("site-section-group", group.ID), Body: `{}`, Want: manage(200)},
			{Name: "getSiteAdaptiveSchema", Method: "GET", Path: fixed(base + "/adaptive-schema"), Want: read},
			{Name: "updateSiteAdaptiveSchema", Method: "PUT", Path: fixed(base + "/adaptive-schema"), State: apitest.Self,
				Body: adaptiveSchemaBody, Want: manage(200)},
			{Name: "listSiteAdaptiveTemplateConditions", Method: "GET", Path: fixed(base + "/adaptive-schema/template-conditions"),
				Want: read},
		}
		apitest.Matrix(t, s, a, cases)
	})
}
