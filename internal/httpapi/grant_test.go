package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

func TestContentGrants(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guest, guestTok := s.Member(t, org, folio.RoleGuest)
		reader, readerTok := s.Member(t, org, folio.RoleRead)
		stranger, _ := s.User(t)
		var team struct{ ID string }
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", `{"title":"Writers","members":["`+reader.ID+`"]}`).WantStatus(t, 201).JSON(t, &team)
		var col, sp struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Docs"}`).WantStatus(t, 201).JSON(t, &col)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Guide","parent":"`+col.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
		perms := func(tok string) map[string]bool {
			var b struct{ Permissions map[string]bool }
			s.Do(t, tok, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).JSON(t, &b)
			return b.Permissions
		}

		// A guest sees a space once granted on its collection.
		s.Do(t, guestTok, "GET", "/v1/spaces/"+sp.ID, nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "POST", "/v1/collections/"+col.ID+"/permissions", `{"role":"comment","users":["`+guest.ID+`"]}`).WantStatus(t, 204)
		if p := perms(guestTok); !p["comment"] || p["edit"] {
			t.Fatalf("guest with comment on the collection: %v", p)
		}
		var l struct{ Count int }
		s.Do(t, guestTok, "GET", "/v1/orgs/"+org+"/spaces", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("guest lists %d spaces", l.Count)
		}
		// A team grant on the space raises its members.
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"edit","teams":["`+team.ID+`"]}`).WantStatus(t, 204)
		if p := perms(readerTok); !p["edit"] || p["review"] {
			t.Fatalf("reader through a team edit grant: %v", p)
		}
		var teams struct {
			Items []struct {
				Permission string
				Team       struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/permissions/teams", nil).WantStatus(t, 200).JSON(t, &teams)
		if len(teams.Items) != 1 || teams.Items[0].Permission != "edit" || teams.Items[0].Team.ID != team.ID {
			t.Fatalf("team permissions %+v", teams)
		}
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp.ID+"/permissions/teams/"+team.ID, `{"role":"review"}`).WantStatus(t, 204)
		if p := perms(readerTok); !p["review"] {
			t.Fatalf("after raising the team: %v", p)
		}
		// Leaving the team removes what it gave.
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/teams/"+team.ID+"/members/"+reader.ID, nil).WantStatus(t, 204)
		if p := perms(readerTok); p["edit"] {
			t.Fatalf("after leaving the team: %v", p)
		}

		var users struct {
			Count int
			Items []struct {
				Permission string
				User       struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", "/v1/collections/"+col.ID+"/permissions/users", nil).WantStatus(t, 200).JSON(t, &users)
		if users.Count != 1 || users.Items[0].User.ID != guest.ID || users.Items[0].Permission != "comment" {
			t.Fatalf("user permissions %+v", users)
		}
		// Unknown users or teams change nothing.
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"read","users":["`+reader.ID+`","`+stranger.ID+`"]}`).
			WantError(t, 404, "no user with the id "+stranger.ID)
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"read","teams":["nope"]}`).WantError(t, 404, "no team")
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/permissions/users", nil).JSON(t, &users)
		if users.Count != 0 {
			t.Fatalf("a rejected grant added %d users", users.Count)
		}
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"read"}`).WantError(t, 400, "at least one")
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"users":["`+guest.ID+`"]}`).WantError(t, 400, "role is required")
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"owner","users":["`+guest.ID+`"]}`).WantError(t, 400, "role")

		// Removing the grant takes the guest's access away again.
		s.Do(t, admin, "DELETE", "/v1/collections/"+col.ID+"/permissions/users/"+guest.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/collections/"+col.ID+"/permissions/users/"+guest.ID, nil).WantStatus(t, 204)
		s.Do(t, guestTok, "GET", "/v1/spaces/"+sp.ID, nil).WantError(t, 404, "space not found")
		// Only admins of the content manage or list its permissions.
		s.Do(t, readerTok, "GET", "/v1/spaces/"+sp.ID+"/permissions/users", nil).WantError(t, 403, "admins of the space")
		s.Do(t, readerTok, "POST", "/v1/spaces/"+sp.ID+"/permissions", `{"role":"admin","users":["`+reader.ID+`"]}`).WantError(t, 403, "admins")
	})
}
