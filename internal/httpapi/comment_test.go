package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

// commentBody is a comment or reply as the API answers it.
type commentBody struct {
	Object, ID, Status, PostedAt string
	EditedAt, ResolvedAt         *string
	PostedBy                     struct{ ID string }
	ResolvedBy                   *struct{ ID string }
	Body                         struct {
		Markdown *string
		Document *struct {
			Object string
			Nodes  []map[string]any
		}
	}
	Replies  int
	Repliers []struct {
		Count     int
		UpdatedAt string
		User      struct{ ID string }
	}
	Reactions []struct {
		Emoji string
		Count int
		Users []struct {
			User      struct{ ID string }
			ReactedAt string
		}
	}
	Target struct {
		Node      *struct{ ID string }
		TableCell *struct{ Record, Definition string }
		Page      *struct {
			ID, Title, Path string
			Outdated        bool
		}
		Space, Revision, ChangeRequest string
	}
	URLs        struct{ Location string }
	Permissions struct{ View, Edit, Reply, Delete bool }
}

type commentList struct {
	Count int
	Next  *struct{ Page string }
	Items []commentBody
}

// postComment posts a comment in a space and returns it.
func postComment(t testing.TB, s *apitest.Server, token, space string, body any) commentBody {
	t.Helper()
	var c commentBody
	s.Do(t, token, "POST", "/v1/spaces/"+space+"/comments", body).WantStatus(t, 200).JSON(t, &c)
	return c
}

// whoami returns the id of a token's user.
func whoami(t testing.TB, s *apitest.Server, token string) string {
	t.Helper()
	var u struct{ ID string }
	s.Do(t, token, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &u)
	return u.ID
}

func md(s string) map[string]any { return map[string]any{"body": map[string]any{"markdown": s}} }

