package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// BenchmarkMemberSpaces1000 measures what the spaces counts and the member
// spaces list cost: 1,000 spaces over 20 collections in four five-level
// branches, 20 teams each granted one collection, 200 guests each in one
// team and granted one more collection, 100 members with a role. It reports
// the p99 of listing the members (whose counts need the grouped query), the
// teams, and one guest's and one reader's spaces.
func BenchmarkMemberSpaces1000(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			s := apitest.New(b, kind, apitest.Options{})
			org, adminTok := s.Org(b)
			admin, _ := s.App.Authenticate(ctx, adminTok)
			var cols []folio.ID
			for branch := range 4 {
				parent := folio.ID("")
				for depth := range 5 {
					c, err := s.App.CreateCollection(ctx, admin, org, fmt.Sprintf("C%d.%d", branch, depth), parent)
					if err != nil {
						b.Fatal(err)
					}
					parent = c.ID
					cols = append(cols, c.ID)
				}
			}
			for i := range 1000 {
				if _, err := s.App.CreateSpace(ctx, admin, org, folio.NewSpace{Title: fmt.Sprintf("Space %d", i), Parent: cols[i%len(cols)]}); err != nil {
					b.Fatal(err)
				}
			}
			grant := func(target folio.ID, in *app.GrantInput) {
				if err := s.App.Grant(ctx, admin, folio.TargetCollection, target, in); err != nil {
					b.Fatal(err)
				}
			}
			var guests []folio.ID
			for range 200 {
				u, _ := s.Member(b, org, folio.RoleGuest)
				guests = append(guests, u.ID)
			}
			for i := range 20 {
				var members []string
				for j := i; j < len(guests); j += 20 {
					members = append(members, guests[j])
				}
				t, err := s.App.CreateTeam(ctx, admin, org, fmt.Sprintf("Team %d", i), members)
				if err != nil {
					b.Fatal(err)
				}
				grant(cols[i], &app.GrantInput{Role: folio.Some("read"), Teams: []folio.ID{t.ID}})
			}
			for i, g := range guests {
				grant(cols[(i*7)%len(cols)], &app.GrantInput{Role: folio.Some("comment"), Users: []folio.ID{g}})
			}
			reader, _ := s.Member(b, org, folio.RoleRead)
			for range 99 {
				s.Member(b, org, folio.RoleEdit)
			}
			for _, c := range []struct{ name, path string }{
				{"members", "/members?limit=1000"},
				{"teams", "/teams?limit=1000"},
				{"guest-spaces", "/members/" + guests[0] + "/spaces?limit=1000"},
				{"reader-spaces", "/members/" + reader.ID + "/spaces?limit=1000"},
			} {
				b.Run(c.name, func(b *testing.B) {
					benchGetP99(b, s.Handler, adminTok, "/v1/orgs/"+org+c.path)
				})
			}
		})
	}
}
