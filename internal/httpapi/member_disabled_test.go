package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// Admins disable and re-enable a member through the member PATCH: a
// disabled member's tokens stop working in the organization at once, the
// member reports it, and the last enabled admin cannot be disabled.
func TestDisableMember(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		user, token := s.Member(t, org, folio.RoleEdit)
		space := newSpace(t, s, admin, org, "Docs")
		o := "/v1/orgs/" + org
		member := o + "/members/" + user.ID
		disabledOf := func() bool {
			var m struct{ Disabled bool }
			s.Do(t, admin, "GET", member, nil).WantStatus(t, 200).JSON(t, &m)
			return m.Disabled
		}
		// Works before.
		s.Do(t, token, "GET", o, nil).WantStatus(t, 200)
		s.Do(t, token, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)

		// Only admins disable; a bad value changes nothing.
		s.Do(t, token, "PATCH", member, map[string]any{"disabled": true}).WantError(t, 403, "only organization admins can change members")
		s.Do(t, admin, "PATCH", member, `{"disabled":null}`).WantError(t, 400, "disabled must be a boolean")
		s.Do(t, admin, "PATCH", member, `{"disabled":"yes"}`).WantStatus(t, 400)
		s.Do(t, admin, "PATCH", member, `{}`).WantError(t, 400, "role is required (null makes the member a guest)")
		if disabledOf() {
			t.Fatal("a refused request disabled the member")
		}

		var m struct {
			Disabled bool
			Role     string
		}
		s.Do(t, admin, "PATCH", member, map[string]any{"disabled": true}).WantStatus(t, 200).JSON(t, &m)
		if !m.Disabled || m.Role != "edit" {
			t.Fatalf("disabled member %+v", m)
		}
		if !disabledOf() {
			t.Fatal("the member does not report being disabled")
		}
		const msg = "your membership of this organization is disabled: an admin of the organization can enable it again"
		s.Do(t, token, "GET", o, nil).WantError(t, 403, msg)
		s.Do(t, token, "GET", "/v1/spaces/"+space, nil).WantError(t, 403, msg)
		s.Do(t, token, "PATCH", "/v1/spaces/"+space, map[string]any{"title": "Mine"}).WantError(t, 403, msg)
		var orgs struct{ Items []struct{ ID string } }
		s.Do(t, token, "GET", "/v1/orgs", nil).WantStatus(t, 200).JSON(t, &orgs)
		if len(orgs.Items) != 0 {
			t.Fatalf("a disabled member lists %+v", orgs.Items)
		}
		var sp struct{ Title string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &sp)
		if sp.Title != "Docs" {
			t.Fatalf("a disabled member renamed the space: %q", sp.Title)
		}

		// Re-enabled, and the role changes in the same request.
		s.Do(t, admin, "PATCH", member, map[string]any{"disabled": false, "role": "read"}).WantStatus(t, 200).JSON(t, &m)
		if m.Disabled || m.Role != "read" {
			t.Fatalf("re-enabled member %+v", m)
		}
		s.Do(t, token, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)

		// The last enabled admin cannot be disabled; a disabled admin does
		// not count as one.
		adminID := whoami(t, s, admin)
		s.Do(t, admin, "PATCH", o+"/members/"+adminID, map[string]any{"disabled": true}).WantError(t, 409,
			"the last admin of an organization cannot be demoted, disabled or removed; make another member admin first")
		second, secondToken := s.Member(t, org, folio.RoleAdmin)
		s.Do(t, admin, "PATCH", o+"/members/"+second.ID, map[string]any{"disabled": true}).WantStatus(t, 200)
		s.Do(t, secondToken, "GET", o, nil).WantError(t, 403, msg)
		s.Do(t, admin, "PATCH", o+"/members/"+adminID, map[string]any{"role": "edit"}).WantError(t, 409,
			"the last admin of an organization cannot be demoted, disabled or removed; make another member admin first")
		s.Do(t, admin, "PATCH", o+"/members/"+adminID, map[string]any{"disabled": true}).WantStatus(t, 409)
		s.Do(t, admin, "GET", o, nil).WantStatus(t, 200)

		var entries []string
		for _, e := range auditLog(t, s, admin, org, "?target="+user.ID) {
			entries = append(entries, e.Action)
		}
		if got := len(entries); got < 3 || entries[0] != "member.role_updated" && entries[0] != "member.enabled" {
			t.Fatalf("audit entries %v", entries)
		}
	})
}
