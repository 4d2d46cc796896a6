package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type crBody struct {
	Object, ID, Status, Subject, Space, Revision, RevisionInitial string
	RevisionMergedAncestor, RevisionMerged                        string
	Number                                                        int
	Outdated                                                      bool
	Comments                                                      int
	CreatedBy                                                     struct{ ID string }
	Description                                                   map[string]any
	URLs                                                          struct{ App, Location string }
}

type spaceCounts struct {
	Revision                                                string
	ChangeRequests, ChangeRequestsOpen, ChangeRequestsDraft int
}

func newCR(t testing.TB, s *apitest.Server, token, space, subject string) crBody {
	t.Helper()
	var cr crBody
	r := s.Do(t, token, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": subject}).WantStatus(t, 201)
	r.JSON(t, &cr)
	if r.Header.Get("Location") != cr.URLs.Location || cr.URLs.Location == "" {
		t.Fatalf("Location %q, urls %+v", r.Header.Get("Location"), cr.URLs)
	}
	return cr
}

func getCounts(t testing.TB, s *apitest.Server, token, space string) spaceCounts {
	t.Helper()
	var c spaceCounts
	s.Do(t, token, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &c)
	return c
}

func crPath(space string, cr crBody) string {
	return "/v1/spaces/" + space + "/change-requests/" + cr.ID
}

func listCRs(t testing.TB, s *apitest.Server, token, path string) []string {
	t.Helper()
	var l struct {
		Count int
		Items []crBody
	}
	s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
	out := []string{}
	for _, it := range l.Items {
		out = append(out, it.Subject)
	}
	if l.Count != len(out) {
		t.Fatalf("%s: count %d for %d items", path, l.Count, len(out))
	}
	return out
}

func TestChangeRequestCreateGetList(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Intro\n\nHello.\n"))
		before := getCounts(t, s, admin, space)
		if before.ChangeRequests != 0 || before.ChangeRequestsOpen != 0 {
			t.Fatalf("counts before %+v", before)
		}

		one := newCR(t, s, admin, space, "First")
		if one.Object != "change-request" || one.Number != 1 || one.Status != "open" || one.Space != space ||
			one.RevisionInitial != before.Revision || one.Revision != before.Revision || one.Outdated || one.RevisionMerged != "" {
			t.Fatalf("created %+v", one)
		}
		// No subject, extra properties: allowed.
		var two crBody
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"extra": []int{1}, "agentTaskId": "x"}).
			WantStatus(t, 201).JSON(t, &two)
		if two.Number != 2 || two.Subject != "" {
			t.Fatalf("second %+v", two)
		}
		s.DoUnchecked(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", nil).WantStatus(t, 201)
		c := getCounts(t, s, admin, space)
		if c.ChangeRequests != 3 || c.ChangeRequestsOpen != 3 || c.ChangeRequestsDraft != 0 || c.Revision != before.Revision {
			t.Fatalf("counts %+v", c)
		}

		// By id and by number.
		var byNum crBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/1", nil).WantStatus(t, 200).JSON(t, &byNum)
		if byNum.ID != one.ID {
			t.Fatalf("by number %+v", byNum)
		}
		s.Do(t, admin, "GET", crPath(space, one), nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/99", nil).WantError(t, 404, "change request not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/nope", nil).WantError(t, 404, "change request not found")
		// Another space's change request is not found through this one.
		other := newSpace(t, s, admin, org, "Other")
		s.Do(t, admin, "GET", "/v1/spaces/"+other+"/change-requests/"+one.ID, nil).WantError(t, 404, "change request not found")
		if n := newCR(t, s, admin, other, "Elsewhere").Number; n != 1 {
			t.Fatalf("numbers are per space: got %d", n)
		}

		// Validation.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": strings.Repeat("x", 101)}).
			WantError(t, 400, "subject")
		s.DoUnchecked(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": 3}).WantError(t, 400, "subject")

		// Lists: newest first, status default open, filters.
		_, editor := s.Member(t, org, folio.RoleEdit)
		var eu struct{ ID string }
		s.Do(t, editor, "GET", "/v1/user", nil).JSON(t, &eu)
		newCR(t, s, editor, space, "By editor")
		base := "/v1/spaces/" + space + "/change-requests"
		if d := cmp.Diff([]string{"By editor", "", "", "First"}, listCRs(t, s, admin, base)); d != "" {
			t.Fatalf("list (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"By editor"}, listCRs(t, s, admin, base+"?creator="+eu.ID)); d != "" {
			t.Fatalf("creator filter (-want +got):\n%s", d)
		}
		if got := listCRs(t, s, admin, base+"?status=draft"); len(got) != 0 {
			t.Fatalf("drafts %v", got)
		}
		s.Do(t, admin, "PATCH", crPath(space, one), map[string]any{"status": "draft"}).WantStatus(t, 200)
		if d := cmp.Diff([]string{"First"}, listCRs(t, s, admin, base+"?status=draft")); d != "" {
			t.Fatalf("status filter (-want +got):\n%s", d)
		}
		if got := listCRs(t, s, admin, base+"?contributor="+eu.ID); len(got) != 0 {
			t.Fatalf("contributor filter before any write %v", got)
		}
		s.DoUnchecked(t, admin, "GET", base+"?status=closed", nil).WantError(t, 400, "status")
		// Pagination.
		var page1 struct {
			Count int
			Next  struct{ Page string }
			Items []crBody
		}
		s.Do(t, admin, "GET", base+"?limit=2", nil).WantStatus(t, 200).JSON(t, &page1)
		if len(page1.Items) != 2 || page1.Count != 3 || page1.Next.Page == "" {
			t.Fatalf("page 1 %+v", page1)
		}
		var page2 struct{ Items []crBody }
		s.Do(t, admin, "GET", base+"?limit=2&page="+page1.Next.Page, nil).WantStatus(t, 200).JSON(t, &page2)
		if len(page2.Items) != 1 || page2.Items[0].ID == page1.Items[0].ID || page2.Items[0].ID == page1.Items[1].ID {
			t.Fatalf("page 2 %+v", page2)
		}
		c = getCounts(t, s, admin, space)
		if c.ChangeRequests != 4 || c.ChangeRequestsOpen != 3 || c.ChangeRequestsDraft != 1 {
			t.Fatalf("counts after draft %+v", c)
		}

		// The organization's list spans its spaces.
		if d := cmp.Diff([]string{"By editor", "Elsewhere", "", ""}, listCRs(t, s, admin, "/v1/orgs/"+org+"/change-requests")); d != "" {
			t.Fatalf("org list (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"First"}, listCRs(t, s, admin, "/v1/orgs/"+org+"/change-requests?status=draft")); d != "" {
			t.Fatalf("org drafts (-want +got):\n%s", d)
		}
		// A guest sees none of the spaces, so none of their change requests;
		// an outsider is refused.
		_, guest := s.Member(t, org, folio.RoleGuest)
		if got := listCRs(t, s, guest, "/v1/orgs/"+org+"/change-requests"); len(got) != 0 {
			t.Fatalf("guest sees %v", got)
		}
		_, outsider := s.User(t)
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/change-requests", nil).WantStatus(t, 404)
	})
}

func TestChangeRequestPatchTransitions(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		tests := []struct {
			from, to string
			code     int
			msg      string
		}{
			{"open", "draft", 200, ""},
			{"open", "archived", 200, ""},
			{"open", "open", 200, ""},
			{"draft", "open", 200, ""},
			{"draft", "archived", 200, ""},
			{"archived", "open", 200, ""},
			{"archived", "draft", 200, ""},
			{"open", "merged", 400, "reached by merging"},
			{"open", "closed", 400, "status must be"},
		}
		for _, tc := range tests {
			cr := newCR(t, s, admin, space, tc.from+" to "+tc.to)
			if tc.from != "open" {
				s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": tc.from}).WantStatus(t, 200)
			}
			r := s.DoUnchecked(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": tc.to})
			if tc.code != 200 {
				r.WantError(t, tc.code, tc.msg)
			} else {
				r.WantStatus(t, 200)
			}
			var got crBody
			s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
			want := tc.to
			if tc.code != 200 {
				want = tc.from
			}
			if got.Status != want {
				t.Errorf("%s → %s: status %s, want %s", tc.from, tc.to, got.Status, want)
			}
		}

		// Subject and description.
		cr := newCR(t, s, admin, space, "Subject")
		doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "paragraph",
			"data": map[string]any{}, "nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why", "marks": []any{}}}}}}}}
		var got crBody
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"subject": "New", "description": doc}).WantStatus(t, 200).JSON(t, &got)
		if got.Subject != "New" || got.Description == nil || got.Description["object"] != "document" {
			t.Fatalf("patched %+v", got)
		}
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"subject": strings.Repeat("x", 101)}).WantError(t, 400, "subject")
		s.DoUnchecked(t, admin, "PATCH", crPath(space, cr), map[string]any{"description": map[string]any{"object": "document", "data": map[string]any{},
			"nodes": []any{map[string]any{"object": "block", "type": "nope"}}}}).WantError(t, 400, "description")
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if got.Subject != "New" || got.Description == nil {
			t.Fatalf("refused patches changed %+v", got)
		}
		// null clears the description (folio: the reference has no way to).
		var cleared crBody
		s.DoUnchecked(t, admin, "PATCH", crPath(space, cr), map[string]any{"description": nil}).WantStatus(t, 200).JSON(t, &cleared)
		if cleared.Description != nil || cleared.Subject != "New" {
			t.Fatalf("description not cleared: %+v", cleared)
		}
	})
}

