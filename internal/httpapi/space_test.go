package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type spaceBody struct {
	ID, Title, Emoji, Visibility, EditMode, Parent, Language, Revision, Organization string
	DefaultLevel                                                                     *string
	MergeRules                                                                       struct{ Type string }
	Permissions                                                                      map[string]bool
}

func TestCreateAndGetSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		r := s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Handbook","emoji":"📘","language":"fr"}`).WantStatus(t, 201)
		var sp spaceBody
		r.JSON(t, &sp)
		if r.Header.Get("Location") != apitest.PublicURL+"/v1/spaces/"+sp.ID {
			t.Errorf("Location %q", r.Header.Get("Location"))
		}
		if sp.Title != "Handbook" || sp.Emoji != "📘" || sp.Language != "fr" || sp.Visibility != "private" ||
			sp.EditMode != "live" || sp.MergeRules.Type != "inherit" || sp.DefaultLevel == nil || *sp.DefaultLevel != "inherit" ||
			sp.Organization != org || sp.Revision == "" || !sp.Permissions["admin"] {
			t.Fatalf("created %+v", sp)
		}
		got := s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).Map(t)
		for _, k := range []string{"comments", "changeRequests", "changeRequestsOpen", "changeRequestsDraft"} {
			if got[k] != 0.0 {
				t.Errorf("%s = %v", k, got[k])
			}
		}
		// A reader sees it and may only view.
		_, reader := s.Member(t, org, folio.RoleRead)
		var rs spaceBody
		s.Do(t, reader, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).JSON(t, &rs)
		want := map[string]bool{"view": true, "access": true, "admin": false, "viewInviteLinks": false, "edit": false,
			"triggerGitSync": false, "comment": false, "merge": false, "review": false, "installIntegration": false}
		if d := cmp.Diff(want, rs.Permissions); d != "" {
			t.Fatalf("reader permissions (-want +got):\n%s", d)
		}
		// A guest without grants, and another organization, see nothing.
		_, guest := s.Member(t, org, folio.RoleGuest)
		s.Do(t, guest, "GET", "/v1/spaces/"+sp.ID, nil).WantError(t, 404, "space not found")
		_, other := s.Org(t)
		s.Do(t, other, "GET", "/v1/spaces/"+sp.ID, nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "GET", "/v1/spaces/nope", nil).WantError(t, 404, "space not found")
		var l struct {
			Count int
			Items []spaceBody
		}
		s.Do(t, guest, "GET", "/v1/orgs/"+org+"/spaces", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("guest lists %d spaces", l.Count)
		}
		s.Do(t, reader, "GET", "/v1/orgs/"+org+"/spaces", nil).JSON(t, &l)
		if l.Count != 1 || l.Items[0].ID != sp.ID {
			t.Fatalf("reader lists %+v", l)
		}
	})
}

func TestSpaceValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		other, otherAdmin := s.Org(t)
		var foreign struct{ ID string }
		s.Do(t, otherAdmin, "POST", "/v1/orgs/"+other+"/collections", `{"title":"Theirs"}`).WantStatus(t, 201).JSON(t, &foreign)
		create := "/v1/orgs/" + org + "/spaces"
		for _, c := range []struct {
			name, body string
			code       int
			msg        string
		}{
			{"title/default", `{}`, 201, ""},
			{"title/longest", `{"title":"` + strings.Repeat("t", 50) + `"}`, 201, ""},
			{"title/too long", `{"title":"` + strings.Repeat("t", 51) + `"}`, 400, "title must be 1 to 50"},
			{"title/blank", `{"title":"  "}`, 400, "title"},
			{"emoji/too long", `{"emoji":"` + strings.Repeat("x", 51) + `"}`, 400, "emoji"},
			{"editMode/locked", `{"editMode":"locked"}`, 201, ""},
			{"editMode/unknown", `{"editMode":"frozen"}`, 400, "editMode must be live or locked"},
			{"language/unknown", `{"language":"xx"}`, 400, "language"},
			{"parent/unknown", `{"parent":"nope"}`, 400, "parent collection nope not found"},
			{"parent/other organization", `{"parent":"` + foreign.ID + `"}`, 400, "not found"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := s.Do(t, admin, "POST", create, c.body)
				if c.code == 201 {
					r.WantStatus(t, 201)
					return
				}
				r.WantError(t, c.code, c.msg)
			})
		}
		var sp spaceBody
		s.Do(t, admin, "POST", create, `{"title":"Patched"}`).WantStatus(t, 201).JSON(t, &sp)
		path := "/v1/spaces/" + sp.ID
		for _, c := range []struct {
			name, body string
			code       int
			msg        string
		}{
			{"title", `{"title":"New title"}`, 200, ""},
			{"title/null", `{"title":null}`, 400, "title cannot be null"},
			{"title/too long", `{"title":"` + strings.Repeat("t", 51) + `"}`, 400, "title"},
			{"emoji/remove", `{"emoji":null}`, 200, ""},
			{"editMode/locked", `{"editMode":"locked"}`, 200, ""},
			{"editMode/unknown", `{"editMode":"open"}`, 400, "editMode"},
			{"defaultLevel/role", `{"defaultLevel":"comment"}`, 200, ""},
			{"defaultLevel/null", `{"defaultLevel":null}`, 200, ""},
			{"defaultLevel/inherit", `{"defaultLevel":"inherit"}`, 200, ""},
			{"defaultLevel/unknown", `{"defaultLevel":"owner"}`, 400, "defaultLevel"},
			{"language", `{"language":"de"}`, 200, ""},
			{"language/unknown", `{"language":"klingon"}`, 400, "language"},
			{"mergeRules/inherit", `{"mergeRules":{"type":"inherit"}}`, 200, ""},
			{"mergeRules/rules", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}}`, 200, ""},
			{"mergeRules/unknown", `{"mergeRules":{"type":"all"}}`, 400, "mergeRules"},
		} {
			t.Run("patch/"+c.name, func(t *testing.T) {
				r := s.Do(t, admin, "PATCH", path, c.body)
				if c.code == 200 {
					r.WantStatus(t, 200)
					return
				}
				r.WantError(t, c.code, c.msg)
			})
		}
		var got spaceBody
		s.Do(t, admin, "GET", path, nil).JSON(t, &got)
		if got.Title != "New title" || got.EditMode != "locked" || got.Language != "de" || got.MergeRules.Type != "rules" || got.Emoji != "" {
			t.Fatalf("after patches: %+v", got)
		}
	})
}

func TestLockedSpaceAndInheritedLevels(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, editor := s.Member(t, org, folio.RoleEdit)
		_, reader := s.Member(t, org, folio.RoleRead)
		var top, inner struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Top"}`).WantStatus(t, 201).JSON(t, &top)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Inner","parent":"`+top.ID+`"}`).WantStatus(t, 201).JSON(t, &inner)
		var sp spaceBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Deep","parent":"`+inner.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
		if sp.Visibility != "in-collection" || sp.Parent != inner.ID {
			t.Fatalf("space in a collection: %+v", sp)
		}
		perms := func(tok string) map[string]bool {
			var b spaceBody
			s.Do(t, tok, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).JSON(t, &b)
			return b.Permissions
		}
		if p := perms(editor); !p["edit"] || !p["merge"] {
			t.Fatalf("editor in a live space: %v", p)
		}
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp.ID, `{"editMode":"locked"}`).WantStatus(t, 200)
		// edit and merge are about change requests, which a locked space
		// still takes; a git sync would write its live content.
		if p := perms(editor); !p["edit"] || !p["merge"] || p["triggerGitSync"] || !p["comment"] {
			t.Fatalf("editor in a locked space: %v", p)
		}
		if p := perms(admin); !p["edit"] {
			t.Fatalf("admin in a locked space: %v", p)
		}
		s.Do(t, editor, "PATCH", "/v1/spaces/"+sp.ID, `{"editMode":"live"}`).WantError(t, 403, "admins of the space")
		// The top collection's default level reaches the space two levels down.
		s.Do(t, admin, "PATCH", "/v1/collections/"+top.ID, `{"defaultLevel":"review"}`).WantStatus(t, 200)
		// (review ranks above edit; the space is still locked: no git sync.)
		if p := perms(reader); !p["review"] || !p["edit"] || p["triggerGitSync"] {
			t.Fatalf("reader under a review default: %v", p)
		}
		// The nearest level wins: null on the inner collection stops it.
		s.Do(t, admin, "PATCH", "/v1/collections/"+inner.ID, `{"defaultLevel":null}`).WantStatus(t, 200)
		if p := perms(reader); p["review"] || !p["view"] {
			t.Fatalf("reader after null inner level: %v", p)
		}
	})
}

func TestCollections(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var top, child struct{ ID string }
		r := s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Guides"}`).WantStatus(t, 201)
		r.JSON(t, &top)
		if r.Header.Get("Location") != apitest.PublicURL+"/v1/collections/"+top.ID {
			t.Errorf("Location %q", r.Header.Get("Location"))
		}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Child","parent":"`+top.ID+`"}`).WantStatus(t, 201).JSON(t, &child)
		var l struct {
			Count int
			Next  *struct{ Page string }
			Items []struct{ ID, Parent string }
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/collections", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 2 {
			t.Fatalf("nested list: %+v", l)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/collections?nested=false", nil).JSON(t, &l)
		if l.Count != 1 || l.Items[0].ID != top.ID {
			t.Fatalf("top-level list: %+v", l)
		}
		l.Next = nil
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/collections?limit=1", nil).JSON(t, &l)
		if l.Next == nil || l.Items[0].ID != top.ID {
			t.Fatalf("first page: %+v", l)
		}
		page := l.Next.Page
		l.Next = nil
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/collections?limit=1&page="+page, nil).JSON(t, &l)
		if l.Next != nil || l.Items[0].ID != child.ID {
			t.Fatalf("second page: %+v", l)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/collections?nested=maybe", nil).WantError(t, 400, "nested")

		path := "/v1/collections/" + top.ID
		var c struct {
			Title, Description string
			DefaultLevel       *string
			Permissions        map[string]bool
		}
		s.Do(t, admin, "PATCH", path, `{"title":"Guides and more","description":"`+strings.Repeat("d", 100)+`","defaultLevel":"edit"}`).
			WantStatus(t, 200).JSON(t, &c)
		if c.Title != "Guides and more" || len(c.Description) != 100 || *c.DefaultLevel != "edit" || !c.Permissions["create"] {
			t.Fatalf("patched %+v", c)
		}
		s.Do(t, admin, "PATCH", path, `{"description":"`+strings.Repeat("d", 101)+`"}`).WantError(t, 400, "description")
		s.Do(t, admin, "PATCH", path, `{"title":""}`).WantError(t, 400, "title")
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"`+strings.Repeat("t", 51)+`"}`).WantError(t, 400, "title")

		// Spaces of a collection come in their order.
		var ids []string
		for _, title := range []string{"One", "Two", "Three"} {
			var sp struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"`+title+`","parent":"`+top.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
			ids = append(ids, sp.ID)
		}
		var sl struct{ Items []struct{ ID string } }
		s.Do(t, admin, "GET", path+"/spaces", nil).WantStatus(t, 200).JSON(t, &sl)
		var got []string
		for _, it := range sl.Items {
			got = append(got, it.ID)
		}
		if d := cmp.Diff(ids, got); d != "" {
			t.Fatalf("collection spaces (-want +got):\n%s", d)
		}
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "PATCH", path, `{"title":"Mine"}`).WantError(t, 403, "admins of the collection")
		s.Do(t, reader, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Mine"}`).WantError(t, 403, "create role")
		_, other := s.Org(t)
		s.Do(t, other, "GET", path, nil).WantError(t, 404, "collection not found")
		s.Do(t, other, "GET", path+"/spaces", nil).WantError(t, 404, "collection not found")
	})
}

func TestSpaceAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		var sp, col struct{ ID string }
		s.Do(t, a.Tokens[apitest.Admin], "POST", "/v1/orgs/"+a.Org+"/spaces", `{"title":"Matrix"}`).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, a.Tokens[apitest.Admin], "POST", "/v1/orgs/"+a.Org+"/collections", `{"title":"Matrix"}`).WantStatus(t, 201).JSON(t, &col)
		space := func(*apitest.Actors) string { return "/v1/spaces/" + sp.ID }
		collection := func(*apitest.Actors) string { return "/v1/collections/" + col.ID }
		orgPath := func(p string) func(a *apitest.Actors) string {
			return func(a *apitest.Actors) string { return "/v1/orgs/" + a.Org + p }
		}
		hidden := apitest.NoAccess
		with := func(kv ...any) map[string]int { return apitest.Want(hidden, kv...) }
		// Each rename is new, so a refused one that got through would show.
		n := 0
		title := func(*apitest.Actors) any { n++; return map[string]any{"title": fmt.Sprintf("Renamed %d", n)} }
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "getSpaceById", Method: "GET", Path: space, Want: with(apitest.AnyActor, 200)},
			{Name: "updateSpaceById", Method: "PATCH", Path: space, Body: title,
				Want: with(apitest.Admin, 200, apitest.AnyActor, 403), State: apitest.Self},
			{Name: "listSpacesInOrganizationById", Method: "GET", Path: orgPath("/spaces"),
				Want: map[string]int{apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 200}},
			{Name: "createSpace", Method: "POST", Path: orgPath("/spaces"), Body: `{"title":"New"}`,
				Want:  map[string]int{apitest.Admin: 201, apitest.Create: 201, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403},
				State: apitest.Paths(orgPath("/spaces"))},
			{Name: "getCollectionById", Method: "GET", Path: collection, Want: with(apitest.AnyActor, 200)},
			{Name: "updateCollectionById", Method: "PATCH", Path: collection, Body: title,
				Want: with(apitest.Admin, 200, apitest.AnyActor, 403), State: apitest.Self},
			{Name: "listSpacesInCollectionById", Method: "GET", Path: func(*apitest.Actors) string { return "/v1/collections/" + col.ID + "/spaces" },
				Want: with(apitest.AnyActor, 200)},
			{Name: "listCollectionsInOrganizationById", Method: "GET", Path: orgPath("/collections"),
				Want: map[string]int{apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 200}},
			{Name: "createCollection", Method: "POST", Path: orgPath("/collections"), Body: `{"title":"New"}`,
				Want:  map[string]int{apitest.Admin: 201, apitest.Create: 201, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403},
				State: apitest.Paths(orgPath("/collections"))},
		})
	})
}