func TestCommentLifecycle(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		editor, edTok := s.Member(t, org, folio.RoleEdit)
		space := newSpace(t, s, admin, org, "Docs")
		base := "/v1/spaces/" + space + "/comments"

		c := postComment(t, s, edTok, space, md("Is **this** right?"))
		if c.Object != "comment" || c.Status != "open" || c.PostedBy.ID != editor.ID || *c.Body.Markdown != "Is **this** right?" ||
			c.Target.Space != space || c.Target.Revision == "" || c.URLs.Location != apitest.PublicURL+base+"/"+c.ID ||
			c.Permissions != (struct{ View, Edit, Reply, Delete bool }{true, true, true, true}) || c.Reactions == nil {
			t.Fatalf("posted comment %+v", c)
		}
		// The same comment as the admin sees it: not theirs to edit, but
		// theirs to delete.
		var got commentBody
		s.Do(t, admin, "GET", base+"/"+c.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Permissions != (struct{ View, Edit, Reply, Delete bool }{true, false, true, true}) {
			t.Fatalf("admin's permissions %+v", got.Permissions)
		}
		// As a Document.
		var doc commentBody
		s.Do(t, admin, "GET", base+"/"+c.ID+"?format=document", nil).WantStatus(t, 200).JSON(t, &doc)
		if doc.Body.Document == nil || doc.Body.Document.Object != "document" || len(doc.Body.Document.Nodes) != 1 || doc.Body.Markdown != nil {
			t.Fatalf("document body %+v", doc.Body)
		}

		// Resolve, then open again.
		s.Clock.Advance(1)
		got = commentBody{}
		s.Do(t, admin, "PUT", base+"/"+c.ID, `{"resolved":true}`).WantStatus(t, 200).JSON(t, &got)
		if got.Status != "resolved" || got.ResolvedAt == nil || got.ResolvedBy == nil || got.ResolvedBy.ID != whoami(t, s, admin) {
			t.Fatalf("resolved %+v", got)
		}
		got = commentBody{}
		s.Do(t, edTok, "PUT", base+"/"+c.ID, `{"resolved":false}`).WantStatus(t, 200).JSON(t, &got)
		if got.Status != "open" || got.ResolvedAt != nil || got.ResolvedBy != nil {
			t.Fatalf("reopened %+v", got)
		}

		// Replies.
		var r commentBody
		s.Do(t, admin, "POST", base+"/"+c.ID+"/replies", md("Yes.")).WantStatus(t, 200).JSON(t, &r)
		if r.Object != "comment-reply" || *r.Body.Markdown != "Yes." || r.URLs.Location != apitest.PublicURL+base+"/"+c.ID+"/replies/"+r.ID {
			t.Fatalf("reply %+v", r)
		}
		s.Do(t, admin, "GET", base+"/"+c.ID+"/replies/"+r.ID, nil).WantStatus(t, 200)
		var rl commentList
		s.Do(t, edTok, "GET", base+"/"+c.ID+"/replies", nil).WantStatus(t, 200).JSON(t, &rl)
		if rl.Count != 1 || rl.Items[0].ID != r.ID || rl.Items[0].Permissions.Edit {
			t.Fatalf("replies %+v", rl)
		}
		s.Do(t, admin, "PUT", base+"/"+c.ID+"/replies/"+r.ID, md("Yes, quite.")).WantStatus(t, 200).JSON(t, &got)
		if *got.Body.Markdown != "Yes, quite." || got.EditedAt == nil {
			t.Fatalf("edited reply %+v", got)
		}
		s.Do(t, admin, "GET", base+"/"+c.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Replies != 1 || len(got.Repliers) != 1 || got.Repliers[0].Count != 1 || got.Repliers[0].User.ID != whoami(t, s, admin) {
			t.Fatalf("replies of the comment %+v", got)
		}
		s.Do(t, admin, "DELETE", base+"/"+c.ID+"/replies/"+r.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", base+"/"+c.ID+"/replies/"+r.ID, nil).WantError(t, 404, "comment reply not found")

		s.Do(t, edTok, "DELETE", base+"/"+c.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", base+"/"+c.ID, nil).WantError(t, 404, "comment not found")
		// Deleting again answers as deleted.
		s.Do(t, edTok, "DELETE", base+"/"+c.ID, nil).WantStatus(t, 204)
	})
}

// TestCommentValidation checks every bound of the comment endpoints, on
// both sides, and that a refused request changes nothing.
func TestCommentValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		base := "/v1/spaces/" + space + "/comments"
		c := postComment(t, s, admin, space, md("First"))
		reply := base + "/" + c.ID + "/replies"
		var r commentBody
		s.Do(t, admin, "POST", reply, md("Reply")).WantStatus(t, 200).JSON(t, &r)
		emojis := func(n int, e string) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = e
			}
			return out
		}
		long := strings.Repeat("a", folio.MaxCommentBody)
		for _, tt := range []struct {
			name, method, path string
			body               any
			status             int
			msg                string
		}{
			{"body/missing", "POST", base, `{"page":""}`, 400, "body is required"},
			{"body/no markdown", "POST", base, `{"body":{}}`, 400, "body.markdown is required"},
			{"body/blank", "POST", base, md("  \n "), 400, "body.markdown must not be blank"},
			{"body/too long", "POST", base, md(long + "a"), 400, "at most 20000 characters"},
			{"body/longest", "POST", base, md(long), 200, ""},
			{"body/document", "POST", base, `{"body":{"document":{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"From a document","marks":[]}]}]}]}}}`, 200, ""},
			{"body/bad document", "POST", base, `{"body":{"document":{"object":"nope"}}}`, 400, "body.document"},
			{"node/too long", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "node": strings.Repeat("n", 101)}, 400, "node must be at most 100"},
			{"node/longest", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "node": strings.Repeat("n", 100)}, 200, ""},
			{"page/unknown", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "page": "nope"}, 400, "page nope is not in the current content"},
			{"tableCell/partial", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "tableCell": map[string]any{"record": "r"}}, 400, "tableCell needs a record and a definition"},
			{"tableCell/too long", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "tableCell": map[string]any{"record": strings.Repeat("r", 101), "definition": "d"}}, 400, "at most 100"},
			{"tableCell/ok", "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "tableCell": map[string]any{"record": "r", "definition": "d"}}, 200, ""},
			{"reactions/too many", "PUT", base + "/" + c.ID, map[string]any{"addedReactions": emojis(21, "👍")}, 400, "addedReactions may hold at most 20"},
			{"reactions/most", "PUT", base + "/" + c.ID, map[string]any{"addedReactions": emojis(20, "👍")}, 200, ""},
			{"reactions/removed too many", "PUT", base + "/" + c.ID, map[string]any{"removedReactions": emojis(21, "👍")}, 400, "removedReactions may hold at most 20"},
			{"reactions/emoji too long", "PUT", base + "/" + c.ID, map[string]any{"addedReactions": []string{strings.Repeat("x", 51)}}, 400, "1 to 50 characters"},
			{"reactions/emoji longest", "PUT", base + "/" + c.ID, map[string]any{"addedReactions": []string{strings.Repeat("x", 50)}}, 200, ""},
			{"reactions/emoji blank", "PUT", base + "/" + c.ID, map[string]any{"addedReactions": []string{" "}}, 400, "1 to 50 characters"},
			{"update/blank body", "PUT", base + "/" + c.ID, md(""), 400, "body.markdown must not be blank"},
			{"reply/body missing", "POST", reply, `{}`, 400, "body is required"},
			{"reply/too long", "POST", reply, md(long + "a"), 400, "at most 20000 characters"},
			{"reply update/too many reactions", "PUT", reply + "/" + r.ID, map[string]any{"addedReactions": emojis(21, "👍")}, 400, "at most 20"},
			{"list/limit too high", "GET", base + "?limit=1001", nil, 400, "limit must be an integer between 1 and 1000"},
			{"list/limit highest", "GET", base + "?limit=1000", nil, 200, ""},
			{"list/limit zero", "GET", base + "?limit=0", nil, 400, "limit"},
			{"list/status", "GET", base + "?status=closed", nil, 400, "status must be all, open or resolved"},
			{"list/order", "GET", base + "?order=up", nil, 400, "order must be asc or desc"},
			{"list/format", "GET", base + "?format=html", nil, 400, "format must be markdown or document"},
			{"list/authors", "GET", base + "?" + strings.Repeat("authors=x&", 101), nil, 400, "authors may name at most 100"},
			{"list/authors most", "GET", base + "?" + strings.Repeat("authors=x&", 100), nil, 200, ""},
			{"list/bad page", "GET", base + "?page=zzz", nil, 400, "page"},
			{"replies/limit too high", "GET", reply + "?limit=1001", nil, 400, "limit"},
			{"get/format", "GET", base + "/" + c.ID + "?format=x", nil, 400, "format"},
			{"reply get/format", "GET", reply + "/" + r.ID + "?format=x", nil, 400, "format"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				before := s.Do(t, admin, "GET", base+"?limit=1000&format=markdown", nil).WantStatus(t, 200).Body
				beforeReplies := s.Do(t, admin, "GET", reply, nil).WantStatus(t, 200).Body
				if tt.status != 200 {
					// Requests the reference refuses too are sent unchecked.
					s.DoUnchecked(t, admin, tt.method, tt.path, tt.body).WantError(t, tt.status, tt.msg)
					if after := s.Do(t, admin, "GET", base+"?limit=1000&format=markdown", nil).Body; string(after) != string(before) {
						t.Fatalf("a refused request changed the comments")
					}
					if after := s.Do(t, admin, "GET", reply, nil).Body; string(after) != string(beforeReplies) {
						t.Fatalf("a refused request changed the replies")
					}
					return
				}
				s.Do(t, admin, tt.method, tt.path, tt.body).WantStatus(t, 200)
			})
		}
	})
}

