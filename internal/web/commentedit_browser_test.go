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
	"github.com/foliodocs/folio/internal/app"
)

// TestEditAndDeleteCommentInBrowser: an author opens the Edit control of
// their comment with the keyboard, rewrites it and saves; then opens the
// Delete control of their reply, confirms, and the reply is gone. The
// Comments tab with the edit form open and with the delete question open
// is checked as views.check does (widths, themes, axe).
func TestEditAndDeleteCommentInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, pageID, _ := crFixture(t, s, org, adminTok)
		author, _ := member(t, s, org, folio.RoleComment)
		live := app.CommentScope{Space: sp}
		md, rmd := "First draft of a **question**", "And a reply to delete."
		c, err := s.App.PostComment(context.Background(), folio.Caller{UserID: author.ID}, live,
			folio.NewComment{Body: &folio.CommentBody{Markdown: &md}, Page: pageID})
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.App.PostReply(context.Background(), folio.Caller{UserID: author.ID}, live, c.ID, &folio.CommentBody{Markdown: &rmd}, folio.FormatMarkdown)
		if err != nil {
			t.Fatal(err)
		}
		run := func(actions ...chromedp.Action) {
			t.Helper()
			sctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if err := chromedp.Run(sctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		text := func(sel string) string {
			t.Helper()
			var s string
			run(chromedp.Text(sel, &s, chromedp.ByQuery))
			return s
		}
		v := newViews(t, ctx, s.Store)
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, author.Email))
		run(chromedp.Navigate(s.URL+"/s/"+sp+"/~/comments"), chromedp.WaitVisible(`#c-`+c.ID, chromedp.ByQuery))

		// Edit with the keyboard: the summary takes focus and Enter opens it.
		thread := `#c-` + c.ID
		run(chromedp.Focus(thread+` > .comment-own .edit-box > summary`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(`#c-`+c.ID+`-edit`, chromedp.ByQuery))
		var val string
		run(chromedp.Evaluate(`document.getElementById("c-`+c.ID+`-edit").value`, &val))
		if val != md {
			t.Fatalf("the edit form holds %q, want %q", val, md)
		}
		v.check("comment-edit")
		run(chromedp.Evaluate(`document.getElementById("c-`+c.ID+`-edit").value = ""`, nil),
			chromedp.SendKeys(`#c-`+c.ID+`-edit`, "Second version of the *question*", chromedp.ByQuery),
			chromedp.Click(thread+` > .comment-own .edit-box button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(thread+` .comment-meta`, chromedp.ByQuery))
		run(chromedp.Sleep(200 * time.Millisecond))
		if got := text(thread + ` > .comment-body`); !strings.Contains(got, "Second version of the question") {
			t.Fatalf("edited body %q", got)
		}
		if got := text(thread + ` > .comment-meta`); !strings.Contains(got, "edited") {
			t.Fatalf("meta %q", got)
		}

		// Delete the reply: the summary asks, the button deletes.
		reply := `#c-` + r.ID
		run(chromedp.Focus(reply+` .delete-box > summary`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(reply+` .delete-box button.danger`, chromedp.ByQuery))
		if got := text(reply + ` .delete-box p`); got != "Delete this reply? This cannot be undone." {
			t.Fatalf("delete question %q", got)
		}
		v.check("comment-delete")
		run(chromedp.Focus(reply+` .delete-box button.danger`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter),
			chromedp.WaitNotPresent(reply, chromedp.ByQuery))
		wantState(t, threadState(t, s, admin, live), `"Second version of the *question*" open page=`+pageID+` node= []`)
	})
}
