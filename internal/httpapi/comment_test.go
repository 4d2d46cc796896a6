package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

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

var _ = fmt.Sprint
var _ = strings.Repeat
var _ = cmp.Diff
