package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestMemberAndTeamRefusalsChangeNothing runs the writes on members and
// teams that TestMemberAuthorization and TestTeamAuthorization cover by
// status, with fixtures that a refused request would change, and checks
// that it changes nothing.
func TestMemberAndTeamRefusalsChangeNothing(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		org := "/v1/orgs/" + a.Org
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		freshMember := func(*apitest.Actors) string {
			u, _ := s.Member(t, a.Org, folio.RoleRead)
			return org + "/members/" + u.ID
		}
		freshTeam := func(*apitest.Actors) string {
			var tm struct{ ID string }
			s.Do(t, admin, "PUT", org+"/teams", `{"title":"Fresh"}`).WantStatus(t, 201).JSON(t, &tm)
			return org + "/teams/" + tm.ID
		}
		target, _ := s.Member(t, a.Org, folio.RoleRead)
		member := org + "/members/" + target.ID
		var tm struct{ ID string }
		s.Do(t, admin, "PUT", org+"/teams", `{"title":"Kept"}`).WantStatus(t, 201).JSON(t, &tm)
		team := org + "/teams/" + tm.ID
		u, tok := s.Member(t, a.Org, folio.RoleRead)
		a.Add(teamOwner, u, tok)
		s.Do(t, admin, "PUT", team+"/members/"+u.ID, `{"role":"owner"}`).WantStatus(t, 204)

		adminOnly := func(status int) map[string]int {
			return apitest.Want(apitest.NotMembers, apitest.Admin, status, apitest.AnyActor, 403)
		}
		n := 0
		title := func(*apitest.Actors) any { n++; return map[string]any{"title": fmt.Sprintf("Renamed %d", n)} }
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "updateMemberInOrganizationById", Method: "PATCH", Path: fixed(member), Body: `{"role":"edit"}`,
				Want: adminOnly(200), State: apitest.Self,
				Reset: func(*apitest.Actors) { s.Do(t, admin, "PATCH", member, `{"role":"read"}`).WantStatus(t, 200) }},
			{Name: "setUserAsSSOMemberForOrganization", Method: "POST", Path: func(a *apitest.Actors) string { return freshMember(a) + "/sso" },
				Want: adminOnly(200), State: apitest.Trim("/sso")},
			{Name: "removeMemberFromOrganizationById", Method: "DELETE", Path: freshMember,
				Want: apitest.Want(adminOnly(204), teamOwner, 403), State: apitest.Self},
			// The other organization's admin removes "their" member: 204, as
			// for anyone absent, and the member stays here.
			{Name: "removeMemberFromOrganizationById through another organization", Method: "DELETE",
				Path: fixed("/v1/orgs/" + a.OtherOrg + "/members/" + target.ID),
				Want: map[string]int{apitest.OtherOrg: 204, apitest.AnyActor: 404}, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(member))},
			{Name: "createOrganizationTeam", Method: "PUT", Path: fixed(org + "/teams"), Body: `{"title":"New"}`,
				Want: adminOnly(201), State: apitest.Self},
			{Name: "updateTeamInOrganizationById", Method: "PATCH", Path: fixed(team), Body: title,
				Want: apitest.Want(adminOnly(200), teamOwner, 200), State: apitest.Self},
			{Name: "removeTeamFromOrganizationById", Method: "DELETE", Path: freshTeam,
				Want: adminOnly(204), State: apitest.Self},
			{Name: "removeTeamFromOrganizationById through another organization", Method: "DELETE",
				Path: fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + tm.ID),
				Want: map[string]int{apitest.OtherOrg: 204, apitest.AnyActor: 404}, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(team))},
			{Name: "updateTeamInOrganizationById through another organization", Method: "PATCH",
				Path: fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + tm.ID), Body: title,
				Want: map[string]int{apitest.AnyActor: 404}, State: apitest.Paths(fixed(team))},
		})
	})
}