// ids lists the ids of a comment list, in order.
func ids(l commentList) []string {
	out := []string{}
	for _, c := range l.Items {
		out = append(out, c.ID)
	}
	return out
}

func TestCommentListFilters(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		writer, wTok := s.Member(t, org, folio.RoleComment)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Guide\n\nRead me.\n"))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		page := rev.Pages[0].ID
		base := "/v1/spaces/" + space + "/comments"

		var posted []string
		for i := range 5 {
			s.Clock.Advance(time.Second)
			tok, body := admin, md(fmt.Sprintf("Comment %d", i))
			if i%2 == 1 {
				tok = wTok
			}
			if i >= 3 {
				body["page"] = page
			}
			posted = append(posted, postComment(t, s, tok, space, body).ID)
		}
		s.Do(t, admin, "PUT", base+"/"+posted[0], `{"resolved":true}`).WantStatus(t, 200)
		s.Do(t, admin, "PUT", base+"/"+posted[3], `{"resolved":true}`).WantStatus(t, 200)
		me := whoami(t, s, admin)

		rev5 := func(xs ...string) []string { return xs }
		for _, tt := range []struct {
			query string
			want  []string
		}{
			{"", rev5(posted[4], posted[3], posted[2], posted[1], posted[0])},
			{"?order=desc", rev5(posted[4], posted[3], posted[2], posted[1], posted[0])},
			{"?order=asc", rev5(posted[0], posted[1], posted[2], posted[3], posted[4])},
			{"?status=all", rev5(posted[4], posted[3], posted[2], posted[1], posted[0])},
			{"?status=open", rev5(posted[4], posted[2], posted[1])},
			{"?status=resolved", rev5(posted[3], posted[0])},
			{"?targetPage=" + page, rev5(posted[4], posted[3])},
			{"?targetPage=nope", []string{}},
			{"?authors=" + writer.ID, rev5(posted[3], posted[1])},
			{"?authors=" + writer.ID + "&authors=" + me + "&order=asc", rev5(posted[0], posted[1], posted[2], posted[3], posted[4])},
			{"?authors=" + writer.ID + "&status=open", rev5(posted[1])},
			{"?targetPage=" + page + "&status=open&authors=" + me, rev5(posted[4])},
		} {
			var l commentList
			s.Do(t, admin, "GET", base+tt.query, nil).WantStatus(t, 200).JSON(t, &l)
			if d := cmp.Diff(tt.want, ids(l)); d != "" || l.Count != len(tt.want) {
				t.Errorf("%s: count %d (-want +got):\n%s", tt.query, l.Count, d)
			}
		}

		// Pages of two, both orders, with exact counts.
		for _, order := range []string{"asc", "desc"} {
			var got []string
			next := ""
			for range 5 {
				var l commentList
				s.Do(t, admin, "GET", base+"?limit=2&order="+order+"&page="+next, nil).WantStatus(t, 200).JSON(t, &l)
				if l.Count != 5 {
					t.Fatalf("count %d, want 5", l.Count)
				}
				got = append(got, ids(l)...)
				if l.Next == nil {
					break
				}
				next = l.Next.Page
			}
			want := slices.Clone(posted)
			if order == "desc" {
				slices.Reverse(want)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s pages (-want +got):\n%s", order, d)
			}
		}

		// The page target reads the page as it is.
		var c commentBody
		s.Do(t, admin, "GET", base+"/"+posted[4], nil).WantStatus(t, 200).JSON(t, &c)
		if p := c.Target.Page; p == nil || p.ID != page || p.Title != "Guide" || p.Path != "guide" || p.Outdated {
			t.Fatalf("page target %+v", c.Target.Page)
		}
	})
}