func TestChangeRequestRefusals(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		cr := newCR(t, s, admin, space, "Mine")
		_, reader := s.Member(t, org, folio.RoleRead)
		_, outsider := s.User(t)
		_, otherAdmin := s.Org(t)
		base := "/v1/spaces/" + space + "/change-requests"

		s.Do(t, reader, "POST", base, map[string]any{"subject": "x"}).WantError(t, 403, "cannot edit")
		s.Do(t, reader, "PATCH", crPath(space, cr), map[string]any{"status": "archived"}).WantError(t, 403, "cannot edit")
		s.Do(t, reader, "GET", crPath(space, cr), nil).WantStatus(t, 200)
		for _, tok := range []string{outsider, otherAdmin} {
			s.Do(t, tok, "POST", base, map[string]any{"subject": "x"}).WantError(t, 404, "space not found")
			s.Do(t, tok, "GET", crPath(space, cr), nil).WantError(t, 404, "space not found")
			s.Do(t, tok, "GET", base, nil).WantError(t, 404, "space not found")
		}
		// (A locked space takes change requests: TestLockedSpaceTakesChangeRequests.)
		c := getCounts(t, s, admin, space)
		if c.ChangeRequests != 1 {
			t.Fatalf("refused creations counted: %+v", c)
		}
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if got.Status != "open" || got.Subject != "Mine" {
			t.Fatalf("refused patch changed %+v", got)
		}
	})
}

