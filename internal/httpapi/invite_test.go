package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

func TestInviteByEmail(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		existing, _ := s.Member(t, org, folio.RoleEdit)
		path := "/v1/orgs/" + org + "/invites"
		var res struct {
			Users   []string
			Invited int
		}
		s.Do(t, admin, "POST", path, map[string]any{
			"emails": []any{"New.Person@Example.com", map[string]any{"email": "guest@example.com", "role": nil}, existing.Email},
			"role":   "comment",
		}).WantStatus(t, 200).JSON(t, &res)
		if res.Invited != 2 || len(res.Users) != 2 {
			t.Fatalf("invite result %+v", res)
		}
		var m struct {
			Role *string
			User struct{ Email string }
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+res.Users[0], nil).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "comment" || m.User.Email != "new.person@example.com" {
			t.Fatalf("first invitee %+v", m)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+res.Users[1], nil).JSON(t, &m)
		if m.Role != nil {
			t.Fatalf("guest invitee has role %v", *m.Role)
		}
		var l struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members", nil).JSON(t, &l)
		// One bad address rejects the whole request.
		s.Do(t, admin, "POST", path, `{"emails":["ok@example.com","not an email"]}`).WantError(t, 400, "not a valid email")
		var after struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members", nil).JSON(t, &after)
		if after.Count != l.Count {
			t.Fatalf("a rejected invitation added members: %d -> %d", l.Count, after.Count)
		}
		s.Do(t, admin, "POST", path, `{"emails":[]}`).WantError(t, 400, "emails must list")
		s.Do(t, admin, "POST", path, `{"emails":[5]}`).WantError(t, 400, "emails items")
		s.Do(t, admin, "POST", path, `{"emails":["a@example.com"],"role":"owner"}`).WantError(t, 400, "role")
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "POST", path, `{"emails":["x@example.com"]}`).WantError(t, 403, "admins")
	})
}

func TestInviteLinks(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		links := "/v1/orgs/" + org + "/link-invites"
		var inv struct {
			Object    string
			ID        string
			Role      *string
			Redundant bool
		}
		r := s.Do(t, admin, "POST", links, `{"role":"edit"}`).WantStatus(t, 201)
		r.JSON(t, &inv)
		if inv.Object != "invite" || inv.Role == nil || *inv.Role != "edit" || !inv.Redundant {
			t.Fatalf("created %+v", inv)
		}
		var l struct{ Count int }
		s.Do(t, admin, "GET", links, nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("count %d", l.Count)
		}
		s.Do(t, admin, "GET", links+"/"+inv.ID, nil).WantStatus(t, 200)
		s.Do(t, admin, "PATCH", links+"/"+inv.ID, `{"role":"review"}`).WantStatus(t, 200).JSON(t, &inv)
		if *inv.Role != "review" {
			t.Fatalf("patched role %v", *inv.Role)
		}

		// Joining through the link makes a member with its role.
		u, tok := s.User(t)
		s.Do(t, tok, "POST", "/v1/orgs/"+org+"/invites/"+inv.ID, nil).WantStatus(t, 200)
		var m struct{ Role *string }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+u.ID, nil).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "review" {
			t.Fatalf("joined with %v", m.Role)
		}
		// A member with a higher role keeps it.
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/members/"+u.ID, `{"role":"create"}`).WantStatus(t, 200)
		s.Do(t, tok, "POST", "/v1/orgs/"+org+"/invites/"+inv.ID, nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+u.ID, nil).JSON(t, &m)
		if *m.Role != "create" {
			t.Fatalf("role lowered to %v", *m.Role)
		}
		_, other := s.User(t)
		s.Do(t, other, "POST", "/v1/orgs/"+org+"/invites/nope", nil).WantError(t, 404, "invite not found")

		// With invite links disabled, no link can be made or used.
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"inviteLinks":false}`).WantStatus(t, 200)
		s.Do(t, admin, "POST", links, `{"role":"read"}`).WantError(t, 400, "invite links are disabled")
		s.Do(t, other, "POST", "/v1/orgs/"+org+"/invites/"+inv.ID, nil).WantError(t, 400, "invite links are disabled")
		s.Do(t, other, "GET", "/v1/orgs/"+org, nil).WantError(t, 404, "organization not found")
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"inviteLinks":true}`).WantStatus(t, 200)

		// Validation and deletion.
		s.Do(t, admin, "POST", links, `{"role":"owner"}`).WantError(t, 400, "role")
		s.Do(t, admin, "POST", links, `{}`).WantError(t, 400, "role is required")
		s.Do(t, admin, "POST", links, `{"space":"s1","level":"read"}`).WantError(t, 400, "not supported yet")
		s.Do(t, admin, "POST", links, `{"role":null}`).WantStatus(t, 201)
		s.Do(t, admin, "DELETE", links+"/"+inv.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", links+"/"+inv.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", links+"/"+inv.ID, nil).WantError(t, 404, "invite not found")
		s.Do(t, tok, "GET", links, nil).WantError(t, 403, "admins")
	})
}

