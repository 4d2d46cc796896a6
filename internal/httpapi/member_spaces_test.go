package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

// memberSpaceList is a page of GET .../members/{userId}/spaces.
type memberSpaceList struct {
	Next  *struct{ Page string }
	Count int
	Items []struct {
		Permission string
		Space      struct {
			ID          string
			Permissions struct{ View, Admin, Edit bool }
		}
	}
}

// contentFixture creates spaces and collections in an organization, each
// created one second after the previous, so that lists sorted by creation
// have one order on both stores.
type contentFixture struct {
	t     *testing.T
	s     *apitest.Server
	org   string
	admin string
}

func (f *contentFixture) create(kind, title, parent string) string {
	f.t.Helper()
	f.s.Clock.Advance(1e9)
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	var v struct{ ID string }
	f.s.Do(f.t, f.admin, "POST", "/v1/orgs/"+f.org+"/"+kind, body).WantStatus(f.t, 201).JSON(f.t, &v)
	return v.ID
}

func (f *contentFixture) space(title, parent string) string { return f.create("spaces", title, parent) }

func (f *contentFixture) collection(title, parent string) string {
	return f.create("collections", title, parent)
}

// grant gives a role on a space or collection ("spaces/ID" or
// "collections/ID") to users or teams ("users" or "teams").
func (f *contentFixture) grant(target, kind string, role folio.Role, ids ...string) {
	f.t.Helper()
	f.s.Do(f.t, f.admin, "POST", "/v1/"+target+"/permissions", map[string]any{"role": role, kind: ids}).WantStatus(f.t, 204)
}

// memberSpaces reads every page of a member's spaces (query holds the
// parameters other than page) and returns the permissions by space id in
// the order listed, checking that every page reports the same count.
func memberSpaces(t *testing.T, s *apitest.Server, token, org, userID, query string) ([]string, map[string]string) {
	t.Helper()
	base := "/v1/orgs/" + org + "/members/" + userID + "/spaces?" + query
	var (
		ids   []string
		perms = map[string]string{}
		count = -1
	)
	path := base
	for i := 0; i < 50; i++ {
		var l memberSpaceList
		s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
		if count >= 0 && l.Count != count {
			t.Fatalf("page %d counts %d, the first %d", i, l.Count, count)
		}
		count = l.Count
		for _, it := range l.Items {
			ids = append(ids, it.Space.ID)
			perms[it.Space.ID] = it.Permission
		}
		if l.Next == nil {
			break
		}
		path = base + "&page=" + l.Next.Page
	}
	if count != len(ids) {
		t.Fatalf("count %d, %d items listed", count, len(ids))
	}
	return ids, perms
}

func reversed(in []string) []string {
	out := make([]string, len(in))
	for i, v := range in {
		out[len(in)-1-i] = v
	}
	return out
}

