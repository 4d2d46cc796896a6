package app_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// TestRestorePage restores a page's earlier version into the live content,
// into a new change request and into an existing one, brings back a
// deleted page, and refuses readers, unknown pages and a version equal to
// the current one without changing anything.
func TestRestorePage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		w, _ := s.Member(t, org, folio.RoleEdit)
		r, _ := s.Member(t, org, folio.RoleRead)
		writer, reader := folio.Caller{UserID: w.ID}, folio.Caller{UserID: r.ID}
		var sp struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}).WantStatus(t, 201).JSON(t, &sp)
		s.Do(t, admin, "POST", "/v1/spaces/"+sp.ID+"/content/import", map[string]any{"source": "markdown",
			"url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte("# Guide\n\nThe first version.\n"))}).WantStatus(t, 201)
		c, err := s.App.GetContent(ctx, writer, sp.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		first, page := c.Revision.ID, c.Tree.Pages[0].ID
		save := func(text string) {
			t.Helper()
			if _, err := s.App.SavePageDocument(ctx, writer, sp.ID, app.PageDocumentInput{Page: page, Document: content.NewDocument(text)}); err != nil {
				t.Fatal(err)
			}
		}
		text := func(revision folio.ID) string {
			t.Helper()
			d, err := s.App.GetPageDocument(ctx, writer, sp.ID, revision, page)
			if err != nil {
				t.Fatal(err)
			}
			return string(d)
		}
		current := func() folio.ID {
			t.Helper()
			c, err := s.App.GetContent(ctx, writer, sp.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			return c.Revision.ID
		}
		save("The second version.")
		second := current()

		// A reader is refused and nothing changes.
		if _, err := s.App.RestorePage(ctx, reader, sp.ID, app.RestorePageInput{Revision: first, Page: page}); folio.KindOf(err) != folio.Forbidden {
			t.Fatalf("a reader restored: %v", err)
		}
		if _, err := s.App.RestorePage(ctx, reader, sp.ID, app.RestorePageInput{Revision: first, Page: page,
			NewChangeRequest: &folio.NewChangeRequest{Subject: "Sneaky"}}); folio.KindOf(err) != folio.Forbidden {
			t.Fatalf("a reader restored into a change request: %v", err)
		}
		if current() != second {
			t.Fatal("a refused restore made a revision")
		}
		for _, bad := range []app.RestorePageInput{{Page: page}, {Revision: first, Page: "nope"}, {Revision: "nope", Page: page}} {
			if _, err := s.App.RestorePage(ctx, writer, sp.ID, bad); err == nil || current() != second {
				t.Fatalf("restore %+v: %v", bad, err)
			}
		}

		// Live: one rollback revision with the old document.
		res, err := s.App.RestorePage(ctx, writer, sp.ID, app.RestorePageInput{Revision: first, Page: page})
		if err != nil {
			t.Fatal(err)
		}
		if res.ChangeRequest != nil || current() != res.Revision || !strings.Contains(text(""), "The first version.") {
			t.Fatalf("after the restore: %+v, %s", res, text(""))
		}
		h, err := s.App.ListHistory(ctx, writer, sp.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		if h[0].Type != folio.RevisionRollback || h[0].Author == nil || h[0].Author.ID != w.ID || h[0].Parents[0] != second {
			t.Fatalf("history after the restore: %+v", h[0])
		}
		if _, err := s.App.RestorePage(ctx, writer, sp.ID, app.RestorePageInput{Revision: first, Page: page}); folio.KindOf(err) != folio.Invalid {
			t.Fatalf("restoring the current version again: %v", err)
		}

		// Into a new change request, in one go: the live content stays.
		live := current()
		res, err = s.App.RestorePage(ctx, writer, sp.ID, app.RestorePageInput{Revision: second, Page: page,
			NewChangeRequest: &folio.NewChangeRequest{Subject: "Bring back the second version"}})
		if err != nil {
			t.Fatal(err)
		}
		if current() != live || res.ChangeRequest == nil || res.ChangeRequest.Revision != res.Revision ||
			!strings.Contains(text(res.Revision), "The second version.") || !strings.Contains(text(""), "The first version.") {
			t.Fatalf("restore into a new change request: %+v", res)
		}
		cr, err := s.App.GetChangeRequest(ctx, writer, sp.ID, res.ChangeRequest.ID)
		if err != nil || cr.Subject != "Bring back the second version" || cr.Status != folio.ChangeRequestOpen || cr.Outdated() {
			t.Fatalf("the new change request: %+v, %v", cr, err)
		}
		// Into that change request again: back to the first version there.
		res2, err := s.App.RestorePage(ctx, writer, sp.ID, app.RestorePageInput{Revision: first, Page: page,
			ChangeRequest: res.ChangeRequest.ID})
		if err != nil || !strings.Contains(text(res2.Revision), "The first version.") || current() != live {
			t.Fatalf("restore into the change request: %v", err)
		}

		// A deleted page comes back.
		if err := s.App.DeletePage(ctx, writer, sp.ID, page); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.RestorePage(ctx, writer, sp.ID, app.RestorePageInput{Revision: second, Page: page}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text(""), "The second version.") {
			t.Fatalf("the deleted page is not back: %s", text(""))
		}

		// A locked space refuses restores, live or in change requests.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp.ID, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		live = current()
		for _, in := range []app.RestorePageInput{{Revision: first, Page: page}, {Revision: first, Page: page, ChangeRequest: res.ChangeRequest.ID},
			{Revision: first, Page: page, NewChangeRequest: &folio.NewChangeRequest{}}} {
			if _, err := s.App.RestorePage(ctx, writer, sp.ID, in); folio.KindOf(err) != folio.Forbidden {
				t.Fatalf("restore %+v in a locked space: %v", in, err)
			}
		}
		if current() != live {
			t.Fatal("a refused restore changed the locked space")
		}
	})
}
