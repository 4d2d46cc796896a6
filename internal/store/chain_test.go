package store_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// chainFixture writes content of organizations through the store.
type chainFixture struct {
	t   *testing.T
	db  *store.DB
	ctx context.Context
}

func (f chainFixture) write(fn func(tx *store.Tx) error) {
	f.t.Helper()
	if err := f.db.Write(f.ctx, fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f chainFixture) collection(org, parent folio.ID, level folio.Level) folio.ID {
	f.t.Helper()
	c := folio.Collection{ID: folio.NewID(), OrganizationID: org, Parent: parent, Title: "C", DefaultLevel: level}
	f.write(func(tx *store.Tx) error {
		c.CreatedAt, c.UpdatedAt = tx.Now, tx.Now
		return store.CreateCollection(f.ctx, tx, &c)
	})
	return c.ID
}

func (f chainFixture) grant(org folio.ID, kind string, target folio.ID, principalKind string, principal folio.ID, role folio.Role) {
	f.t.Helper()
	f.write(func(tx *store.Tx) error {
		return store.SetGrant(f.ctx, tx, org, kind, target, principalKind, principal, role)
	})
}

func (f chainFixture) member(org, user folio.ID) {
	f.t.Helper()
	f.write(func(tx *store.Tx) error {
		return store.AddMember(f.ctx, tx, &folio.Member{OrganizationID: org, UserID: user, Role: folio.RoleRead, JoinedAt: tx.Now})
	})
}

func (f chainFixture) team(org folio.ID, users ...folio.ID) folio.ID {
	f.t.Helper()
	team := &folio.Team{ID: folio.NewID(), OrganizationID: org, Title: "T"}
	f.write(func(tx *store.Tx) error {
		team.CreatedAt = tx.Now
		if err := store.CreateTeam(f.ctx, tx, team); err != nil {
			return err
		}
		for _, u := range users {
			if err := store.SetTeamMember(f.ctx, tx, org, team.ID, u, folio.TeamMember); err != nil {
				return err
			}
		}
		return nil
	})
	return team.ID
}

// reparent sets a collection's parent directly, as damaged data could.
func (f chainFixture) reparent(org, id, parent folio.ID) {
	f.t.Helper()
	f.write(func(tx *store.Tx) error { return store.Place(f.ctx, tx, "collection", id, org, parent, 1) })
}

func (f chainFixture) chain(org, user, item, parent folio.ID) *store.ContentTree {
	f.t.Helper()
	var tree *store.ContentTree
	err := f.db.Read(f.ctx, func(tx *store.Tx) (err error) {
		tree, err = store.LoadContentChain(f.ctx, tx, org, user, item, parent)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return tree
}

func (f chainFixture) whole(org, user folio.ID) *store.ContentTree {
	f.t.Helper()
	var tree *store.ContentTree
	err := f.db.Read(f.ctx, func(tx *store.Tx) (err error) {
		tree, err = store.LoadContentTree(f.ctx, tx, org, user)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return tree
}

// sortedPath is tree.Path with each node's grants sorted, to compare.
func sortedPath(tree *store.ContentTree, id folio.ID, level folio.Level, parent folio.ID) []folio.ContentNode {
	path := tree.Path(id, level, parent)
	for i := range path {
		slices.Sort(path[i].Grants)
	}
	return path
}

func keys(m map[folio.ID]folio.Collection) []folio.ID {
	out := make([]folio.ID, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func sorted(ids ...folio.ID) []folio.ID { return slices.Sorted(slices.Values(ids)) }

// TestContentChainDecidesAsTheWholeTree loads the chain above a space five
// collections deep, with grants to the user and their team on the space and
// on intermediate collections, and to others: the path it gives is the one
// the whole tree gives, and it holds only the chain.
func TestContentChainDecidesAsTheWholeTree(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := chainFixture{t: t, db: db, ctx: context.Background()}
		owner, user, other := newUser(t, db, "owner@example.com"), newUser(t, db, "user@example.com"), newUser(t, db, "other@example.com")
		org := newOrg(t, db, owner.ID, "").ID
		f.member(org, user.ID)
		f.member(org, other.ID)
		team, otherTeam := f.team(org, user.ID), f.team(org, other.ID)
		inherit := folio.Level{Inherit: true}

		var chain []folio.ID // top first
		parent := folio.ID("")
		for depth := range 5 {
			level := inherit
			if depth == 1 {
				level = folio.Level{Role: folio.RoleComment}
			}
			parent = f.collection(org, parent, level)
			chain = append(chain, parent)
		}
		beside := f.collection(org, chain[2], folio.Level{Role: folio.RoleAdmin}) // not on the chain
		for range 20 {
			f.collection(org, "", inherit)
		}
		space := folio.NewID()
		f.grant(org, folio.TargetSpace, space, folio.PrincipalUser, user.ID, folio.RoleComment)
		f.grant(org, folio.TargetCollection, chain[1], folio.PrincipalUser, user.ID, folio.RoleEdit)
		f.grant(org, folio.TargetCollection, chain[3], folio.PrincipalTeam, team, folio.RoleReview)
		f.grant(org, folio.TargetCollection, chain[3], folio.PrincipalUser, user.ID, folio.RoleRead)
		f.grant(org, folio.TargetCollection, chain[2], folio.PrincipalUser, other.ID, folio.RoleAdmin)
		f.grant(org, folio.TargetCollection, chain[0], folio.PrincipalTeam, otherTeam, folio.RoleAdmin)
		f.grant(org, folio.TargetCollection, beside, folio.PrincipalUser, user.ID, folio.RoleAdmin)

		got := f.chain(org, user.ID, space, chain[4])
		if want := sorted(chain...); !reflect.DeepEqual(keys(got.Collections), want) {
			t.Errorf("collections %v, want the chain %v", keys(got.Collections), want)
		}
		wantGrants := map[folio.ID][]folio.Role{space: {folio.RoleComment}, chain[1]: {folio.RoleEdit},
			chain[3]: {folio.RoleRead, folio.RoleReview}}
		for id := range got.Grants {
			slices.Sort(got.Grants[id])
		}
		if !reflect.DeepEqual(got.Grants, wantGrants) {
			t.Errorf("grants %v, want %v", got.Grants, wantGrants)
		}
		whole := f.whole(org, user.ID)
		for _, level := range []folio.Level{inherit, {Role: folio.RoleRead}} {
			if p, want := sortedPath(got, space, level, chain[4]), sortedPath(whole, space, level, chain[4]); !reflect.DeepEqual(p, want) {
				t.Errorf("path %v, want %v", p, want)
			}
		}
		if c := got.Collections[chain[1]]; c.DefaultLevel.Role != folio.RoleComment || c.Parent != chain[0] || c.OrganizationID != org {
			t.Errorf("collection loaded as %+v", c)
		}

		// A collection's own chain starts at itself; its grants are the item's.
		col := f.chain(org, user.ID, chain[3], chain[3])
		if want := sorted(chain[:4]...); !reflect.DeepEqual(keys(col.Collections), want) {
			t.Errorf("collections %v, want %v", keys(col.Collections), want)
		}
		c := col.Collections[chain[3]]
		if p, want := sortedPath(col, c.ID, c.DefaultLevel, c.Parent), sortedPath(whole, c.ID, c.DefaultLevel, c.Parent); !reflect.DeepEqual(p, want) {
			t.Errorf("collection path %v, want %v", p, want)
		}

		// A second chain adds what is missing and repeats no grant.
		err := db.Read(f.ctx, func(tx *store.Tx) error { return got.AddChain(f.ctx, tx, org, user.ID, space, beside) })
		if err != nil {
			t.Fatal(err)
		}
		if want := sorted(append(slices.Clone(chain), beside)...); !reflect.DeepEqual(keys(got.Collections), want) {
			t.Errorf("after a second chain: collections %v, want %v", keys(got.Collections), want)
		}
		if !reflect.DeepEqual(got.Grants[space], []folio.Role{folio.RoleComment}) || !reflect.DeepEqual(got.Grants[beside], []folio.Role{folio.RoleAdmin}) {
			t.Errorf("after a second chain: grants %v", got.Grants)
		}

		// At the top level only the item's grants are loaded; item "" loads none.
		if top := f.chain(org, user.ID, space, ""); len(top.Collections) != 0 || len(top.Grants) != 1 {
			t.Errorf("top level: %v", top)
		}
		if none := f.chain(org, user.ID, "", ""); len(none.Collections) != 0 || len(none.Grants) != 0 {
			t.Errorf("nothing: %v", none)
		}
		if missing := f.chain(org, user.ID, space, folio.NewID()); len(missing.Collections) != 0 {
			t.Errorf("missing parent: %v", missing)
		}
	})
}

// TestContentChainStaysInItsOrganization checks that another organization's
// collections and grants never join a chain: not when asked for its
// collection, not when damaged data points a parent at it.
func TestContentChainStaysInItsOrganization(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := chainFixture{t: t, db: db, ctx: context.Background()}
		user := newUser(t, db, "user@example.com")
		org, otherOrg := newOrg(t, db, user.ID, "").ID, newOrg(t, db, user.ID, "").ID
		theirs := f.collection(otherOrg, "", folio.Level{Role: folio.RoleAdmin})
		f.grant(otherOrg, folio.TargetCollection, theirs, folio.PrincipalUser, user.ID, folio.RoleAdmin)
		f.grant(otherOrg, folio.TargetCollection, theirs, folio.PrincipalTeam, f.team(otherOrg, user.ID), folio.RoleAdmin)

		if got := f.chain(org, user.ID, "", theirs); len(got.Collections)+len(got.Grants) != 0 {
			t.Errorf("another organization's collection: %v", got)
		}
		top := f.collection(org, "", folio.Level{Inherit: true})
		below := f.collection(org, top, folio.Level{Inherit: true})
		f.reparent(org, top, theirs)
		got := f.chain(org, user.ID, "", below)
		if want := sorted(top, below); !reflect.DeepEqual(keys(got.Collections), want) || len(got.Grants) != 0 {
			t.Errorf("chain through another organization: %v, want collections %v and no grants", got, want)
		}
	})
}

// TestContentChainEndsOnLoops loads chains over parents that loop (which
// moves refuse, so only damaged data has them) and over a chain longer
// than the bound: each load ends, with each collection once.
func TestContentChainEndsOnLoops(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := chainFixture{t: t, db: db, ctx: context.Background()}
		user := newUser(t, db, "user@example.com")
		org := newOrg(t, db, user.ID, "").ID
		inherit := folio.Level{Inherit: true}

		self := f.collection(org, "", inherit)
		f.reparent(org, self, self)
		a := f.collection(org, "", inherit)
		b := f.collection(org, a, inherit)
		c := f.collection(org, b, inherit)
		f.reparent(org, a, c)
		f.grant(org, folio.TargetCollection, b, folio.PrincipalUser, user.ID, folio.RoleEdit)
		for _, tt := range []struct {
			from folio.ID
			want []folio.ID
		}{{self, []folio.ID{self}}, {c, []folio.ID{a, b, c}}, {a, []folio.ID{a, b, c}}} {
			got := f.chain(org, user.ID, "", tt.from)
			if !reflect.DeepEqual(keys(got.Collections), sorted(tt.want...)) {
				t.Errorf("loop from %s: collections %v, want %v", tt.from, keys(got.Collections), sorted(tt.want...))
			}
			if len(tt.want) == 3 && !reflect.DeepEqual(got.Grants, map[folio.ID][]folio.Role{b: {folio.RoleEdit}}) {
				t.Errorf("loop from %s: grants %v", tt.from, got.Grants)
			}
			if role := folio.EffectiveRole(folio.RoleRead, got.Path(folio.NewID(), inherit, tt.from)); len(tt.want) == 3 && role != folio.RoleEdit {
				t.Errorf("loop from %s: role %s, want edit", tt.from, role)
			}
		}

		parent := folio.ID("")
		var deep []folio.ID
		f.write(func(tx *store.Tx) error {
			for i := range store.MaxCollectionChain + 10 {
				col := folio.Collection{ID: folio.NewID(), OrganizationID: org, Parent: parent, Title: fmt.Sprint("D", i),
					DefaultLevel: inherit, CreatedAt: tx.Now, UpdatedAt: tx.Now}
				if err := store.CreateCollection(f.ctx, tx, &col); err != nil {
					return err
				}
				parent = col.ID
				deep = append(deep, col.ID)
			}
			return nil
		})
		got := f.chain(org, user.ID, "", parent)
		if want := sorted(deep[10:]...); !reflect.DeepEqual(keys(got.Collections), want) {
			t.Errorf("deep chain: %d collections, want the lowest %d", len(got.Collections), store.MaxCollectionChain)
		}
	})
}

// TestCollectionDescendants lists the collections below one at any depth,
// in its organization only, each once even when parents loop.
func TestCollectionDescendants(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := chainFixture{t: t, db: db, ctx: context.Background()}
		user := newUser(t, db, "user@example.com")
		org, otherOrg := newOrg(t, db, user.ID, "").ID, newOrg(t, db, user.ID, "").ID
		inherit := folio.Level{Inherit: true}
		top := f.collection(org, "", inherit)
		a := f.collection(org, top, inherit)
		b := f.collection(org, a, inherit)
		c := f.collection(org, b, inherit)
		d := f.collection(org, top, inherit)
		f.collection(org, "", inherit)
		foreign := f.collection(otherOrg, "", inherit)
		f.reparent(otherOrg, foreign, b) // damaged: another organization's child
		below := func(id folio.ID) []folio.ID {
			var ids []folio.ID
			err := db.Read(f.ctx, func(tx *store.Tx) (err error) {
				ids, err = store.CollectionDescendants(f.ctx, tx, org, id)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return sorted(ids...)
		}
		if got, want := below(top), sorted(a, b, c, d); !reflect.DeepEqual(got, want) {
			t.Errorf("below top: %v, want %v", got, want)
		}
		if got := below(c); len(got) != 0 {
			t.Errorf("below a leaf: %v", got)
		}
		f.reparent(org, top, c) // a loop
		if got, want := below(top), sorted(a, b, c, d); !reflect.DeepEqual(got, want) {
			t.Errorf("below top in a loop: %v, want %v", got, want)
		}
	})
}
