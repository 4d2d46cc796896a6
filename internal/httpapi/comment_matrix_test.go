package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// grantedComment is a guest granted the comment role on the space: they
// comment as members with that role do.
const grantedComment = "guest-granted-comment"

// TestCommentMatrix covers every comment route for every actor: viewers
// read, those with the space's comment permission post, reply, react and
// resolve, only authors edit, authors and space admins delete, and callers
// who cannot view the space get 404. Refused writes change nothing.
func TestCommentMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		space := newSpace(t, s, admin, a.Org, "Discussed")
		u, tok := s.Member(t, a.Org, folio.RoleGuest)
		a.Add(grantedComment, u, tok)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/permissions", `{"role":"comment","users":["`+u.ID+`"]}`).WantStatus(t, 204)

		var cr struct {
			ID     string
			Number int
		}
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", `{"subject":"Discussed"}`).WantStatus(t, 201).JSON(t, &cr)
		for _, k := range []struct{ in, base string }{
			{"InSpace", "/v1/spaces/" + space},
			{"InChangeRequest", "/v1/spaces/" + space + "/change-requests/" + cr.ID},
			{"InChangeRequest by number", "/v1/spaces/" + space + "/change-requests/" + fmt.Sprint(cr.Number)},
		} {
			commentMatrix(t, s, a, k.in, k.base)
		}
	})
}

// commentMatrix runs the comment matrix on the comments under prefix (a
// space or a change request); in ends the case names.
func commentMatrix(t *testing.T, s *apitest.Server, a *apitest.Actors, in, prefix string) {
	admin := a.Tokens[apitest.Admin]
	base := prefix + "/comments"
	post := func(token, text string) string {
		var c commentBody
		s.Do(t, token, "POST", base, md(text)).WantStatus(t, 200).JSON(t, &c)
		return c.ID
	}
	reply := func(token, comment, text string) string {
		var r commentBody
		s.Do(t, token, "POST", base+"/"+comment+"/replies", md(text)).WantStatus(t, 200).JSON(t, &r)
		return r.ID
	}
	byAdmin := post(admin, "By the admin")
	adminReply := reply(admin, byAdmin, "Admin's reply")
	byCommenter := post(a.Tokens[apitest.Comment], "By a commenter")
	commenterReply := reply(a.Tokens[apitest.Comment], byAdmin, "Commenter's reply")

	fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
	n := 0
	text := func(*apitest.Actors) any { n++; return md(fmt.Sprint("Text ", n)) }
	// Deletions get a fresh comment or reply by the commenter each time.
	freshComment := func(*apitest.Actors) string { return base + "/" + post(a.Tokens[apitest.Comment], "Doomed") }
	freshReply := func(*apitest.Actors) string {
		return base + "/" + byAdmin + "/replies/" + reply(a.Tokens[apitest.Comment], byAdmin, "Doomed reply")
	}
	reopen := func(*apitest.Actors) {
		s.Do(t, admin, "PUT", base+"/"+byAdmin, `{"resolved":false}`).WantStatus(t, 200)
	}
	unreact := func(p string) func(*apitest.Actors) {
		return func(a *apitest.Actors) {
			// Every actor starts without the reaction, so adding it changes something.
			for _, name := range a.Names() {
				s.DoUnchecked(t, a.Tokens[name], "PUT", p, `{"removedReactions":["👍"]}`)
			}
		}
	}
	list := apitest.Paths(fixed(base + "?limit=1000"))

	hidden := apitest.NoAccess
	viewers := apitest.Want(hidden, apitest.AnyActor, 200)
	commenters := apitest.Want(hidden, apitest.AnyActor, 200, apitest.Read, 403)
	authorAdmin := func(ok int) map[string]int {
		return apitest.Want(hidden, apitest.AnyActor, 403, apitest.Admin, ok)
	}
	authorCommenter := func(ok int) map[string]int {
		return apitest.Want(hidden, apitest.AnyActor, 403, apitest.Comment, ok)
	}
	deleters := apitest.Want(hidden, apitest.AnyActor, 403, apitest.Admin, 204, apitest.Comment, 204)

	apitest.Matrix(t, s, a, []apitest.Case{
		{Name: "listComments" + in, Method: "GET", Path: fixed(base), Want: viewers},
		{Name: "getComment" + in, Method: "GET", Path: fixed(base + "/" + byAdmin), Want: viewers},
		{Name: "listCommentReplies" + in, Method: "GET", Path: fixed(base + "/" + byAdmin + "/replies"), Want: viewers},
		{Name: "getCommentReply" + in, Method: "GET", Path: fixed(base + "/" + byAdmin + "/replies/" + adminReply), Want: viewers},
		{Name: "listCommenters" + in, Method: "GET", Path: fixed(prefix + "/commenters"), Want: viewers},
		{Name: "postComment" + in, Method: "POST", Path: fixed(base), Body: text, Want: commenters, State: list},
		{Name: "postCommentReply" + in, Method: "POST", Path: fixed(base + "/" + byAdmin + "/replies"), Body: text,
			Want: commenters, State: apitest.Paths(fixed(base + "/" + byAdmin + "/replies?limit=1000"))},
		{Name: "updateComment" + in + " body of the admin's", Method: "PUT", Path: fixed(base + "/" + byAdmin), Body: text,
			Want: authorAdmin(200), State: apitest.Self},
		{Name: "updateComment" + in + " body of a commenter's", Method: "PUT", Path: fixed(base + "/" + byCommenter), Body: text,
			Want: authorCommenter(200), State: apitest.Self},
		{Name: "updateComment" + in + " resolved", Method: "PUT", Path: fixed(base + "/" + byAdmin), Body: `{"resolved":true}`,
			Want: commenters, Reset: reopen, State: apitest.Self},
		{Name: "updateComment" + in + " reactions", Method: "PUT", Path: fixed(base + "/" + byAdmin), Body: `{"addedReactions":["👍"]}`,
			Want: commenters, Reset: unreact(base + "/" + byAdmin), State: apitest.Self},
		{Name: "deleteComment" + in, Method: "DELETE", Path: freshComment, Want: deleters, State: apitest.Self},
		{Name: "updateCommentReply" + in + " body of the admin's", Method: "PUT",
			Path: fixed(base + "/" + byAdmin + "/replies/" + adminReply), Body: text, Want: authorAdmin(200), State: apitest.Self},
		{Name: "updateCommentReply" + in + " body of a commenter's", Method: "PUT",
			Path: fixed(base + "/" + byAdmin + "/replies/" + commenterReply), Body: text, Want: authorCommenter(200), State: apitest.Self},
		{Name: "updateCommentReply" + in + " reactions", Method: "PUT", Path: fixed(base + "/" + byAdmin + "/replies/" + adminReply),
			Body: `{"addedReactions":["👍"]}`, Want: commenters, Reset: unreact(base + "/" + byAdmin + "/replies/" + adminReply),
			State: apitest.Self},
		{Name: "deleteCommentReply" + in, Method: "DELETE", Path: freshReply, Want: deleters, State: apitest.Self},
	})
}
