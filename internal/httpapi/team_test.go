package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type teamBody struct {
	ID          string
	Title       string
	Members     int
	Spaces      int
	Permissions struct{ Admin, View bool }
}

type teamMemberList struct {
	Count int
	Items []struct {
		Organization struct{ ID string }
		Team         struct{ Role string }
	}
}

func (l teamMemberList) roles() map[string]string {
	out := map[string]string{}
	for _, it := range l.Items {
		out[it.Organization.ID] = it.Team.Role
	}
	return out
}

func TestTeamLifecycle(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		alice, aliceTok := s.Member(t, org, folio.RoleRead)
		bob, bobTok := s.Member(t, org, folio.RoleEdit)
		carol, _ := s.Member(t, org, folio.RoleComment)
		teams := "/v1/orgs/" + org + "/teams"

		r := s.Do(t, admin, "PUT", teams, map[string]any{"title": "Writers", "members": []string{alice.ID, bob.ID}}).WantStatus(t, 201)
		var tm teamBody
		r.JSON(t, &tm)
		if tm.Title != "Writers" || tm.Members != 2 || !tm.Permissions.Admin || !tm.Permissions.View {
			t.Fatalf("created %+v", tm)
		}
		if r.Header.Get("Location") == "" {
			t.Error("no Location")
		}
		team := teams + "/" + tm.ID

		// A plain member views but cannot manage; making them owner lets them.
		s.Do(t, aliceTok, "GET", team, nil).WantStatus(t, 200).JSON(t, &tm)
		if tm.Permissions.Admin || !tm.Permissions.View {
			t.Fatalf("member sees permissions %+v", tm.Permissions)
		}
		s.Do(t, aliceTok, "PATCH", team, `{"title":"Mine"}`).WantError(t, 403, "owners")
		s.Do(t, admin, "PUT", team+"/members/"+alice.ID, `{"role":"owner"}`).WantStatus(t, 204)
		s.Do(t, aliceTok, "PATCH", team, `{"title":"Alice's writers"}`).WantStatus(t, 200).JSON(t, &tm)
		if tm.Title != "Alice's writers" || !tm.Permissions.Admin {
			t.Fatalf("owner rename: %+v", tm)
		}
		// The owner manages members but may not delete the team.
		s.Do(t, aliceTok, "PUT", team+"/members", map[string]any{"add": []string{carol.Email}, "remove": []string{bob.ID}}).WantStatus(t, 204)
		var ml teamMemberList
		s.Do(t, aliceTok, "GET", team+"/members", nil).WantStatus(t, 200).JSON(t, &ml)
		if d := cmp.Diff(map[string]string{alice.ID: "owner", carol.ID: "member"}, ml.roles()); d != "" || ml.Count != 2 {
			t.Fatalf("members (-want +got):\n%s", d)
		}
		s.Do(t, bobTok, "PUT", team+"/members", map[string]any{"add": []string{bob.ID}}).WantError(t, 403, "owners")
		s.Do(t, aliceTok, "DELETE", team, nil).WantError(t, 403, "admins")

		// A member's teams, with the title filter.
		var mt struct {
			Count int
			Items []struct {
				Team   struct{ ID string }
				Member struct{ Role string }
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+alice.ID+"/teams?title=WRITERS", nil).WantStatus(t, 200).JSON(t, &mt)
		if mt.Count != 1 || mt.Items[0].Team.ID != tm.ID || mt.Items[0].Member.Role != "owner" {
			t.Fatalf("member teams %+v", mt)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+alice.ID+"/teams?title=nope", nil).JSON(t, &mt)
		if mt.Count != 0 {
			t.Fatalf("title filter kept %d", mt.Count)
		}
		var m struct{ Teams int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+alice.ID, nil).JSON(t, &m)
		if m.Teams != 1 {
			t.Fatalf("member teams count = %d", m.Teams)
		}

		// Leaving the organization leaves its teams.
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/members/"+carol.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", team+"/members", nil).JSON(t, &ml)
		if ml.Count != 1 {
			t.Fatalf("team members after carol left: %d", ml.Count)
		}
		s.Do(t, admin, "DELETE", team+"/members/"+alice.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", team+"/members/"+alice.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", team, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", team, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", team, nil).WantError(t, 404, "team not found")
	})
}