func TestCommentOnRemovedPageStaysReadable(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Setup\n\nStep one.\n"))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		page := rev.Pages[0].ID
		c := postComment(t, s, admin, space, map[string]any{"body": map[string]any{"markdown": "Typo"}, "page": page, "node": "block-1"})
		// A template replaces the whole content: the page is gone.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "blank"}).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+page, nil).WantStatus(t, 404)

		var got commentBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/comments/"+c.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if p := got.Target.Page; p == nil || p.ID != page || p.Title != "Setup" || p.Path != "setup" || !p.Outdated {
			t.Fatalf("page target after removal %+v", got.Target.Page)
		}
		if got.Target.Node == nil || got.Target.Node.ID != "block-1" || got.Target.Revision != c.Target.Revision || *got.Body.Markdown != "Typo" {
			t.Fatalf("comment after removal %+v", got)
		}
		var l commentList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/comments?targetPage="+page+"&format=document", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].Body.Document == nil {
			t.Fatalf("list after removal %+v", l)
		}
		// It can still be answered and resolved.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/comments/"+c.ID+"/replies", md("Fixed.")).WantStatus(t, 200)
		s.Do(t, admin, "PUT", "/v1/spaces/"+space+"/comments/"+c.ID, `{"resolved":true}`).WantStatus(t, 200)
	})
}