func TestListMemberSpaces(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		f := &contentFixture{t: t, s: s, org: org, admin: admin}
		guest, guestTok := s.Member(t, org, folio.RoleGuest)
		lonely, _ := s.Member(t, org, folio.RoleGuest)
		reader, readerTok := s.Member(t, org, folio.RoleRead)
		var team struct{ ID string }
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Guests", "members": []string{guest.ID}}).
			WantStatus(t, 201).JSON(t, &team)

		outer := f.collection("Outer", "")
		inner := f.collection("Inner", outer)
		levelled := f.collection("Levelled", "")
		s.Do(t, admin, "PATCH", "/v1/collections/"+levelled, `{"defaultLevel":"edit"}`).WantStatus(t, 200)

		direct := f.space("Direct", "")             // guest: read to them and edit to their team
		nested := f.space("Nested", inner)          // guest: comment to their team two collections up
		hidden := f.space("Hidden", "")             // guest: nothing
		underLevel := f.space("Levelled", levelled) // guest: read on the collection; members: its edit default
		deleted := f.space("Deleted", "")           // guest: admin, but deleted
		owned := f.space("Owned", "")               // reader: admin

		f.grant("spaces/"+direct, "users", folio.RoleRead, guest.ID)
		f.grant("spaces/"+direct, "teams", folio.RoleEdit, team.ID)
		f.grant("collections/"+outer, "teams", folio.RoleComment, team.ID)
		f.grant("collections/"+levelled, "users", folio.RoleRead, guest.ID)
		f.grant("spaces/"+deleted, "users", folio.RoleAdmin, guest.ID)
		f.grant("spaces/"+owned, "users", folio.RoleAdmin, reader.ID)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+deleted, nil).WantStatus(t, 204)

		// The guest sees the granted spaces only, with the highest of what
		// they hold, and no default level (guests get none). Newest first
		// by default, over pages of two.
		ids, perms := memberSpaces(t, s, admin, org, guest.ID, "limit=2")
		if d := cmp.Diff([]string{underLevel, nested, direct}, ids); d != "" {
			t.Fatalf("guest's spaces (-want +got):\n%s", d)
		}
		want := map[string]string{direct: "edit", nested: "comment", underLevel: "read"}
		if d := cmp.Diff(want, perms); d != "" {
			t.Fatalf("guest's permissions (-want +got):\n%s", d)
		}
		// The guest may list their own spaces, and gets the same.
		if ids, perms := memberSpaces(t, s, guestTok, org, guest.ID, "limit=1&order=asc"); !cmp.Equal(ids, []string{direct, nested, underLevel}) ||
			!cmp.Equal(perms, want) {
			t.Fatalf("guest's own spaces, oldest first: %v %v", ids, perms)
		}
		// A guest with no grant has none.
		if ids, _ := memberSpaces(t, s, admin, org, lonely.ID, ""); len(ids) != 0 {
			t.Fatalf("guest without grants lists %v", ids)
		}

		// A member with a role sees every space that is not deleted: their
		// role, raised by grants and default levels.
		all := []string{direct, nested, hidden, underLevel, owned}
		ids, perms = memberSpaces(t, s, admin, org, reader.ID, "limit=2&order=asc")
		if d := cmp.Diff(all, ids); d != "" {
			t.Fatalf("reader's spaces, oldest first (-want +got):\n%s", d)
		}
		want = map[string]string{direct: "read", nested: "read", hidden: "read", underLevel: "edit", owned: "admin"}
		if d := cmp.Diff(want, perms); d != "" {
			t.Fatalf("reader's permissions (-want +got):\n%s", d)
		}
		if ids, _ := memberSpaces(t, s, admin, org, reader.ID, "limit=3&order=desc"); !cmp.Equal(reversed(all), ids) {
			t.Fatalf("reader's spaces, newest first: %v", ids)
		}

		// Space objects carry the caller's permissions, the permission
		// field the member's.
		var l memberSpaceList
		s.Do(t, readerTok, "GET", "/v1/orgs/"+org+"/members/"+guest.ID+"/spaces?order=asc", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 3 || l.Items[0].Permission != "edit" || l.Items[0].Space.Permissions.Edit || !l.Items[0].Space.Permissions.View {
			t.Fatalf("guest's spaces as the reader sees them: %+v", l.Items)
		}
		s.Do(t, guestTok, "GET", "/v1/orgs/"+org+"/members/"+guest.ID+"/spaces?order=asc", nil).WantStatus(t, 200).JSON(t, &l)
		if !l.Items[0].Space.Permissions.Edit {
			t.Fatalf("guest's own spaces: %+v", l.Items[0])
		}

		// Members of another organization, strangers and their callers get 404.
		other, otherAdmin := s.Org(t)
		outsider, _ := s.Member(t, other, folio.RoleAdmin)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+outsider.ID+"/spaces", nil).WantError(t, 404, "member not found")
		s.Do(t, otherAdmin, "GET", "/v1/orgs/"+org+"/members/"+reader.ID+"/spaces", nil).WantError(t, 404, "organization not found")
		s.Do(t, admin, "GET", "/v1/orgs/"+other+"/members/"+reader.ID+"/spaces", nil).WantError(t, 404, "organization not found")
		// A guest may not list someone else's spaces.
		s.Do(t, guestTok, "GET", "/v1/orgs/"+org+"/members/"+reader.ID+"/spaces", nil).WantError(t, 403, "not guests")

		base := "/v1/orgs/" + org + "/members/" + reader.ID + "/spaces"
		for _, c := range []struct{ q, msg string }{
			{"order=up", "order must be"},
			{"limit=0", "limit"},
			{"page=nope", "page"},
		} {
			s.Do(t, admin, "GET", base+"?"+c.q, nil).WantError(t, 400, c.msg)
		}
	})
}

// memberSpacesCount reads the spaces count of a member from GET member,
// from the members list, from the team members list when team is set, and
// checks that they agree with the count of the member's spaces list.
func memberSpacesCount(t *testing.T, s *apitest.Server, admin, org, userID, team string) int {
	t.Helper()
	var m struct{ Spaces int }
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+userID, nil).WantStatus(t, 200).JSON(t, &m)
	var l struct {
		Items []struct {
			ID     string
			Spaces int
		}
	}
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members?limit=1000", nil).WantStatus(t, 200).JSON(t, &l)
	inList := -1
	for _, it := range l.Items {
		if it.ID == userID {
			inList = it.Spaces
		}
	}
	if inList != m.Spaces {
		t.Fatalf("member %s: spaces %d in GET member, %d in the list", userID, m.Spaces, inList)
	}
	if team != "" {
		var tl struct {
			Items []struct {
				Organization struct {
					ID     string
					Spaces int
				}
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams/"+team+"/members", nil).WantStatus(t, 200).JSON(t, &tl)
		for _, it := range tl.Items {
			if it.Organization.ID == userID && it.Organization.Spaces != m.Spaces {
				t.Fatalf("member %s: spaces %d in GET member, %d in the team's members", userID, m.Spaces, it.Organization.Spaces)
			}
		}
	}
	var sl memberSpaceList
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+userID+"/spaces?limit=1", nil).WantStatus(t, 200).JSON(t, &sl)
	if sl.Count != m.Spaces {
		t.Fatalf("member %s: spaces %d, but their spaces list counts %d", userID, m.Spaces, sl.Count)
	}
	return m.Spaces
}

