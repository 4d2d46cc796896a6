package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// TestConflictsInLockedSpace: in a locked space, where change requests are
// the only way to edit, an outdated change request offers Update from
// main, its conflicts page offers main's version and editing in the change
// request, and taking main's version works.
func TestConflictsInLockedSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		caller := folio.Caller{UserID: u.ID}
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nOne.\n\nTwo.\n")
		c, _ := s.App.GetContent(ctx, caller, sp, "")
		page := c.Tree.Pages[0].ID
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		for _, subject := range []string{"Ours", "Theirs"} {
			if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: subject}); err != nil {
				t.Fatal(err)
			}
		}
		save := func(cr string, paragraphs ...string) {
			t.Helper()
			if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: page, Document: content.NewDocument(paragraphs...),
				ChangeRequest: cr}); err != nil {
				t.Fatal(err)
			}
		}
		save("1", "One.", "Two, ours.")
		save("2", "One.", "Two, theirs.")
		if _, err := s.App.MergeChangeRequest(ctx, caller, sp, "2"); err != nil {
			t.Fatal(err)
		}
		b := signIn(t, s, u.Email)
		crs := "/s/" + sp + "/~/changes/"
		b.get(t, crs+"1").want(t, 200, `<button type="submit" aria-describedby="cr-update-help">Update from main</button>`)
		b.post(t, crs+"1/update", nil).want(t, 409, "Update from main: conflicts",
			`action="`+crs+`1/pages/`+page+`/take-main"`, "Use main's version of “Guide”",
			`href="`+crs+`1/pages/`+page+`/edit"`)
		b.post(t, crs+"1/pages/"+page+"/take-main", nil).redirect(t, crs+"1")
		b.post(t, crs+"1/update", nil).redirect(t, crs+"1")
		cr, err := s.App.GetChangeRequest(ctx, caller, sp, "1")
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.App.GetPageDocument(ctx, caller, sp, cr.Revision, page)
		if err != nil {
			t.Fatal(err)
		}
		if cr.Outdated() || !strings.Contains(string(d), "Two, theirs.") || strings.Contains(string(d), "Two, ours.") {
			t.Fatalf("after taking main's version: outdated %v, %s", cr.Outdated(), d)
		}
	})
}

// TestNewChangeRequestDescriptionRefused: the New change request form
// writes its subject and description in one transaction, so a description
// the app refuses creates no change request and sends no webhook.
func TestNewChangeRequestDescriptionRefused(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nOne.\n")
		var hook struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &hook)
		deliveries := func() int {
			t.Helper()
			var l struct{ Items []struct{ EventType string } }
			s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks/"+hook.ID+"/deliveries", nil).WantStatus(t, 200).JSON(t, &l)
			return len(l.Items)
		}
		b := signIn(t, s, u.Email)
		// 60,000 paragraphs: more than content.MaxNodes, within the form's 1 MiB.
		huge := strings.Repeat("a\n\n", 60_000)
		b.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Too long"}, "description": {huge}}).want(t, 400, "more than 100000 nodes")
		for _, status := range []string{folio.ChangeRequestOpen, folio.ChangeRequestDraft} {
			l, err := s.App.ListChangeRequests(ctx, folio.Caller{UserID: u.ID}, sp, folio.ChangeRequestFilter{Status: status}, folio.ListOptions{Limit: 10})
			if err != nil || len(l.Items) != 0 {
				t.Fatalf("a refused description left %d %s change requests (%v)", len(l.Items), status, err)
			}
		}
		if n := deliveries(); n != 0 {
			t.Fatalf("a refused description sent %d webhooks", n)
		}
		// Accepted: the change request has its description from the start,
		// and one event says so.
		b.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Reword"}, "description": {"Why.\r\n\r\nHow."}}).redirect(t, "/s/"+sp+"/~/changes/1")
		b.get(t, "/s/"+sp+"/~/changes/1").want(t, 200, "#1 Reword", `<section class="markdown description" aria-label="Description"><p>Why.</p>`, "<p>How.</p>")
		if n := deliveries(); n != 1 {
			t.Fatalf("creating a described change request sent %d webhooks, want 1", n)
		}
	})
}
