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

// TestEditInBrowser signs in, opens a page, presses Edit, types a heading
// and a list item into the editor, pastes an image (uploaded to the
// space's files), saves, and finds them on the rendered
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

		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, u.Email))
		run(chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery))

		// Edit: the editor mounts on the page's document, the no-script
		// notice goes away and the Save bar shows.
		run(chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`.fe-content`, chromedp.ByQuery), chromedp.WaitVisible(`#editor-save`, chromedp.ByQuery))
		var state string
		run(chromedp.Evaluate(`[document.getElementById("editor-nojs").hidden, document.querySelector(".fe-content").textContent.includes("Hello, writers.")].join()`, &state))
		if state != "true,true" {
			t.Fatalf("edit view: no-script notice hidden, document shown = %s", state)
		}
		// The page's first section is a heading-2 (its h1 is the title): it
		// is announced as level 2, keeping the page's outline in order.
		var level string
		run(chromedp.Evaluate(`document.querySelector(".fe-content h3").getAttribute("aria-level")`, &level))
		if level != "2" {
			t.Fatalf("the first section's heading has aria-level %q, want 2", level)
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
		// Paste an image: uploaded to the space's files, shown in the
		// editor from its URL.
		var pasted bool
		run(chromedp.Evaluate(`(() => {
			const c = document.createElement("canvas"); c.width = 40; c.height = 20;
			const g = c.getContext("2d"); g.fillStyle = "#c33"; g.fillRect(0, 0, 40, 20);
			const bin = atob(c.toDataURL("image/png").split(",")[1]);
			const bytes = new Uint8Array(bin.length); for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
			const dt = new DataTransfer(); dt.items.add(new File([bytes], "red.png", {type: "image/png"}));
			document.querySelector(".fe-content").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
			return true })()`, &pasted))
		waitFor(`[...document.querySelectorAll(".fe-content img")].some(i => i.getAttribute("src").startsWith("/v1/files/") && i.complete && i.naturalWidth === 40)`)
		// The pasted image asks for its alt text; Enter goes back to the text.
		waitFor(`document.activeElement.id.startsWith("fe-image-alt-")`)
		run(chromedp.KeyEvent("A red box"))
		enter()
		waitFor(`document.activeElement.classList.contains("fe-content") && document.querySelector(".fe-content img").alt === "A red box"`)
		v.check("edit-typed")

		// Save: back on the page, rendered with the new heading and item.
		run(chromedp.Click(`#editor-save`, chromedp.ByQuery))
		saved, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := chromedp.Run(saved, chromedp.WaitVisible(`//div[@class="markdown"]/*[self::h2 or self::h3][contains(., "Release plan")]`))
		cancel()
		if err != nil {
			var status string
			chromedp.Run(ctx, chromedp.Evaluate(`(document.getElementById("editor-status") || {}).textContent || location.href + " " + document.querySelector(".markdown").innerHTML.slice(-2500)`, &status))
			t.Fatalf("saving did not show the page: %v; %q", err, status)
		}
		var body string
		run(chromedp.Text(`.markdown`, &body, chromedp.ByQuery))
		for _, want := range []string{"Hello, writers.", "Download it.", "Release plan", "Ship it"} {
			if !strings.Contains(body, want) {
				t.Fatalf("saved page lacks %q: %q", want, body)
			}
		}
		var imgs []string
		run(chromedp.Evaluate(`[...document.querySelectorAll(".markdown img")].map(i => i.alt)`, &imgs))
		if len(imgs) != 1 || imgs[0] != "A red box" {
			t.Fatalf("the saved page shows images with alt texts %q, want the pasted one's", imgs)
		}
		c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: u.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Tree.Files) != 1 || c.Tree.Files[0].Name != "red.png" || c.Tree.Files[0].Width != 40 {
			t.Fatalf("space files after the paste: %+v", c.Tree.Files)
		}
		var li string
		run(chromedp.Text(`.markdown ul li`, &li, chromedp.ByQuery))
		if strings.TrimSpace(li) != "Ship it" {
			t.Fatalf("list item %q", li)
		}
	})
}
