package httpapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// BenchmarkReadLargeOrg reads one space and one of its pages, as a member
// with the read role, in an organization of 10,000 spaces as it grows from
// 0 to 200 to 2,000 collections (a tree five levels deep, the member
// granted a role on one in a hundred). The space read sits at the top
// level, in no collection, so only the organization's size changes. 16
// callers in parallel, as in the review that measured it.
//
// The filler spaces and collections are inserted through the store, in
// a few transactions: the app's CreateSpace (a revision and an index per
// space) would take minutes for 10,000.
func BenchmarkReadLargeOrg(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			org, admin := s.Org(b)
			member, memberTok := s.Member(b, org, folio.RoleRead)
			space := newSpace(b, s, admin, org, "Read me")
			importInto(b, s, admin, space, "", "markdown", []byte("# Read me\n\nA page of the space.\n"))
			page := pageIDs(b, s, admin, space)["Read me"]
			if page == "" {
				b.Fatal("no page imported")
			}
			seedSpaces(b, s.DB, org, 10_000)
			var cols []folio.ID
			for _, n := range []int{0, 200, 2000} {
				cols = seedCollections(b, s.DB, org, member.ID, cols, n)
				for _, c := range []struct{ name, path string }{
					{"space", "/v1/spaces/" + space},
					{"page", "/v1/spaces/" + space + "/content/page/" + page},
				} {
					b.Run(fmt.Sprintf("collections=%d/%s", n, c.name), func(b *testing.B) {
						b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
						benchRequest(b, s.Handler, memberTok, "GET", c.path, nil)
					})
				}
			}
		})
	}
}

// seedSpaces inserts n spaces at an organization's top level, without
// content (nobody reads them).
func seedSpaces(b *testing.B, db *store.DB, org folio.ID, n int) {
	b.Helper()
	ctx := context.Background()
	for i := 0; i < n; i += 1000 {
		err := db.Write(ctx, func(tx *store.Tx) error {
			for j := i; j < min(i+1000, n); j++ {
				sp := folio.Space{ID: folio.NewID(), OrganizationID: org, Title: fmt.Sprintf("Filler %d", j),
					EditMode: folio.EditModeLive, DefaultLevel: folio.Level{Inherit: true},
					MergeRules: folio.MergeRules{Type: "inherit"}, Visibility: "private", Revision: folio.NewID(),
					CreatedAt: tx.Now, UpdatedAt: tx.Now}
				if err := store.CreateSpace(ctx, tx, &sp); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// seedCollections adds collections to cols until there are n: twenty at the
// top level, each next one under the fifth of the ones before it (a tree
// five levels deep at 2,000), and grants userID the edit role on one in a
// hundred.
func seedCollections(b *testing.B, db *store.DB, org, userID folio.ID, cols []folio.ID, n int) []folio.ID {
	b.Helper()
	ctx := context.Background()
	err := db.Write(ctx, func(tx *store.Tx) error {
		for i := len(cols); i < n; i++ {
			c := folio.Collection{ID: folio.NewID(), OrganizationID: org, Title: fmt.Sprintf("Collection %d", i),
				DefaultLevel: folio.Level{Inherit: true}, CreatedAt: tx.Now, UpdatedAt: tx.Now}
			if i >= 20 {
				c.Parent = cols[(i-20)/5]
			}
			if err := store.CreateCollection(ctx, tx, &c); err != nil {
				return err
			}
			if i%100 == 0 {
				if err := store.SetGrant(ctx, tx, org, folio.TargetCollection, c.ID, folio.PrincipalUser, userID, folio.RoleEdit); err != nil {
					return err
				}
			}
			cols = append(cols, c.ID)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return cols
}

// BenchmarkMoveLargeOrg moves a top-level space before and after another
// in organizations of 100 and 10,000 top-level spaces: a move reads the
// neighbours of its place, not the siblings, so both cost the same (the
// occasional renumbering of a gap that is full aside).
func BenchmarkMoveLargeOrg(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			for _, n := range []int{100, 10_000} {
				b.Run(fmt.Sprintf("spaces=%d", n), func(b *testing.B) {
					s := apitest.New(b, kind, apitest.Options{})
					org, admin := s.Org(b)
					seedSpaces(b, s.DB, org, n/2)
					moved := newSpace(b, s, admin, org, "Moved")
					ref := newSpace(b, s, admin, org, "Reference")
					seedSpaces(b, s.DB, org, n/2)
					// Moved starts right before the reference: first after it.
					bodies := []string{
						`{"position":{"after":{"type":"space","space":"` + ref + `"}}}`,
						`{"position":{"before":{"type":"space","space":"` + ref + `"}}}`,
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						req := httptest.NewRequest("POST", "/v1/spaces/"+moved+"/move", strings.NewReader(bodies[i%2]))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("Authorization", "Bearer "+admin)
						rec := httptest.NewRecorder()
						s.Handler.ServeHTTP(rec, req)
						if rec.Code != 200 {
							b.Fatalf("move %d: %d %s", i, rec.Code, rec.Body)
						}
					}
				})
			}
		})
	}
}