func TestChangeRequestNumbersUnderConcurrentCreation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		const n = 16
		numbers := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var cr crBody
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": fmt.Sprint(i)}).
					WantStatus(t, 201).JSON(t, &cr)
				numbers[i] = cr.Number
			}()
		}
		wg.Wait()
		slices.Sort(numbers)
		for i, got := range numbers {
			if got != i+1 {
				t.Fatalf("numbers %v, want 1..%d each once", numbers, n)
			}
		}
		if c := getCounts(t, s, admin, space); c.ChangeRequests != n || c.ChangeRequestsOpen != n {
			t.Fatalf("counts %+v", c)
		}
	})
}

// importIntoCR imports Markdown into a change request (or one of its pages).
func importIntoCR(t testing.TB, s *apitest.Server, token, space string, cr crBody, page, md string) importResult {
	t.Helper()
	path := crPath(space, cr) + "/content/import"
	if page != "" {
		path = crPath(space, cr) + "/content/page/" + page + "/import"
	}
	var res importResult
	s.Do(t, token, "POST", path, map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte(md))}).
		WantStatus(t, 201).JSON(t, &res)
	return res
}

func pageMarkdown(t testing.TB, s *apitest.Server, token, base, page string) string {
	t.Helper()
	var p pageBody
	s.Do(t, token, "GET", base+"/page/"+page+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
	if p.Markdown == nil {
		t.Fatalf("page %s has no markdown", page)
	}
	return *p.Markdown
}

func TestChangeRequestContent(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Intro\n\nHello.\n"))
		var live revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &live)
		intro := live.Pages[0].ID

		_, editor := s.Member(t, org, folio.RoleEdit)
		var eu struct{ ID string }
		s.Do(t, editor, "GET", "/v1/user", nil).JSON(t, &eu)
		cr := newCR(t, s, admin, space, "Edits")
		content := crPath(space, cr) + "/content"

		// Reads of a new change request show the space's content.
		var rev revisionBody
		s.Do(t, admin, "GET", content, nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != live.ID || len(rev.Pages) != 1 {
			t.Fatalf("fresh change request content %+v", rev)
		}

		// Writes make new heads, parent the previous head.
		r1 := importIntoCR(t, s, editor, space, cr, "", "# Guide\n\nHow to.\n")
		r2 := importIntoCR(t, s, admin, space, cr, intro, "# Intro\n\nHello, changed.\n")
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if got.Revision != r2.Revision || got.RevisionInitial != live.ID || got.Outdated {
			t.Fatalf("change request after writes %+v", got)
		}
		s.Do(t, admin, "GET", content, nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != r2.Revision || len(rev.Parents) != 1 || rev.Parents[0] != r1.Revision || len(rev.Pages) != 2 {
			t.Fatalf("head %+v", rev)
		}
		var r1Rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+r1.Revision, nil).WantStatus(t, 200).JSON(t, &r1Rev)
		if len(r1Rev.Parents) != 1 || r1Rev.Parents[0] != live.ID {
			t.Fatalf("first head's parents %v", r1Rev.Parents)
		}
		var pages struct{ Pages []pageBody }
		s.Do(t, admin, "GET", content+"/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		if len(pages.Pages) != 2 || pages.Pages[1].Title != "Guide" {
			t.Fatalf("pages %+v", pages)
		}
		if md := pageMarkdown(t, s, admin, content, intro); !strings.Contains(md, "Hello, changed.") {
			t.Fatalf("page in change request: %q", md)
		}
		s.Do(t, admin, "GET", content+"/path/guide", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", content+"/path/nope", nil).WantError(t, 404, "page not found")
		var files struct{ Items []fileBody }
		s.Do(t, admin, "GET", content+"/files", nil).WantStatus(t, 200).JSON(t, &files)
		s.Do(t, admin, "GET", content+"/files/nope", nil).WantError(t, 404, "file not found")
		// By number too.
		s.Do(t, admin, "GET", fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content/page/%s", space, cr.Number, intro), nil).WantStatus(t, 200)

		// The live space did not change.
		var after revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &after)
		if after.ID != live.ID || len(after.Pages) != 1 {
			t.Fatalf("live space changed: %+v", after)
		}
		if md := pageMarkdown(t, s, admin, "/v1/spaces/"+space+"/content", intro); strings.Contains(md, "changed") {
			t.Fatalf("live page changed: %q", md)
		}
		var hits struct{ Items []any }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=changed", nil).WantStatus(t, 200).JSON(t, &hits)
		if len(hits.Items) != 0 {
			t.Fatalf("search sees change request content: %+v", hits)
		}

		// Contributors, and the list filter on them.
		var contributors struct {
			Count int
			Items []struct {
				Count      int
				ActionType string
				User       struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", crPath(space, cr)+"/contributors", nil).WantStatus(t, 200).JSON(t, &contributors)
		if contributors.Count != 2 || contributors.Items[0].User.ID != eu.ID || contributors.Items[0].ActionType != "edit" ||
			contributors.Items[0].Count != 1 {
			t.Fatalf("contributors %+v", contributors)
		}
		if d := cmp.Diff([]string{"Edits"}, listCRs(t, s, admin, "/v1/spaces/"+space+"/change-requests?contributor="+eu.ID)); d != "" {
			t.Fatalf("contributor filter (-want +got):\n%s", d)
		}

		// The changes from the base.
		var changes struct {
			Changes []struct {
				Type       string
				Page       struct{ ID, Title string }
				Attributes map[string]any
			}
			More int
		}
		// Unchecked: the reference's page_edited attributes are a oneOf of
		// three schemas that every non-empty object matches, so no answer
		// with a page_edited change can pass its check.
		s.DoUnchecked(t, admin, "GET", crPath(space, cr)+"/changes", nil).WantStatus(t, 200).JSON(t, &changes)
		kinds := map[string]string{}
		for _, c := range changes.Changes {
			kinds[c.Page.Title] = c.Type
		}
		if d := cmp.Diff(map[string]string{"Guide": "page_created", "Intro": "page_edited"}, kinds); d != "" {
			t.Fatalf("changes (-want +got):\n%s", d)
		}
		s.DoUnchecked(t, admin, "GET", crPath(space, cr)+"/changes?limit=1", nil).WantStatus(t, 200).JSON(t, &changes)
		if len(changes.Changes) != 1 || changes.More != 1 {
			t.Fatalf("limited changes %+v", changes)
		}

		// The space moving on makes the change request outdated.
		importInto(t, s, admin, space, "", "markdown", []byte("# Live\n\nLive page.\n"))
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if !got.Outdated {
			t.Fatalf("not outdated after a live write: %+v", got)
		}

		// Refusals change nothing.
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "GET", content, nil).WantStatus(t, 200)
		s.Do(t, reader, "POST", content+"/import", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("x"))}).
			WantError(t, 403, "cannot edit")
		s.Do(t, admin, "POST", content+"/page/nope/import", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("x"))}).
			WantError(t, 404, "page not found")
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": "archived"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", content+"/import", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("x"))}).
			WantError(t, 409, "archived")
		var final crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &final)
		if final.Revision != r2.Revision {
			t.Fatalf("refused writes moved the head: %+v", final)
		}
	})
}

