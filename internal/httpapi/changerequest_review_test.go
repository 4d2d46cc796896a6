package httpapi_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// reviewBody is a review as the API answers it, with its comment.
type reviewBody struct {
	Object, ID, Status, Revision string
	Reviewer                     struct{ ID string }
	Comment                      *struct {
		commentBody
		Target struct {
			Space, Revision, ChangeRequest, Review string
		}
	}
}

// paragraph is a Document of one paragraph of text.
func paragraph(text string) map[string]any {
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{
		"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{map[string]any{
			"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": text, "marks": []any{}}}}}}}}
}

func TestChangeRequestReviewComment(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		rev, revTok := s.Member(t, org, folio.RoleReview)
		_, reader := s.Member(t, org, folio.RoleRead)
		cr := newCR(t, s, admin, space, "Reviewed")
		importIntoCR(t, s, admin, space, cr, "", "# New\n\nx\n")
		path := crPath(space, cr)

		// Without a comment, the review has none and no comment is posted.
		var plain reviewBody
		s.Do(t, revTok, "POST", path+"/reviews", map[string]any{"status": "changes-requested"}).
			WantStatus(t, 201).JSON(t, &plain)
		if plain.Comment != nil {
			t.Fatalf("review without a comment answered one: %+v", plain.Comment)
		}
		var comments commentList
		s.Do(t, admin, "GET", path+"/comments", nil).WantStatus(t, 200).JSON(t, &comments)
		if comments.Count != 0 {
			t.Fatalf("review without a comment posted one: %+v", comments)
		}

		// With one, it is a comment of the change request naming the review.
		var withComment reviewBody
		s.Do(t, revTok, "POST", path+"/reviews", map[string]any{"status": "approved", "comment": paragraph("Looks good")}).
			WantStatus(t, 201).JSON(t, &withComment)
		c := withComment.Comment
		if c == nil || c.Object != "comment" || c.PostedBy.ID != rev.ID || c.Status != "open" ||
			c.Body.Markdown == nil || strings.TrimSpace(*c.Body.Markdown) != "Looks good" ||
			c.Target.Review != withComment.ID || c.Target.ChangeRequest != cr.ID || c.Target.Space != space ||
			c.Target.Revision != withComment.Revision {
			t.Fatalf("review comment %+v", c)
		}

		// The review list returns both reviews, the second with its comment.
		var reviews struct {
			Count int
			Items []reviewBody
		}
		s.Do(t, admin, "GET", path+"/reviews", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 2 || reviews.Items[0].Comment != nil || reviews.Items[1].Comment == nil ||
			reviews.Items[1].Comment.ID != c.ID || reviews.Items[1].Comment.Target.Review != withComment.ID ||
			strings.TrimSpace(*reviews.Items[1].Comment.Body.Markdown) != "Looks good" {
			t.Fatalf("reviews %+v", reviews)
		}
		// A page of one review still has its comment.
		s.Do(t, admin, "GET", path+"/reviews?limit=1&page="+pageOf(t, s, admin, path+"/reviews?limit=1"), nil).
			WantStatus(t, 200).JSON(t, &reviews)
		if len(reviews.Items) != 1 || reviews.Items[0].Comment == nil || reviews.Items[0].Comment.ID != c.ID {
			t.Fatalf("second page of reviews %+v", reviews)
		}

		// It is in the change request's comments, and counts as open there.
		var listed struct {
			Count int
			Items []struct {
				ID     string
				Target struct{ Review, ChangeRequest string }
			}
		}
		s.Do(t, admin, "GET", path+"/comments", nil).WantStatus(t, 200).JSON(t, &listed)
		if listed.Count != 1 || listed.Items[0].ID != c.ID || listed.Items[0].Target.Review != withComment.ID ||
			listed.Items[0].Target.ChangeRequest != cr.ID {
			t.Fatalf("change request comments %+v", listed)
		}
		var got struct{ Comments int }
		s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Comments != 1 {
			t.Fatalf("change request counts %d open comments, want 1", got.Comments)
		}
		// The space's main content has no comment.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/comments", nil).WantStatus(t, 200).JSON(t, &comments)
		if comments.Count != 0 {
			t.Fatalf("space comments %+v", comments)
		}

		// A reader's review is refused and changes nothing.
		state := func() string {
			return string(s.Do(t, admin, "GET", path+"/reviews", nil).WantStatus(t, 200).Body) +
				string(s.Do(t, admin, "GET", path+"/comments", nil).WantStatus(t, 200).Body) +
				string(s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Body)
		}
		before := state()
		s.Do(t, reader, "POST", path+"/reviews", map[string]any{"status": "approved", "comment": paragraph("Sneaky")}).
			WantError(t, 403, "cannot review")
		if after := state(); after != before {
			t.Fatalf("refused review changed the change request:\n%s\n%s", before, after)
		}
	})
}

// pageOf returns the next page cursor of a list.
func pageOf(t testing.TB, s *apitest.Server, token, path string) string {
	t.Helper()
	var l struct{ Next *struct{ Page string } }
	s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
	if l.Next == nil {
		t.Fatalf("%s has no next page", path)
	}
	return l.Next.Page
}