func TestCommentReactions(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u1, t1 := s.Member(t, org, folio.RoleComment)
		_, reader := s.Member(t, org, folio.RoleRead)
		u3, t3 := s.Member(t, org, folio.RoleEdit)
		space := newSpace(t, s, admin, org, "Docs")
		c := postComment(t, s, admin, space, md("React"))
		path := "/v1/spaces/" + space + "/comments/" + c.ID
		var r commentBody
		s.Do(t, admin, "POST", path+"/replies", md("Reply")).WantStatus(t, 200).JSON(t, &r)

		type reaction struct {
			Emoji string
			Count int
			Users []string
		}
		reactions := func(p string) []reaction {
			var got commentBody
			s.Do(t, admin, "GET", p, nil).WantStatus(t, 200).JSON(t, &got)
			out := []reaction{}
			for _, x := range got.Reactions {
				rr := reaction{Emoji: x.Emoji, Count: x.Count}
				for _, u := range x.Users {
					rr.Users = append(rr.Users, u.User.ID)
				}
				out = append(out, rr)
			}
			return out
		}
		for _, p := range []string{path, path + "/replies/" + r.ID} {
			// Twice the same emoji in one request, and again later: once.
			s.Clock.Advance(time.Second)
			s.Do(t, t1, "PUT", p, `{"addedReactions":["👍","👍"]}`).WantStatus(t, 200)
			s.Clock.Advance(time.Second)
			s.Do(t, t1, "PUT", p, `{"addedReactions":["👍","🎉"]}`).WantStatus(t, 200)
			s.Clock.Advance(time.Second)
			s.Do(t, t3, "PUT", p, `{"addedReactions":["👍"]}`).WantStatus(t, 200)
			want := []reaction{{"👍", 2, []string{u1.ID, u3.ID}}, {"🎉", 1, []string{u1.ID}}}
			if d := cmp.Diff(want, reactions(p)); d != "" {
				t.Fatalf("%s reactions (-want +got):\n%s", p, d)
			}
			// Removing what one never added changes nothing.
			s.Do(t, t3, "PUT", p, `{"removedReactions":["🎉","❤️"]}`).WantStatus(t, 200)
			if d := cmp.Diff(want, reactions(p)); d != "" {
				t.Fatalf("%s after removing what was never added (-want +got):\n%s", p, d)
			}
			// A reader may not react, and nothing changes.
			s.Do(t, reader, "PUT", p, `{"addedReactions":["👀"]}`).WantError(t, 403, "cannot react")
			s.Do(t, t1, "PUT", p, `{"removedReactions":["👍"]}`).WantStatus(t, 200)
			s.Do(t, t1, "PUT", p, `{"removedReactions":["👍"]}`).WantStatus(t, 200)
			// Emojis come in the order of their earliest remaining reaction.
			want = []reaction{{"🎉", 1, []string{u1.ID}}, {"👍", 1, []string{u3.ID}}}
			if d := cmp.Diff(want, reactions(p)); d != "" {
				t.Fatalf("%s after removal (-want +got):\n%s", p, d)
			}
			// Added and removed in one request: removed.
			s.Do(t, t3, "PUT", p, `{"addedReactions":["🚀"],"removedReactions":["🚀","👍"]}`).WantStatus(t, 200)
			want = []reaction{{"🎉", 1, []string{u1.ID}}}
			if d := cmp.Diff(want, reactions(p)); d != "" {
				t.Fatalf("%s after add and remove (-want +got):\n%s", p, d)
			}
		}
	})
}

