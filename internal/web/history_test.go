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

// historyFixture is a space whose page Guide was imported, then edited
// (one block changed, one removed), then joined by a page Extra: three
// revisions of the main line.
type historyFixture struct {
	s                   *apitest.Server
	org                 folio.ID
	admin               string
	writer, reader      *folio.User
	space, page         string
	imported, edited    folio.ID
	withExtra           folio.ID
	writerCall, readCal folio.Caller
}

func newHistoryFixture(t *testing.T, s *apitest.Server) *historyFixture {
	t.Helper()
	ctx := context.Background()
	f := &historyFixture{s: s}
	f.org, f.admin = s.Org(t)
	f.writer, _ = member(t, s, f.org, folio.RoleEdit)
	f.reader, _ = member(t, s, f.org, folio.RoleRead)
	f.writerCall, f.readCal = folio.Caller{UserID: f.writer.ID}, folio.Caller{UserID: f.reader.ID}
	f.space = space(t, s, f.org, f.admin, "Handbook", "# Guide\n\nKeep this.\n\nOld line.\n\nGone line.\n")
	c, err := s.App.GetContent(ctx, f.writerCall, f.space, "")
	if err != nil {
		t.Fatal(err)
	}
	f.imported, f.page = c.Revision.ID, c.Tree.Pages[0].ID
	f.save(t, "", "Keep this.", "New line.")
	f.edited = f.current(t)
	if _, err := s.App.CreatePage(ctx, f.writerCall, f.space, app.NewPageInput{Type: content.PageDocument, Title: "Extra"}); err != nil {
		t.Fatal(err)
	}
	f.withExtra = f.current(t)
	return f
}

// save replaces Guide's document, live or in a change request.
func (f *historyFixture) save(t *testing.T, cr string, paragraphs ...string) {
	t.Helper()
	if _, err := f.s.App.SavePageDocument(context.Background(), f.writerCall, f.space,
		app.PageDocumentInput{Page: f.page, Document: content.NewDocument(paragraphs...), ChangeRequest: cr}); err != nil {
		t.Fatal(err)
	}
}

func (f *historyFixture) current(t *testing.T) folio.ID {
	t.Helper()
	c, err := f.s.App.GetContent(context.Background(), f.writerCall, f.space, "")
	if err != nil {
		t.Fatal(err)
	}
	return c.Revision.ID
}

// text is Guide's document at a revision ("" current) as JSON.
func (f *historyFixture) text(t *testing.T, revision folio.ID) string {
	t.Helper()
	d, err := f.s.App.GetPageDocument(context.Background(), f.writerCall, f.space, revision, f.page)
	if err != nil {
		t.Fatal(err)
	}
	return string(d)
}

