package web_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/browser/browsertest"
)

// TestEditInBrowser signs in, opens a page, presses Edit, types a heading
// and a list item into the editor, saves, and finds them on the rendered
// page; it screenshots the edit view at 1280 px in both themes (kept in
// FOLIO_SCREENSHOTS when set).
func TestEditInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := browsertest.New(t)
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
		shots := func(name string) {
			t.Helper()
			for _, scheme := range []string{"light", "dark"} {
				run(chromedp.EmulateViewport(1280, 800),
					emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
				var sideways bool
				run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &sideways))
				if sideways {
					t.Errorf("%s (%s) scrolls sideways", name, scheme)
				}
				var buf []byte
				run(chromedp.FullScreenshot(&buf, 100))
				img, err := png.Decode(bytes.NewReader(buf))
				if err != nil {
					t.Fatal(err)
				}
				r, g, b, _ := img.At(2, 2).RGBA()
				if l := (299*(r>>8) + 587*(g>>8) + 114*(b>>8)) / 1000; scheme == "dark" && l > 60 || scheme == "light" && l < 200 {
					t.Errorf("%s (%s): background luminance %d", name, scheme, l)
				}
				if dir := os.Getenv("FOLIO_SCREENSHOTS"); dir != "" {
					if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("app-%s-%s-1280-%s.png", s.Store, name, scheme)), buf, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
		}

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
		shots("edit")

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
		shots("edit-typed")

		// Save: back on the page, rendered with the new heading and item
		// (the reader lifts a document's headings when none is a title, so
		// the level-2 heading may show as <h2>).
		run(chromedp.Click(`#editor-save`, chromedp.ByQuery),
			chromedp.WaitVisible(`//div[@class="markdown"]//*[self::h2 or self::h3][contains(., "Release plan")]`))
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