func TestAgentInstructions(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, reader := s.Member(t, org, folio.RoleRead)
		_, guest := s.Member(t, org, folio.RoleGuest)
		path := "/v1/orgs/" + org + "/agent-instructions"
		// None set yet: an empty document, as the reference allows only 200.
		empty := s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Map(t)
		if empty["object"] != "agent-instructions" || empty["updatedBy"] != "" ||
			len(empty["instructions"].(map[string]any)["nodes"].([]any)) != 0 {
			t.Fatalf("instructions before any were set: %v", empty)
		}
		s.Do(t, guest, "GET", path, nil).WantError(t, 403, "guests")
		doc := `{"instructions":{"object":"document","data":{"schemaVersion":1},"nodes":[
			{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be concise.","marks":[]}]}]}]}}`
		got := s.Do(t, admin, "PUT", path, doc).WantStatus(t, 200).Map(t)
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &me)
		if got["object"] != "agent-instructions" || got["updatedBy"] != me.ID ||
			got["urls"].(map[string]any)["location"] != apitest.PublicURL+path {
			t.Fatalf("put answered %v", got)
		}
		read := s.Do(t, reader, "GET", path, nil).WantStatus(t, 200).Map(t)
		nodes := read["instructions"].(map[string]any)["nodes"].([]any)
		if len(nodes) != 1 {
			t.Fatalf("instructions nodes %v", nodes)
		}
		s.Do(t, guest, "GET", path, nil).WantError(t, 403, "guests")
		s.Do(t, reader, "PUT", path, doc).WantError(t, 403, "admins")
		for _, c := range []struct{ body, msg string }{
			{`{}`, "instructions is required"},
			{`{"instructions":{"object":"page","nodes":[]}}`, "instructions"},
			{`{"instructions":{"object":"document","nodes":[]}}`, "data is required"},
			{`{"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}]}}`, "cannot contain a block"},
			{`{"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"marquee","nodes":[]}]}}`, "marquee"},
		} {
			s.Do(t, admin, "PUT", path, c.body).WantError(t, 400, c.msg)
		}
	})
}

func TestInviteSAMLAndInstructionsAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		org := func(p string) func(a *apitest.Actors) string {
			return func(a *apitest.Actors) string { return "/v1/orgs/" + a.Org + p }
		}
		adminOnly := map[string]int{apitest.Admin: 200, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403}
		with := apitest.Want
		// Every request carries something new, so a refused one that got
		// through would show in the state.
		n := 0
		emails := func(*apitest.Actors) any {
			n++
			return map[string]any{"emails": []string{fmt.Sprintf("invited%d@example.com", n)}}
		}
		doc := func(*apitest.Actors) any {
			n++
			return fmt.Sprintf(`{"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[`+
				`{"object":"text","leaves":[{"object":"leaf","text":"Rule %d","marks":[]}]}]}]}}`, n)
		}
		idp := ssotest.New(t)
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "listOrganizationInviteLinks", Method: "GET", Path: org("/link-invites"), Want: adminOnly},
			{Name: "createOrganizationInvite", Method: "POST", Path: org("/link-invites"), Body: `{"role":"read"}`, Want: with(adminOnly, apitest.Admin, 201),
				State: apitest.Paths(org("/link-invites"))},
			{Name: "deleteOrganizationInviteById", Method: "DELETE", Path: func(a *apitest.Actors) string { return freshLinkInvite(t, s, a) },
				Want: with(adminOnly, apitest.Admin, 204), State: apitest.Self},
			{Name: "inviteUsersToOrganization", Method: "POST", Path: org("/invites"), Body: emails, Want: adminOnly,
				State: apitest.Paths(org("/members"))},
			{Name: "listSAMLProvidersInOrganizationById", Method: "GET", Path: org("/saml"), Want: adminOnly},
			{Name: "deleteOrganizationSAMLProvider", Method: "DELETE", Path: func(a *apitest.Actors) string { return freshSAMLProvider(t, s, a, idp) },
				Want: with(adminOnly, apitest.Admin, 204), State: apitest.Self},
			{Name: "listSSOProviderLoginsInOrganization", Method: "GET", Path: org("/sso"), Want: map[string]int{apitest.AnyActor: 200}},
			{Name: "updateOrganizationAgentInstructions", Method: "PUT", Path: org("/agent-instructions"), Body: doc, Want: adminOnly,
				State: apitest.Self},
			{Name: "getOrganizationAgentInstructions", Method: "GET", Path: org("/agent-instructions"),
				Want: map[string]int{apitest.Guest: 403, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 200}},
		})
	})
}