func TestDeleteRestoreAndPurge(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, editor := s.Member(t, org, folio.RoleEdit)
		start := s.Clock.Now()
		s.Clock.Set(start)
		newSpace := func(title string) string {
			var sp struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"`+title+`"}`).WantStatus(t, 201).JSON(t, &sp)
			return sp.ID
		}
		kept, purged := newSpace("Kept"), newSpace("Purged")
		s.Do(t, editor, "DELETE", "/v1/spaces/"+kept, nil).WantError(t, 403, "admins of the space")
		for _, id := range []string{kept, purged} {
			r := s.Do(t, admin, "DELETE", "/v1/spaces/"+id, nil).WantStatus(t, 204)
			if len(r.Body) != 0 {
				t.Fatalf("204 with a body: %q", r.Body)
			}
			s.Do(t, admin, "GET", "/v1/spaces/"+id, nil).WantError(t, 404, "space not found")
		}
		s.Do(t, admin, "DELETE", "/v1/spaces/"+kept, nil).WantStatus(t, 204) // again
		s.Do(t, admin, "DELETE", "/v1/spaces/never", nil).WantStatus(t, 204)
		var l struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("deleted spaces listed: %d", l.Count)
		}

		// Just inside the 7 days: restore works, and the purge job leaves it.
		s.Clock.Set(start.Add(folio.SpaceRetention - time.Minute))
		if n, err := s.Jobs.RunDue(context.Background()); err != nil || n != 0 {
			t.Fatalf("jobs ran early: %d, %v", n, err)
		}
		s.Do(t, editor, "POST", "/v1/spaces/"+kept+"/restore", nil).WantError(t, 403, "admins of the space")
		var restored spaceBody
		s.Do(t, admin, "POST", "/v1/spaces/"+kept+"/restore", nil).WantStatus(t, 200).JSON(t, &restored)
		if restored.ID != kept {
			t.Fatalf("restored %+v", restored)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+kept, nil).WantStatus(t, 200)

		// Past the 7 days: the job removes the other for good.
		s.Clock.Set(start.Add(folio.SpaceRetention + time.Minute))
		s.Do(t, admin, "POST", "/v1/spaces/"+purged+"/restore", nil).WantError(t, 404, "space not found")
		if n, err := s.Jobs.RunDue(context.Background()); err != nil || n != 2 {
			t.Fatalf("jobs run: %d, %v", n, err)
		}
		s.Do(t, admin, "POST", "/v1/spaces/"+purged+"/restore", nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+kept, nil).WantStatus(t, 200) // restored, so kept
		if n, _ := s.Jobs.RunDue(context.Background()); n != 0 {
			t.Fatalf("jobs ran twice: %d", n)
		}
	})
}

func TestDuplicateSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var col struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"C"}`).WantStatus(t, 201).JSON(t, &col)
		var sp spaceBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"`+strings.Repeat("n", 50)+`","parent":"`+col.ID+`","language":"es","editMode":"locked"}`).
			WantStatus(t, 201).JSON(t, &sp)
		var dup spaceBody
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/duplicate", nil).WantStatus(t, 201).JSON(t, &dup)
		if dup.ID == sp.ID || dup.Parent != col.ID || dup.Language != "es" || dup.EditMode != "locked" ||
			!strings.HasSuffix(dup.Title, " (copy)") || len([]rune(dup.Title)) != 50 || dup.Revision == sp.Revision {
			t.Fatalf("duplicate %+v of %+v", dup, sp)
		}
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "POST", "/v1/spaces/"+sp.ID+"/duplicate", nil).WantError(t, 403, "cannot create")
	})
}

// TestSpaceLifecycleAuthorization extends the matrix to the operations that
// change where a space lives or who may use it. Each case gets a fresh
// space, so a success does not change what the next actor sees, and a
// refused request would have something to change.
func TestSpaceLifecycleAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		fresh := func(*apitest.Actors) string {
			var sp struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+a.Org+"/spaces", `{"title":"Fresh"}`).WantStatus(t, 201).JSON(t, &sp)
			return "/v1/spaces/" + sp.ID
		}
		newCollection := func() string {
			var c struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+a.Org+"/collections", `{"title":"Fresh"}`).WantStatus(t, 201).JSON(t, &c)
			return c.ID
		}
		col := newCollection()
		var tm struct{ ID string }
		s.Do(t, admin, "PUT", "/v1/orgs/"+a.Org+"/teams", `{"title":"Granted"}`).WantStatus(t, 201).JSON(t, &tm)
		hidden := apitest.NoAccess
		with := func(kv ...any) map[string]int { return apitest.Want(hidden, kv...) }
		freshCollection := func(p string) func(*apitest.Actors) string {
			return func(*apitest.Actors) string { return "/v1/collections/" + newCollection() + p }
		}
		suffix := func(p string) func(*apitest.Actors) string {
			return func(a *apitest.Actors) string { return fresh(a) + p }
		}
		// A space deleted just now, which its admins may restore.
		deleted := func(a *apitest.Actors) string {
			p := fresh(a)
			s.Do(t, admin, "DELETE", p, nil).WantStatus(t, 204)
			return p + "/restore"
		}
		spaces := func(a *apitest.Actors) string { return "/v1/orgs/" + a.Org + "/spaces" }
		// The grants of the space or collection whose /permissions is posted to.
		grants := func(_ *apitest.Actors, path string) []string { return []string{path + "/users", path + "/teams"} }
		// Each move goes to a new collection, so a refused one would show.
		toNewCollection := func(*apitest.Actors) any { return map[string]any{"parent": newCollection()} }
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "deleteSpaceById", Method: "DELETE", Path: fresh,
				Want:    map[string]int{apitest.Admin: 204, apitest.Guest: 204, apitest.Outsider: 204, apitest.OtherOrg: 204, apitest.AnyActor: 403},
				Refused: apitest.Strangers, State: apitest.Self},
			{Name: "restoreSpace", Method: "POST", Path: deleted, Want: with(apitest.Admin, 200, apitest.AnyActor, 403),
				State: apitest.Paths(spaces)},
			{Name: "duplicateSpace", Method: "POST", Path: suffix("/duplicate"),
				Want: with(apitest.Admin, 201, apitest.Create, 201, apitest.AnyActor, 403), State: apitest.Paths(spaces)},
			{Name: "moveSpace", Method: "POST", Path: suffix("/move"), Body: `{"parent":"` + col + `"}`,
				Want: with(apitest.Admin, 200, apitest.AnyActor, 403), State: apitest.Trim("/move")},
			{Name: "transferSpace", Method: "POST", Path: suffix("/transfer"), Body: `{"organization":"` + a.OtherOrg + `"}`,
				Want: with(apitest.Admin, 404, apitest.AnyActor, 403), State: apitest.Trim("/transfer")},
			{Name: "inviteToSpace", Method: "POST", Path: suffix("/permissions"),
				Body: `{"role":"read","users":["` + a.Users[apitest.Guest].ID + `"]}`, Want: with(apitest.Admin, 204, apitest.AnyActor, 403),
				State: grants},
			{Name: "listUserPermissionsInSpace", Method: "GET", Path: suffix("/permissions/users"), Want: with(apitest.Admin, 200, apitest.AnyActor, 403)},
			{Name: "listTeamPermissionsInSpace", Method: "GET", Path: suffix("/permissions/teams"), Want: with(apitest.Admin, 200, apitest.AnyActor, 403)},
			{Name: "deleteCollectionById", Method: "DELETE", Path: freshCollection(""),
				Want:    map[string]int{apitest.Admin: 204, apitest.Guest: 204, apitest.Outsider: 204, apitest.OtherOrg: 204, apitest.AnyActor: 403},
				Refused: apitest.Strangers, State: apitest.Self},
			{Name: "transferCollection", Method: "POST", Path: freshCollection("/transfer"), Body: `{"organization":"` + a.OtherOrg + `"}`,
				Want: with(apitest.Admin, 404, apitest.AnyActor, 403), State: apitest.Trim("/transfer")},
			{Name: "inviteToCollection", Method: "POST", Path: freshCollection("/permissions"),
				Body: `{"role":"read","teams":["` + tm.ID + `"]}`, Want: with(apitest.Admin, 204, apitest.AnyActor, 403), State: grants},
			{Name: "inviteToCollection unknown team", Method: "POST", Path: freshCollection("/permissions"),
				Body: `{"role":"read","users":["` + a.Users[apitest.Guest].ID + `"],"teams":["nope"]}`,
				Want: with(apitest.Admin, 404, apitest.AnyActor, 403), State: grants},
			{Name: "listUserPermissionsInCollection", Method: "GET", Path: freshCollection("/permissions/users"),
				Want: with(apitest.Admin, 200, apitest.AnyActor, 403)},
			{Name: "moveCollection", Method: "POST", Path: func(*apitest.Actors) string { return "/v1/collections/" + col + "/move" },
				Body: toNewCollection, Want: with(apitest.Admin, 200, apitest.AnyActor, 403), State: apitest.Trim("/move")},
		})
	})
}
