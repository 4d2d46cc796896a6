package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestEditInBrowser signs in, opens a page, presses Edit, types a heading
// and a list item into the editor, saves, and finds them on the rendered
// page; it checks the edit view, before and after typing, as views.check
// does (360, 768 and 1280 px, both themes, no sideways scroll, axe-core).
func TestEditInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello, writers.\n\n## Install\n\nDownload it.\n")
		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		enter := func() {
			t.Helper()
			run(input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithText("\r"),
				input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13))
		}
		// waitFor polls a condition, and on time-out shows the editor's HTML.
		waitFor := func(cond string) {
			t.Helper()
			if err := chromedp.Run(ctx, chromedp.Poll(cond, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				var html string
				chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector(".fe-content").innerHTML`, &html))
				t.Fatalf("waiting for %s: %v; editor holds:\n%s", cond, err, html)
			}
		}
		v := newViews(t, ctx, s.Store)

		run(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+"/signin"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
			chromedp.SendKeys(`#email`, u.Email, chromedp.ByQuery), chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
			chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery), chromedp.WaitVisible(`#orgs-heading`, chromedp.ByQuery))
		run(chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery))

		// Edit: the editor mounts on the page's document, the no-script
		// notice goes away and the Save bar shows.
		run(chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`.fe-content`, chromedp.ByQuery), chromedp.WaitVisible(`#editor-save`, chromedp.ByQuery))
		var state string
		run(chromedp.Evaluate(`[document.getElementById("editor-nojs").hidden, document.querySelector(".fe-content").textContent.includes("Hello, writers.")].join()`, &state))
		if state != "true,true" {
			t.Fatalf("edit view: no-script notice hidden, document shown = %s", state)
		}
		v.check("edit")

		// At the end of the last paragraph: Enter, "## " makes a heading,
		// Enter, "- " makes a bulleted list.
		run(chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		waitFor(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Download it." && $f.parentOffset === 12 })()`)
		enter()
		run(chromedp.KeyEvent("## Release plan"))
		waitFor(`[...document.querySelectorAll(".fe-content > h3")].some(h => h.textContent === "Release plan")`)
		enter()
		run(chromedp.KeyEvent("- Ship it"))
		waitFor(`[...document.querySelectorAll(".fe-content > ul li")].some(li => li.textContent === "Ship it")`)
		v.check("edit-typed")

		// Save: back on the page, rendered with the new heading and item.
		run(chromedp.Click(`#editor-save`, chromedp.ByQuery),
			chromedp.WaitVisible(`//div[@class="markdown"]//h3[contains(., "Release plan")]`))
		var body string
		run(chromedp.Text(`.markdown`, &body, chromedp.ByQuery))
		for _, want := range []string{"Hello, writers.", "Download it.", "Release plan", "Ship it"} {
			if !strings.Contains(body, want) {
				t.Fatalf("saved page lacks %q: %q", want, body)
			}
		}
		var li string
		run(chromedp.Text(`.markdown ul li`, &li, chromedp.ByQuery))
		if strings.TrimSpace(li) != "Ship it" {
			t.Fatalf("list item %q", li)
		}
	})
}