func TestCommentRepliesAndCounts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u1, t1 := s.Member(t, org, folio.RoleComment)
		u2, t2 := s.Member(t, org, folio.RoleEdit)
		space := newSpace(t, s, admin, org, "Docs")
		spaceComments := func() int {
			var sp struct{ Comments int }
			s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &sp)
			return sp.Comments
		}
		if n := spaceComments(); n != 0 {
			t.Fatalf("new space counts %d comments", n)
		}
		a := postComment(t, s, t1, space, md("A"))
		b := postComment(t, s, t2, space, md("B"))
		base := "/v1/spaces/" + space + "/comments/"
		var replies []string
		for i, tok := range []string{t1, t2, t1, t1} {
			s.Clock.Set(time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC))
			var r commentBody
			s.Do(t, tok, "POST", base+a.ID+"/replies", md(fmt.Sprint("reply ", i))).WantStatus(t, 200).JSON(t, &r)
			replies = append(replies, r.ID)
		}
		if n := spaceComments(); n != 2 {
			t.Fatalf("space counts %d comments, want 2 (replies are not counted)", n)
		}
		type replier struct {
			User      string
			Count     int
			UpdatedAt string
		}
		repliers := func() (int, []replier) {
			var c commentBody
			s.Do(t, admin, "GET", base+a.ID, nil).WantStatus(t, 200).JSON(t, &c)
			out := []replier{}
			for _, r := range c.Repliers {
				out = append(out, replier{r.User.ID, r.Count, r.UpdatedAt})
			}
			return c.Replies, out
		}
		n, rs := repliers()
		want := []replier{{u1.ID, 3, "2026-01-01T00:00:03.000Z"}, {u2.ID, 1, "2026-01-01T00:00:01.000Z"}}
		if d := cmp.Diff(want, rs); n != 4 || d != "" {
			t.Fatalf("replies %d, repliers (-want +got):\n%s", n, d)
		}
		// The list agrees with the comment.
		var l commentList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/comments?order=asc", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 2 || l.Items[0].Replies != 4 || l.Items[1].Replies != 0 || len(l.Items[1].Repliers) != 0 {
			t.Fatalf("list %+v", l)
		}
		var rl commentList
		s.Do(t, admin, "GET", base+a.ID+"/replies?limit=3", nil).WantStatus(t, 200).JSON(t, &rl)
		if d := cmp.Diff(replies[:3], ids(rl)); rl.Count != 4 || rl.Next == nil || d != "" {
			t.Fatalf("first page of replies %d %v", rl.Count, d)
		}
		var rl2 commentList
		s.Do(t, admin, "GET", base+a.ID+"/replies?limit=3&page="+rl.Next.Page, nil).WantStatus(t, 200).JSON(t, &rl2)
		if d := cmp.Diff(replies[3:], ids(rl2)); rl2.Next != nil || d != "" {
			t.Fatalf("second page of replies %v", d)
		}

		// Deleting u2's reply drops them from the repliers.
		s.Do(t, t2, "DELETE", base+a.ID+"/replies/"+replies[1], nil).WantStatus(t, 204)
		n, rs = repliers()
		want = []replier{{u1.ID, 3, "2026-01-01T00:00:03.000Z"}}
		if d := cmp.Diff(want, rs); n != 3 || d != "" {
			t.Fatalf("after a deletion: replies %d, repliers (-want +got):\n%s", n, d)
		}

		// Resolving, reopening and deleting move the open count exactly.
		s.Do(t, admin, "PUT", base+a.ID, `{"resolved":true}`).WantStatus(t, 200)
		s.Do(t, admin, "PUT", base+a.ID, `{"resolved":true}`).WantStatus(t, 200)
		if n := spaceComments(); n != 1 {
			t.Fatalf("after resolving: %d", n)
		}
		s.Do(t, admin, "PUT", base+a.ID, `{"resolved":false}`).WantStatus(t, 200)
		if n := spaceComments(); n != 2 {
			t.Fatalf("after reopening: %d", n)
		}
		s.Do(t, admin, "DELETE", base+b.ID, nil).WantStatus(t, 204)
		if n := spaceComments(); n != 1 {
			t.Fatalf("after deleting: %d", n)
		}
		// Deleting a comment deletes its replies.
		s.Do(t, t1, "DELETE", base+a.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", base+a.ID+"/replies/"+replies[0], nil).WantError(t, 404, "comment not found")
		s.Do(t, t1, "DELETE", base+a.ID+"/replies/"+replies[0], nil).WantStatus(t, 204)
		if n := spaceComments(); n != 0 {
			t.Fatalf("after deleting all: %d", n)
		}
		// The space list counts the same way.
		postComment(t, s, t1, space, md("C"))
		var sl struct {
			Items []struct {
				ID       string
				Comments int
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/spaces", nil).WantStatus(t, 200).JSON(t, &sl)
		if len(sl.Items) != 1 || sl.Items[0].Comments != 1 {
			t.Fatalf("space list %+v", sl)
		}
	})
}

func TestCommentResolveKeepsFirstResolver(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u1, t1 := s.Member(t, org, folio.RoleComment)
		space := newSpace(t, s, admin, org, "Docs")
		c := postComment(t, s, admin, space, md("Resolve me"))
		path := "/v1/spaces/" + space + "/comments/" + c.ID
		var first, second commentBody
		s.Do(t, t1, "PUT", path, `{"resolved":true}`).WantStatus(t, 200).JSON(t, &first)
		s.Clock.Advance(time.Minute)
		s.Do(t, admin, "PUT", path, `{"resolved":true}`).WantStatus(t, 200).JSON(t, &second)
		if first.ResolvedBy == nil || second.ResolvedBy == nil || second.ResolvedBy.ID != u1.ID || *second.ResolvedAt != *first.ResolvedAt {
			t.Fatalf("resolved twice: %+v then %+v", first, second)
		}
	})
}

