package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// Actors added by the team member matrix: owners of the team (a member
// with the read role and a guest), who manage its members as admins do, and
// a plain member of it, who does not.
const (
	teamOwner      = "read-team-owner"
	guestTeamOwner = "guest-team-owner"
	teamMember     = "read-team-member"
)

// TestTeamMemberMatrix covers adding and removing team members: admins
// and the team's owners may, other members get 403 (guests too: they may
// not even list teams), callers outside the organization 404; a refused
// request leaves the team's members as they were.
func TestTeamMemberMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		var tm, otherTeam struct{ ID string }
		teams := "/v1/orgs/" + a.Org + "/teams"
		s.Do(t, admin, "PUT", teams, `{"title":"Writers"}`).WantStatus(t, 201).JSON(t, &tm)
		s.Do(t, a.Tokens[apitest.OtherOrg], "PUT", "/v1/orgs/"+a.OtherOrg+"/teams", `{"title":"Theirs"}`).WantStatus(t, 201).JSON(t, &otherTeam)
		members := teams + "/" + tm.ID + "/members"
		for name, role := range map[string]folio.Role{teamOwner: folio.RoleRead, guestTeamOwner: folio.RoleGuest, teamMember: folio.RoleRead} {
			u, tok := s.Member(t, a.Org, role)
			a.Add(name, u, tok)
			teamRole := "owner"
			if name == teamMember {
				teamRole = "member"
			}
			s.Do(t, admin, "PUT", members+"/"+u.ID, `{"role":"`+teamRole+`"}`).WantStatus(t, 204)
		}
		target, _ := s.Member(t, a.Org, folio.RoleRead)
		stranger, _ := s.Member(t, a.OtherOrg, folio.RoleRead)

		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		state := apitest.Paths(fixed(members))
		// Before each actor the target is out of the team (for adding) or
		// in it (for removing), so that the request would change something.
		out := func(*apitest.Actors) { s.Do(t, admin, "DELETE", members+"/"+target.ID, nil).WantStatus(t, 204) }
		in := func(*apitest.Actors) {
			s.Do(t, admin, "PUT", members+"/"+target.ID, `{"role":"member"}`).WantStatus(t, 204)
		}
		managers := apitest.Want(apitest.NotMembers, apitest.Admin, 204, teamOwner, 204, guestTeamOwner, 204, apitest.AnyActor, 403)
		// A user of another organization is refused to admins and owners
		// too, and the other organization's admin cannot reach this team
		// through their organization.
		strangerWant := apitest.Want(managers, apitest.Admin, 400, teamOwner, 400, guestTeamOwner, 400)
		throughOther := fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + tm.ID + "/members/" + stranger.ID)
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "addMemberToOrganizationTeamById", Method: "PUT", Path: fixed(members + "/" + target.ID), Body: `{"role":"member"}`,
				Want: managers, Reset: out, State: state},
			{Name: "addMemberToOrganizationTeamById as owner", Method: "PUT", Path: fixed(members + "/" + target.ID), Body: `{"role":"owner"}`,
				Want: managers, Reset: in, State: state},
			{Name: "deleteMemberFromOrganizationTeamById", Method: "DELETE", Path: fixed(members + "/" + target.ID),
				Want: managers, Reset: in, State: state},
			{Name: "updateMembersInOrganizationTeam add", Method: "PUT", Path: fixed(members), Body: `{"add":["` + target.ID + `"]}`,
				Want: managers, Reset: out, State: state},
			{Name: "updateMembersInOrganizationTeam remove", Method: "PUT", Path: fixed(members), Body: `{"remove":["` + target.ID + `"]}`,
				Want: managers, Reset: in, State: state},
			{Name: "addMemberToOrganizationTeamById user of another organization", Method: "PUT", Path: fixed(members + "/" + stranger.ID),
				Body: `{"role":"member"}`, Want: strangerWant, State: state},
			{Name: "updateMembersInOrganizationTeam user of another organization", Method: "PUT", Path: fixed(members),
				Body: `{"add":["` + target.ID + `","` + stranger.ID + `"]}`, Want: strangerWant, Reset: out, State: state},
			{Name: "addMemberToOrganizationTeamById through another organization", Method: "PUT", Path: throughOther,
				Body: `{"role":"member"}`, Want: map[string]int{apitest.AnyActor: 404}, State: state},
			{Name: "deleteMemberFromOrganizationTeamById through another organization", Method: "DELETE",
				Path: fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + tm.ID + "/members/" + target.ID),
				Want: map[string]int{apitest.AnyActor: 404}, Reset: in, State: state},
			{Name: "addMemberToOrganizationTeamById another organization's team", Method: "PUT",
				Path: fixed("/v1/orgs/" + a.Org + "/teams/" + otherTeam.ID + "/members/" + target.ID),
				Body: `{"role":"member"}`, Want: apitest.Want(apitest.NotMembers, apitest.AnyActor, 404),
				State: apitest.Paths(fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + otherTeam.ID + "/members")), StateAs: apitest.OtherOrg},
		})
	})
}
