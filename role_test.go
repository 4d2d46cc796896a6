package folio_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/google/go-cmp/cmp"
)

func TestEffectiveRole(t *testing.T) {
	inherit := folio.Level{Inherit: true}
	level := func(r folio.Role) folio.Level { return folio.Level{Role: r} }
	node := func(l folio.Level, grants ...folio.Role) folio.ContentNode {
		return folio.ContentNode{DefaultLevel: l, Grants: grants}
	}
	cases := []struct {
		name    string
		orgRole folio.Role
		path    []folio.ContentNode // space first
		want    folio.Role
	}{
		{"org role alone", folio.RoleEdit, []folio.ContentNode{node(inherit)}, folio.RoleEdit},
		{"guest without grants has nothing", folio.RoleGuest, []folio.ContentNode{node(inherit)}, folio.RoleGuest},
		{"space default level raises members", folio.RoleRead, []folio.ContentNode{node(level(folio.RoleEdit))}, folio.RoleEdit},
		{"default level never lowers", folio.RoleAdmin, []folio.ContentNode{node(level(folio.RoleRead))}, folio.RoleAdmin},
		{"default level does not reach guests", folio.RoleGuest, []folio.ContentNode{node(level(folio.RoleEdit))}, folio.RoleGuest},
		{"null default level gives nothing", folio.RoleComment, []folio.ContentNode{node(level(folio.RoleGuest))}, folio.RoleComment},
		{"space grant to guest", folio.RoleGuest, []folio.ContentNode{node(inherit, folio.RoleComment)}, folio.RoleComment},
		{"team grant on grandparent collection", folio.RoleRead,
			[]folio.ContentNode{node(inherit), node(inherit), node(inherit, folio.RoleReview)}, folio.RoleReview},
		{"level inherited from top collection", folio.RoleRead,
			[]folio.ContentNode{node(inherit), node(inherit), node(level(folio.RoleCreate))}, folio.RoleCreate},
		{"nearest level wins over an ancestor's", folio.RoleRead,
			[]folio.ContentNode{node(inherit), node(level(folio.RoleComment)), node(level(folio.RoleAdmin))}, folio.RoleComment},
		{"nearest null level stops inheritance", folio.RoleRead,
			[]folio.ContentNode{node(level(folio.RoleGuest)), node(level(folio.RoleAdmin))}, folio.RoleRead},
		{"highest of everything", folio.RoleRead,
			[]folio.ContentNode{node(level(folio.RoleComment), folio.RoleEdit), node(inherit, folio.RoleCreate, folio.RoleRead)}, folio.RoleCreate},
		{"five levels deep", folio.RoleGuest,
			[]folio.ContentNode{node(inherit), node(inherit), node(inherit), node(inherit), node(inherit, folio.RoleAdmin)}, folio.RoleAdmin},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := folio.EffectiveRole(c.orgRole, c.path); got != c.want {
				t.Fatalf("EffectiveRole = %q, want %q", got, c.want)
			}
		})
	}
}

func TestSpacePermsTable(t *testing.T) {
	type row struct{ view, access, admin, invites, edit, git, comment, merge, review, integ bool }
	perms := func(r row) folio.SpacePermissions {
		return folio.SpacePermissions{View: r.view, Access: r.access, Admin: r.admin, ViewInviteLinks: r.invites, Edit: r.edit,
			TriggerGitSync: r.git, Comment: r.comment, Merge: r.merge, Review: r.review, InstallIntegration: r.integ}
	}
	live := map[folio.Role]row{
		folio.RoleAdmin:   {true, true, true, true, true, true, true, true, true, true},
		folio.RoleCreate:  {true, true, false, false, true, true, true, true, true, false},
		folio.RoleReview:  {true, true, false, false, true, true, true, true, true, false},
		folio.RoleEdit:    {true, true, false, false, true, true, true, true, false, false},
		folio.RoleComment: {true, true, false, false, false, false, true, false, false, false},
		folio.RoleRead:    {true, true, false, false, false, false, false, false, false, false},
		folio.RoleGuest:   {},
	}
	for role, r := range live {
		if d := cmp.Diff(perms(r), folio.SpacePerms(role, folio.EditModeLive)); d != "" {
			t.Errorf("live %q (-want +got):\n%s", role, d)
		}
		// Locked: edits and merges go through change requests, so edit
		// and merge stay; nobody but admins may trigger a git sync.
		locked := r
		if role != folio.RoleAdmin {
			locked.git = false
		}
		if d := cmp.Diff(perms(locked), folio.SpacePerms(role, folio.EditModeLocked)); d != "" {
			t.Errorf("locked %q (-want +got):\n%s", role, d)
		}
	}
}

func TestCollectionPermsTable(t *testing.T) {
	for role, want := range map[folio.Role]folio.CollectionPermissions{
		folio.RoleAdmin:   {View: true, Admin: true, ViewInviteLinks: true, Create: true},
		folio.RoleCreate:  {View: true, Create: true},
		folio.RoleReview:  {View: true},
		folio.RoleEdit:    {View: true},
		folio.RoleComment: {View: true},
		folio.RoleRead:    {View: true},
		folio.RoleGuest:   {},
	} {
		if got := folio.CollectionPerms(role); got != want {
			t.Errorf("%q: %+v, want %+v", role, got, want)
		}
	}
}