func TestCompareRevisions(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newHistoryFixture(t, s)
		b := signIn(t, s, f.writer.Email)
		sp := "/s/" + f.space
		// The history: every revision with author and time, and the
		// compare form's radio columns (the two latest picked).
		b.get(t, sp+"/~/revisions").want(t, 200, `action="`+sp+`/~/revisions/compare"`,
			`<input type="radio" name="from" value="`+f.edited+`" id="from-`+f.edited+`" checked><label for="from-`+f.edited+`">From</label>`,
			`<input type="radio" name="to" value="`+f.withExtra+`" id="to-`+f.withExtra+`" checked><label for="to-`+f.withExtra+`">To</label>`,
			"by "+f.writer.DisplayName, "<time datetime=", `<button type="submit" class="primary">Compare</button>`)
		p := b.get(t, sp+"/~/revisions/compare?from="+f.imported+"&to="+f.withExtra).want(t, 200,
			`<label for="cmp-from">From</label>`, `<option value="`+f.imported+`" selected>`, `<option value="`+f.withExtra+`" selected>`,
			"Guide <span class=\"muted\">· Content changed</span>",
			`<div class="blk blk-same"><p>Keep this.</p>`,
			`<div class="blk blk-changed"><p class="blk-tag">Changed</p><div class="blk-old"><span class="sr">Before: </span><p>Old line.</p>
</div><div class="blk-new"><span class="sr">After: </span><p>New line.</p>
</div></div>`,
			`<div class="blk blk-removed"><span class="sr">Removed: </span><p>Gone line.</p>`,
			"Extra <span class=\"muted\">· New page</span>",
			"by "+f.writer.DisplayName)
		if strings.Contains(p.Body, "The pages are the same") {
			t.Fatal("different revisions said to be the same")
		}
		// Only the last step: Extra is new, Guide did not change.
		p = b.get(t, sp+"/~/revisions/compare?from="+f.edited+"&to="+f.withExtra).want(t, 200, "Extra")
		if strings.Contains(p.Body, "Content changed") {
			t.Fatal("Guide shown as changed by the last revision")
		}
		// Backwards: Extra removed, the old lines added back.
		b.get(t, sp+"/~/revisions/compare?from="+f.withExtra+"&to="+f.imported).want(t, 200, "Page removed",
			`<div class="blk-old"><span class="sr">Before: </span><p>New line.</p>
</div>`)
		b.get(t, sp+"/~/revisions/compare?from="+f.edited+"&to="+f.edited).want(t, 200, "The pages are the same in both revisions.")
		// Without parameters: the two latest.
		b.get(t, sp+"/~/revisions/compare").want(t, 200, "Extra <span class=\"muted\">· New page</span>")
		b.get(t, sp+"/~/revisions/compare?from="+f.edited).want(t, 400, "choose two revisions")
		b.get(t, sp+"/~/revisions/compare?from=nope&to="+f.edited).want(t, 404)
		// A reader compares too; a stranger does not learn the space exists.
		signIn(t, s, f.reader.Email).get(t, sp+"/~/revisions/compare?from="+f.imported+"&to="+f.edited).want(t, 200, "Old line.")
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, stranger.Email).get(t, sp+"/~/revisions/compare?from="+f.imported+"&to="+f.edited).want(t, 404)
	})
}

func TestRestoreVersion(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newHistoryFixture(t, s)
		sp := "/s/" + f.space
		old := sp + "/~/revisions/" + f.imported + "/pages/" + f.page
		// The revision lists its pages as links to them as they were.
		w := signIn(t, s, f.writer.Email)
		w.get(t, sp+"/~/revisions/"+f.imported).want(t, 200, `href="`+old+`"`, "Compare with the current revision")
		w.get(t, old).want(t, 200, "An earlier version: Edited by ", "<p>Old line.</p>", "<p>Gone line.</p>",
			`<form method="post" action="`+old+`/restore"`, `<legend>Restore into</legend>`,
			`<input type="radio" name="into" value="live" checked> The live content`, `<label for="restore-subject">`,
			`<button type="submit" class="primary">Restore this version</button>`)

		// A reader sees the version, is offered nothing, and is refused.
		r := signIn(t, s, f.reader.Email)
		p := r.get(t, old).want(t, 200, "<p>Old line.</p>")
		if strings.Contains(p.Body, "Restore this version") || strings.Contains(p.Body, "/restore") {
			t.Fatal("a reader is offered to restore")
		}
		before, rev := f.text(t, ""), f.current(t)
		r.post(t, old+"/restore", url.Values{"into": {"live"}}).want(t, 403, "you cannot edit")
		r.post(t, old+"/restore", url.Values{"into": {"new"}, "subject": {"Sneaky"}}).want(t, 403)
		w.post(t, old+"/restore", url.Values{"into": {"elsewhere"}}).want(t, 400, "restore into")
		w.post(t, old+"/restore", url.Values{"into": {"cr"}}).want(t, 400, "choose the change request")
		w.post(t, sp+"/~/revisions/"+f.imported+"/pages/nope/restore", url.Values{"into": {"live"}}).want(t, 400, "not in that revision")
		if f.text(t, "") != before || f.current(t) != rev {
			t.Fatal("refused restores changed the page")
		}
		if l, _ := s.App.ListChangeRequests(context.Background(), f.writerCall, f.space, folio.ChangeRequestFilter{Status: "open"}, folio.ListOptions{Limit: 10}); len(l.Items) != 0 {
			t.Fatalf("refused restores opened change requests: %d", len(l.Items))
		}

		// Into a new change request: the live page stays.
		w.post(t, old+"/restore", url.Values{"into": {"new"}, "subject": {"Bring the old lines back"}}).redirect(t, sp+"/~/changes/1")
		w.get(t, sp+"/~/changes/1").want(t, 200, "Bring the old lines back", "<p>Old line.</p>")
		if f.text(t, "") != before {
			t.Fatal("a restore into a change request changed the live page")
		}
		// Into that change request, from the page's form.
		w.get(t, sp+"/~/revisions/"+f.edited+"/pages/"+f.page).want(t, 200, `<option value="1">#1 Bring the old lines back</option>`)
		w.post(t, sp+"/~/revisions/"+f.edited+"/pages/"+f.page+"/restore", url.Values{"into": {"cr"}, "cr": {"1"}}).redirect(t, sp+"/~/changes/1")
		// Live: the page is as it was, and the history says so.
		w.post(t, old+"/restore", url.Values{"into": {"live"}}).redirect(t, sp+"/~/pages/"+f.page)
		if got := f.text(t, ""); !strings.Contains(got, "Old line.") || !strings.Contains(got, "Gone line.") || strings.Contains(got, "New line.") {
			t.Fatalf("restored page: %s", got)
		}
		w.get(t, sp+"/~/revisions").want(t, 200, "Restored an earlier version")
		// Now equal to the live page: only the change request is offered.
		p = w.get(t, old).want(t, 200)
		if strings.Contains(p.Body, `value="live"`) {
			t.Fatal("restoring the live version again is offered")
		}
		w.post(t, old+"/restore", url.Values{"into": {"live"}}).want(t, 400, "nothing to restore")
		// A locked space offers no restore and refuses one.
		s.Do(t, f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		p = w.get(t, sp+"/~/revisions/"+f.edited+"/pages/"+f.page).want(t, 200, "This space is locked: unlock it to restore pages.")
		if strings.Contains(p.Body, "Restore this version") {
			t.Fatal("a locked space offers to restore")
		}
		rev = f.current(t)
		w.post(t, sp+"/~/revisions/"+f.edited+"/pages/"+f.page+"/restore", url.Values{"into": {"cr"}, "cr": {"1"}}).want(t, 403, "locked")
		if f.current(t) != rev {
			t.Fatal("a refused restore changed the locked space")
		}
	})
}