type mergeBody struct{ Revision, Result string }

type conflictBody struct {
	Error struct {
		Code      int
		Message   string
		Conflicts []struct {
			Page, Title, File, Field, Message string
			Blocks                            []string
		}
	}
}

// mergeSetup makes a space with pages A and B (three paragraphs each) and
// a change request on it.
func mergeSetup(t *testing.T, s *apitest.Server) (admin, space string, cr crBody, ids map[string]string) {
	org, admin := s.Org(t)
	space = newSpace(t, s, admin, org, "Docs")
	importInto(t, s, admin, space, "", "markdown", []byte("# A\n\na1\n\na2\n\na3\n"))
	importInto(t, s, admin, space, "", "markdown", []byte("# B\n\nb1\n\nb2\n\nb3\n"))
	ids = pageIDs(t, s, admin, space)
	return admin, space, newCR(t, s, admin, space, "Change"), ids
}

func TestChangeRequestMergeDifferentPagesAndBlocks(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		admin, space, cr, ids := mergeSetup(t, s)
		live := "/v1/spaces/" + space + "/content"
		// The change request edits A's last block and B; the space edits
		// A's first block.
		importIntoCR(t, s, admin, space, cr, ids["A"], "# A\n\na1\n\na2\n\na3 from the change request\n")
		importIntoCR(t, s, admin, space, cr, ids["B"], "# B\n\nb1 reviewed\n\nb2\n\nb3\n")
		importInto(t, s, admin, space, ids["A"], "markdown", []byte("# A\n\na1 live\n\na2\n\na3\n"))
		before := getCounts(t, s, admin, space)

		var m mergeBody
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200).JSON(t, &m)
		if m.Result != "merge" || m.Revision == "" {
			t.Fatalf("merge answer %+v", m)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", live, nil).JSON(t, &rev)
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if rev.ID != m.Revision || rev.Type != "merge" || len(rev.Parents) != 2 || rev.Parents[0] != before.Revision ||
			rev.Parents[1] != got.Revision {
			t.Fatalf("merged revision %+v, change request %+v", rev, got)
		}
		if got.Status != "merged" || got.RevisionMerged != m.Revision || got.Outdated {
			t.Fatalf("merged change request %+v", got)
		}
		a := pageMarkdown(t, s, admin, live, ids["A"])
		if !strings.Contains(a, "a1 live") || !strings.Contains(a, "a3 from the change request") || !strings.Contains(a, "a2") {
			t.Fatalf("A merged per block: %q", a)
		}
		if b := pageMarkdown(t, s, admin, live, ids["B"]); !strings.Contains(b, "b1 reviewed") {
			t.Fatalf("B: %q", b)
		}
		c := getCounts(t, s, admin, space)
		if c.ChangeRequestsOpen != 0 || c.ChangeRequests != 1 {
			t.Fatalf("counts after merge %+v", c)
		}
		// The search index follows the merge.
		var hits struct{ Items []struct{ ID string } }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=reviewed", nil).WantStatus(t, 200).JSON(t, &hits)
		if len(hits.Items) != 1 || hits.Items[0].ID != ids["B"] {
			t.Fatalf("search after merge %+v", hits)
		}
		// A merged change request is final.
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 409, "merged")
		s.Do(t, admin, "POST", crPath(space, cr)+"/update", nil).WantError(t, 409, "merged")
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": "open"}).WantError(t, 409, "merged")
	})
}

