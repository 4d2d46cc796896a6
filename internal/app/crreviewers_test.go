package app

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// reviewerCandidatesOneByOne is ListReviewerCandidates as it was before
// its chains were batched: one content chain per member below review.
func reviewerCandidatesOneByOne(t testing.TB, a *App, spaceID folio.ID) []folio.ID {
	t.Helper()
	ctx := context.Background()
	var out []folio.ID
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		sv, err := store.GetSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		ms, err := store.ListMembers(ctx, tx, sv.OrganizationID, folio.MemberFilter{}, folio.ListOptions{Limit: MaxReviewerCandidates})
		if err != nil {
			return err
		}
		for _, m := range ms.Items {
			if m.Disabled {
				continue
			}
			role := m.Role
			if !folio.SpacePerms(role, sv.EditMode).Review {
				tree, err := store.LoadContentChain(ctx, tx, sv.OrganizationID, m.UserID, sv.ID, sv.Parent)
				if err != nil {
					return err
				}
				role = folio.EffectiveRole(m.Role, tree.Path(sv.ID, sv.DefaultLevel, sv.Parent))
			}
			if folio.SpacePerms(role, sv.EditMode).Review {
				out = append(out, m.UserID)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReviewerCandidatesBatchedAsOneByOne builds an organization whose
// members reach review on a space in every way (organization role, a grant
// to them or their team on the space or on a collection above it, a
// collection's or the space's default level) and in none, some disabled,
// and checks that the batched candidates are those the per-member chains
// give, as the space's and collections' levels change.
func TestReviewerCandidatesBatchedAsOneByOne(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			a := New(Config{DB: storetest.Open(t, kind, store.Config{})})
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			acc, err := a.CreateAccount(ctx, NewAccount{Email: "admin@example.com", Name: "Admin"})
			must(err)
			admin := folio.Caller{UserID: acc.User.ID}
			org, err := a.CreateOrganization(ctx, admin, folio.NewOrganization{Title: "Org"})
			must(err)
			member := func(i int, role folio.Role) folio.ID {
				acc, err := a.CreateAccount(ctx, NewAccount{Email: fmt.Sprintf("m%d@example.com", i), Name: fmt.Sprint("M", i),
					Organization: org.ID, Role: role})
				must(err)
				return acc.User.ID
			}
			roles := []folio.Role{folio.RoleRead, folio.RoleComment, folio.RoleEdit, folio.RoleReview, folio.RoleAdmin}
			var users []folio.ID
			for i := range 30 {
				users = append(users, member(i, roles[i%len(roles)]))
			}
			top, err := a.CreateCollection(ctx, admin, org.ID, "Top", "")
			must(err)
			mid, err := a.CreateCollection(ctx, admin, org.ID, "Mid", top.ID)
			must(err)
			sv, err := a.CreateSpace(ctx, admin, org.ID, folio.NewSpace{Title: "Docs", Parent: mid.ID})
			must(err)
			cr, err := a.CreateChangeRequest(ctx, admin, sv.ID, folio.NewChangeRequest{Subject: "Change"})
			must(err)

			team, err := a.CreateTeam(ctx, admin, org.ID, "Reviewers", []string{users[0], users[1], users[5], users[6]})
			must(err)
			team2, err := a.CreateTeam(ctx, admin, org.ID, "Editors", []string{users[10], users[11], users[0]})
			must(err)
			grant := func(kind string, target folio.ID, pk string, p folio.ID, role folio.Role) {
				t.Helper()
				must(a.SetGrant(ctx, admin, kind, target, pk, p, folio.Some(string(role))))
			}
			grant(folio.TargetCollection, top.ID, folio.PrincipalTeam, team.ID, folio.RoleReview)
			grant(folio.TargetCollection, mid.ID, folio.PrincipalTeam, team2.ID, folio.RoleEdit)
			grant(folio.TargetSpace, sv.ID, folio.PrincipalUser, users[15], folio.RoleReview)
			grant(folio.TargetSpace, sv.ID, folio.PrincipalUser, users[16], folio.RoleAdmin)
			grant(folio.TargetCollection, mid.ID, folio.PrincipalUser, users[20], folio.RoleCreate)
			grant(folio.TargetCollection, top.ID, folio.PrincipalUser, users[21], folio.RoleComment)
			grant(folio.TargetSpace, sv.ID, folio.PrincipalTeam, team2.ID, folio.RoleReview)
			// Disabled members are never candidates, whatever they hold.
			for _, u := range []folio.ID{users[1], users[15], users[4]} {
				_, err := a.UpdateMember(ctx, admin, org.ID, u, &folio.MemberUpdate{Disabled: folio.Some(true)})
				must(err)
			}

			check := func(name string) {
				t.Helper()
				got, err := a.ListReviewerCandidates(ctx, admin, sv.ID, cr.ID)
				must(err)
				var ids []folio.ID
				for _, u := range got {
					ids = append(ids, u.ID)
				}
				want := reviewerCandidatesOneByOne(t, a, sv.ID)
				if !slices.Equal(ids, want) {
					t.Errorf("%s: candidates %v, want %v", name, ids, want)
				}
				for _, u := range []folio.ID{users[1], users[15], users[4]} {
					if slices.Contains(ids, u) {
						t.Errorf("%s: disabled member %s is a candidate", name, u)
					}
				}
				if len(want) == 0 {
					t.Errorf("%s: no candidates: the fixture tests nothing", name)
				}
			}
			check("grants")
			if got, _ := a.ListReviewerCandidates(ctx, admin, sv.ID, cr.ID); !containsUser(got, users[0]) || !containsUser(got, users[10]) ||
				!containsUser(got, users[16]) || containsUser(got, users[21]) {
				t.Errorf("grants: team, space and collection grants not applied as expected: %v", got)
			}

			_, err = a.UpdateCollection(ctx, admin, top.ID, &CollectionUpdate{DefaultLevel: folio.Some("review")})
			must(err)
			_, err = a.UpdateCollection(ctx, admin, mid.ID, &CollectionUpdate{DefaultLevel: folio.Some("inherit")})
			must(err)
			_, err = a.UpdateSpace(ctx, admin, sv.ID, &folio.SpaceUpdate{DefaultLevel: folio.Some("inherit")})
			must(err)
			check("inherited default level")
			_, err = a.UpdateSpace(ctx, admin, sv.ID, &folio.SpaceUpdate{DefaultLevel: folio.Some("read")})
			must(err)
			check("space default level")
			_, err = a.UpdateSpace(ctx, admin, sv.ID, &folio.SpaceUpdate{DefaultLevel: folio.Null[string]()})
			must(err)
			check("no default level")
		})
	}
}