func TestTeamMembersUpdateRules(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		a, _ := s.Member(t, org, folio.RoleRead)
		b, _ := s.Member(t, org, folio.RoleRead)
		stranger, _ := s.User(t)
		var tm teamBody
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", `{"title":"T"}`).WantStatus(t, 201).JSON(t, &tm)
		team := "/v1/orgs/" + org + "/teams/" + tm.ID
		members := func() map[string]string {
			var l teamMemberList
			s.Do(t, admin, "GET", team+"/members", nil).WantStatus(t, 200).JSON(t, &l)
			return l.roles()
		}
		// A user both added and removed is removed; memberships set roles.
		s.Do(t, admin, "PUT", team+"/members", map[string]any{
			"add": []string{a.ID, strings.ToUpper(b.Email)}, "remove": []string{b.ID},
			"memberships": map[string]any{a.ID: map[string]string{"role": "owner"}},
		}).WantStatus(t, 204)
		if d := cmp.Diff(map[string]string{a.ID: "owner"}, members()); d != "" {
			t.Fatalf("(-want +got):\n%s", d)
		}
		// Unknown users are named and nothing changes.
		r := s.Do(t, admin, "PUT", team+"/members", map[string]any{"add": []string{b.ID, "ghost@example.com", stranger.ID}})
		r.WantError(t, 400, "ghost@example.com, "+stranger.ID)
		if d := cmp.Diff(map[string]string{a.ID: "owner"}, members()); d != "" {
			t.Fatalf("after a rejected update (-want +got):\n%s", d)
		}
		s.Do(t, admin, "PUT", team+"/members", `{"memberships":{"`+a.ID+`":{"role":"boss"}}}`).WantError(t, 400, "owner or member")
		s.Do(t, admin, "PUT", team+"/members/"+b.ID, `{"role":"boss"}`).WantError(t, 400, "owner or member")
		s.Do(t, admin, "PUT", team+"/members/"+stranger.ID, `{"role":"member"}`).WantError(t, 400, "not members")
		s.Do(t, admin, "PUT", team+"/members/"+b.ID, `{"role":"member"}`).WantStatus(t, 204)
		s.Do(t, admin, "PUT", team+"/members/"+strings.ToUpper(b.Email), `{"role":"owner"}`).WantStatus(t, 204)
		if d := cmp.Diff(map[string]string{a.ID: "owner", b.ID: "owner"}, members()); d != "" {
			t.Fatalf("member set by email (-want +got):\n%s", d)
		}
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams/nope/members/"+b.ID, `{"role":"member"}`).WantError(t, 404, "team not found")
	})
}

func TestTeamValidationAndFilters(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		owner, ownerTok := s.Member(t, org, folio.RoleRead)
		teams := "/v1/orgs/" + org + "/teams"
		for _, c := range []struct {
			name, body string
			code       int
		}{
			{"title/empty", `{"title":""}`, 400},
			{"title/shortest", `{"title":"a"}`, 201},
			{"title/longest", `{"title":"` + strings.Repeat("t", 64) + `"}`, 201},
			{"title/too long", `{"title":"` + strings.Repeat("t", 65) + `"}`, 400},
			{"title/blank", `{"title":"  "}`, 400},
			{"members/unknown", `{"title":"x","members":["nobody"]}`, 400},
		} {
			r := s.Do(t, admin, "PUT", teams, c.body)
			if r.Status != c.code {
				t.Errorf("%s: status %d, want %d (%s)", c.name, r.Status, c.code, r.Body)
			}
		}
		var tm teamBody
		s.Do(t, admin, "PUT", teams, `{"title":"Design Crew"}`).WantStatus(t, 201).JSON(t, &tm)
		s.Do(t, admin, "PUT", teams+"/"+tm.ID+"/members/"+owner.ID, `{"role":"owner"}`).WantStatus(t, 204)
		s.Do(t, admin, "PATCH", teams+"/"+tm.ID, `{"title":""}`).WantError(t, 400, "title")

		var l struct {
			Count int
			Items []teamBody
		}
		s.Do(t, ownerTok, "GET", teams+"?title=crew", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].ID != tm.ID {
			t.Fatalf("title filter: %+v", l)
		}
		// Case is ignored beyond ASCII too, the same on both stores.
		var u teamBody
		s.Do(t, admin, "PUT", teams, `{"title":"Équipe Ünïcode"}`).WantStatus(t, 201).JSON(t, &u)
		s.Do(t, ownerTok, "GET", teams+"?title=%C3%A9QUIPE%20%C3%BCN", nil).JSON(t, &l) // "éQUIPE üN"
		if l.Count != 1 || l.Items[0].ID != u.ID {
			t.Fatalf("unicode title filter: %+v", l)
		}
		s.Do(t, admin, "DELETE", teams+"/"+u.ID, nil).WantStatus(t, 204)
		s.Do(t, ownerTok, "GET", teams+"?owner="+owner.ID, nil).JSON(t, &l)
		if l.Count != 1 || l.Items[0].ID != tm.ID || !l.Items[0].Permissions.Admin {
			t.Fatalf("owner filter for a team owner: %+v", l)
		}
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &me)
		s.Do(t, admin, "GET", teams+"?owner="+me.ID, nil).JSON(t, &l)
		if l.Count != 3 {
			t.Fatalf("owner filter for an admin lists %d teams, want all 3", l.Count)
		}
		s.Do(t, admin, "GET", teams+"?owner=nobody", nil).WantError(t, 400, "owner")
		// ownTeam shows on the organization.
		var o struct{ Permissions struct{ OwnTeam bool } }
		s.Do(t, ownerTok, "GET", "/v1/orgs/"+org, nil).JSON(t, &o)
		if !o.Permissions.OwnTeam {
			t.Fatal("ownTeam false for a team owner")
		}
	})
}

