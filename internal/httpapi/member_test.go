package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type memberList struct {
	Next  *struct{ Page string }
	Count int
	Items []struct {
		ID         string
		Role       *string
		SSO        bool
		LastSeenAt *string
		Teams      int
		User       struct{ Email, DisplayName string }
	}
}

func (l memberList) ids() []string {
	var out []string
	for _, m := range l.Items {
		out = append(out, m.ID)
	}
	return out
}

func TestMemberBodyAndGet(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := s.Member(t, org, folio.RoleEdit)
		// Two spaces and one deleted: spaces counts what the member can view.
		for _, title := range []string{"One", "Two", "Gone"} {
			var sp struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title}).WantStatus(t, 201).JSON(t, &sp)
			if title == "Gone" {
				s.Do(t, admin, "DELETE", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 204)
			}
		}
		got := s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+u.ID, nil).WantStatus(t, 200).Map(t)
		if _, ok := got["joinedAt"].(string); !ok {
			t.Fatalf("joinedAt = %v", got["joinedAt"])
		}
		got["joinedAt"] = "TIME"
		want := map[string]any{
			"object": "member", "id": u.ID, "role": "edit", "disabled": false, "joinedAt": "TIME", "sso": false,
			"spaces": 2.0, "teams": 0.0,
			"user": map[string]any{"object": "user", "id": u.ID, "displayName": u.DisplayName, "email": u.Email,
				"urls": map[string]any{"location": apitest.PublicURL + "/v1/users/" + u.ID}},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("member (-want +got):\n%s", d)
		}
		stranger, _ := s.User(t)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+stranger.ID, nil).WantError(t, 404, "member not found")
	})
}

func TestListMembersFiltersAndSorts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		base := "/v1/orgs/" + org + "/members"
		var adminID string
		{
			var u struct{ ID string }
			s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &u)
			adminID = u.ID
		}
		var ids []string // in joining order
		ids = append(ids, adminID)
		roles := []folio.Role{folio.RoleRead, folio.RoleEdit, folio.RoleGuest, folio.RoleRead}
		tokens := map[string]string{}
		for _, r := range roles {
			s.Clock.Advance(1e9) // distinct joinedAt
			u, tok := s.Member(t, org, r)
			ids = append(ids, u.ID)
			tokens[u.ID] = tok
		}
		s.Clock.Set(s.Clock.Now())
		var l memberList
		s.Do(t, admin, "GET", base, nil).WantStatus(t, 200).JSON(t, &l)
		want := []string{ids[4], ids[3], ids[2], ids[1], ids[0]} // newest first by default
		if d := cmp.Diff(want, l.ids()); d != "" || l.Count != 5 {
			t.Fatalf("default order (-want +got):\n%s (count %d)", d, l.Count)
		}
		s.Do(t, admin, "GET", base+"?order=asc", nil).JSON(t, &l)
		if d := cmp.Diff(ids, l.ids()); d != "" {
			t.Fatalf("asc (-want +got):\n%s", d)
		}
		s.Do(t, admin, "GET", base+"?role=read&order=asc", nil).JSON(t, &l)
		if d := cmp.Diff([]string{ids[1], ids[4]}, l.ids()); d != "" || l.Count != 2 {
			t.Fatalf("role=read (-want +got):\n%s", d)
		}
		s.Do(t, admin, "GET", base+"?role=guest", nil).JSON(t, &l)
		if d := cmp.Diff([]string{ids[3]}, l.ids()); d != "" || l.Items[0].Role != nil {
			t.Fatalf("role=guest (-want +got):\n%s", d)
		}
		// Search is case-insensitive over display name and email.
		// The local part with its "@": fixture emails share prefixes
		// (member12@ and member120@).
		email := l.Items[0].User.Email
		s.Do(t, admin, "GET", base+"?search="+url.QueryEscape(strings.ToUpper(email[:strings.Index(email, "@")+1])), nil).JSON(t, &l)
		if d := cmp.Diff([]string{ids[3]}, l.ids()); d != "" {
			t.Fatalf("search by email (-want +got):\n%s", d)
		}
		s.Do(t, admin, "GET", base+"?search=MEMBER", nil).JSON(t, &l)
		if l.Count != 4 {
			t.Fatalf("search by name: count %d, want 4", l.Count)
		}
		s.Do(t, admin, "GET", base+"?search=%25", nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("search for a literal %%: count %d, want 0", l.Count)
		}
		// Sorting by lastSeenAt lists only members who have been seen.
		s.Clock.Advance(1e9)
		s.Do(t, tokens[ids[2]], "POST", "/v1/orgs/"+org+"/ping", nil).WantStatus(t, 200)
		s.Clock.Advance(1e9)
		s.Do(t, tokens[ids[1]], "POST", "/v1/orgs/"+org+"/ping", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", base+"?sort=lastSeenAt", nil).JSON(t, &l)
		if d := cmp.Diff([]string{ids[1], ids[2]}, l.ids()); d != "" || l.Count != 2 || l.Items[0].LastSeenAt == nil {
			t.Fatalf("sort=lastSeenAt (-want +got):\n%s", d)
		}
		// Pages follow the same order.
		var got []string
		path := base + "?limit=2&order=asc"
		for i := 0; i < 10; i++ {
			l = memberList{} // Unmarshal leaves absent fields as they were
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
			got = append(got, l.ids()...)
			if l.Next == nil {
				break
			}
			path = base + "?limit=2&order=asc&page=" + l.Next.Page
		}
		if d := cmp.Diff(ids, got); d != "" {
			t.Fatalf("paged (-want +got):\n%s", d)
		}
		for _, c := range []struct{ q, msg string }{
			{"role=owner", "role must be one of"},
			{"sort=name", "sort must be"},
			{"order=up", "order must be"},
			{"limit=0", "limit"},
		} {
			s.Do(t, admin, "GET", base+"?"+c.q, nil).WantError(t, 400, c.msg)
		}
	})
}

