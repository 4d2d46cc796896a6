package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestLongListsInOneQuery sends lists longer than both drivers' parameter
// limits (SQLite 32,766, PostgreSQL 65,535) through every store function
// that takes a list: each must answer as for a short list.
func TestLongListsInOneQuery(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sp := newSpace(t, db, "lists@example.com")
		var owner folio.ID
		err := db.Read(ctx, func(tx *store.Tx) error {
			m, err := store.ListMembers(ctx, tx, sp.OrganizationID, folio.MemberFilter{}, folio.ListOptions{Limit: 1})
			if err == nil && len(m.Items) == 1 {
				owner = m.Items[0].UserID
			}
			return err
		})
		if err != nil || owner == "" {
			t.Fatalf("owner: %v", err)
		}
		ids := make([]folio.ID, 70_000)
		for i := range ids {
			ids[i] = fmt.Sprintf("missing%d", i)
		}
		ids[35_000] = owner
		withSpace := append(append([]folio.ID{}, ids...), sp.ID)

		if err := db.Read(ctx, func(tx *store.Tx) error {
			non, err := store.NonMembers(ctx, tx, sp.OrganizationID, ids)
			if err != nil {
				return err
			}
			if len(non) != len(ids)-1 {
				t.Errorf("NonMembers: %d, want %d", len(non), len(ids)-1)
			}
			found, missing, err := store.ResolveUsers(ctx, tx, sp.OrganizationID, ids)
			if err != nil {
				return err
			}
			if found[owner] != owner || len(missing) != len(ids)-1 {
				t.Errorf("ResolveUsers: owner %q, %d missing", found[owner], len(missing))
			}
			teams, err := store.GetTeams(ctx, tx, folio.Access{OrganizationID: sp.OrganizationID, UserID: owner, Role: folio.RoleAdmin}, ids)
			if err != nil {
				return err
			}
			if len(teams) != 0 {
				t.Errorf("GetTeams: %d teams", len(teams))
			}
			spaces, err := store.ListSpaces(ctx, tx, sp.OrganizationID, store.SpaceFilter{IDs: withSpace}, folio.ListOptions{Limit: 10})
			if err != nil {
				return err
			}
			if len(spaces.Items) != 1 || spaces.Items[0].ID != sp.ID || spaces.Count != 1 {
				t.Errorf("ListSpaces: %+v", spaces)
			}
			in, err := store.SpacesIn(ctx, tx, ids)
			if err != nil {
				return err
			}
			if len(in) != 0 {
				t.Errorf("SpacesIn: %v", in)
			}
			q := store.SearchQuery{All: `"alpha"`, AllExact: `"alpha"`, Terms: []string{"alpha"}}
			if db.SearchDialect() == "tsquery" {
				q = store.SearchQuery{All: "alpha", AllExact: "alpha", Terms: []string{"alpha"}}
			}
			if _, err := store.Search(ctx, tx, withSpace, q); err != nil {
				return err
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Write(ctx, func(tx *store.Tx) error {
			if err := store.RevokeGrantsOn(ctx, tx, ids); err != nil {
				return err
			}
			return store.SetOrganization(ctx, tx, "space", ids, sp.OrganizationID)
		}); err != nil {
			t.Fatal(err)
		}
	})
}