// TestTeamAuthorization covers the team endpoints: members but guests
// read, admins manage, a team's owners rename it (its members:
// TestTeamMemberMatrix), callers outside the organization get 404, and a
// refused write leaves the teams as they were.
func TestTeamAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		teams := "/v1/orgs/" + a.Org + "/teams"
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		var tm teamBody
		s.Do(t, admin, "PUT", teams, `{"title":"Matrix"}`).WantStatus(t, 201).JSON(t, &tm)
		team := teams + "/" + tm.ID
		u, tok := s.Member(t, a.Org, folio.RoleRead)
		a.Add(teamOwner, u, tok)
		s.Do(t, admin, "PUT", team+"/members/"+u.ID, `{"role":"owner"}`).WantStatus(t, 204)
		// A fresh team per actor for deletion, which lets the admin through.
		freshTeam := func(*apitest.Actors) string {
			var fresh teamBody
			s.Do(t, admin, "PUT", teams, `{"title":"Fresh"}`).WantStatus(t, 201).JSON(t, &fresh)
			return teams + "/" + fresh.ID
		}
		// A new title per actor, so that every rename would change the team.
		n := 0
		title := func(*apitest.Actors) any { n++; return map[string]any{"title": fmt.Sprintf("Renamed %d", n)} }
		hidden := apitest.NotMembers
		with := func(kv ...any) map[string]int { return apitest.Want(hidden, kv...) }
		readers := with(apitest.Guest, 403, apitest.AnyActor, 200)
		otherTeam := fixed("/v1/orgs/" + a.OtherOrg + "/teams/" + tm.ID)
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "listTeamsInOrganizationById", Method: "GET", Path: fixed(teams), Want: readers},
			{Name: "getTeamInOrganizationById", Method: "GET", Path: fixed(team), Want: readers},
			{Name: "listTeamMembersInOrganizationById", Method: "GET", Path: fixed(team + "/members"), Want: readers},
			{Name: "createOrganizationTeam", Method: "PUT", Path: fixed(teams), Body: `{"title":"New"}`,
				Want: with(apitest.Admin, 201, apitest.AnyActor, 403), State: apitest.Self},
			{Name: "updateTeamInOrganizationById", Method: "PATCH", Path: fixed(team), Body: title,
				Want: with(apitest.Admin, 200, teamOwner, 200, apitest.AnyActor, 403), State: apitest.Self},
			{Name: "removeTeamFromOrganizationById", Method: "DELETE", Path: freshTeam,
				Want: with(apitest.Admin, 204, apitest.AnyActor, 403), State: apitest.Self},
			// Through another organization the team is not there: its admin
			// gets 204 for a deletion, as for any absent team, and the team
			// stays.
			{Name: "removeTeamFromOrganizationById through another organization", Method: "DELETE", Path: otherTeam,
				Want: map[string]int{apitest.OtherOrg: 204, apitest.AnyActor: 404}, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(team))},
			{Name: "updateTeamInOrganizationById through another organization", Method: "PATCH", Path: otherTeam, Body: title,
				Want: map[string]int{apitest.AnyActor: 404}, State: apitest.Paths(fixed(team))},
		})
	})
}

// TestTeamPermissionsCountSpaces checks that the teams of a permissions
// list carry the number of spaces they hold a grant on, directly or through
// a collection, as the team itself does.
func TestTeamPermissionsCountSpaces(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var tm teamBody
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", `{"title":"Readers"}`).WantStatus(t, 201).JSON(t, &tm)
		var col struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Shelf"}`).WantStatus(t, 201).JSON(t, &col)
		for _, title := range []string{"In one", "In two"} {
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title, "parent": col.ID}).WantStatus(t, 201)
		}
		loose := newSpace(t, s, admin, org, "Loose")
		newSpace(t, s, admin, org, "Not granted")
		grant := `{"role":"read","teams":["` + tm.ID + `"]}`
		s.Do(t, admin, "POST", "/v1/collections/"+col.ID+"/permissions", grant).WantStatus(t, 204)
		s.Do(t, admin, "POST", "/v1/spaces/"+loose+"/permissions", grant).WantStatus(t, 204)

		var got teamBody
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams/"+tm.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Spaces != 3 {
			t.Fatalf("team spaces = %d, want 3", got.Spaces)
		}
		for _, path := range []string{"/v1/spaces/" + loose, "/v1/collections/" + col.ID} {
			var l struct {
				Items []struct {
					Permission string
					Team       teamBody
				}
			}
			s.Do(t, admin, "GET", path+"/permissions/teams", nil).WantStatus(t, 200).JSON(t, &l)
			if len(l.Items) != 1 || l.Items[0].Team.ID != tm.ID || l.Items[0].Team.Spaces != 3 {
				t.Fatalf("%s/permissions/teams = %+v, want %s with 3 spaces", path, l.Items, tm.ID)
			}
		}
	})
}
