package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// guestOtherReader is an actor of the revision matrix: a guest granted read
// on another space only. The matrix also has grantedRead, a guest granted
// read on the space it reads.
const guestOtherReader = "guest-granted-other-space"

// importedRevision imports a page and an image into a new space of org and
// returns the space, the revision, a page id and the image's file id.
func importedRevision(t *testing.T, s *apitest.Server, token, org, title string) (space, revision, page, file string) {
	t.Helper()
	space = newSpace(t, s, token, org, title)
	res := importInto(t, s, token, space, "", "zip", zipOf(t, map[string]string{
		"SUMMARY.md":               "# Summary\n\n* [Guide](guide.md)\n",
		"guide.md":                 "# Guide\n\n![Logo](.gitbook/assets/logo.png)\n",
		".gitbook/assets/logo.png": string(tinyPNG()),
	}))
	var rev revisionBody
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil).WantStatus(t, 200).JSON(t, &rev)
	if len(rev.Pages) != 1 || len(rev.Files) != 1 {
		t.Fatalf("imported revision %+v", rev)
	}
	return space, res.Revision, rev.Pages[0].ID, rev.Files[0].ID
}

// TestRevisionReadMatrix covers the reads addressed by revision, next to
// the same reads of the current content: every viewer of the space may read
// them, guests only with a grant on it, and a revision of another space,
// of the organization or not, is not found through this one.
func TestRevisionReadMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		space, rev, page, file := importedRevision(t, s, admin, a.Org, "Handbook")
		other, otherRev, otherPage, otherFile := importedRevision(t, s, admin, a.Org, "Other")
		theirs, theirRev, _, _ := importedRevision(t, s, a.Tokens[apitest.OtherOrg], a.OtherOrg, "Theirs")
		for name, sp := range map[string]string{grantedRead: space, guestOtherReader: other} {
			u, tok := s.Member(t, a.Org, folio.RoleGuest)
			a.Add(name, u, tok)
			s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/permissions", `{"role":"read","users":["`+u.ID+`"]}`).WantStatus(t, 204)
		}

		viewers := apitest.Want(apitest.NoAccess, guestOtherReader, 404, apitest.AnyActor, 200)
		nobody := map[string]int{apitest.AnyActor: 404}
		// Callers who may not view the space learn nothing about which
		// revisions it has: 404 whatever the revision.
		notFound := apitest.Want(viewers, apitest.AnyActor, 404)
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		variants := []struct{ name, suffix string }{
			{"getRevision", ""},
			{"listPages", "/pages"},
			{"getPageById", "/page/" + page},
			{"getPageByPath", "/path/guide"},
			{"listFiles", "/files"},
			{"getFileById", "/files/" + file},
		}
		var cases []apitest.Case
		for _, v := range variants {
			for _, base := range []struct{ name, path string }{
				{"ByRevision", "/v1/spaces/" + space + "/revisions/" + rev},
				{"OfContent", "/v1/spaces/" + space + "/content"},
			} {
				cases = append(cases, apitest.Case{Name: v.name + base.name, Method: "GET", Path: fixed(base.path + v.suffix), Want: viewers})
			}
			cases = append(cases,
				apitest.Case{Name: v.name + " revision of another space", Method: "GET",
					Path: fixed("/v1/spaces/" + space + "/revisions/" + otherRev + v.suffix), Want: notFound},
				apitest.Case{Name: v.name + " revision of another organization's space", Method: "GET",
					Path: fixed("/v1/spaces/" + space + "/revisions/" + theirRev + v.suffix), Want: notFound},
				// The other organization's admin gets nothing by naming this
				// organization's revision through their own space.
				apitest.Case{Name: v.name + " revision through another organization's space", Method: "GET",
					Path: fixed("/v1/spaces/" + theirs + "/revisions/" + rev + v.suffix), Want: nobody},
			)
		}
		// Documents: a page's document in a revision, and a document by id
		// (only those of the space's current revision are found by id).
		docOf := func(sp, r string) string {
			var rb revisionBody
			s.Do(t, admin, "GET", "/v1/spaces/"+sp+"/revisions/"+r, nil).WantStatus(t, 200).JSON(t, &rb)
			return rb.Pages[0].DocumentID
		}
		doc, otherDoc := docOf(space, rev), docOf(other, otherRev)
		if doc == "" || doc == otherDoc {
			t.Fatalf("the two spaces' documents must differ for the cases below: %q and %q", doc, otherDoc)
		}
		cases = append(cases,
			apitest.Case{Name: "getPageDocument", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/revisions/" + rev + "/page/" + page + "/document"), Want: viewers},
			apitest.Case{Name: "getPageDocument revision of another space", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/revisions/" + otherRev + "/page/" + otherPage + "/document"), Want: notFound},
			apitest.Case{Name: "getPageDocument through another organization's space", Method: "GET",
				Path: fixed("/v1/spaces/" + theirs + "/revisions/" + rev + "/page/" + page + "/document"), Want: nobody},
			apitest.Case{Name: "getDocumentById", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/documents/" + doc), Want: viewers},
			apitest.Case{Name: "getDocumentById document of another space", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/documents/" + otherDoc), Want: notFound},
			apitest.Case{Name: "getDocumentById through another organization's space", Method: "GET",
				Path: fixed("/v1/spaces/" + theirs + "/documents/" + doc), Want: nobody},
		)
		// Pages and files of another space are not in this one's revision.
		cases = append(cases,
			apitest.Case{Name: "getPageById page of another space", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/revisions/" + rev + "/page/" + otherPage), Want: notFound},
			apitest.Case{Name: "getFileById file of another space", Method: "GET",
				Path: fixed("/v1/spaces/" + space + "/revisions/" + rev + "/files/" + otherFile), Want: notFound},
		)
		apitest.Matrix(t, s, a, cases)
	})
}
