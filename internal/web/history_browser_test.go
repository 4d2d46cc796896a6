package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestHistoryInBrowser picks two revisions in the history and compares
// them, opens a page as it was and restores it, then drags a page of the
// tree before another and finds the new order through the API; it checks
// the history, compare and restore views as views.check does (360, 768
// and 1280 px, both themes, no sideways scroll, axe-core).
func TestHistoryInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		f := newHistoryFixture(t, s)
		sp := "/s/" + f.space
		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
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
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, f.writer.Email))

		// History: pick the imported revision as "from" (the current one is
		// "to" already) and compare.
		run(chromedp.Navigate(s.URL+sp+"/~/revisions"), chromedp.WaitVisible(`//h1[.="History"]`))
		v.check("history")
		run(chromedp.Click(`label[for="from-`+f.imported+`"]`, chromedp.ByQuery),
			chromedp.Click(`form.history-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`//h1[.="Compare revisions"]`))
		if c := text(".blk-changed"); !strings.Contains(c, "Old line.") || !strings.Contains(c, "New line.") {
			t.Fatalf("changed block %q", c)
		}
		if r := text(".blk-removed"); !strings.Contains(r, "Gone line.") {
			t.Fatalf("removed block %q", r)
		}
		if m := text("main"); !strings.Contains(m, "Extra") || !strings.Contains(m, "New page") {
			t.Fatalf("the compare view lacks the new page: %q", m)
		}
		v.check("history-compare")

		// The page as it was: restore it into the live content.
		run(chromedp.Navigate(s.URL+sp+"/~/revisions/"+f.imported), chromedp.WaitVisible(`//h1[starts-with(., "Revision")]`),
			chromedp.Click(`//main//ul[@class="tree"]//a[contains(., "Guide")]`),
			chromedp.WaitVisible(`//button[.="Restore this version"]`))
		v.check("history-restore")
		run(chromedp.Click(`//button[.="Restore this version"]`),
			chromedp.WaitVisible(`//article[contains(@class,"doc")]//a[.="Edit"]`))
		if body := text(".markdown"); !strings.Contains(body, "Gone line.") {
			t.Fatalf("the live page after the restore: %q", body)
		}
		if got := f.text(t, ""); !strings.Contains(got, "Old line.") || strings.Contains(got, "New line.") {
			t.Fatalf("after restoring in the browser: %s", got)
		}

		// A change request that clashes with main: Update from main shows
		// the conflict; taking main's version resolves it; then archive it.
		if _, err := s.App.CreateChangeRequest(context.Background(), f.writerCall, f.space, folio.NewChangeRequest{Subject: "Reword"}); err != nil {
			t.Fatal(err)
		}
		f.save(t, "1", "Keep this.", "Old line, reworded here.", "Gone line.")
		f.save(t, "", "Keep this.", "Old line, reworded in main.", "Gone line.")
		run(chromedp.Navigate(s.URL+sp+"/~/changes/1"), chromedp.WaitVisible(`//button[.="Update from main"]`),
			chromedp.Click(`//button[.="Update from main"]`), chromedp.WaitVisible(`//h1[contains(., "conflicts")]`))
		if m := text("main"); !strings.Contains(m, "Old line, reworded here.") || !strings.Contains(m, "Old line, reworded in main.") {
			t.Fatalf("the conflicts view lacks a side: %q", m)
		}
		v.check("history-conflicts")
		run(chromedp.Click(`//button[starts-with(., "Use main")]`), chromedp.WaitVisible(`//h1[contains(., "Reword")]`),
			chromedp.Click(`//button[.="Update from main"]`), chromedp.WaitNotPresent(`//button[.="Update from main"]`),
			chromedp.WaitVisible(`//button[.="Archive"]`))
		if m := text("main"); strings.Contains(m, "Update from main") {
			t.Fatalf("still outdated after resolving: %q", m)
		}
		run(chromedp.Click(`//button[.="Archive"]`), chromedp.WaitVisible(`//button[.="Reopen"]`))
		v.check("history-cr-archived")

		// Drag Extra onto the upper part of Guide: it moves before it. The
		// drag is HTML5 events dispatched in the page (headless Chromium's
		// mouse does not start native drags).
		run(chromedp.Navigate(s.URL+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery))
		var marked bool
		run(chromedp.Evaluate(`(() => {
			const link = t => [...document.querySelectorAll("#pages .tree a")].find(a => a.textContent.trim() === t);
			const src = link("Extra"), dst = link("Guide");
			const dt = new DataTransfer();
			src.dispatchEvent(new DragEvent("dragstart", {bubbles: true, cancelable: true, dataTransfer: dt}));
			const r = dst.getBoundingClientRect();
			const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: r.left + 5, clientY: r.top + 2};
			dst.dispatchEvent(new DragEvent("dragover", at));
			const marked = dst.classList.contains("drop-before");
			dst.dispatchEvent(new DragEvent("drop", at));
			return marked })()`, &marked))
		if !marked {
			t.Fatal("dragging over the top of Guide does not mark it as the place before it")
		}
		var order string
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var pages struct{ Pages []struct{ Title string } }
			s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space+"/content", nil).WantStatus(t, 200).JSON(t, &pages)
			var titles []string
			for _, p := range pages.Pages {
				titles = append(titles, p.Title)
			}
			if order = strings.Join(titles, ","); order == "Extra,Guide" {
				break
			}
		}
		if order != "Extra,Guide" {
			t.Fatalf("after the drop the API lists %s, want Extra,Guide", order)
		}
		run(chromedp.WaitVisible(`//nav[@id="pages"]/ul[@class="tree"]/li[1]/a[contains(., "Extra")]`))
	})
}