func TestChangeRequestMergeConflictChangesNothing(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		admin, space, cr, ids := mergeSetup(t, s)
		importIntoCR(t, s, admin, space, cr, ids["A"], "# A\n\na1\n\na2 from the change request\n\na3\n")
		importInto(t, s, admin, space, ids["A"], "markdown", []byte("# A\n\na1\n\na2 live\n\na3\n"))
		before := getCounts(t, s, admin, space)
		var crBefore crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &crBefore)

		for _, op := range []string{"merge", "update"} {
			var body conflictBody
			s.Do(t, admin, "POST", crPath(space, cr)+"/"+op, nil).WantStatus(t, 409).JSON(t, &body)
			if len(body.Error.Conflicts) != 1 {
				t.Fatalf("%s conflicts %+v", op, body)
			}
			c := body.Error.Conflicts[0]
			if c.Page != ids["A"] || c.Title != "A" || c.Field != "document" || len(c.Blocks) != 1 ||
				!strings.Contains(c.Blocks[0], `"a2"`) || !strings.Contains(body.Error.Message, `page "A"`) {
				t.Fatalf("%s conflict %+v", op, body)
			}
		}
		after := getCounts(t, s, admin, space)
		var crAfter crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &crAfter)
		if after != before || crAfter.Status != "open" || crAfter.Revision != crBefore.Revision || crAfter.RevisionMerged != "" ||
			crAfter.RevisionMergedAncestor != "" {
			t.Fatalf("refused merge changed something: space %+v → %+v, change request %+v", before, after, crAfter)
		}
		if a := pageMarkdown(t, s, admin, "/v1/spaces/"+space+"/content", ids["A"]); !strings.Contains(a, "a2 live") {
			t.Fatalf("live page changed: %q", a)
		}
	})
}

func TestChangeRequestMergeSameSlugAndFiles(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		admin, space, cr, _ := mergeSetup(t, s)
		// Files on both sides, different ones: both kept.
		var crZip, liveZip importResult
		s.Do(t, admin, "POST", crPath(space, cr)+"/content/import", map[string]any{"source": "zip",
			"url": dataURL("application/zip", zipOf(t, map[string]string{"cr.md": "# From CR\n\n![x](x.png)\n", "x.png": string(tinyPNG())}))}).
			WantStatus(t, 201).JSON(t, &crZip)
		liveZip = importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{"live.md": "# Live\n\n![y](y.png)\n", "y.png": "yy"}))
		_ = liveZip
		var m mergeBody
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200).JSON(t, &m)
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &rev)
		var titles, files []string
		for _, p := range rev.Pages {
			titles = append(titles, p.Title)
		}
		for _, f := range rev.Files {
			files = append(files, f.Name)
		}
		slices.Sort(files)
		if d := cmp.Diff([]string{"A", "B", "From CR", "Live"}, titles); d != "" {
			t.Fatalf("pages (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"x.png", "y.png"}, files); d != "" {
			t.Fatalf("files (-want +got):\n%s", d)
		}

		// Both sides add a page with the same slug at the top level.
		cr2 := newCR(t, s, admin, space, "Guide")
		importIntoCR(t, s, admin, space, cr2, "", "# Guide\n\nFrom the change request.\n")
		importInto(t, s, admin, space, "", "markdown", []byte("# Guide\n\nLive.\n"))
		before := getCounts(t, s, admin, space)
		var body conflictBody
		s.Do(t, admin, "POST", crPath(space, cr2)+"/merge", nil).WantStatus(t, 409).JSON(t, &body)
		if len(body.Error.Conflicts) != 1 || body.Error.Conflicts[0].Field != "slug" || body.Error.Conflicts[0].Title != "Guide" {
			t.Fatalf("slug conflict %+v", body)
		}
		if after := getCounts(t, s, admin, space); after != before {
			t.Fatalf("refused merge changed the space")
		}
	})
}

