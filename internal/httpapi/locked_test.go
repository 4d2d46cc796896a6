package httpapi_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// A locked space (editMode: locked) refuses direct writes to its live
// content, from admins too, and changes nothing; its edits go into change
// requests, which its editors create, edit, update and merge as in a live
// space, merge rules included (issue 27).
func TestLockedSpaceTakesChangeRequests(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Frozen")
		importInto(t, s, admin, space, "", "markdown", []byte("# Intro\n\nLive text.\n"))
		ids := pageIDs(t, s, admin, space)
		_, editor := s.Member(t, org, folio.RoleEdit)
		reviewer, reviewerTok := s.Member(t, org, folio.RoleReview)
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked",
			"mergeRules": map[string]any{"type": "rules",
				"rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{reviewer.ID}}}}}).WantStatus(t, 200)
		live := "/v1/spaces/" + space + "/content"
		before := getCounts(t, s, admin, space)

		// Direct writes to the live content: refused, nothing changes.
		md := map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# Sneaky\n\nx\n"))}
		for _, tok := range []string{admin, editor} {
			s.Do(t, tok, "POST", live+"/import", md).WantError(t, 403, "the space is locked: edit it in a change request")
			s.Do(t, tok, "POST", live+"/page/"+ids["Intro"]+"/import", md).WantError(t, 403, "locked")
			s.Do(t, tok, "POST", live+"/template", map[string]any{"id": "blank"}).WantError(t, 403, "locked")
		}
		if after := getCounts(t, s, admin, space); after != before {
			t.Fatalf("refused live writes changed the space: %+v -> %+v", before, after)
		}
		if got := pageMarkdown(t, s, admin, live, ids["Intro"]); !strings.Contains(got, "Live text.") || strings.Contains(got, "Sneaky") {
			t.Fatalf("live page after refused writes: %q", got)
		}

		// Change requests: the editor opens one, edits it and renames it;
		// a reader still may not.
		s.Do(t, reader, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "x"}).WantError(t, 403, "cannot edit")
		cr := newCR(t, s, editor, space, "Reword the intro")
		importIntoCR(t, s, editor, space, cr, ids["Intro"], "# Intro\n\nReviewed text.\n")
		s.Do(t, editor, "PATCH", crPath(space, cr), map[string]any{"subject": "Reword it"}).WantStatus(t, 200)
		s.Do(t, editor, "POST", crPath(space, cr)+"/update", nil).WantStatus(t, 200)
		if got := pageMarkdown(t, s, editor, crPath(space, cr)+"/content", ids["Intro"]); !strings.Contains(got, "Reviewed text.") {
			t.Fatalf("change request page %q", got)
		}
		if c := getCounts(t, s, admin, space); c.Revision != before.Revision || c.ChangeRequestsOpen != before.ChangeRequestsOpen+1 {
			t.Fatalf("after the change request: %+v (before %+v)", c, before)
		}

		// Merge rules still apply: no approval, no merge, nothing changes.
		s.Do(t, editor, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 409, reviewer.DisplayName)
		if c := getCounts(t, s, admin, space); c.Revision != before.Revision {
			t.Fatal("a refused merge changed a locked space")
		}
		s.Do(t, reviewerTok, "POST", crPath(space, cr)+"/reviews", map[string]any{"status": "approved"}).WantStatus(t, 201)
		var merged struct{ Revision string }
		s.Do(t, editor, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200).JSON(t, &merged)
		if c := getCounts(t, s, admin, space); c.Revision != merged.Revision || c.Revision == before.Revision {
			t.Fatalf("merge into a locked space: counts %+v, merge %+v", c, merged)
		}
		if got := pageMarkdown(t, s, admin, live, ids["Intro"]); !strings.Contains(got, "Reviewed text.") {
			t.Fatalf("live page after the merge: %q", got)
		}
		var sp struct{ EditMode string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &sp)
		if sp.EditMode != "locked" {
			t.Fatalf("the merge unlocked the space: %q", sp.EditMode)
		}
		// Still locked for direct edits after the merge.
		s.Do(t, editor, "POST", live+"/import", md).WantError(t, 403, "locked")
	})
}
