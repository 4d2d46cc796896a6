package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

func TestGetUsers(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminToken := s.Org(t)
		member, memberToken := s.Member(t, org, folio.RoleRead)
		stranger, strangerToken := s.User(t)

		got := s.Do(t, memberToken, "GET", "/v1/user", nil).WantStatus(t, 200).Map(t)
		want := map[string]any{
			"object": "user", "id": member.ID, "displayName": member.DisplayName, "email": member.Email,
			"urls": map[string]any{"location": "http://folio.test/v1/users/" + member.ID},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("GET /user (-want +got):\n%s", d)
		}
		// Members of one organization see each other; nobody sees a stranger.
		s.Do(t, adminToken, "GET", "/v1/users/"+member.ID, nil).WantStatus(t, 200)
		s.Do(t, memberToken, "GET", "/v1/users/"+member.ID, nil).WantStatus(t, 200)
		s.Do(t, adminToken, "GET", "/v1/users/"+stranger.ID, nil).WantError(t, 404, "user not found")
		s.Do(t, strangerToken, "GET", "/v1/users/"+member.ID, nil).WantError(t, 404, "user not found")
		s.Do(t, strangerToken, "GET", "/v1/users/"+stranger.ID, nil).WantStatus(t, 200)
		s.Do(t, strangerToken, "GET", "/v1/users/nobody", nil).WantError(t, 404, "user not found")
	})
}

func TestAPITokens(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		_, other := s.User(t)
		r := s.Do(t, token, "POST", "/v1/user/tokens", `{"label":"ci"}`).WantStatus(t, 201)
		var created struct {
			ID, Label, Token string
		}
		r.JSON(t, &created)
		if created.Label != "ci" || !folio.LooksLikeToken(created.Token) {
			t.Fatalf("created %+v", created)
		}
		s.Do(t, created.Token, "GET", "/v1/user", nil).WantStatus(t, 200)

		var l struct {
			Count int
			Items []map[string]any
		}
		s.Do(t, token, "GET", "/v1/user/tokens", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 2 {
			t.Fatalf("count = %d, want 2 (first token and ci)", l.Count)
		}
		for _, it := range l.Items {
			if _, ok := it["token"]; ok {
				t.Fatal("a listed token shows its secret")
			}
		}
		// Another user cannot revoke it: 204, as for an absent token, and it still works.
		s.Do(t, other, "DELETE", "/v1/user/tokens/"+created.ID, nil).WantStatus(t, 204)
		s.Do(t, created.Token, "GET", "/v1/user", nil).WantStatus(t, 200)
		r = s.Do(t, token, "DELETE", "/v1/user/tokens/"+created.ID, nil).WantStatus(t, 204)
		if len(r.Body) != 0 {
			t.Fatalf("204 with body %q", r.Body)
		}
		s.Do(t, created.Token, "GET", "/v1/user", nil).WantError(t, 401, "API token")
		s.Do(t, token, "DELETE", "/v1/user/tokens/"+created.ID, nil).WantStatus(t, 204)
		s.Do(t, token, "POST", "/v1/user/tokens", fmt.Sprintf(`{"label":%q}`, strings.Repeat("x", 101))).WantError(t, 400, "label")
	})
}

func TestListOrganizationsPagination(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		var want []string
		for i := range 5 {
			var o struct{ ID string }
			s.Do(t, token, "POST", "/v1/orgs", fmt.Sprintf(`{"title":"Org %d"}`, i)).WantStatus(t, 201).JSON(t, &o)
			want = append(want, o.ID)
		}
		type page struct {
			Next  *struct{ Page string }
			Count int
			Items []struct{ ID string }
		}
		var got []string
		path := "/v1/orgs?limit=2"
		for i := 0; ; i++ {
			var p page
			s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &p)
			if p.Count != len(want) {
				t.Fatalf("page %d: count = %d, want %d", i, p.Count, len(want))
			}
			for _, it := range p.Items {
				got = append(got, it.ID)
			}
			if i == 0 {
				// A row inserted while paging shows up once, at the end.
				var o struct{ ID string }
				s.Do(t, token, "POST", "/v1/orgs", `{"title":"Late"}`).WantStatus(t, 201).JSON(t, &o)
				want = append(want, o.ID)
			}
			if p.Next == nil {
				break
			}
			path = "/v1/orgs?limit=2&page=" + p.Next.Page
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("paged ids (-want +got):\n%s", d)
		}
		// The last page has no next, also when it is exactly full.
		var p page
		s.Do(t, token, "GET", "/v1/orgs?limit=1000", nil).WantStatus(t, 200).JSON(t, &p)
		if p.Next != nil || len(p.Items) != 6 {
			t.Fatalf("limit=1000: next %v, %d items", p.Next, len(p.Items))
		}
		p = page{}
		s.Do(t, token, "GET", "/v1/orgs?limit=6", nil).WantStatus(t, 200).JSON(t, &p)
		if p.Next != nil || len(p.Items) != 6 {
			t.Fatalf("limit=6 of 6: next %v, %d items", p.Next, len(p.Items))
		}
		p = page{}
		s.Do(t, token, "GET", "/v1/orgs?limit=3", nil).WantStatus(t, 200).JSON(t, &p)
		second := page{}
		s.Do(t, token, "GET", "/v1/orgs?limit=3&page="+p.Next.Page, nil).WantStatus(t, 200).JSON(t, &second)
		if second.Next != nil || len(second.Items) != 3 {
			t.Fatalf("second full page of 3: next %v, %d items", second.Next, len(second.Items))
		}
		s.Do(t, token, "GET", "/v1/orgs?limit=1", nil).WantStatus(t, 200).JSON(t, &p)
		if p.Next == nil || len(p.Items) != 1 || p.Count != 6 {
			t.Fatalf("limit=1: %+v", p)
		}
		s.Do(t, token, "GET", "/v1/orgs", nil).WantStatus(t, 200).JSON(t, &p)
		if len(p.Items) != 6 {
			t.Fatalf("default limit: %d items", len(p.Items))
		}
		for _, c := range []struct{ query, msg string }{
			{"limit=0", "limit must be"},
			{"limit=1001", "limit must be"},
			{"limit=-1", "limit must be"},
			{"limit=abc", "limit must be"},
			{"limit=1.5", "limit must be"},
			{"page=%25%25%25", "page is not a valid"},
			{"page=bm9wZQ", "page is not a valid"},      // "nope"
			{"page=WyJhIl0", "page is not a valid"},     // ["a"]: wrong shape
			{"page=W3t9LCJhIl0", "page is not a valid"}, // [{},"a"]
		} {
			s.Do(t, token, "GET", "/v1/orgs?"+c.query, nil).WantError(t, 400, c.msg)
		}
	})
}