// TestMemberAuthorization covers the member endpoints: every member but
// guests may read, only admins may change, callers outside the
// organization get 404, and a refused write leaves the members as they
// were.
func TestMemberAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		org := "/v1/orgs/" + a.Org
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		// A fresh member per actor, for the writes that let the admin
		// through: the request of the actors after would find it changed.
		freshMember := func(*apitest.Actors) string {
			u, _ := s.Member(t, a.Org, folio.RoleRead)
			return org + "/members/" + u.ID
		}
		target, _ := s.Member(t, a.Org, folio.RoleRead)
		member := org + "/members/" + target.ID
		readMember := fixed(org + "/members/" + a.Users[apitest.Read].ID)
		hidden := apitest.NotMembers
		with := apitest.Want
		adminOnly := func(status int) map[string]int { return with(hidden, apitest.Admin, status, apitest.AnyActor, 403) }
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "listMembersInOrganizationById", Method: "GET", Path: fixed(org + "/members"),
				Want: with(hidden, apitest.Guest, 403, apitest.AnyActor, 200)},
			{Name: "getMemberInOrganizationById", Method: "GET", Path: readMember,
				Want: with(hidden, apitest.Guest, 403, apitest.AnyActor, 200)},
			{Name: "listSpacesForOrganizationMember", Method: "GET", Path: fixed(member + "/spaces"),
				Want: with(hidden, apitest.Guest, 403, apitest.AnyActor, 200)},
			{Name: "listTeamsForOrganizationMember", Method: "GET", Path: fixed(member + "/teams"),
				Want: with(hidden, apitest.Guest, 403, apitest.AnyActor, 200)},
			// Before each actor the target is back to read, so that the
			// request would change their role.
			{Name: "updateMemberInOrganizationById", Method: "PATCH", Path: fixed(member), Body: `{"role":"edit"}`,
				Want: adminOnly(200), State: apitest.Self,
				Reset: func(*apitest.Actors) { s.Do(t, admin, "PATCH", member, `{"role":"read"}`).WantStatus(t, 200) }},
			{Name: "setUserAsSSOMemberForOrganization", Method: "POST", Path: func(a *apitest.Actors) string { return freshMember(a) + "/sso" },
				Want: adminOnly(200), State: apitest.Trim("/sso")},
			// Every member may ping; the others must not show up as seen.
			{Name: "updateOrganizationMemberLastSeenAt", Method: "POST", Path: fixed(org + "/ping"),
				Want: with(hidden, apitest.AnyActor, 200), State: apitest.Paths(fixed(org + "/members?sort=lastSeenAt"))},
			{Name: "removeMemberFromOrganizationById", Method: "DELETE", Path: freshMember,
				Want: adminOnly(204), State: apitest.Self},
			// The other organization's admin removes "their" member: 204, as
			// for anyone absent, and the member stays here.
			{Name: "removeMemberFromOrganizationById through another organization", Method: "DELETE",
				Path: fixed("/v1/orgs/" + a.OtherOrg + "/members/" + target.ID),
				Want: map[string]int{apitest.OtherOrg: 204, apitest.AnyActor: 404}, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(member))},
		})
	})
}

