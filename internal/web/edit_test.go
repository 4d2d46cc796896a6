package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// postJSON posts a body as the edit view's script does: JSON, same
// origin, the CSRF token in X-CSRF-Token (csrf "" sends none).
func (b *browser) postJSON(t *testing.T, path string, body any, csrf string) page {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", b.s.URL+path, strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", b.s.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	return b.do(t, req)
}

var sinceRE = regexp.MustCompile(`data-since="([^"]+)"`)

// docWith is a document of a heading and a bulleted list item.
func docWith(heading, item string) map[string]any {
	text := func(s string) map[string]any {
		return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}
	}
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "heading-1", "data": map[string]any{}, "nodes": []any{text(heading)}},
		map[string]any{"object": "block", "type": "list-unordered", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "list-item", "data": map[string]any{}, "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{text(item)}}}}}},
	}}
}

// pageDoc is the page's document in the live content, as JSON text.
func pageDoc(t *testing.T, s *apitest.Server, user folio.ID, sp folio.ID, pageID string) string {
	t.Helper()
	d, err := s.App.GetPageDocument(context.Background(), folio.Caller{UserID: user}, sp, "", pageID)
	if err != nil {
		t.Fatal(err)
	}
	return string(d)
}

func TestEditPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		r, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		edit := "/s/" + sp + "/~/pages/" + pageID + "/edit"
		save := "/s/" + sp + "/~/pages/" + pageID + "/document"

		writer := signIn(t, s, w.Email)
		writer.get(t, "/s/"+sp).want(t, 200, `href="`+edit+`">Edit</a>`)
		p := writer.get(t, edit).want(t, 200, "Editing “Welcome”", ">Save</button>", "Editing needs JavaScript",
			`data-save="`+save+`"`, "/assets/editor/editor-", "/assets/edit.")
		if got := p.Header.Get("Content-Security-Policy"); !strings.Contains(got, "img-src 'self' blob:") {
			t.Fatalf("the edit view's CSP is %q, want the editor's", got)
		}
		since := sinceRE.FindStringSubmatch(p.Body)[1]
		// The editor's assets are served.
		for _, m := range regexp.MustCompile(`/assets/editor/editor-[0-9a-f]+\.(?:js|css)`).FindAllString(p.Body, -1) {
			writer.get(t, m).want(t, 200)
		}

		// Without the CSRF token: refused, nothing changes.
		before := pageDoc(t, s, w.ID, sp, pageID)
		writer.postJSON(t, save, map[string]any{"document": docWith("Forged", "x"), "since": since}, "").want(t, 403)
		writer.postJSON(t, save, map[string]any{"document": docWith("Forged", "x"), "since": since}, "wrong").want(t, 403)
		// An invalid document: refused with a message, nothing changes.
		writer.postJSON(t, save, map[string]any{"document": map[string]any{"object": "page"}, "since": since}, writer.csrf).
			want(t, 400, `"code":400`, `object must be`)
		// A reader's forged save with their own valid token.
		reader := signIn(t, s, r.Email)
		rp := reader.get(t, "/s/"+sp).want(t, 200, "Hello.")
		if strings.Contains(rp.Body, ">Edit</a>") {
			t.Fatal("a reader is offered Edit")
		}
		reader.get(t, edit).want(t, 403)
		reader.postJSON(t, save, map[string]any{"document": docWith("Forged", "x"), "since": since}, reader.csrf).
			want(t, 403, `"code":403`, "you cannot edit")
		if got := pageDoc(t, s, w.ID, sp, pageID); got != before {
			t.Fatalf("refused saves changed the page:\n%s\nwas\n%s", got, before)
		}

		// The save: the page's document is the one sent, with keys given.
		writer.postJSON(t, save, map[string]any{"document": docWith("Getting started", "Install it"), "since": since}, writer.csrf).
			want(t, 200, `"location":"/s/`+sp+`/~/pages/`+pageID+`"`)
		got := pageDoc(t, s, w.ID, sp, pageID)
		for _, want := range []string{`"type":"heading-1"`, "Getting started", `"type":"list-unordered"`, "Install it", `"key":`} {
			if !strings.Contains(got, want) {
				t.Fatalf("saved document lacks %s:\n%s", want, got)
			}
		}
		if strings.Contains(got, "Hello.") {
			t.Fatalf("the old content is still there:\n%s", got)
		}
		writer.get(t, "/s/"+sp+"/welcome").want(t, 200, "Getting started", "Install it")

		// A second writer who started from the old revision: conflict,
		// nothing changes.
		writer.postJSON(t, save, map[string]any{"document": docWith("Stale", "y"), "since": since}, writer.csrf).
			want(t, 409, `"code":409`, "changed by someone else")
		if now := pageDoc(t, s, w.ID, sp, pageID); now != got {
			t.Fatalf("a stale save changed the page:\n%s", now)
		}
		// Another page's change since does not count as a conflict.
		if _, err := s.App.CreatePage(context.Background(), folio.Caller{UserID: w.ID}, sp, app.NewPageInput{Type: "document", Title: "Other"}); err != nil {
			t.Fatal(err)
		}
		p = writer.get(t, edit).want(t, 200)
		since2 := sinceRE.FindStringSubmatch(p.Body)[1]
		if _, err := s.App.CreatePage(context.Background(), folio.Caller{UserID: w.ID}, sp, app.NewPageInput{Type: "document", Title: "Third"}); err != nil {
			t.Fatal(err)
		}
		writer.postJSON(t, save, map[string]any{"document": docWith("Again", "z"), "since": since2}, writer.csrf).want(t, 200)
	})
}

