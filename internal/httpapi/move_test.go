package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

func collectionSpaces(t *testing.T, s *apitest.Server, token, col string) []string {
	t.Helper()
	var l struct{ Items []struct{ ID string } }
	s.Do(t, token, "GET", "/v1/collections/"+col+"/spaces", nil).WantStatus(t, 200).JSON(t, &l)
	var out []string
	for _, it := range l.Items {
		out = append(out, it.ID)
	}
	return out
}

func TestMoveSpaces(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var c1, c2 struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"One"}`).WantStatus(t, 201).JSON(t, &c1)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Two"}`).WantStatus(t, 201).JSON(t, &c2)
		ids := map[string]string{}
		for _, n := range []string{"A", "B", "C", "D"} {
			var sp struct{ ID string }
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"`+n+`","parent":"`+c1.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
			ids[n] = sp.ID
		}
		order := func(names ...string) []string {
			var out []string
			for _, n := range names {
				out = append(out, ids[n])
			}
			return out
		}
		move := func(name, body string) *apitest.Response {
			return s.Do(t, admin, "POST", "/v1/spaces/"+ids[name]+"/move", body)
		}
		ptr := func(kind, name string) string { return fmt.Sprintf(`{"type":"space","space":%q}`, ids[name]) }

		move("D", `{"position":{"before":`+ptr("space", "A")+`}}`).WantStatus(t, 200)
		if d := cmp.Diff(order("D", "A", "B", "C"), collectionSpaces(t, s, admin, c1.ID)); d != "" {
			t.Fatalf("D before A (-want +got):\n%s", d)
		}
		move("A", `{"position":{"after":`+ptr("space", "C")+`}}`).WantStatus(t, 200)
		if d := cmp.Diff(order("D", "B", "C", "A"), collectionSpaces(t, s, admin, c1.ID)); d != "" {
			t.Fatalf("A after C (-want +got):\n%s", d)
		}
		// Many moves into the same gap force a renumbering; order holds.
		for range 20 {
			move("A", `{"position":{"after":`+ptr("space", "D")+`}}`).WantStatus(t, 200)
			move("A", `{"position":{"before":`+ptr("space", "D")+`}}`).WantStatus(t, 200)
		}
		if d := cmp.Diff(order("A", "D", "B", "C"), collectionSpaces(t, s, admin, c1.ID)); d != "" {
			t.Fatalf("after many moves (-want +got):\n%s", d)
		}
		// To another collection, then to the top level.
		var sp struct{ Parent, Visibility string }
		move("B", `{"parent":"`+c2.ID+`"}`).WantStatus(t, 200).JSON(t, &sp)
		if sp.Parent != c2.ID || len(collectionSpaces(t, s, admin, c2.ID)) != 1 {
			t.Fatalf("moved to c2: %+v", sp)
		}
		sp.Parent = ""
		move("B", `{"parent":null}`).WantStatus(t, 200).JSON(t, &sp)
		if sp.Parent != "" {
			t.Fatalf("moved to top level: %+v", sp)
		}

		// Errors, each with the reference's status.
		move("A", `{}`).WantError(t, 400, "needs a parent or a position")
		move("A", `{"position":{"before":`+ptr("space", "D")+`,"after":`+ptr("space", "C")+`}}`).WantError(t, 400, "not both")
		move("A", `{"position":{"before":`+ptr("space", "A")+`}}`).WantError(t, 400, "next to itself")
		move("A", `{"position":{"before":`+ptr("space", "B")+`}}`).WantError(t, 400, "is not in that parent")
		move("A", `{"position":{"before":{"type":"page","space":"x"}}}`).WantError(t, 400, "type must be")
		move("A", `{"parent":"nope"}`).WantError(t, 404, "collection not found")
		move("A", `{"position":{"before":`+ptr("space", "D")+`}}`).WantError(t, 409, "would not change anything")
		move("A", `{"parent":"`+c1.ID+`","position":{"before":`+ptr("space", "D")+`}}`).WantError(t, 409, "would not change anything")
		s.Do(t, admin, "POST", "/v1/spaces/nope/move", `{"parent":null}`).WantError(t, 404, "space not found")
		_, editor := s.Member(t, org, folio.RoleEdit)
		s.Do(t, editor, "POST", "/v1/spaces/"+ids["A"]+"/move", `{"parent":null}`).WantError(t, 403, "admins of the space")
	})
}

