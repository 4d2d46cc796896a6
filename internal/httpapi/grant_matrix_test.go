package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// Actors added by the permission matrices: a guest granted admin on the
// space or collection, who manages its permissions as an organization admin
// does, and a guest granted read, who sees it but may not change who else
// does (403 where other guests get 404).
const (
	grantedAdmin = "guest-granted-admin"
	grantedRead  = "guest-granted-read"
)

// TestPermissionMatrix covers the permission endpoints of a space and of a
// collection: only admins of it (by organization role or by a grant) may
// change them, callers who may see it get 403, the others 404, and a
// refused request leaves the grants as they were.
func TestPermissionMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		var sp, col, tm, otherTeam struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+a.Org+"/spaces", `{"title":"Granted"}`).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "POST", "/v1/orgs/"+a.Org+"/collections", `{"title":"Granted"}`).WantStatus(t, 201).JSON(t, &col)
		s.Do(t, admin, "PUT", "/v1/orgs/"+a.Org+"/teams", `{"title":"Granted"}`).WantStatus(t, 201).JSON(t, &tm)
		s.Do(t, a.Tokens[apitest.OtherOrg], "PUT", "/v1/orgs/"+a.OtherOrg+"/teams", `{"title":"Theirs"}`).WantStatus(t, 201).JSON(t, &otherTeam)
		target, _ := s.Member(t, a.Org, folio.RoleRead)
		stranger, _ := s.Member(t, a.OtherOrg, folio.RoleRead)
		u, tok := s.Member(t, a.Org, folio.RoleGuest)
		a.Add(grantedAdmin, u, tok)
		u, tok = s.Member(t, a.Org, folio.RoleGuest)
		a.Add(grantedRead, u, tok)
		for _, base := range []string{"/v1/spaces/" + sp.ID, "/v1/collections/" + col.ID} {
			for actor, role := range map[string]string{grantedAdmin: "admin", grantedRead: "read"} {
				s.Do(t, admin, "POST", base+"/permissions", `{"role":"`+role+`","users":["`+a.Users[actor].ID+`"]}`).WantStatus(t, 204)
			}
		}

		hidden := apitest.NoAccess
		managers := apitest.Want(hidden, apitest.Admin, 204, grantedAdmin, 204, apitest.AnyActor, 403)
		for _, k := range []struct{ kind, base string }{{"Space", "/v1/spaces/" + sp.ID}, {"Collection", "/v1/collections/" + col.ID}} {
			at := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return k.base + p } }
			grants := apitest.Paths(at("/permissions/users"), at("/permissions/teams"))
			// Before each actor, the target user and team hold read, so that
			// raising or removing their grant changes something.
			reset := func(*apitest.Actors) {
				s.Do(t, admin, "POST", k.base+"/permissions", `{"role":"read","users":["`+target.ID+`"],"teams":["`+tm.ID+`"]}`).
					WantStatus(t, 204)
			}
			user, team := "/permissions/users/"+target.ID, "/permissions/teams/"+tm.ID
			apitest.Matrix(t, s, a, []apitest.Case{
				{Name: "updateUserPermissionIn" + k.kind, Method: "PATCH", Path: at(user), Body: `{"role":"edit"}`,
					Want: managers, Reset: reset, State: grants},
				{Name: "removeUserPermissionIn" + k.kind, Method: "DELETE", Path: at(user),
					Want: managers, Reset: reset, State: grants},
				{Name: "updateTeamPermissionIn" + k.kind, Method: "PATCH", Path: at(team), Body: `{"role":"edit"}`,
					Want: managers, Reset: reset, State: grants},
				{Name: "removeTeamPermissionIn" + k.kind, Method: "DELETE", Path: at(team),
					Want: managers, Reset: reset, State: grants},
				{Name: "inviteTo" + k.kind, Method: "POST", Path: at("/permissions"),
					Body: `{"role":"comment","users":["` + target.ID + `"],"teams":["` + tm.ID + `"]}`,
					Want: managers, Reset: reset, State: grants},
				{Name: "listUserPermissionsIn" + k.kind, Method: "GET", Path: at("/permissions/users"),
					Want: apitest.Want(managers, apitest.Admin, 200, grantedAdmin, 200)},
				{Name: "listTeamPermissionsIn" + k.kind, Method: "GET", Path: at("/permissions/teams"),
					Want: apitest.Want(managers, apitest.Admin, 200, grantedAdmin, 200)},
				// A user or team of another organization cannot be granted
				// anything here, even by an admin.
				{Name: "updateUserPermissionIn" + k.kind + " user of another organization", Method: "PATCH",
					Path: at("/permissions/users/" + stranger.ID), Body: `{"role":"edit"}`,
					Want: apitest.Want(managers, apitest.Admin, 404, grantedAdmin, 404), State: grants},
				{Name: "updateTeamPermissionIn" + k.kind + " team of another organization", Method: "PATCH",
					Path: at("/permissions/teams/" + otherTeam.ID), Body: `{"role":"edit"}`,
					Want: apitest.Want(managers, apitest.Admin, 404, grantedAdmin, 404), State: grants},
				{Name: "inviteTo" + k.kind + " one unknown of two", Method: "POST", Path: at("/permissions"),
					Body: `{"role":"admin","users":["` + target.ID + `","` + stranger.ID + `"]}`,
					Want: apitest.Want(managers, apitest.Admin, 404, grantedAdmin, 404), Reset: reset, State: grants},
			})
		}
	})
}