// teamSpacesCount reads the spaces count of a team from GET team, the
// teams list and a member's teams, and checks that they agree.
func teamSpacesCount(t *testing.T, s *apitest.Server, admin, org, team, memberID string) int {
	t.Helper()
	var tm teamBody
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams/"+team, nil).WantStatus(t, 200).JSON(t, &tm)
	var l struct{ Items []teamBody }
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/teams", nil).WantStatus(t, 200).JSON(t, &l)
	var ml struct {
		Items []struct{ Team teamBody }
	}
	s.Do(t, admin, "GET", "/v1/orgs/"+org+"/members/"+memberID+"/teams", nil).WantStatus(t, 200).JSON(t, &ml)
	found := 0
	for _, it := range l.Items {
		if it.ID == team && it.Spaces == tm.Spaces {
			found++
		}
	}
	for _, it := range ml.Items {
		if it.Team.ID == team && it.Team.Spaces == tm.Spaces {
			found++
		}
	}
	if found != 2 {
		t.Fatalf("team %s: spaces %d in GET team, not the same in the lists %+v and %+v", team, tm.Spaces, l.Items, ml.Items)
	}
	return tm.Spaces
}

func TestMemberAndTeamSpaceCounts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		f := &contentFixture{t: t, s: s, org: org, admin: admin}
		guest, _ := s.Member(t, org, folio.RoleGuest)
		other, _ := s.Member(t, org, folio.RoleGuest)
		writer, _ := s.Member(t, org, folio.RoleEdit)
		var team, idle struct{ ID string }
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Team", "members": []string{guest.ID, writer.ID}}).
			WantStatus(t, 201).JSON(t, &team)
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Idle", "members": []string{other.ID}}).
			WantStatus(t, 201).JSON(t, &idle)

		check := func(step string, guestN, otherN, writerN, teamN int) {
			t.Helper()
			got := []int{
				memberSpacesCount(t, s, admin, org, guest.ID, team.ID),
				memberSpacesCount(t, s, admin, org, other.ID, idle.ID),
				memberSpacesCount(t, s, admin, org, writer.ID, team.ID),
				teamSpacesCount(t, s, admin, org, team.ID, writer.ID),
				teamSpacesCount(t, s, admin, org, idle.ID, other.ID),
			}
			if d := cmp.Diff([]int{guestN, otherN, writerN, teamN, 0}, got); d != "" {
				t.Fatalf("%s: counts guest, other guest, writer, team, idle team (-want +got):\n%s", step, d)
			}
		}
		check("no spaces", 0, 0, 0, 0)

		col := f.collection("Docs", "")
		sub := f.collection("Sub", col)
		a := f.space("A", sub)
		b := f.space("B", col)
		c := f.space("C", "")
		check("spaces, no grants", 0, 0, 3, 0)

		// A team grant on the top collection reaches both spaces below it;
		// a grant on a space the team already reaches counts it once.
		f.grant("collections/"+col, "teams", folio.RoleRead, team.ID)
		f.grant("spaces/"+a, "teams", folio.RoleEdit, team.ID)
		check("team grants", 2, 0, 3, 2)
		// A direct grant adds a space to the guest, not to the team.
		f.grant("spaces/"+c, "users", folio.RoleComment, guest.ID)
		f.grant("collections/"+sub, "users", folio.RoleRead, other.ID)
		check("user grants", 3, 1, 3, 2)

		// Removing grants, deleting spaces and leaving the team lower them.
		s.Do(t, admin, "DELETE", "/v1/collections/"+col+"/permissions/teams/"+team.ID, nil).WantStatus(t, 204)
		check("collection grant removed", 2, 1, 3, 1)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+a, nil).WantStatus(t, 204)
		check("space deleted", 1, 0, 2, 0)
		f.grant("spaces/"+b, "teams", folio.RoleRead, team.ID)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/teams/"+team.ID+"/members/"+guest.ID, nil).WantStatus(t, 204)
		check("guest left the team", 1, 0, 2, 1)
	})
}