func TestMoveCollections(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		mk := func(title, parent string) string {
			var c struct{ ID string }
			body := `{"title":"` + title + `"}`
			if parent != "" {
				body = `{"title":"` + title + `","parent":"` + parent + `"}`
			}
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", body).WantStatus(t, 201).JSON(t, &c)
			return c.ID
		}
		top := mk("Top", "")
		mid := mk("Mid", top)
		low := mk("Low", mid)
		other := mk("Other", "")
		s.Do(t, admin, "POST", "/v1/collections/"+top+"/move", `{"parent":"`+top+`"}`).WantError(t, 400, "into itself")
		s.Do(t, admin, "POST", "/v1/collections/"+top+"/move", `{"parent":"`+low+`"}`).WantError(t, 400, "descendants")
		var c struct{ Parent string }
		s.Do(t, admin, "POST", "/v1/collections/"+low+"/move", `{"parent":"`+other+`"}`).WantStatus(t, 200).JSON(t, &c)
		if c.Parent != other {
			t.Fatalf("moved collection %+v", c)
		}
		s.Do(t, admin, "POST", "/v1/collections/"+other+"/move",
			`{"position":{"before":{"type":"collection","collection":"`+top+`"}}}`).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/collections/"+other+"/move",
			`{"position":{"before":{"type":"collection","collection":"`+top+`"}}}`).WantError(t, 409, "would not change")
	})
}

func TestDeleteCollectionKeepsItsContent(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var top, mid, inner struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Top"}`).WantStatus(t, 201).JSON(t, &top)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Mid","parent":"`+top.ID+`"}`).WantStatus(t, 201).JSON(t, &mid)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Inner","parent":"`+mid.ID+`"}`).WantStatus(t, 201).JSON(t, &inner)
		var sp struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"S","parent":"`+mid.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "DELETE", "/v1/collections/"+mid.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/collections/"+mid.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/collections/"+mid.ID, nil).WantError(t, 404, "collection not found")
		var got struct{ Parent string }
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Parent != top.ID {
			t.Fatalf("space parent after deleting its collection: %q, want %q", got.Parent, top.ID)
		}
		s.Do(t, admin, "GET", "/v1/collections/"+inner.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Parent != top.ID {
			t.Fatalf("inner collection parent: %q", got.Parent)
		}
	})
}

func TestTransfer(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var adminUser struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &adminUser)
		// The admin also administers a second organization.
		var target struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs", `{"title":"Target"}`).WantStatus(t, 201).JSON(t, &target)
		foreign, _ := s.Org(t)
		var col, sub struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Col"}`).WantStatus(t, 201).JSON(t, &col)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", `{"title":"Sub","parent":"`+col.ID+`"}`).WantStatus(t, 201).JSON(t, &sub)
		var sp, inSub struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"S","parent":"`+col.ID+`"}`).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Deep","parent":"`+sub.ID+`"}`).WantStatus(t, 201).JSON(t, &inSub)

		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/transfer", `{"organization":"`+org+`"}`).WantError(t, 409, "would not change")
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/transfer", `{"organization":"`+foreign+`"}`).WantError(t, 404, "organization not found")
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/transfer", `{}`).WantError(t, 400, "organization is required")
		var moved struct{ Organization, Parent string }
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/transfer", `{"organization":"`+target.ID+`"}`).WantStatus(t, 200).JSON(t, &moved)
		if moved.Organization != target.ID || moved.Parent != "" {
			t.Fatalf("transferred space %+v", moved)
		}
		// The collection goes with its sub-collection and their spaces.
		s.Do(t, admin, "POST", "/v1/collections/"+col.ID+"/transfer", `{"organization":"`+target.ID+`"}`).WantStatus(t, 200).JSON(t, &moved)
		if moved.Organization != target.ID || moved.Parent != "" {
			t.Fatalf("transferred collection %+v", moved)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+inSub.ID, nil).WantStatus(t, 200).JSON(t, &moved)
		if moved.Organization != target.ID || moved.Parent != sub.ID {
			t.Fatalf("space in a transferred collection: %+v", moved)
		}
		var l struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("source organization still lists %d spaces", l.Count)
		}
		// A member of the source organization loses sight of what left.
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "GET", "/v1/spaces/"+inSub.ID, nil).WantError(t, 404, "space not found")
	})
}