// TestCommentsStayInTheirSpace checks that a comment or reply is found only
// under its own space and comment, and that a deleted space hides them.
func TestCommentsStayInTheirSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		one, two := newSpace(t, s, admin, org, "One"), newSpace(t, s, admin, org, "Two")
		c := postComment(t, s, admin, one, md("Here"))
		other := postComment(t, s, admin, one, md("Other"))
		var r commentBody
		s.Do(t, admin, "POST", "/v1/spaces/"+one+"/comments/"+c.ID+"/replies", md("Reply")).WantStatus(t, 200).JSON(t, &r)

		s.Do(t, admin, "GET", "/v1/spaces/"+two+"/comments/"+c.ID, nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "PUT", "/v1/spaces/"+two+"/comments/"+c.ID, `{"resolved":true}`).WantError(t, 404, "comment not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+two+"/comments/"+c.ID+"/replies", nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "POST", "/v1/spaces/"+two+"/comments/"+c.ID+"/replies", md("x")).WantError(t, 404, "comment not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+one+"/comments/"+other.ID+"/replies/"+r.ID, nil).WantError(t, 404, "comment reply not found")
		s.Do(t, admin, "PUT", "/v1/spaces/"+one+"/comments/"+other.ID+"/replies/"+r.ID, md("x")).WantError(t, 404, "comment reply not found")
		// A reply is not a comment: it takes no replies of its own.
		s.Do(t, admin, "GET", "/v1/spaces/"+one+"/comments/"+r.ID, nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "POST", "/v1/spaces/"+one+"/comments/"+r.ID+"/replies", md("x")).WantError(t, 404, "comment not found")
		// Deleting under the wrong space or comment deletes nothing.
		s.Do(t, admin, "DELETE", "/v1/spaces/"+two+"/comments/"+c.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+one+"/comments/"+other.ID+"/replies/"+r.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/spaces/"+one+"/comments/"+c.ID+"/replies/"+r.ID, nil).WantStatus(t, 200)
		var l commentList
		s.Do(t, admin, "GET", "/v1/spaces/"+two+"/comments", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("space two lists %d comments", l.Count)
		}

		// A deleted space hides its comments.
		s.Do(t, admin, "DELETE", "/v1/spaces/"+one, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/spaces/"+one+"/comments/"+c.ID, nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "POST", "/v1/spaces/"+one+"/comments", md("x")).WantError(t, 404, "space not found")
	})
}

func TestListCommenters(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u1, t1 := s.Member(t, org, folio.RoleComment)
		u2, t2 := s.Member(t, org, folio.RoleEdit)
		s.Member(t, org, folio.RoleEdit) // never comments
		space, elsewhere := newSpace(t, s, admin, org, "Docs"), newSpace(t, s, admin, org, "Elsewhere")
		c := postComment(t, s, t1, space, md("Mine"))
		postComment(t, s, t1, space, md("Mine again"))
		s.Do(t, t2, "POST", "/v1/spaces/"+space+"/comments/"+c.ID+"/replies", md("A reply")).WantStatus(t, 200)
		postComment(t, s, admin, elsewhere, md("Not here"))

		var l struct {
			Count int
			Items []struct {
				Object string
				User   struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/commenters", nil).WantStatus(t, 200).JSON(t, &l)
		got := []string{}
		for _, m := range l.Items {
			got = append(got, m.User.ID)
		}
		slices.Sort(got)
		want := []string{u1.ID, u2.ID}
		slices.Sort(want)
		if d := cmp.Diff(want, got); l.Count != 2 || d != "" || l.Items[0].Object != "member" {
			t.Fatalf("commenters %d (-want +got):\n%s", l.Count, d)
		}
	})
}