func TestChangeRequestFlow(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		rv, _ := member(t, s, org, folio.RoleReview)
		rd, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"mergeRules": map[string]any{"type": "rules",
			"rules": []any{map[string]any{"rule": "require_at_least_one_review"}}}}).WantStatus(t, 200)
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		live := pageDoc(t, s, w.ID, sp, pageID)

		// The writer opens a change request from the page and lands in its
		// edit view.
		writer := signIn(t, s, w.Email)
		writer.get(t, "/s/"+sp+"/~/changes").want(t, 200, "New change request", `name="subject"`, `name="description"`)
		writer.get(t, "/s/"+sp).want(t, 200, "Edit in a change request")
		cr := "/s/" + sp + "/~/changes/1"
		writer.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Better welcome"}, "description": {"Rewrites the welcome."}, "page": {pageID}}).
			redirect(t, cr+"/pages/"+pageID+"/edit")
		p := writer.get(t, cr+"/pages/"+pageID+"/edit").want(t, 200, "In change request", "#1 Better welcome",
			`data-save="`+cr+`/pages/`+pageID+`/document"`)
		since := sinceRE.FindStringSubmatch(p.Body)[1]
		writer.postJSON(t, cr+"/pages/"+pageID+"/document", map[string]any{"document": docWith("New welcome", "Read this"), "since": since}, writer.csrf).
			want(t, 200, `"location":"`+cr+`"`)
		if got := pageDoc(t, s, w.ID, sp, pageID); got != live {
			t.Fatalf("a save in a change request changed the live page:\n%s", got)
		}
		// The change request shows the change; the writer may not review,
		// and Merge says why it is disabled.
		p = writer.get(t, cr).want(t, 200, "Better welcome", "Rewrites the welcome.", "New welcome", "Read this",
			"Merging is not possible yet", "no approving review", `disabled aria-describedby="merge-why">Merge</button>`,
			"Page to edit in this change request")
		if strings.Contains(p.Body, ">Approve</button>") {
			t.Fatal("a writer without the review role is offered Approve")
		}
		writer.post(t, cr+"/merge", nil).want(t, 409, "no approving review")
		writer.post(t, cr+"/review", url.Values{"status": {"approved"}}).want(t, 403)
		if got := pageDoc(t, s, w.ID, sp, pageID); got != live {
			t.Fatalf("a refused merge changed the live page:\n%s", got)
		}

		// A reader sees no actions and is refused.
		reader := signIn(t, s, rd.Email)
		p = reader.get(t, cr).want(t, 200, "Better welcome")
		for _, control := range []string{">Approve</button>", ">Merge</button>", "Page to edit", "Request changes"} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("a reader is offered %q", control)
			}
		}
		reader.post(t, cr+"/review", url.Values{"status": {"approved"}}).want(t, 403)
		reader.post(t, cr+"/merge", nil).want(t, 403)
		reader.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Forged"}}).want(t, 403)
		reader.get(t, cr+"/pages/"+pageID+"/edit").want(t, 403)

		// The reviewer approves with a comment; the writer merges.
		reviewer := signIn(t, s, rv.Email)
		reviewer.get(t, cr).want(t, 200, ">Approve</button>", ">Request changes</button>")
		reviewer.post(t, cr+"/review", url.Values{"status": {"approved"}, "comment": {"Looks good."}}).redirect(t, cr)
		writer.get(t, cr).want(t, 200, "Looks good.", `<button type="submit" class="primary">Merge</button>`)
		writer.post(t, cr+"/merge", nil).redirect(t, cr)
		got := pageDoc(t, s, w.ID, sp, pageID)
		if !strings.Contains(got, "New welcome") || !strings.Contains(got, "Read this") {
			t.Fatalf("the merge did not bring the change:\n%s", got)
		}
		p = writer.get(t, cr).want(t, 200, "merged")
		if strings.Contains(p.Body, ">Merge</button>") || strings.Contains(p.Body, "Page to edit") {
			t.Fatal("a merged change request still offers Merge or editing")
		}
		writer.get(t, "/s/"+sp+"/welcome").want(t, 200, "New welcome", "Read this")
	})
}

