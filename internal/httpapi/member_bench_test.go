package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// BenchmarkListMembers10k lists 50 of 10,000 members with each sort and
// with the text filter, on each store, and reports the p99 latency of one
// request through the whole handler chain.
func BenchmarkListMembers10k(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			org, admin := s.Org(b)
			seedMembers(b, s, org, admin, 10_000)
			for _, c := range []struct{ name, query string }{
				{"joinedAt", ""},
				{"lastSeenAt", "&sort=lastSeenAt"},
				{"search", "&search=person12"},
				{"search+lastSeenAt", "&search=person1&sort=lastSeenAt"},
			} {
				b.Run(c.name, func(b *testing.B) {
					benchGetP99(b, s.Handler, admin, "/v1/orgs/"+org+"/members?limit=50"+c.query)
				})
			}
		})
	}
}

// seedMembers adds n members through the app: invitations of 500, and a
// ping from every other member so that half have been seen.
func seedMembers(b *testing.B, s *apitest.Server, org folio.ID, adminToken string, n int) {
	b.Helper()
	ctx := context.Background()
	admin, err := s.App.Authenticate(ctx, adminToken)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i += 500 {
		in := &app.InviteInput{Role: folio.Some("read")}
		for j := i; j < i+500 && j < n; j++ {
			in.Emails = append(in.Emails, json.RawMessage(fmt.Sprintf("%q", fmt.Sprintf("person%d@example.com", j))))
		}
		res, err := s.App.InviteByEmail(ctx, admin, org, in)
		if err != nil {
			b.Fatal(err)
		}
		for k, id := range res.Users {
			if k%2 == 0 {
				if _, err := s.App.Ping(ctx, folio.Caller{UserID: id}, org); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