func TestMemberRoleAndRemoval(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &me)
		u, tok := s.Member(t, org, folio.RoleRead)
		path := "/v1/orgs/" + org + "/members/"

		var m struct{ Role *string }
		s.Do(t, admin, "PATCH", path+u.ID, `{"role":"edit"}`).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "edit" {
			t.Fatalf("role = %v", m.Role)
		}
		s.Do(t, admin, "PATCH", path+u.ID, `{"role":null}`).WantStatus(t, 200).JSON(t, &m)
		if m.Role != nil {
			t.Fatalf("null role = %v, want guest", *m.Role)
		}
		s.Do(t, admin, "PATCH", path+u.ID, `{"role":"owner"}`).WantError(t, 400, "role must be one of")
		s.Do(t, admin, "PATCH", path+u.ID, `{}`).WantError(t, 400, "role is required")
		s.Do(t, admin, "PATCH", path+"nobody", `{"role":"read"}`).WantError(t, 404, "member not found")

		// The last admin can be neither demoted nor removed.
		s.Do(t, admin, "PATCH", path+me.ID, `{"role":"read"}`).WantError(t, 409, "last admin")
		s.Do(t, admin, "DELETE", path+me.ID, nil).WantError(t, 409, "last admin")
		// With a second admin, the first may step down.
		s.Do(t, admin, "PATCH", path+u.ID, `{"role":"admin"}`).WantStatus(t, 200)
		s.Do(t, admin, "PATCH", path+me.ID, `{"role":"create"}`).WantStatus(t, 200)
		s.Do(t, tok, "DELETE", path+me.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantError(t, 404, "organization not found")
		s.Do(t, tok, "DELETE", path+me.ID, nil).WantStatus(t, 204) // already gone

		// A member may leave; the organization disappears for them.
		v, vtok := s.Member(t, org, folio.RoleComment)
		s.Do(t, vtok, "DELETE", path+v.ID, nil).WantStatus(t, 204)
		s.Do(t, vtok, "GET", "/v1/orgs/"+org, nil).WantError(t, 404, "organization not found")
	})
}

func TestSSOMembersAndEnforcement(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := s.Member(t, org, folio.RoleRead)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"sso":true}`).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/orgs/"+org, nil).WantError(t, 403, "single sign-on")
		s.Do(t, tok, "GET", "/v1/orgs/"+org+"/members", nil).WantError(t, 403, "single sign-on")
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members", nil).WantStatus(t, 200) // admins keep access
		var m struct{ SSO bool }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/members/"+u.ID+"/sso", nil).WantStatus(t, 200).JSON(t, &m)
		if !m.SSO {
			t.Fatal("sso not set")
		}
		// An SSO member still needs a token from signing in through the
		// organization's SSO (TestSAMLLoginEndToEnd); a plain token stays out.
		s.Do(t, tok, "GET", "/v1/orgs/"+org, nil).WantError(t, 403, "single sign-on")
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"sso":false}`).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200)
	})
}

func TestPingAndVisitorClaims(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := s.Member(t, org, folio.RoleEdit)
		_, guest := s.Member(t, org, folio.RoleGuest)
		r := s.Do(t, tok, "POST", "/v1/orgs/"+org+"/ping", nil).WantStatus(t, 200).Map(t)
		jwt, _ := r["serviceVisitorClaims"].(string)
		if jwt == "" || r["gitbookVisitorClaims"] != jwt {
			t.Fatalf("ping = %v", r)
		}
		parts := strings.Split(jwt, ".")
		if len(parts) != 3 {
			t.Fatalf("not a JWT: %q", jwt)
		}
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		json.Unmarshal(payload, &c)
		if c["sub"] != u.ID || c["role"] != "edit" || c["email"] != u.Email || c["iss"] != apitest.PublicURL {
			t.Fatalf("claims = %v", c)
		}
		if aud, _ := c["aud"].([]any); len(aud) != 1 || aud[0] != org {
			t.Fatalf("aud = %v", c["aud"])
		}
		// A guest in no team has no claims to attach.
		if r := s.Do(t, guest, "POST", "/v1/orgs/"+org+"/ping", nil).WantStatus(t, 200).Map(t); len(r) != 0 {
			t.Fatalf("guest ping = %v", r)
		}
		var m struct{ LastSeenAt *string }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+u.ID, nil).JSON(t, &m)
		if m.LastSeenAt == nil {
			t.Fatal("lastSeenAt not set by ping")
		}
	})
}

func TestJoinByEmailDomain(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := s.User(t) // userN@example.com, verified
		// A non-member who may not join learns nothing: 404, as for no organization.
		s.Do(t, tok, "POST", "/v1/orgs/"+org+"/join", nil).WantError(t, 404, "organization not found")
		s.Do(t, tok, "GET", "/v1/orgs/"+org, nil).WantError(t, 404, "organization not found")
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, `{"emailDomains":["Example.com"],"defaultRole":"comment"}`).WantStatus(t, 200)
		s.Do(t, tok, "POST", "/v1/orgs/"+org+"/join", nil).WantStatus(t, 204)
		s.Do(t, tok, "POST", "/v1/orgs/"+org+"/join", nil).WantStatus(t, 204) // twice is harmless
		var m struct{ Role *string }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+u.ID, nil).WantStatus(t, 200).JSON(t, &m)
		if m.Role == nil || *m.Role != "comment" {
			t.Fatalf("joined with role %v, want comment", m.Role)
		}
		s.Do(t, tok, "POST", "/v1/orgs/nope/join", nil).WantError(t, 404, "organization not found")
	})
}
