package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestTwoWritersInBrowser opens the editor on the same page in two
// browsers (two writers, separate sessions). Both type and save:
// edits to different paragraphs both survive. Then both change the same
// paragraph: the second save is refused, and the edit view shows both
// versions (the writer's text in the editor, with the other writer's
// other changes merged in, and theirs read-only below); saving again
// keeps the writer's text there and the other writer's changes
// elsewhere. The conflict view is checked as views.check does.
func TestTwoWritersInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		// Two browsers, so two sessions (Chromium refuses a second browser
		// context here: "no browser is open").
		ctxA, ctxB := startBrowser(t), startBrowser(t)
		org, admin := s.Org(t)
		w1, _ := member(t, s, org, folio.RoleEdit)
		w2, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nFirst.\n\nSecond.\n\nThird.\n")
		c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: w1.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		edit := s.URL + "/s/" + sp + "/~/pages/" + c.Tree.Pages[0].ID + "/edit"
		run := func(ctx context.Context, actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		signInAs := func(ctx context.Context, email string) {
			t.Helper()
			run(ctx, chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, email))
		}
		open := func(ctx context.Context) {
			t.Helper()
			run(ctx, chromedp.Navigate(edit), chromedp.WaitVisible(`#editor[data-ready]`, chromedp.ByQuery))
		}
		// typeAfter clicks the paragraph whose text is para, goes to its
		// end and types text, as a writer would.
		typeAfter := func(ctx context.Context, para, text string) {
			t.Helper()
			sel := `//div[contains(@class,"fe-content")]/p[.="` + para + `"]`
			run(ctx, chromedp.Click(sel), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(text))
			want := para + text
			if err := chromedp.Run(ctx, chromedp.Poll(`[...document.querySelectorAll(".fe-content > p")].some(p => p.textContent === `+jsString(want)+`)`,
				nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatalf("typing %q after %q: %v", text, para, err)
			}
		}
		saveAndWait := func(ctx context.Context, want string) {
			t.Helper()
			run(ctx, chromedp.Click(`#editor-save`, chromedp.ByQuery))
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if err := chromedp.Run(wctx, chromedp.WaitVisible(`//div[@class="markdown"]//p[contains(., "`+want+`")]`)); err != nil {
				var status string
				chromedp.Run(ctx, chromedp.Evaluate(`(document.getElementById("editor-status") || {}).textContent || location.href`, &status))
				t.Fatalf("saving did not show the page with %q: %v; %q", want, err, status)
			}
		}
		signInAs(ctxA, w1.Email)
		signInAs(ctxB, w2.Email)

		// Different paragraphs: both edits survive.
		open(ctxA)
		open(ctxB)
		typeAfter(ctxA, "First.", " A was here.")
		typeAfter(ctxB, "Third.", " B was here.")
		saveAndWait(ctxA, "A was here.")
		saveAndWait(ctxB, "B was here.")
		var body string
		run(ctxB, chromedp.Text(`.markdown`, &body, chromedp.ByQuery))
		for _, want := range []string{"First. A was here.", "Second.", "Third. B was here."} {
			if !strings.Contains(body, want) {
				t.Fatalf("after both saves the page lacks %q: %q", want, body)
			}
		}

		// The same paragraph: the second save shows both versions.
		open(ctxA)
		open(ctxB)
		typeAfter(ctxA, "Second.", " A again.")
		typeAfter(ctxA, "First. A was here.", " More from A.")
		typeAfter(ctxB, "Second.", " B again.")
		saveAndWait(ctxA, "A again.")
		run(ctxB, chromedp.Click(`#editor-save`, chromedp.ByQuery), chromedp.WaitVisible(`#editor-theirs`, chromedp.ByQuery))
		var status, mine, theirs string
		run(ctxB, chromedp.Text(`#editor-status`, &status, chromedp.ByQuery),
			chromedp.Text(`#editor .fe-content`, &mine, chromedp.ByQuery),
			chromedp.Text(`#editor-theirs .fe-content`, &theirs, chromedp.ByQuery))
		if !strings.Contains(status, "Not saved") || !strings.Contains(status, "in the same places as your changes") {
			t.Fatalf("conflict status %q", status)
		}
		if !strings.Contains(mine, "Second. B again.") || !strings.Contains(mine, "More from A.") || strings.Contains(mine, "A again.") {
			t.Fatalf("the writer's editor after the conflict holds %q", mine)
		}
		if !strings.Contains(theirs, "Second. A again.") {
			t.Fatalf("their version shows %q", theirs)
		}
		var editable string
		run(ctxB, chromedp.Evaluate(`document.querySelector("#editor-theirs .fe-content").getAttribute("contenteditable")`, &editable))
		if editable == "true" {
			t.Fatal("their version is editable")
		}
		v := newViews(t, ctxB, s.Store)
		v.check("edit-conflict")
		// Saving again keeps B's text there and A's other change.
		saveAndWait(ctxB, "B again.")
		run(ctxB, chromedp.Text(`.markdown`, &body, chromedp.ByQuery))
		for _, want := range []string{"First. A was here. More from A.", "Second. B again.", "Third. B was here."} {
			if !strings.Contains(body, want) {
				t.Fatalf("after the second save the page lacks %q: %q", want, body)
			}
		}
	})
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
