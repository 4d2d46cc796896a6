package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestInputListsHaveBounds sends 100,000-entry lists to every endpoint
// that takes a list of users, teams or emails: each answers 400 naming the
// list and its documented maximum, and nothing changes.
func TestInputListsHaveBounds(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Lists")
		var team struct{ ID string }
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Base"}).WantStatus(t, 201).JSON(t, &team)
		many := make([]string, 100_000)
		for i := range many {
			many[i] = fmt.Sprintf("user%d@example.com", i)
		}
		list, _ := json.Marshal(many)
		state := func() string {
			var out string
			for _, p := range []string{"/v1/orgs/" + org + "/teams", "/v1/orgs/" + org + "/members",
				"/v1/spaces/" + space + "/permissions/users", "/v1/orgs/" + org + "/teams/" + team.ID + "/members"} {
				out += string(s.Do(t, admin, "GET", p, nil).WantStatus(t, 200).Body)
			}
			return out
		}
		before := state()
		for _, c := range []struct {
			name, method, path, body, msg string
		}{
			{"createOrganizationTeam/members", "PUT", "/v1/orgs/" + org + "/teams",
				`{"title":"Big","members":` + string(list) + `}`, "at most 1000 members"},
			{"updateMembersInOrganizationTeam/add", "PUT", "/v1/orgs/" + org + "/teams/" + team.ID + "/members",
				`{"add":` + string(list) + `}`, "at most 1000 users"},
			{"updateMembersInOrganizationTeam/remove", "PUT", "/v1/orgs/" + org + "/teams/" + team.ID + "/members",
				`{"remove":` + string(list) + `}`, "at most 1000 users"},
			{"inviteUsersToOrganization/emails", "POST", "/v1/orgs/" + org + "/invites",
				`{"emails":` + string(list) + `,"role":"read"}`, "500"},
			{"inviteToSpace/users", "POST", "/v1/spaces/" + space + "/permissions",
				`{"users":` + string(list) + `,"role":"read"}`, "at most 1000"},
		} {
			t.Run(c.name, func(t *testing.T) {
				s.Do(t, admin, c.method, c.path, c.body).WantError(t, 400, c.msg)
			})
		}
		if after := state(); after != before {
			t.Fatalf("a refused list changed something:\n%s\n%s", before, after)
		}
	})
}
