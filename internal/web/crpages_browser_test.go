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

// TestFirstPageOfLockedSpaceInBrowser: an editor of a locked space without
// pages fills the first-page form with the keyboard and lands in the new
// page's editor in a change request. The empty space and the change
// request's "New page" form are checked as views.check does.
func TestFirstPageOfLockedSpaceInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Empty handbook", "")
		s.Do(t, admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		run := func(actions ...chromedp.Action) {
			t.Helper()
			sctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if err := chromedp.Run(sctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		v := newViews(t, ctx, s.Store)
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, w.Email))
		run(chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`#first-title`, chromedp.ByQuery))
		v.check("locked-first-page")
		run(chromedp.Focus(`#first-title`, chromedp.ByQuery), chromedp.SendKeys(`#first-title`, "Introduction"+kb.Enter, chromedp.ByQuery),
			chromedp.WaitVisible(`.edit-bar, #editor, main`, chromedp.ByQuery))
		var loc string
		run(chromedp.Sleep(300*time.Millisecond), chromedp.Location(&loc))
		if !strings.Contains(loc, "/s/"+sp+"/~/changes/1/pages/") || !strings.HasSuffix(loc, "/edit") {
			t.Fatalf("after the form: %s", loc)
		}
		run(chromedp.Navigate(s.URL+"/s/"+sp+"/~/changes/1"), chromedp.WaitVisible(`.cr-new-page`, chromedp.ByQuery),
			chromedp.Click(`.cr-new-page > summary`, chromedp.ByQuery), chromedp.WaitVisible(`#cr-new-title`, chromedp.ByQuery))
		v.check("cr-new-page")
	})
}
