package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/store"
)

// TestDeepCollectionChains nests collections as deep as roles are computed
// (store.MaxCollectionChain): a team grant at the top still reaches a guest
// on a space at the bottom, and nothing nests deeper, by creation or move.
func TestDeepCollectionChains(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, adminTok := s.Org(t)
		admin, err := s.App.Authenticate(ctx, adminTok)
		if err != nil {
			t.Fatal(err)
		}
		guest, guestTok := s.Member(t, org, folio.RoleGuest)
		var chain []folio.ID
		parent := folio.ID("")
		for i := range store.MaxCollectionChain {
			c, err := s.App.CreateCollection(ctx, admin, org, fmt.Sprint("Level ", i), parent)
			if err != nil {
				t.Fatalf("level %d: %v", i, err)
			}
			parent = c.ID
			chain = append(chain, c.ID)
		}
		team, err := s.App.CreateTeam(ctx, admin, org, "Readers", []string{guest.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.App.Grant(ctx, admin, folio.TargetCollection, chain[0], &app.GrantInput{Role: folio.Some("edit"), Teams: []folio.ID{team.ID}}); err != nil {
			t.Fatal(err)
		}
		bottom := chain[len(chain)-1]
		var sp struct{ ID string }
		s.Do(t, adminTok, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Deep", "parent": bottom}).WantStatus(t, 201).JSON(t, &sp)
		var got struct {
			Permissions struct{ View, Edit, Admin bool }
		}
		s.Do(t, guestTok, "GET", "/v1/spaces/"+sp.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if p := got.Permissions; !p.View || !p.Edit || p.Admin {
			t.Fatalf("guest's permissions on a space %d levels below their team's grant: %+v", len(chain), p)
		}
		s.Do(t, guestTok, "GET", "/v1/collections/"+bottom, nil).WantStatus(t, 200)

		s.Do(t, adminTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Deeper", "parent": bottom}).
			WantError(t, 400, "nested at most")
		var loose struct{ ID string }
		s.Do(t, adminTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Loose"}).WantStatus(t, 201).JSON(t, &loose)
		s.Do(t, adminTok, "POST", "/v1/collections/"+loose.ID+"/move", map[string]any{"parent": bottom}).WantError(t, 400, "nested at most")
		s.Do(t, adminTok, "POST", "/v1/collections/"+loose.ID+"/move", map[string]any{"parent": chain[len(chain)-2]}).WantStatus(t, 200)
		// A collection with a child needs one level more: its child counts.
		var withChild, child struct{ ID, Parent string }
		s.Do(t, adminTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "With child"}).WantStatus(t, 201).JSON(t, &withChild)
		s.Do(t, adminTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Child", "parent": withChild.ID}).WantStatus(t, 201).JSON(t, &child)
		s.Do(t, adminTok, "POST", "/v1/collections/"+withChild.ID+"/move", map[string]any{"parent": chain[len(chain)-2]}).
			WantError(t, 400, "nested at most")
		s.Do(t, adminTok, "GET", "/v1/collections/"+withChild.ID, nil).WantStatus(t, 200).JSON(t, &withChild)
		if withChild.Parent != "" {
			t.Fatalf("refused move changed the parent to %q", withChild.Parent)
		}
		s.Do(t, adminTok, "POST", "/v1/collections/"+withChild.ID+"/move", map[string]any{"parent": chain[len(chain)-3]}).WantStatus(t, 200)
		// The top cannot go below itself, however deep.
		s.Do(t, adminTok, "POST", "/v1/collections/"+chain[0]+"/move", map[string]any{"parent": chain[len(chain)-2]}).
			WantError(t, 400, "descendants")
		var l struct{ Count int }
		s.Do(t, adminTok, "GET", "/v1/collections/"+bottom+"/spaces", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the bottom collection lists %d spaces, want 1", l.Count)
		}
	})
}