func TestUpdateFromMain(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		rd, _ := member(t, s, org, folio.RoleRead)
		caller := folio.Caller{UserID: u.ID}
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nOne.\n\nTwo.\n\nThree.\n")
		c, _ := s.App.GetContent(ctx, caller, sp, "")
		page := c.Tree.Pages[0].ID
		save := func(cr string, paragraphs ...string) {
			t.Helper()
			if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: page, Document: content.NewDocument(paragraphs...),
				ChangeRequest: cr}); err != nil {
				t.Fatal(err)
			}
		}
		head := func(n string) *app.ChangeRequestView {
			t.Helper()
			cr, err := s.App.GetChangeRequest(ctx, caller, sp, n)
			if err != nil {
				t.Fatal(err)
			}
			return cr
		}
		doc := func(rev folio.ID) string {
			t.Helper()
			d, err := s.App.GetPageDocument(ctx, caller, sp, rev, page)
			if err != nil {
				t.Fatal(err)
			}
			return string(d)
		}
		b := signIn(t, s, u.Email)
		crs := "/s/" + sp + "/~/changes/"

		// Clean: the change request changed One, main changed Three.
		if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: "Clean"}); err != nil {
			t.Fatal(err)
		}
		save("1", "One, ours.", "Two.", "Three.")
		p := b.get(t, crs+"1").want(t, 200, "#1 Clean")
		if strings.Contains(p.Body, "Update from main") {
			t.Fatal("an up-to-date change request offers Update from main")
		}
		save("", "One.", "Two.", "Three, main.")
		b.get(t, crs+"1").want(t, 200, `<form method="post" action="`+crs+`1/update" class="stack cr-update">`,
			`<button type="submit" aria-describedby="cr-update-help">Update from main</button>`)
		// A reader is offered nothing and refused.
		r := signIn(t, s, rd.Email)
		if p := r.get(t, crs+"1").want(t, 200); strings.Contains(p.Body, "Update from main") || strings.Contains(p.Body, "Archive") {
			t.Fatal("a reader is offered Update from main or Archive")
		}
		was := head("1").Revision
		r.post(t, crs+"1/update", nil).want(t, 403)
		if head("1").Revision != was {
			t.Fatal("a refused update moved the change request")
		}
		b.post(t, crs+"1/update", nil).redirect(t, crs+"1")
		cr := head("1")
		if cr.Outdated() || !strings.Contains(doc(cr.Revision), "One, ours.") || !strings.Contains(doc(cr.Revision), "Three, main.") {
			t.Fatalf("after the update: outdated %v, head %s", cr.Outdated(), doc(cr.Revision))
		}
		if p := b.get(t, crs+"1").want(t, 200); strings.Contains(p.Body, "Update from main") {
			t.Fatal("an updated change request still offers Update from main")
		}

		// Conflicting: both changed Two.
		if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: "Clash"}); err != nil {
			t.Fatal(err)
		}
		save("2", "One.", "Two, ours.", "Three, main.")
		save("", "One.", "Two, main.", "Three, main.")
		was = head("2").Revision
		b.post(t, crs+"2/update", nil).want(t, 409, "Update from main: conflicts", "The change request was not updated",
			"1 conflict", "Nothing changed.", "How to resolve",
			"In main: Guide", "In this change request: Guide",
			`<div class="blk-old"><span class="sr">Before: </span><p>Two.</p>
</div><div class="blk-new"><span class="sr">After: </span><p>Two, main.</p>
</div>`,
			`<div class="blk-old"><span class="sr">Before: </span><p>Two.</p>
</div><div class="blk-new"><span class="sr">After: </span><p>Two, ours.</p>
</div>`,
			`action="`+crs+`2/pages/`+page+`/take-main"`, "Use main's version of “Guide”",
			`href="`+crs+`2/pages/`+page+`/edit"`)
		if cr := head("2"); cr.Revision != was || !cr.Outdated() {
			t.Fatal("a conflicting update changed the change request")
		}
		// Resolve by taking main's version, then update.
		r.post(t, crs+"2/pages/"+page+"/take-main", nil).want(t, 403)
		b.post(t, crs+"2/pages/"+page+"/take-main", nil).redirect(t, crs+"2")
		b.post(t, crs+"2/update", nil).redirect(t, crs+"2")
		if cr := head("2"); cr.Outdated() || !strings.Contains(doc(cr.Revision), "Two, main.") {
			t.Fatalf("after resolving: outdated %v, %s", cr.Outdated(), doc(cr.Revision))
		}
	})
}