func TestChangeRequestUpdateThenMerge(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		admin, space, cr, ids := mergeSetup(t, s)
		live := "/v1/spaces/" + space + "/content"
		// Up to date: an update changes nothing.
		var m mergeBody
		s.Do(t, admin, "POST", crPath(space, cr)+"/update", nil).WantStatus(t, 200).JSON(t, &m)
		if m.Result != "update" || m.Revision != cr.Revision {
			t.Fatalf("no-op update %+v", m)
		}
		importIntoCR(t, s, admin, space, cr, ids["B"], "# B\n\nb1\n\nb2 cr\n\nb3\n")
		importInto(t, s, admin, space, ids["A"], "markdown", []byte("# A\n\na1 live\n\na2\n\na3\n"))
		spaceRev := getCounts(t, s, admin, space).Revision
		var crBefore crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &crBefore)

		s.Do(t, admin, "POST", crPath(space, cr)+"/update", nil).WantStatus(t, 200).JSON(t, &m)
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).JSON(t, &got)
		if m.Result != "update" || got.Revision != m.Revision || got.RevisionMergedAncestor != spaceRev || got.Outdated {
			t.Fatalf("update %+v, change request %+v", m, got)
		}
		var head revisionBody
		s.Do(t, admin, "GET", crPath(space, cr)+"/content", nil).JSON(t, &head)
		if head.Type != "update" || len(head.Parents) != 2 || head.Parents[0] != crBefore.Revision || head.Parents[1] != spaceRev {
			t.Fatalf("update revision %+v", head)
		}
		if a := pageMarkdown(t, s, admin, crPath(space, cr)+"/content", ids["A"]); !strings.Contains(a, "a1 live") {
			t.Fatalf("update did not bring the space's change: %q", a)
		}
		// The changes stay the change request's own.
		var changes struct {
			Changes []struct{ Page struct{ ID string } }
		}
		s.DoUnchecked(t, admin, "GET", crPath(space, cr)+"/changes", nil).WantStatus(t, 200).JSON(t, &changes)
		if len(changes.Changes) != 1 || changes.Changes[0].Page.ID != ids["B"] {
			t.Fatalf("changes after an update %+v", changes)
		}
		// The space has not moved since: the merge takes the head as it is.
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200).JSON(t, &m)
		var rev revisionBody
		s.Do(t, admin, "GET", live, nil).JSON(t, &rev)
		if rev.ID != m.Revision || len(rev.Parents) != 2 || rev.Parents[0] != spaceRev || rev.Parents[1] != got.Revision {
			t.Fatalf("merge after update %+v", rev)
		}
		a, b := pageMarkdown(t, s, admin, live, ids["A"]), pageMarkdown(t, s, admin, live, ids["B"])
		if !strings.Contains(a, "a1 live") || !strings.Contains(b, "b2 cr") {
			t.Fatalf("merged pages %q %q", a, b)
		}
	})
}

func TestChangeRequestMergePermissions(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		cr := newCR(t, s, admin, space, "Change")
		importIntoCR(t, s, admin, space, cr, "", "# New\n\nx\n")
		_, reader := s.Member(t, org, folio.RoleRead)
		_, outsider := s.User(t)
		before := getCounts(t, s, admin, space)
		s.Do(t, reader, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 403, "cannot merge")
		s.Do(t, reader, "POST", crPath(space, cr)+"/update", nil).WantError(t, 403, "cannot edit")
		s.Do(t, outsider, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": "archived"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 409, "archived")
		after := getCounts(t, s, admin, space)
		if after.Revision != before.Revision {
			t.Fatalf("refused merges changed the space")
		}
		// Reopened, a draft merges too.
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"status": "draft"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200)
	})
}

func TestChangeRequestRacingMerges(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		admin, space, _, ids := mergeSetup(t, s)
		// Two change requests editing different pages merge at once: both
		// land, the second on top of the first.
		crA, crB := newCR(t, s, admin, space, "A"), newCR(t, s, admin, space, "B")
		importIntoCR(t, s, admin, space, crA, ids["A"], "# A\n\nfrom crA\n")
		importIntoCR(t, s, admin, space, crB, ids["B"], "# B\n\nfrom crB\n")
		// The same change request merged twice at once: one merge.
		crC := newCR(t, s, admin, space, "C")
		importIntoCR(t, s, admin, space, crC, "", "# C\n\nfrom crC\n")
		var wg sync.WaitGroup
		codes := make([]int, 4)
		for i, cr := range []crBody{crA, crB, crC, crC} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = s.DoUnchecked(t, admin, "POST", crPath(space, cr)+"/merge", nil).Status
			}()
		}
		wg.Wait()
		slices.Sort(codes[2:])
		if codes[0] != 200 || codes[1] != 200 || codes[2] != 200 || codes[3] != 409 {
			t.Fatalf("codes %v, want 200 200 200 409", codes)
		}
		live := "/v1/spaces/" + space + "/content"
		a, b := pageMarkdown(t, s, admin, live, ids["A"]), pageMarkdown(t, s, admin, live, ids["B"])
		if !strings.Contains(a, "from crA") || !strings.Contains(b, "from crB") {
			t.Fatalf("a merge was lost: %q %q", a, b)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", live, nil).JSON(t, &rev)
		if len(rev.Pages) != 3 {
			t.Fatalf("pages %+v", rev.Pages)
		}
	})
}

