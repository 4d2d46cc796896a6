package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestJoinWithNewAccountInBrowser: an administrator creates an invite link
// on the members page; a person with no Folio account opens it in a
// second browser, creates their account on the join page (after a refused
// try with a short password, which keeps what they typed), lands in the
// organization and edits a page. The signed-out join page, with and
// without the error, is checked as views.check does.
func TestJoinWithNewAccountInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, tok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		sp := space(t, s, org, tok, "Handbook", "# Welcome\n\nHello, writers.\n")
		run := func(ctx context.Context, actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}

		run(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+"/signin?next=/o/"+org+"/members"),
			chromedp.WaitVisible(`#email`, chromedp.ByQuery), chromedp.SendKeys(`#email`, admin.Email, chromedp.ByQuery),
			chromedp.SendKeys(`#password`, password, chromedp.ByQuery), chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery),
			chromedp.WaitVisible(`#members-heading`, chromedp.ByQuery),
			chromedp.SetValue(`#invite-role`, "edit", chromedp.ByQuery),
			chromedp.Click(`//button[.="Create invite link"]`), chromedp.WaitVisible(`.new-link input.invite-url`, chromedp.ByQuery))
		var link string
		run(ctx, chromedp.Value(`.new-link input.invite-url`, &link, chromedp.ByQuery))
		join := link[strings.Index(link, "/join/"):]

		pctx := startBrowser(t)
		pv := newViews(t, pctx, s.Store)
		run(pctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+join), chromedp.WaitVisible(`#join-new-heading`, chromedp.ByQuery))
		pv.check("join-new")
		// A short password: the browser's own check is lifted so that the
		// server's answer shows.
		run(pctx, chromedp.EmulateViewport(1280, 800),
			chromedp.SendKeys(`#join-name`, "Grace Hopper", chromedp.ByQuery),
			chromedp.SendKeys(`#join-email`, "grace@example.com", chromedp.ByQuery),
			chromedp.SendKeys(`#join-password`, "short", chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector('form[action$="/account"]').noValidate = true`, nil),
			chromedp.Click(`//button[.="Create account and join"]`), chromedp.WaitVisible(`#join-error`, chromedp.ByQuery))
		var msg, email string
		run(pctx, chromedp.Text(`#join-error`, &msg, chromedp.ByQuery), chromedp.Value(`#join-email`, &email, chromedp.ByQuery))
		if !strings.Contains(msg, "at least 10 characters") || email != "grace@example.com" {
			t.Fatalf("error %q, email kept %q", msg, email)
		}
		pv.check("join-new-error")
		run(pctx, chromedp.EmulateViewport(1280, 800), chromedp.SendKeys(`#join-password`, password, chromedp.ByQuery),
			chromedp.Click(`//button[.="Create account and join"]`), chromedp.WaitVisible(`#spaces-heading`, chromedp.ByQuery))
		u := userByEmail(t, s, "grace@example.com")
		if u == nil {
			t.Fatal("no account")
		}
		if got := roleOf(t, s, org, admin.ID, u.ID); got != "edit" {
			t.Fatalf("joined as %s", got)
		}

		// They edit a page.
		run(pctx, chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`.fe-content`, chromedp.ByQuery),
			chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		if err := chromedp.Run(pctx, chromedp.Poll(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Hello, writers." && $f.parentOffset === 15 })()`,
			nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("cursor at the end: %v", err)
		}
		run(pctx, chromedp.KeyEvent(" Glad to join."), chromedp.Click(`#editor-save`, chromedp.ByQuery))
		saved, cancel := context.WithTimeout(pctx, 30*time.Second)
		err := chromedp.Run(saved, chromedp.WaitVisible(`//div[@class="markdown"]/p[contains(., "Glad to join.")]`))
		cancel()
		if err != nil {
			t.Fatalf("the newcomer's edit was not saved: %v", err)
		}
	})
}
