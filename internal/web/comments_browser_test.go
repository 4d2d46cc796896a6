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

// TestReviewInBrowser: a reviewer signs in, opens a change request,
// comments on a block of its page with the keyboard-reachable control,
// replies, reacts, resolves the thread, requests changes, then approves.
// The change request (with its open thread and form), the live page with
// a block thread, and the Comments tab are checked as views.check does.
func TestReviewInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, pageID, crID := crFixture(t, s, org, adminTok)
		reviewer, _ := member(t, s, org, folio.RoleReview)
		// A live thread with a reply, for the page and Comments views.
		md, rmd := "Is this still **true**?", "Yes: checked today."
		live := app.CommentScope{Space: sp}
		lc, err := s.App.PostComment(context.Background(), folio.Caller{UserID: admin}, live,
			folio.NewComment{Body: &folio.CommentBody{Markdown: &md}, Page: pageID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.PostReply(context.Background(), folio.Caller{UserID: admin}, live, lc.ID, &folio.CommentBody{Markdown: &rmd}, folio.FormatMarkdown); err != nil {
			t.Fatal(err)
		}

		run := func(actions ...chromedp.Action) {
			t.Helper()
			// A step waits a minute at most, so a missing element fails
			// the test instead of hanging it.
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

		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, reviewer.Email))
		crPath := "/s/" + sp + "/~/changes/1"
		run(chromedp.Navigate(s.URL+crPath), chromedp.WaitVisible(`#reviewers`, chromedp.ByQuery))

		// The block's control is a link reached with the keyboard: focus it
		// and press Enter; the form opens beside the block.
		run(chromedp.Focus(`.blk-added a.block-comment`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter),
			chromedp.WaitVisible(`#c-form-body`, chromedp.ByQuery))
		v.check("cr-comment-form")
		run(chromedp.SendKeys(`#c-form-body`, "Why a new line here?", chromedp.ByQuery),
			chromedp.Click(`#c-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.blk-added article.thread`, chromedp.ByQuery))
		if got := text(`.blk-added article.thread .comment-body`); !strings.Contains(got, "Why a new line here?") {
			t.Fatalf("thread under the block: %q", got)
		}
		if got := text(`.blk-added .block-tools .badge`); got != "1 comment" {
			t.Fatalf("badge %q", got)
		}

		// Reply (the reply box is a <details>), then react.
		run(chromedp.Click(`.blk-added .reply-box > summary`, chromedp.ByQuery),
			chromedp.SendKeys(`.blk-added .reply-box textarea`, "Because the old one was wrong.", chromedp.ByQuery),
			chromedp.Click(`.blk-added .reply-box button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.blk-added .replies li`, chromedp.ByQuery))
		run(chromedp.Click(`.blk-added article.thread > .reaction-form button[value="👍"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.blk-added article.thread > .reaction-form button[aria-pressed="true"]`, chromedp.ByQuery))
		var label string
		var ok bool
		run(chromedp.AttributeValue(`.blk-added article.thread > .reaction-form button[aria-pressed="true"]`, "aria-label", &label, &ok, chromedp.ByQuery))
		if label != "thumbs up: 1, including you" {
			t.Fatalf("reaction %q", label)
		}
		v.check("cr-thread")

		// Resolve: the thread folds into "1 resolved comment".
		run(chromedp.Click(`.blk-added article.thread .thread-tools > form button`, chromedp.ByQuery),
			chromedp.WaitVisible(`.blk-added .resolved-threads > summary`, chromedp.ByQuery))
		if got := text(`.blk-added .resolved-threads > summary`); got != "1 resolved comment" {
			t.Fatalf("resolved summary %q", got)
		}

		// Request changes with a comment, then approve.
		run(chromedp.SendKeys(`#review-comment`, "Please fix the typo.", chromedp.ByQuery),
			chromedp.Click(`button[name="status"][value="changes-requested"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.review-changes-requested`, chromedp.ByQuery))
		if got := text(`.reviews`); !strings.Contains(got, "Please fix the typo.") || !strings.Contains(got, reviewer.DisplayName) {
			t.Fatalf("reviews %q", got)
		}
		run(chromedp.Click(`button[name="status"][value="approved"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.review-approved`, chromedp.ByQuery))
		v.check("cr-reviewed")

		l, err := s.App.ListReviews(context.Background(), folio.Caller{UserID: admin}, sp, crID, nil, folio.ListOptions{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 2 || l.Items[0].Status != folio.ReviewChangesRequested || l.Items[1].Status != folio.ReviewApproved {
			t.Fatalf("reviews %+v", l.Items)
		}
		st := threadState(t, s, admin, app.CommentScope{Space: sp, ChangeRequest: crID})
		if !strings.Contains(st, `"Why a new line here?" resolved page=`+pageID) || !strings.Contains(st, "[👍1] / reply \"Because the old one was wrong.\" []") {
			t.Fatalf("change request comments:\n%s", st)
		}

		// The live page: a page thread, and a block's form opened.
		run(chromedp.Navigate(s.URL+"/s/"+sp+"/guide"), chromedp.WaitVisible(`.page-comments`, chromedp.ByQuery))
		run(chromedp.Click(`.markdown > .block-comments a.block-comment`, chromedp.ByQuery), chromedp.WaitVisible(`#c-form-body`, chromedp.ByQuery))
		v.check("page-comments")
		run(chromedp.Navigate(s.URL+"/s/"+sp+"/~/comments"), chromedp.WaitVisible(`.comment-filter`, chromedp.ByQuery))
		if got := text(`main`); !strings.Contains(got, "Yes: checked today.") {
			t.Fatalf("Comments tab %q", got)
		}
		v.check("comments")
	})
}