func TestChangeRequestReviewsAndMergeRules(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		rev1, tok1 := s.Member(t, org, folio.RoleReview)
		rev2, tok2 := s.Member(t, org, folio.RoleReview)
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "rules",
			"rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{rev1.ID, rev2.ID}}}}}).WantStatus(t, 200)
		cr := newCR(t, s, admin, space, "Reviewed")
		importIntoCR(t, s, admin, space, cr, "", "# New\n\nx\n")
		path := crPath(space, cr)

		// Review requests.
		var asked struct {
			Users []struct {
				Object, Kind string
				User         struct{ ID string }
			}
		}
		s.Do(t, admin, "POST", path+"/requested-reviewers", map[string]any{"users": []string{rev1.ID, rev1.ID}}).
			WantStatus(t, 200).JSON(t, &asked)
		if len(asked.Users) != 1 || asked.Users[0].User.ID != rev1.ID || asked.Users[0].Kind != "user" {
			t.Fatalf("asked %+v", asked)
		}
		var pending struct {
			Count int
			Items []struct{ User struct{ ID string } }
		}
		s.Do(t, admin, "GET", path+"/requested-reviewers", nil).WantStatus(t, 200).JSON(t, &pending)
		if pending.Count != 1 {
			t.Fatalf("pending %+v", pending)
		}
		if d := cmp.Diff([]string{"Reviewed"}, listCRs(t, s, admin, "/v1/spaces/"+space+"/change-requests?requestedReviewer="+rev1.ID)); d != "" {
			t.Fatalf("requestedReviewer filter (-want +got):\n%s", d)
		}
		_, outsider := s.User(t)
		var outsiderUser struct{ ID string }
		s.Do(t, outsider, "GET", "/v1/user", nil).JSON(t, &outsiderUser)
		s.Do(t, admin, "POST", path+"/requested-reviewers", map[string]any{"users": []string{outsiderUser.ID}}).WantError(t, 400, "not a member")
		s.Do(t, reader, "POST", path+"/requested-reviewers", map[string]any{"users": []string{rev2.ID}}).WantError(t, 403, "cannot edit")

		// Nobody approved: the merge names both reviewers and changes nothing.
		before := getCounts(t, s, admin, space)
		s.Do(t, admin, "POST", path+"/merge", nil).WantError(t, 409, rev1.DisplayName)
		s.Do(t, admin, "POST", path+"/merge", nil).WantError(t, 409, rev2.DisplayName)
		if after := getCounts(t, s, admin, space); after != before {
			t.Fatalf("refused merge changed the space")
		}

		review := func(tok, status string) {
			t.Helper()
			s.Do(t, tok, "POST", path+"/reviews", map[string]any{"status": status}).WantStatus(t, 201)
		}
		review(tok1, "approved")
		s.Do(t, admin, "GET", path+"/requested-reviewers", nil).WantStatus(t, 200).JSON(t, &pending)
		if pending.Count != 0 {
			t.Fatalf("answered request still pending: %+v", pending)
		}
		review(tok2, "changes-requested")
		r := s.Do(t, admin, "POST", path+"/merge", nil)
		r.WantError(t, 409, rev2.DisplayName)
		if strings.Contains(string(r.Body), rev1.DisplayName) {
			t.Fatalf("approver named as missing: %s", r.Body)
		}
		review(tok2, "approved")
		// A new head outdates the approvals.
		importIntoCR(t, s, admin, space, cr, "", "# Newer\n\ny\n")
		s.Do(t, admin, "POST", path+"/merge", nil).WantError(t, 409, rev1.DisplayName)
		var reviews struct {
			Count int
			Items []struct {
				Status, Revision string
				Outdated         bool
				Reviewer         struct{ ID string }
				RequestedBy      *struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", path+"/reviews", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 3 || reviews.Items[0].RequestedBy == nil || reviews.Items[1].RequestedBy != nil {
			t.Fatalf("reviews %+v", reviews)
		}
		for _, it := range reviews.Items {
			if !it.Outdated {
				t.Fatalf("review on an old head not outdated: %+v", reviews)
			}
		}
		s.Do(t, admin, "GET", path+"/reviews?outdated=false", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 0 {
			t.Fatalf("current reviews %+v", reviews)
		}
		review(tok1, "approved")
		review(tok2, "approved")
		s.Do(t, admin, "GET", path+"/reviews?outdated=false", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 2 {
			t.Fatalf("current reviews %+v", reviews)
		}
		// Asking a reviewer again outdates their approval; answering
		// makes it current again.
		s.Clock.Advance(time.Second)
		s.Do(t, admin, "POST", path+"/requested-reviewers", map[string]any{"users": []string{rev1.ID}}).WantStatus(t, 200)
		s.Do(t, admin, "GET", path+"/reviews?outdated=false", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 1 || reviews.Items[0].Reviewer.ID != rev2.ID {
			t.Fatalf("current reviews after asking %s again: %+v", rev1.ID, reviews)
		}
		s.Clock.Advance(time.Second)
		review(tok1, "approved")
		s.Do(t, admin, "GET", path+"/reviews?outdated=false&limit=1", nil).WantStatus(t, 200).JSON(t, &reviews)
		if reviews.Count != 2 || len(reviews.Items) != 1 {
			t.Fatalf("current reviews, first page of one: %+v", reviews)
		}

		// Refusals.
		s.Do(t, reader, "POST", path+"/reviews", map[string]any{"status": "approved"}).WantError(t, 403, "cannot review")
		s.DoUnchecked(t, tok1, "POST", path+"/reviews", map[string]any{"status": "maybe"}).WantError(t, 400, "status")

		s.Do(t, admin, "POST", path+"/merge", nil).WantStatus(t, 200)

		// Removing a request: 204, and 204 again once gone.
		cr2 := newCR(t, s, admin, space, "Second")
		s.Do(t, admin, "POST", crPath(space, cr2)+"/requested-reviewers", map[string]any{"users": []string{rev2.ID}}).WantStatus(t, 200)
		s.Do(t, reader, "DELETE", crPath(space, cr2)+"/requested-reviewers/"+rev2.ID, nil).WantError(t, 403, "cannot edit")
		s.Do(t, admin, "DELETE", crPath(space, cr2)+"/requested-reviewers/"+rev2.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", crPath(space, cr2)+"/requested-reviewers/"+rev2.ID, nil).WantStatus(t, 204)
	})
}

func TestChangeRequestMergeRulesInherited(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		rev1, tok1 := s.Member(t, org, folio.RoleReview)
		bypass, bypassTok := s.Member(t, org, folio.RoleEdit)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_specific_reviewers", "users": []string{rev1.ID}},
			map[string]any{"rule": "require_change_request_subject"},
			map[string]any{"rule": "allow_bypass", "users": []string{bypass.ID}},
		}}}).WantStatus(t, 200)
		cr := newCR(t, s, admin, space, "")
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 409, "needs a subject")
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"subject": "Now with a subject"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantError(t, 409, rev1.DisplayName)
		s.Do(t, tok1, "POST", crPath(space, cr)+"/reviews", map[string]any{"status": "approved"}).WantStatus(t, 201)
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200)

		// The bypass list merges regardless; the space's own rules win over
		// the organization's.
		cr2 := newCR(t, s, admin, space, "")
		s.Do(t, bypassTok, "POST", crPath(space, cr2)+"/merge", nil).WantStatus(t, 200)
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "none"}}).WantStatus(t, 200)
		cr3 := newCR(t, s, admin, space, "")
		s.Do(t, admin, "POST", crPath(space, cr3)+"/merge", nil).WantStatus(t, 200)
	})
}

