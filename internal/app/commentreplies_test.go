package app

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestListRepliesOfAsListReplies posts threads with replies (some without,
// some in a change request) and checks that the replies listed at once are
// those ListReplies lists thread by thread, for a reader, an editor and in
// both formats; that another organization's member gets NotFound; that
// another thread set's comments give nothing; and the per-thread bound.
func TestListRepliesOfAsListReplies(t *testing.T) {
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
			caller := func(email string, org folio.ID, role folio.Role) folio.Caller {
				acc, err := a.CreateAccount(ctx, NewAccount{Email: email, Name: email, Organization: org, Role: role})
				must(err)
				return folio.Caller{UserID: acc.User.ID}
			}
			reader, editor := caller("reader@example.com", org.ID, folio.RoleRead), caller("editor@example.com", org.ID, folio.RoleEdit)
			otherAcc, err := a.CreateAccount(ctx, NewAccount{Email: "other@example.com", Name: "Other"})
			must(err)
			other := folio.Caller{UserID: otherAcc.User.ID}
			_, err = a.CreateOrganization(ctx, other, folio.NewOrganization{Title: "Theirs"})
			must(err)
			sv, err := a.CreateSpace(ctx, admin, org.ID, folio.NewSpace{Title: "Docs"})
			must(err)
			cr, err := a.CreateChangeRequest(ctx, admin, sv.ID, folio.NewChangeRequest{Subject: "Change"})
			must(err)
			body := func(s string) *folio.CommentBody { return &folio.CommentBody{Markdown: &s} }
			main, inCR := CommentScope{Space: sv.ID}, CommentScope{Space: sv.ID, ChangeRequest: cr.ID}

			var ids []folio.ID
			for i := range 6 {
				c, err := a.PostComment(ctx, admin, main, folio.NewComment{Body: body(fmt.Sprint("comment ", i))})
				must(err)
				ids = append(ids, c.ID)
				for j := range i % 4 {
					by := admin
					if j%2 == 1 {
						by = editor
					}
					_, err := a.PostReply(ctx, by, main, c.ID, body(fmt.Sprintf("reply %d.%d *em*", i, j)), folio.FormatMarkdown)
					must(err)
				}
			}
			crc, err := a.PostComment(ctx, admin, inCR, folio.NewComment{Body: body("in the change request")})
			must(err)
			_, err = a.PostReply(ctx, admin, inCR, crc.ID, body("a reply in the change request"), folio.FormatMarkdown)
			must(err)

			for _, who := range []struct {
				name   string
				caller folio.Caller
			}{{"reader", reader}, {"editor", editor}, {"admin", admin}} {
				for _, format := range []string{folio.FormatMarkdown, folio.FormatDocument} {
					got, err := a.ListRepliesOf(ctx, who.caller, main, ids, format, 0)
					must(err)
					n := 0
					for _, id := range ids {
						want, err := a.ListReplies(ctx, who.caller, main, id, format, folio.ListOptions{Limit: 100})
						must(err)
						n += len(want.Items)
						if len(want.Items) == 0 {
							if len(got[id]) != 0 {
								t.Errorf("%s: comment %s: %d replies, want none", who.name, id, len(got[id]))
							}
							continue
						}
						// The users named are shared by all the replies listed: a
						// superset of each thread's, with the same values.
						if len(got[id]) == len(want.Items) {
							for k := range want.Items {
								for uid, u := range want.Items[k].Users {
									if got[id][k].Users[uid] != u {
										t.Errorf("%s: reply %s: user %s is %+v, want %+v", who.name, want.Items[k].ID, uid, got[id][k].Users[uid], u)
									}
								}
								got[id][k].Users, want.Items[k].Users = nil, nil
							}
						}
						if !reflect.DeepEqual(got[id], want.Items) {
							t.Errorf("%s %s: comment %s: replies\n%+v\nwant\n%+v", who.name, format, id, got[id], want.Items)
						}
					}
					if n == 0 {
						t.Fatal("no replies: the fixture tests nothing")
					}
				}
			}
			// A reader's replies carry a reader's permissions: neither edit nor delete.
			got, err := a.ListRepliesOf(ctx, reader, main, ids, folio.FormatMarkdown, 0)
			must(err)
			if p := got[ids[3]][0].Permissions; p.Edit || p.Delete || !p.View {
				t.Errorf("reader's permissions on a reply: %+v", p)
			}

			// Another organization's member: NotFound, as for ListReplies.
			if _, err := a.ListRepliesOf(ctx, other, main, ids, folio.FormatMarkdown, 0); !folio.IsNotFound(err) {
				t.Errorf("another organization's member: %v, want NotFound", err)
			}
			if _, err := a.ListReplies(ctx, other, main, ids[1], folio.FormatMarkdown, folio.ListOptions{}); !folio.IsNotFound(err) {
				t.Errorf("another organization's member (ListReplies): %v, want NotFound", err)
			}
			// Comments of another thread set, or unknown ids, have no replies.
			cross, err := a.ListRepliesOf(ctx, admin, main, []folio.ID{crc.ID, folio.NewID()}, folio.FormatMarkdown, 0)
			must(err)
			if len(cross) != 0 {
				t.Errorf("a change request's comment listed in the main content: %v", cross)
			}
			crReplies, err := a.ListRepliesOf(ctx, admin, inCR, []folio.ID{crc.ID, ids[3]}, folio.FormatMarkdown, 0)
			must(err)
			if len(crReplies) != 1 || len(crReplies[crc.ID]) != 1 {
				t.Errorf("change request replies: %v", crReplies)
			}
			// The per-thread bound keeps each thread's first replies.
			two, err := a.ListRepliesOf(ctx, admin, main, ids, folio.FormatMarkdown, 2)
			must(err)
			all, err := a.ListRepliesOf(ctx, admin, main, ids, folio.FormatMarkdown, 0)
			must(err)
			if len(all[ids[3]]) != 3 || !reflect.DeepEqual(two[ids[3]], all[ids[3]][:2]) || len(two[ids[2]]) != 2 {
				t.Errorf("two per thread: %d and %d replies", len(two[ids[3]]), len(two[ids[2]]))
			}
		})
	}
}

