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

// BenchmarkListComments1k lists 1,000 comments in one page, each with two
// replies by different users and a reaction, on each store, and reports the
// p99 latency of one request through the whole handler chain. Its cost
// must come from the rows, not from a query per comment.
func BenchmarkListComments1k(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		b.Run(kind, func(b *testing.B) {
			s := apitest.New(b, kind, apitest.Options{})
			org, admin := s.Org(b)
			space := newSpace(b, s, admin, org, "Busy")
			ctx := context.Background()
			var callers []folio.Caller
			for range 3 {
				_, tok := s.Member(b, org, folio.RoleComment)
				c, err := s.App.Authenticate(ctx, tok)
				if err != nil {
					b.Fatal(err)
				}
				callers = append(callers, c)
			}
			scope := app.CommentScope{Space: space}
			for i := range 1000 {
				text := fmt.Sprintf("Comment %d about **this**", i)
				c, err := s.App.PostComment(ctx, callers[i%3], scope, folio.NewComment{Body: &folio.CommentBody{Markdown: &text}})
				if err != nil {
					b.Fatal(err)
				}
				for j := 1; j <= 2; j++ {
					reply := "A reply"
					if _, err := s.App.PostReply(ctx, callers[(i+j)%3], scope, c.ID, &folio.CommentBody{Markdown: &reply}, folio.FormatMarkdown); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.App.UpdateComment(ctx, callers[(i+1)%3], scope, c.ID, &folio.CommentUpdate{AddedReactions: []string{"👍"}}); err != nil {
					b.Fatal(err)
				}
			}
			for _, format := range []string{"markdown", "document"} {
				b.Run(format, func(b *testing.B) {
					benchGetP99(b, s.Handler, admin, "/v1/spaces/"+space+"/comments?limit=1000&format="+format)
				})
			}
		})
	}
}