func TestArchiveAndReopen(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		rd, _ := member(t, s, org, folio.RoleRead)
		caller := folio.Caller{UserID: u.ID}
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nOne.\n")
		c, _ := s.App.GetContent(ctx, caller, sp, "")
		page := c.Tree.Pages[0].ID
		for _, subject := range []string{"Shelve me", "Merge me"} {
			if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: subject}); err != nil {
				t.Fatal(err)
			}
		}
		status := func(n string) string {
			t.Helper()
			cr, err := s.App.GetChangeRequest(ctx, caller, sp, n)
			if err != nil {
				t.Fatal(err)
			}
			return cr.Status
		}
		crs := "/s/" + sp + "/~/changes/"
		b := signIn(t, s, u.Email)
		b.get(t, crs+"1").want(t, 200, `<span class="badge badge-open">open</span>`,
			`<input type="hidden" name="status" value="archived"><button type="submit">Archive</button>`)
		r := signIn(t, s, rd.Email)
		r.post(t, crs+"1/status", url.Values{"status": {"archived"}}).want(t, 403)
		if status("1") != folio.ChangeRequestOpen {
			t.Fatal("a reader archived")
		}
		b.post(t, crs+"1/status", url.Values{"status": {"merged"}}).want(t, 400)
		b.post(t, crs+"1/status", url.Values{"status": {"archived"}}).redirect(t, crs+"1")
		p := b.get(t, crs+"1").want(t, 200, `<span class="badge badge-archived">archived</span>`, "<strong>Archived.</strong>",
			`<input type="hidden" name="status" value="open"><button type="submit" class="primary">Reopen</button>`)
		for _, control := range []string{">Archive</button>", "Merge</button>", "Approve", "Page to edit", "Update from main"} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("an archived change request offers %q", control)
			}
		}
		b.get(t, crs+"1/pages/"+page+"/edit").want(t, 409, "archived")
		b.post(t, crs+"1/status", url.Values{"status": {"open"}}).redirect(t, crs+"1")
		if status("1") != folio.ChangeRequestOpen {
			t.Fatal("not reopened")
		}
		b.get(t, crs+"1").want(t, 200, ">Archive</button>", "Page to edit")

		// Merged: a badge, a notice, no controls, no way back.
		if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: page, Document: content.NewDocument("Two."), ChangeRequest: "2"}); err != nil {
			t.Fatal(err)
		}
		b.post(t, crs+"2/merge", nil).redirect(t, crs+"2")
		p = b.get(t, crs+"2").want(t, 200, `<span class="badge badge-merged">merged</span>`, "<strong>Merged.</strong>")
		for _, control := range []string{">Archive</button>", "Reopen", "Merge</button>", "Approve", "Page to edit", "Update from main"} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("a merged change request offers %q", control)
			}
		}
		b.post(t, crs+"2/status", url.Values{"status": {"open"}}).want(t, 409, "merged")
		if status("2") != folio.ChangeRequestMerged {
			t.Fatal("a merged change request changed status")
		}
	})
}