// TestListRepliesOfTotalBound checks the bound on all replies: every
// thread keeps its first replies before any keeps more.
func TestListRepliesOfTotalBound(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := New(Config{DB: db})
		acc, err := a.CreateAccount(ctx, NewAccount{Email: "admin@example.com", Name: "Admin"})
		if err != nil {
			t.Fatal(err)
		}
		admin := folio.Caller{UserID: acc.User.ID}
		org, _ := a.CreateOrganization(ctx, admin, folio.NewOrganization{Title: "Org"})
		sv, err := a.CreateSpace(ctx, admin, org.ID, folio.NewSpace{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		md := "x"
		var ids []folio.ID
		for range 3 {
			c, err := a.PostComment(ctx, admin, CommentScope{Space: sv.ID}, folio.NewComment{Body: &folio.CommentBody{Markdown: &md}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
			for range 4 {
				if _, err := a.PostReply(ctx, admin, CommentScope{Space: sv.ID}, c.ID, &folio.CommentBody{Markdown: &md}, folio.FormatMarkdown); err != nil {
					t.Fatal(err)
				}
			}
		}
		var got map[folio.ID][]folio.Comment
		err = db.Read(ctx, func(tx *store.Tx) (err error) {
			got, err = store.ListRepliesOf(ctx, tx, sv.ID, "", ids, 100, 7)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(got[ids[0]]) + len(got[ids[1]]) + len(got[ids[2]]); n != 7 || len(got[ids[0]]) != 3 || len(got[ids[2]]) != 2 {
			t.Errorf("7 of 12 replies: %d, %d, %d", len(got[ids[0]]), len(got[ids[1]]), len(got[ids[2]]))
		}
	})
}

// BenchmarkRepliesOfThreads loads the replies of 200 threads of 5 replies
// each, as a comments page does: at once (ListRepliesOf), or one call per
// thread as the web app did before (oneByOne).
func BenchmarkRepliesOfThreads(b *testing.B) {
	for _, oneByOne := range []bool{false, true} {
		for _, kind := range storetest.Stores(b) {
			name := kind + "/batched"
			if oneByOne {
				name = kind + "/one-by-one"
			}
			b.Run(name, func(b *testing.B) {
				ctx := context.Background()
				a := New(Config{DB: storetest.Open(b, kind, store.Config{})})
				acc, err := a.CreateAccount(ctx, NewAccount{Email: "admin@example.com", Name: "Admin"})
				if err != nil {
					b.Fatal(err)
				}
				admin := folio.Caller{UserID: acc.User.ID}
				org, _ := a.CreateOrganization(ctx, admin, folio.NewOrganization{Title: "Org"})
				sv, err := a.CreateSpace(ctx, admin, org.ID, folio.NewSpace{Title: "Docs"})
				if err != nil {
					b.Fatal(err)
				}
				sc := CommentScope{Space: sv.ID}
				md := "A *short* remark."
				var ids []folio.ID
				for range 200 {
					c, err := a.PostComment(ctx, admin, sc, folio.NewComment{Body: &folio.CommentBody{Markdown: &md}})
					if err != nil {
						b.Fatal(err)
					}
					ids = append(ids, c.ID)
					for range 5 {
						if _, err := a.PostReply(ctx, admin, sc, c.ID, &folio.CommentBody{Markdown: &md}, folio.FormatMarkdown); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ResetTimer()
				for range b.N {
					if !oneByOne {
						if _, err := a.ListRepliesOf(ctx, admin, sc, ids, folio.FormatDocument, MaxRepliesPerThread); err != nil {
							b.Fatal(err)
						}
						continue
					}
					for _, id := range ids {
						if _, err := a.ListReplies(ctx, admin, sc, id, folio.FormatDocument, folio.ListOptions{Limit: 100}); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
