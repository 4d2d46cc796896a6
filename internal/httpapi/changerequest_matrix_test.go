package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestChangeRequestMatrix covers who may do what with change requests:
// viewers of the space read them, editors (edit and up) create, change,
// write into, update and merge them, reviewers (review and up) review them,
// and callers who cannot view the space learn nothing (404). Refused
// requests change nothing.
func TestChangeRequestMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		space := newSpace(t, s, admin, a.Org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Intro\n\nHello.\n"))
		shared := newCR(t, s, admin, space, "Shared")
		importIntoCR(t, s, admin, space, shared, "", "# Page\n\nText.\n")
		sharedPath := crPath(space, shared)
		// Reads go to a change request that only adds a page: the
		// reference cannot check a page_edited change (see
		// TestChangeRequestContent).
		reads := newCR(t, s, admin, space, "Reads")
		importIntoCR(t, s, admin, space, reads, "", "# Page\n\nText.\n")
		readPath := crPath(space, reads)
		page := pageIDs(t, s, admin, space)["Intro"]
		readerID := a.Users[apitest.Read].ID

		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		// fresh makes a new change request with a change for each actor, so
		// that a write let through finds something to do.
		fresh := func(suffix string) func(*apitest.Actors) string {
			return func(*apitest.Actors) string {
				cr := newCR(t, s, admin, space, "Fresh")
				importIntoCR(t, s, admin, space, cr, "", "# Fresh\n\nx\n")
				return crPath(space, cr) + suffix
			}
		}
		spacePath := func(*apitest.Actors) string { return "/v1/spaces/" + space }
		viewers := apitest.Want(apitest.NoAccess, apitest.AnyActor, 200)
		editors := func(ok int) map[string]int {
			return apitest.Want(apitest.NoAccess, apitest.Admin, ok, apitest.Create, ok, apitest.Review, ok, apitest.Edit, ok,
				apitest.AnyActor, 403)
		}
		reviewers := apitest.Want(apitest.NoAccess, apitest.Admin, 201, apitest.Create, 201, apitest.Review, 201, apitest.AnyActor, 403)
		md := map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# Imported\n\ny\n"))}
		cases := []apitest.Case{
			{Name: "createChangeRequest", Method: "POST", Path: fixed("/v1/spaces/" + space + "/change-requests"),
				Body: map[string]any{"subject": "New"}, Want: editors(201),
				State: apitest.Paths(spacePath, fixed("/v1/spaces/"+space+"/change-requests"))},
			{Name: "listChangeRequestsForSpace", Method: "GET", Path: fixed("/v1/spaces/" + space + "/change-requests"), Want: viewers},
			{Name: "listChangeRequestsForOrganization", Method: "GET", Path: func(a *apitest.Actors) string {
				return "/v1/orgs/" + a.Org + "/change-requests"
			}, Want: apitest.Want(apitest.NotMembers, apitest.AnyActor, 200)},
			{Name: "getChangeRequestById", Method: "GET", Path: fixed(sharedPath), Want: viewers},
			{Name: "getChangeRequestByNumber", Method: "GET", Path: fixed("/v1/spaces/" + space + "/change-requests/1"), Want: viewers},
			{Name: "updateChangeRequestById", Method: "PATCH", Path: fresh(""), Body: map[string]any{"subject": "Renamed", "status": "draft"},
				Want: editors(200), State: apitest.Self},
			{Name: "mergeChangeRequest", Method: "POST", Path: fresh("/merge"), Want: editors(200),
				State: apitest.Paths(spacePath)},
			{Name: "updateChangeRequest", Method: "POST", Path: fresh("/update"), Want: editors(200), State: apitest.Trim("/update")},
			{Name: "importContentInChangeRequest", Method: "POST", Path: fixed(sharedPath + "/content/import"), Body: md,
				Want: editors(201), State: apitest.Paths(fixed(sharedPath), fixed(sharedPath+"/contributors"))},
			{Name: "importContentInChangeRequestPageById", Method: "POST", Path: fixed(sharedPath + "/content/page/" + page + "/import"),
				Body: md, Want: editors(201), State: apitest.Paths(fixed(sharedPath))},
			{Name: "getChangeRequestChanges", Method: "GET", Path: fixed(readPath + "/changes?limit=1"), Want: viewers},
			{Name: "getContributorsByChangeRequestId", Method: "GET", Path: fixed(sharedPath + "/contributors"), Want: viewers},
			{Name: "getRevisionOfChangeRequestById", Method: "GET", Path: fixed(sharedPath + "/content"), Want: viewers},
			{Name: "listPagesInChangeRequest", Method: "GET", Path: fixed(sharedPath + "/content/pages"), Want: viewers},
			{Name: "getPageInChangeRequestById", Method: "GET", Path: fixed(sharedPath + "/content/page/" + page), Want: viewers},
			{Name: "getPageInChangeRequestByPath", Method: "GET", Path: fixed(sharedPath + "/content/path/intro"), Want: viewers},
			{Name: "listFilesInChangeRequestById", Method: "GET", Path: fixed(sharedPath + "/content/files"), Want: viewers},
			{Name: "listChangeRequestLinks", Method: "GET", Path: fixed(sharedPath + "/links"), Want: viewers},
			{Name: "listPageLinksInChangeRequest", Method: "GET", Path: fixed(sharedPath + "/content/page/" + page + "/links"), Want: viewers},
			{Name: "listChangeRequestPageBacklinks", Method: "GET", Path: fixed(sharedPath + "/content/page/" + page + "/backlinks"), Want: viewers},
			{Name: "submitChangeRequestReview", Method: "POST", Path: fixed(sharedPath + "/reviews"),
				Body: map[string]any{"status": "approved"}, Want: reviewers, State: apitest.Paths(fixed(sharedPath), fixed(sharedPath+"/reviews"))},
			{Name: "getReviewsByChangeRequestId", Method: "GET", Path: fixed(sharedPath + "/reviews"), Want: viewers},
			{Name: "requestReviewersForChangeRequest", Method: "POST", Path: fresh("/requested-reviewers"),
				Body: func(a *apitest.Actors) any { return map[string]any{"users": []string{a.Users[apitest.Review].ID}} },
				Want: editors(200), State: apitest.Self},
			{Name: "getRequestedReviewersByChangeRequestId", Method: "GET", Path: fixed(sharedPath + "/requested-reviewers"), Want: viewers},
			// Each actor removes a reviewer requested on a change request of
			// its own, so that a removal let through would show.
			{Name: "removeRequestedReviewerFromChangeRequest", Method: "DELETE", Path: func(a *apitest.Actors) string {
				cr := fresh("")(a)
				s.Do(t, admin, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{readerID}}).WantStatus(t, 200)
				return cr + "/requested-reviewers/" + readerID
			}, Want: editors(204), State: apitest.Trim("/" + readerID)},
		}
		apitest.Matrix(t, s, a, cases)
	})
}
