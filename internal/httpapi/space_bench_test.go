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

// BenchmarkListSpaces1000 lists 1,000 spaces spread over a five-level
// collection tree, as a member whose roles come from team grants at several
// levels and from default levels, in one page, and reports the p99.
func BenchmarkListSpaces1000(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			s := apitest.New(b, kind, apitest.Options{})
			org, adminTok := s.Org(b)
			admin, _ := s.App.Authenticate(ctx, adminTok)
			member, memberTok := s.Member(b, org, folio.RoleRead)
			// Five levels, four branches at the top: 20 collections.
			var all []folio.ID
			for branch := range 4 {
				parent := folio.ID("")
				for depth := range 5 {
					c, err := s.App.CreateCollection(ctx, admin, org, fmt.Sprintf("C%d.%d", branch, depth), parent)
					if err != nil {
						b.Fatal(err)
					}
					parent = c.ID
					all = append(all, c.ID)
				}
			}
			// Three teams with grants at different depths.
			for i, target := range []folio.ID{all[0], all[7], all[14]} {
				t, err := s.App.CreateTeam(ctx, admin, org, fmt.Sprintf("Team %d", i), []string{member.ID})
				if err != nil {
					b.Fatal(err)
				}
				in := &app.GrantInput{Role: folio.Some("edit"), Teams: []folio.ID{t.ID}}
				if err := s.App.Grant(ctx, admin, folio.TargetCollection, target, in); err != nil {
					b.Fatal(err)
				}
			}
			for i := range 1000 {
				parent := all[i%len(all)]
				if _, err := s.App.CreateSpace(ctx, admin, org, folio.NewSpace{Title: fmt.Sprintf("Space %d", i), Parent: parent}); err != nil {
					b.Fatal(err)
				}
			}
			benchGetP99(b, s.Handler, memberTok, "/v1/orgs/"+org+"/spaces?limit=1000")
		})
	}
}