func TestChangeRequestLinks(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"target.md": "# Target\n\nThe page others point at.\n",
			"source.md": "# Source\n\nSee [the target](target.md) and [a gone page](page:missingpage).\n",
		}))
		ids := pageIDs(t, s, admin, space)
		cr := newCR(t, s, admin, space, "Links")
		res := importIntoCR(t, s, admin, space, cr, "", "# New\n\nSee [the target](page:"+ids["Target"]+") and [nothing](page:nothere).\n")
		_ = res
		var head revisionBody
		s.Do(t, admin, "GET", crPath(space, cr)+"/content", nil).JSON(t, &head)
		newPage := head.Pages[len(head.Pages)-1].ID

		var l linkList
		s.Do(t, admin, "GET", crPath(space, cr)+"/links", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Stats.Total != 3 || l.Stats.Broken.Total != 2 || l.Stats.Broken.ChangeRequest != 1 {
			t.Fatalf("change request links %+v", l.Stats)
		}
		var spaceLinks linkList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links", nil).WantStatus(t, 200).JSON(t, &spaceLinks)
		if spaceLinks.Stats.Total != 2 || spaceLinks.Stats.Broken.Total != 1 {
			t.Fatalf("space links changed: %+v", spaceLinks.Stats)
		}
		s.Do(t, admin, "GET", crPath(space, cr)+"/content/page/"+newPage+"/links?status=broken", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].LocationReferences[0].Page.ID != newPage {
			t.Fatalf("page links %+v", l)
		}
		s.Do(t, admin, "GET", crPath(space, cr)+"/content/page/nope/links", nil).WantError(t, 404, "page not found")

		backlinks := func(path string) []string {
			var bl struct {
				Items []struct{ Page struct{ Title string } }
			}
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &bl)
			var out []string
			for _, it := range bl.Items {
				out = append(out, it.Page.Title)
			}
			slices.Sort(out)
			return out
		}
		if d := cmp.Diff([]string{"New", "Source"}, backlinks(crPath(space, cr)+"/content/page/"+ids["Target"]+"/backlinks")); d != "" {
			t.Fatalf("change request backlinks (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"Source"}, backlinks("/v1/spaces/"+space+"/content/page/"+ids["Target"]+"/backlinks")); d != "" {
			t.Fatalf("space backlinks (-want +got):\n%s", d)
		}
		s.Do(t, admin, "GET", crPath(space, cr)+"/content/files/nope/backlinks", nil).WantError(t, 404, "file not found")
	})
}