// TestLockedSpaceEditsGoThroughChangeRequests: a locked space offers no
// direct editing (no Edit, no page actions, no New page) and refuses it,
// changing nothing; it offers "Edit in a change request" instead, and the
// change request is edited and merged as in a live space (issue 27).
func TestLockedSpaceEditsGoThroughChangeRequests(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		rd, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		writer := signIn(t, s, w.Email)
		p := writer.get(t, "/s/"+sp+"/~/pages/"+pageID+"/edit").want(t, 200)
		since := sinceRE.FindStringSubmatch(p.Body)[1]
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		live := pageDoc(t, s, w.ID, sp, pageID)
		p = writer.get(t, "/s/"+sp).want(t, 200, "This space is locked", "Edit in a change request", `name="page" value="`+pageID+`"`)
		for _, control := range []string{">Edit</a>", "Page actions", "New subpage", "Delete page", `for="new-title"`} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("a locked space offers %q", control)
			}
		}
		writer.get(t, "/s/"+sp+"/~/changes").want(t, 200, "New change request")

		// Direct edits: refused, nothing changes.
		writer.get(t, "/s/"+sp+"/~/pages/"+pageID+"/edit").want(t, 403, "edit it in a change request")
		writer.postJSON(t, "/s/"+sp+"/~/pages/"+pageID+"/document", map[string]any{"document": docWith("X", "y"), "since": since}, writer.csrf).
			want(t, 403, "locked")
		writer.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Sneaky"}}).want(t, 403, "locked")
		writer.post(t, "/s/"+sp+"/~/pages/"+pageID+"/rename", url.Values{"title": {"Renamed"}}).want(t, 403, "locked")
		writer.post(t, "/s/"+sp+"/~/pages/"+pageID+"/delete", url.Values{"confirm": {"yes"}}).want(t, 403, "locked")
		if got := pageDoc(t, s, w.ID, sp, pageID); got != live {
			t.Fatalf("a locked space's page changed:\n%s", got)
		}
		if c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, ""); len(c.Tree.Pages) != 1 || c.Tree.Pages[0].Title != "Welcome" {
			t.Fatalf("refused tree edits changed the pages: %+v", c.Tree.Pages)
		}
		// A reader is offered nothing and refused.
		reader := signIn(t, s, rd.Email)
		if p := reader.get(t, "/s/"+sp).want(t, 200, "Hello."); strings.Contains(p.Body, "Edit in a change request") {
			t.Fatal("a reader is offered a change request")
		}
		reader.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Forged"}}).want(t, 403)

		// The change request: opened from the page, edited, merged.
		cr := "/s/" + sp + "/~/changes/1"
		writer.post(t, "/s/"+sp+"/~/changes", url.Values{"subject": {"Reword"}, "page": {pageID}}).redirect(t, cr+"/pages/"+pageID+"/edit")
		p = writer.get(t, cr+"/pages/"+pageID+"/edit").want(t, 200, "In change request", "#1 Reword")
		since = sinceRE.FindStringSubmatch(p.Body)[1]
		writer.postJSON(t, cr+"/pages/"+pageID+"/document", map[string]any{"document": docWith("New welcome", "Read this"), "since": since}, writer.csrf).
			want(t, 200, `"location":"`+cr+`"`)
		if got := pageDoc(t, s, w.ID, sp, pageID); got != live {
			t.Fatalf("a save in a change request changed the live page:\n%s", got)
		}
		writer.get(t, cr).want(t, 200, "New welcome", "Page to edit in this change request", `<button type="submit" class="primary">Merge</button>`)
		writer.post(t, cr+"/merge", nil).redirect(t, cr)
		if got := pageDoc(t, s, w.ID, sp, pageID); !strings.Contains(got, "New welcome") {
			t.Fatalf("the merge did not bring the change:\n%s", got)
		}
		writer.get(t, "/s/"+sp).want(t, 200, "This space is locked", "New welcome")
	})
}