func TestMovePageByDrop(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		rd, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "")
		id := map[string]string{}
		for _, title := range []string{"One", "Two", "Three"} {
			pid, err := s.App.CreatePage(context.Background(), folio.Caller{UserID: u.ID}, sp, app.NewPageInput{Type: content.PageDocument, Title: title})
			if err != nil {
				t.Fatal(err)
			}
			id[title] = pid
		}
		b := signIn(t, s, u.Email)
		// The space page loads the script and maps the tree's links to ids.
		p := b.get(t, "/s/"+sp).want(t, 200, `<div hidden id="tree-move" data-action="/s/`+sp+`/~/pages/" data-current="`+id["One"]+`">`,
			`<i data-id="`+id["Two"]+`" data-href="/s/`+sp+`/two"></i>`)
		if !strings.Contains(p.Body, `<script src="/assets/tree.`) {
			t.Fatal("the space page does not load tree.js")
		}
		// The page menu's Move form does the same from the keyboard.
		p.want(t, 200, `<form method="post" action="/s/`+sp+`/~/pages/`+id["One"]+`/move" class="stack move-to">`,
			`<label for="move-position">Move this page</label>`, `<option value="`+id["Two"]+`">Two</option>`)
		if strings.Contains(p.Body, `<option value="`+id["One"]+`">`) {
			t.Fatal("a page is offered as a place to move itself")
		}
		move := func(page, target, position string) page {
			return b.post(t, "/s/"+sp+"/~/pages/"+id[page]+"/move", url.Values{"target": {id[target]}, "position": {position}, "current": {id["One"]}})
		}
		for _, st := range []struct{ page, target, position, want string }{
			{"Three", "One", "before", "Three,One,Two"},
			{"Three", "Two", "after", "One,Two,Three"},
			{"One", "Two", "after", "Two,One,Three"},
			{"Three", "Two", "inside", "Two,>Three,One"},
			{"One", "Three", "before", "Two,>One,>Three"},
		} {
			move(st.page, st.target, st.position).redirect(t, "/s/"+sp+"/~/pages/"+id["One"])
			if got := titles(t, s, tok, sp); got != st.want {
				t.Fatalf("after %s %s %s: %s, want %s", st.page, st.position, st.target, got, st.want)
			}
		}
		before := titles(t, s, tok, sp)
		move("Two", "One", "inside").want(t, 400, "into itself or its own subpages")
		move("Two", "Two", "after").want(t, 400)
		move("One", "Two", "sideways").want(t, 400, "position must be")
		b.post(t, "/s/"+sp+"/~/pages/"+id["One"]+"/move", url.Values{"target": {"nope"}, "position": {"after"}}).want(t, 400, "reload")
		signIn(t, s, rd.Email).post(t, "/s/"+sp+"/~/pages/"+id["One"]+"/move", url.Values{"target": {id["Two"]}, "position": {"after"}}).want(t, 403)
		if got := titles(t, s, tok, sp); got != before {
			t.Fatalf("refused moves changed the tree: %s, was %s", got, before)
		}
		// A reader's space page does not load the script.
		if p := signIn(t, s, rd.Email).get(t, "/s/"+sp).want(t, 200); strings.Contains(p.Body, "tree.js") || strings.Contains(p.Body, "tree-move") {
			t.Fatal("a reader gets the drag and drop")
		}
	})
}
