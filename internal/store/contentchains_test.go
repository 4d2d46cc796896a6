package store_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestContentChainsLoadEachUsersChain loads the chains of many users over a
// space three collections deep, with grants to users and teams on the space
// and on collections of the chain and beside it, in this organization and
// another: each user's tree gives the path their own LoadContentChain gives.
func TestContentChainsLoadEachUsersChain(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := chainFixture{t: t, db: db, ctx: context.Background()}
		owner := newUser(t, db, "owner@example.com")
		org, otherOrg := newOrg(t, db, owner.ID, "").ID, newOrg(t, db, owner.ID, "").ID
		var users []folio.ID
		for _, e := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			u := newUser(t, db, e+"@example.com").ID
			f.member(org, u)
			users = append(users, u)
		}
		f.member(otherOrg, users[0])
		top := f.collection(org, "", folio.Level{Role: folio.RoleComment})
		mid := f.collection(org, top, folio.Level{Inherit: true})
		low := f.collection(org, mid, folio.Level{Inherit: true})
		beside := f.collection(org, top, folio.Level{Role: folio.RoleAdmin})
		space := folio.NewID()
		t1, t2 := f.team(org, users[0], users[1], users[2]), f.team(org, users[2], users[3])
		theirTeam := f.team(otherOrg, users[0])
		f.grant(org, folio.TargetCollection, top, folio.PrincipalTeam, t1, folio.RoleReview)
		f.grant(org, folio.TargetCollection, mid, folio.PrincipalTeam, t2, folio.RoleEdit)
		f.grant(org, folio.TargetSpace, space, folio.PrincipalTeam, t2, folio.RoleComment)
		f.grant(org, folio.TargetSpace, space, folio.PrincipalUser, users[4], folio.RoleAdmin)
		f.grant(org, folio.TargetCollection, low, folio.PrincipalUser, users[2], folio.RoleCreate)
		f.grant(org, folio.TargetCollection, beside, folio.PrincipalUser, users[5], folio.RoleAdmin)
		f.grant(otherOrg, folio.TargetCollection, f.collection(otherOrg, "", folio.Level{}), folio.PrincipalTeam, theirTeam, folio.RoleAdmin)

		for _, tt := range []struct {
			name         string
			item, parent folio.ID
		}{{"space in a chain", space, low}, {"space at the top", space, ""}, {"collection", mid, mid}, {"no item", "", low}} {
			var got map[folio.ID]*store.ContentTree
			err := db.Read(f.ctx, func(tx *store.Tx) (err error) {
				got, err = store.LoadContentChains(f.ctx, tx, org, tt.item, tt.parent, users)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(users) {
				t.Fatalf("%s: %d trees for %d users", tt.name, len(got), len(users))
			}
			for _, u := range users {
				one := f.chain(org, u, tt.item, tt.parent)
				if !reflect.DeepEqual(keys(got[u].Collections), keys(one.Collections)) {
					t.Errorf("%s: user %s: collections %v, want %v", tt.name, u, keys(got[u].Collections), keys(one.Collections))
				}
				for id := range one.Grants {
					slices.Sort(one.Grants[id])
				}
				for id := range got[u].Grants {
					slices.Sort(got[u].Grants[id])
				}
				if len(one.Grants)+len(got[u].Grants) > 0 && !reflect.DeepEqual(got[u].Grants, one.Grants) {
					t.Errorf("%s: user %s: grants %v, want %v", tt.name, u, got[u].Grants, one.Grants)
				}
				for _, level := range []folio.Level{{Inherit: true}, {Role: folio.RoleRead}, {}} {
					if p, want := sortedPath(got[u], tt.item, level, tt.parent), sortedPath(one, tt.item, level, tt.parent); !reflect.DeepEqual(p, want) {
						t.Errorf("%s: user %s: path %v, want %v", tt.name, u, p, want)
					}
				}
			}
		}
		// A long list (past the parameters sent one by one) gives the same.
		many := slices.Clone(users)
		for range 600 {
			many = append(many, folio.NewID())
		}
		var got map[folio.ID]*store.ContentTree
		err := db.Read(f.ctx, func(tx *store.Tx) (err error) {
			got, err = store.LoadContentChains(f.ctx, tx, org, space, low, many)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(many) || !reflect.DeepEqual(got[users[2]].Grants[low], []folio.Role{folio.RoleCreate}) ||
			!reflect.DeepEqual(got[users[0]].Grants[top], []folio.Role{folio.RoleReview}) {
			t.Errorf("long list: %d trees, grants of %s %v", len(got), users[2], got[users[2]].Grants)
		}
	})
}
