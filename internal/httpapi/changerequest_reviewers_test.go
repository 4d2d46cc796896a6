package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestRefusedReviewRequestKeepsTheSubject asks for a reviewer who is not a
// member while renaming the change request: the request is refused and
// the change request keeps its subject (both happen in one transaction).
func TestRefusedReviewRequestKeepsTheSubject(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		cr := newCR(t, s, admin, space, "Original")
		path := crPath(space, cr)
		before := s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).Body
		s.Do(t, admin, "POST", path+"/requested-reviewers", map[string]any{"users": []string{"nobody-here"}, "subject": "Renamed"}).
			WantError(t, 400, "not a member of the organization")
		if after := s.Do(t, admin, "GET", path, nil).Body; string(after) != string(before) {
			t.Fatalf("a refused review request changed the change request:\n%s\n%s", before, after)
		}
	})
}
