package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// crTitles lists the page titles of a change request's head, as titles
// does for the live content.
func crTitles(t *testing.T, s *apitest.Server, user, sp folio.ID, ref string) string {
	t.Helper()
	ctx, caller := context.Background(), folio.Caller{UserID: user}
	cr, err := s.App.GetChangeRequest(ctx, caller, sp, ref)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.App.GetContent(ctx, caller, sp, cr.Revision)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range c.Tree.Pages {
		out = append(out, p.Title)
	}
	return strings.Join(out, ",")
}

// TestFirstPageOfLockedSpace: a locked space without pages offers its
// editors a form that opens a change request with a first page and goes
// to its editor; the page is saved and merged into the live content. The
// change request offers "New page in this change request" for more. A
// reader is offered nothing and refused; bad titles are refused before
// anything opens; nothing reaches the live content before the merge.
func TestFirstPageOfLockedSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		rd, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Empty handbook", "")
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		writer, reader := signIn(t, s, w.Email), signIn(t, s, rd.Email)
		crCount := func() int {
			t.Helper()
			l, err := s.App.ListChangeRequests(context.Background(), folio.Caller{UserID: w.ID}, sp, folio.ChangeRequestFilter{}, folio.ListOptions{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}

		writer.get(t, "/s/"+sp).want(t, 200, "This space has no pages yet.",
			`<form method="post" action="/s/`+sp+`/~/pages/propose" class="stack card first-page">`,
			`<label for="first-title">Page title</label>`, "Add the first page in a change request")
		if p := reader.get(t, "/s/"+sp).want(t, 200, "This space has no pages yet."); strings.Contains(p.Body, "/~/pages/propose") {
			t.Fatal("a reader is offered to add a page")
		}
		// Refused: a reader; a blank or too long title; a bad kind; the
		// live content directly. Nothing opens, nothing changes.
		reader.post(t, "/s/"+sp+"/~/pages/propose", url.Values{"title": {"Forged"}}).want(t, 403)
		writer.post(t, "/s/"+sp+"/~/pages/propose", url.Values{"title": {"  "}}).want(t, 400, "title is required")
		writer.post(t, "/s/"+sp+"/~/pages/propose", url.Values{"title": {strings.Repeat("x", 300)}}).want(t, 400, "title must be at most")
		writer.post(t, "/s/"+sp+"/~/pages/propose", url.Values{"title": {"Intro"}, "type": {"link"}}).want(t, 400, "type must be document or group")
		writer.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Intro"}}).want(t, 403, "locked")
		if n := crCount(); n != 0 || titles(t, s, admin, sp) != "" {
			t.Fatalf("refused forms left %d change requests and pages %q", n, titles(t, s, admin, sp))
		}

		// The form opens change request #1 with the page and its editor.
		cr := "/s/" + sp + "/~/changes/1"
		p := writer.post(t, "/s/"+sp+"/~/pages/propose", url.Values{"title": {"Introduction"}})
		loc := p.Header.Get("Location")
		if !strings.HasPrefix(loc, cr+"/pages/") || !strings.HasSuffix(loc, "/edit") {
			t.Fatalf("redirect to %q, want the new page's editor in %s", loc, cr)
		}
		pageID := strings.TrimSuffix(strings.TrimPrefix(loc, cr+"/pages/"), "/edit")
		if got := crTitles(t, s, w.ID, sp, "1"); got != "Introduction" {
			t.Fatalf("change request pages %q", got)
		}
		if titles(t, s, admin, sp) != "" {
			t.Fatal("the page reached the live content before the merge")
		}
		p = writer.get(t, loc).want(t, 200, "In change request", "#1 Add “Introduction”")
		since := sinceRE.FindStringSubmatch(p.Body)[1]
		writer.postJSON(t, cr+"/pages/"+pageID+"/document", map[string]any{"document": docWith("Welcome", "Start here"), "since": since}, writer.csrf).
			want(t, 200, `"location":"`+cr+`"`)

		// More pages in the change request, from its page: a group, then
		// a page refused for its title. A reader may not add one.
		writer.get(t, cr).want(t, 200, "New page in this change request", `<form method="post" action="`+cr+`/pages" class="stack menu-body">`,
			`<label for="cr-new-title">Title</label>`)
		if p := reader.get(t, cr).want(t, 200); strings.Contains(p.Body, "New page in this change request") {
			t.Fatal("a reader is offered to add a page to the change request")
		}
		writer.post(t, cr+"/pages", url.Values{"title": {"Guides"}, "type": {"group"}}).redirect(t, cr)
		writer.post(t, cr+"/pages", url.Values{"title": {""}}).want(t, 400, "title is required")
		reader.post(t, cr+"/pages", url.Values{"title": {"Forged"}}).want(t, 403)
		org2, _ := s.Org(t)
		stranger, _ := member(t, s, org2, folio.RoleAdmin)
		signIn(t, s, stranger.Email).post(t, cr+"/pages", url.Values{"title": {"Forged"}}).want(t, 404)
		writer.post(t, "/s/"+sp+"/~/changes/7/pages", url.Values{"title": {"Nowhere"}}).want(t, 404)
		if got := crTitles(t, s, w.ID, sp, "1"); got != "Introduction,Guides" {
			t.Fatalf("change request pages %q", got)
		}

		// Merged: the live space has its first pages.
		writer.post(t, cr+"/merge", nil).redirect(t, cr)
		if got := titles(t, s, admin, sp); got != "Introduction,Guides" {
			t.Fatalf("live pages after the merge %q", got)
		}
		if got := pageDoc(t, s, w.ID, sp, pageID); !strings.Contains(got, "Start here") {
			t.Fatalf("the merged page's document:\n%s", got)
		}
		writer.get(t, "/s/"+sp).want(t, 200, "Start here")
		// A merged change request takes no more pages.
		writer.post(t, cr+"/pages", url.Values{"title": {"Late"}}).want(t, 409)
		if got := titles(t, s, admin, sp); got != "Introduction,Guides" {
			t.Fatalf("live pages %q", got)
		}
	})
}