func TestChangeRequestComments(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u1, t1 := s.Member(t, org, folio.RoleComment)
		space := newSpace(t, s, admin, org, "Docs")
		var cr, other struct {
			ID       string
			Number   int
			Comments int
		}
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", `{"subject":"Rework"}`).WantStatus(t, 201).JSON(t, &cr)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", `{"subject":"Other"}`).WantStatus(t, 201).JSON(t, &other)
		byID := "/v1/spaces/" + space + "/change-requests/" + cr.ID
		byNumber := "/v1/spaces/" + space + "/change-requests/" + fmt.Sprint(cr.Number)
		// A page that only the change request holds.
		s.Do(t, admin, "POST", byID+"/content/import", map[string]any{"source": "markdown",
			"url": dataURL("text/markdown", []byte("# Draft\n\nNew page.\n"))}).WantStatus(t, 201)
		var head revisionBody
		s.Do(t, admin, "GET", byID+"/content", nil).WantStatus(t, 200).JSON(t, &head)
		page := head.Pages[0].ID

		var c commentBody
		s.Do(t, t1, "POST", byNumber+"/comments", map[string]any{"body": map[string]any{"markdown": "On the draft"}, "page": page}).
			WantStatus(t, 200).JSON(t, &c)
		if c.Target.ChangeRequest != cr.ID || c.Target.Revision != head.ID || c.Target.Page == nil || c.Target.Page.Outdated ||
			c.URLs.Location != apitest.PublicURL+byID+"/comments/"+c.ID {
			t.Fatalf("change request comment %+v", c)
		}
		// The page is not in the space's main content.
		s.Do(t, t1, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "x"}, "page": page}).
			WantError(t, 400, "is not in the current content")
		postComment(t, s, admin, space, md("On the space"))
		second := postComment(t, s, admin, space, md("Also on the space"))
		var crSecond commentBody
		s.Do(t, admin, "POST", byID+"/comments", md("Second")).WantStatus(t, 200).JSON(t, &crSecond)

		// Each thread set lists and finds only its own.
		count := func(path string) int {
			var l commentList
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
			return l.Count
		}
		if n, m, o := count(byID+"/comments"), count("/v1/spaces/"+space+"/comments"), count("/v1/spaces/"+space+"/change-requests/"+other.ID+"/comments"); n != 2 || m != 2 || o != 0 {
			t.Fatalf("counts: change request %d, space %d, other change request %d", n, m, o)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/comments/"+c.ID, nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "GET", byID+"/comments/"+second.ID, nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/"+other.ID+"/comments/"+c.ID, nil).WantError(t, 404, "comment not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/999/comments", nil).WantError(t, 404, "change request not found")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests/nope/comments", md("x")).WantError(t, 404, "change request not found")

		// Replies, filters and formats work the same way.
		var r commentBody
		s.Do(t, admin, "POST", byID+"/comments/"+c.ID+"/replies?format=document", md("Agreed")).WantStatus(t, 200).JSON(t, &r)
		if r.Body.Document == nil || r.URLs.Location != apitest.PublicURL+byID+"/comments/"+c.ID+"/replies/"+r.ID {
			t.Fatalf("change request reply %+v", r)
		}
		s.Do(t, admin, "GET", byNumber+"/comments/"+c.ID+"/replies/"+r.ID, nil).WantStatus(t, 200)
		if n := count(byNumber + "/comments?targetPage=" + page + "&authors=" + u1.ID); n != 1 {
			t.Fatalf("filtered change request comments: %d", n)
		}

		// The change request counts its open comments; the space its own.
		crComments := func() int {
			var got struct{ Comments int }
			s.Do(t, admin, "GET", byID, nil).WantStatus(t, 200).JSON(t, &got)
			return got.Comments
		}
		spaceComments := func() int {
			var got struct{ Comments int }
			s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &got)
			return got.Comments
		}
		if n, m := crComments(), spaceComments(); n != 2 || m != 2 {
			t.Fatalf("open comments: change request %d, space %d", n, m)
		}
		s.Do(t, t1, "PUT", byNumber+"/comments/"+c.ID, `{"resolved":true}`).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", byID+"/comments/"+crSecond.ID, nil).WantStatus(t, 204)
		if n, m := crComments(), spaceComments(); n != 0 || m != 2 {
			t.Fatalf("after resolving and deleting: change request %d, space %d", n, m)
		}
		var list struct {
			Items []struct {
				ID       string
				Comments int
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests?status=open", nil).WantStatus(t, 200).JSON(t, &list)
		for _, it := range list.Items {
			if it.Comments != 0 {
				t.Fatalf("listed change request %s counts %d", it.ID, it.Comments)
			}
		}

		// Commenters of the change request: the two who wrote in it.
		var cm struct{ Count int }
		s.Do(t, admin, "GET", byNumber+"/commenters", nil).WantStatus(t, 200).JSON(t, &cm)
		if cm.Count != 2 {
			t.Fatalf("change request commenters: %d", cm.Count)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/"+other.ID+"/commenters", nil).WantStatus(t, 200).JSON(t, &cm)
		if cm.Count != 0 {
			t.Fatalf("other change request commenters: %d", cm.Count)
		}
	})
}