func containsUser(us []folio.User, id folio.ID) bool {
	return slices.ContainsFunc(us, func(u folio.User) bool { return u.ID == id })
}

// BenchmarkReviewerCandidates lists the reviewer candidates of a space in
// an organization of 300 read members, each with a grant on the space: the
// batched chains answer in a fixed number of queries (compare with
// BenchmarkReviewerCandidatesOneByOne, one query per member).
func BenchmarkReviewerCandidates(b *testing.B) {
	benchReviewerCandidates(b, false)
}

// BenchmarkReviewerCandidatesOneByOne is the per-member computation.
func BenchmarkReviewerCandidatesOneByOne(b *testing.B) {
	benchReviewerCandidates(b, true)
}

func benchReviewerCandidates(b *testing.B, oneByOne bool) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			a := New(Config{DB: storetest.Open(b, kind, store.Config{})})
			acc, err := a.CreateAccount(ctx, NewAccount{Email: "admin@example.com", Name: "Admin"})
			if err != nil {
				b.Fatal(err)
			}
			admin := folio.Caller{UserID: acc.User.ID}
			org, err := a.CreateOrganization(ctx, admin, folio.NewOrganization{Title: "Org"})
			if err != nil {
				b.Fatal(err)
			}
			col, _ := a.CreateCollection(ctx, admin, org.ID, "Top", "")
			sv, err := a.CreateSpace(ctx, admin, org.ID, folio.NewSpace{Title: "Docs", Parent: col.ID})
			if err != nil {
				b.Fatal(err)
			}
			cr, err := a.CreateChangeRequest(ctx, admin, sv.ID, folio.NewChangeRequest{Subject: "Change"})
			if err != nil {
				b.Fatal(err)
			}
			for i := range 300 {
				u, err := a.CreateAccount(ctx, NewAccount{Email: fmt.Sprintf("m%d@example.com", i), Name: fmt.Sprint("M", i),
					Organization: org.ID, Role: folio.RoleRead})
				if err != nil {
					b.Fatal(err)
				}
				role := folio.RoleRead
				if i%2 == 0 {
					role = folio.RoleReview
				}
				if err := a.SetGrant(ctx, admin, folio.TargetSpace, sv.ID, folio.PrincipalUser, u.User.ID, folio.Some(string(role))); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				if oneByOne {
					reviewerCandidatesOneByOne(b, a, sv.ID)
				} else if _, err := a.ListReviewerCandidates(ctx, admin, sv.ID, cr.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
