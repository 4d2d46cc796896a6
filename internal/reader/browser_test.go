package reader_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/browser/browsertest"
)

// The reader's end-to-end test runs in headless Chromium against a real
// test server. It runs on SQLite only: the browser sees the same HTML
// whatever the store, the store's side of every page is covered on both
// stores by the reader's other tests, and a second run would double the
// slowest test of the package for no gain.

// tab drives one browser tab over the test server.
type tab struct {
	t   *testing.T
	ctx context.Context
	dir string // where screenshots go (artifacts)
}

// run runs actions, each batch within ten seconds: a selector that
// matches nothing fails the test instead of using up its time.
func (b *tab) run(actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// follow clicks the link matching sel whose text is text, and returns
// its href.
func (b *tab) follow(sel, text string) string {
	b.t.Helper()
	var href string
	b.eval("(([...document.querySelectorAll("+js(sel)+")].find(a => (a.querySelector('span') || a).textContent.trim() === "+js(text)+") || {}).getAttribute || (() => ''))"+
		".call([...document.querySelectorAll("+js(sel)+")].find(a => (a.querySelector('span') || a).textContent.trim() === "+js(text)+"), 'href')", &href)
	if href == "" {
		b.t.Fatalf("no link %q in %s", text, sel)
	}
	b.click(sel + `[href="` + href + `"]`)
	return href
}

// eval evaluates a JavaScript expression of the page into v. DevTools
// evaluation is not subject to the page's CSP, which forbids eval.
func (b *tab) eval(expr string, v any) {
	b.t.Helper()
	b.run(chromedp.Evaluate(expr, v))
}

// waitFor waits until a JavaScript expression of the page is true.
func (b *tab) waitFor(expr string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		err := chromedp.Run(b.ctx, chromedp.Evaluate("document.readyState === 'complete' && !!("+expr+")", &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var loc, text string
			_ = chromedp.Run(b.ctx, chromedp.Evaluate("location.href", &loc), chromedp.Evaluate("document.body ? document.body.innerText.slice(0, 500) : ''", &text))
			b.t.Fatalf("waiting for %s: %v (at %s)\n%s", expr, err, loc, text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// at waits for the page at path (and query) whose heading is h1.
func (b *tab) at(path, h1 string) {
	b.t.Helper()
	b.waitFor("location.pathname + location.search === " + js(path) +
		" && document.querySelector('main h1') && document.querySelector('main h1').textContent === " + js(h1))
}

// click clicks the first element matching a CSS selector.
func (b *tab) click(sel string) {
	b.t.Helper()
	b.run(chromedp.Click(sel, chromedp.ByQuery, chromedp.NodeVisible))
}

// screenshot takes a full-page screenshot and checks it: a PNG of the
// viewport's width and a sane height, not blank (several colours), with
// a background pixel (the top-left corner) of the wanted brightness.
func (b *tab) screenshot(name string, dark bool) {
	b.t.Helper()
	b.screenshotAt(name, dark, 1200)
}

// artifacts is the folder screenshots are saved in: reader/ under
// $FOLIO_TEST_ARTIFACTS when set (a CI job that keeps artefacts points
// it at their folder), else a temporary folder
// of the test.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("FOLIO_TEST_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, "reader")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshotAt is screenshot for a viewport width, of the whole page.
func (b *tab) screenshotAt(name string, dark bool, width int) {
	b.t.Helper()
	var buf []byte
	b.run(chromedp.FullScreenshot(&buf, 100))
	b.keepScreenshot(name, dark, width, buf)
}

// screenshotViewport is screenshotAt of what the viewport shows, for
// what covers it (an open menu).
func (b *tab) screenshotViewport(name string, dark bool, width int) {
	b.t.Helper()
	var buf []byte
	b.run(chromedp.CaptureScreenshot(&buf))
	b.keepScreenshot(name, dark, width, buf)
}

// keepScreenshot checks a screenshot and saves it.
func (b *tab) keepScreenshot(name string, dark bool, width int, buf []byte) {
	b.t.Helper()
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		b.t.Fatalf("%s: screenshot is not a PNG: %v", name, err)
	}
	size := img.Bounds().Size()
	if size.X != width || size.Y < 300 || size.Y > 40000 {
		b.t.Fatalf("%s: screenshot %v", name, size)
	}
	colours := map[[3]uint32]bool{}
	for y := 0; y < size.Y; y += 3 {
		for x := 0; x < size.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	if len(colours) < 8 {
		b.t.Fatalf("%s: screenshot looks blank: %d colours", name, len(colours))
	}
	// A modal dialog dims the page behind it: no background to check.
	if l := luminance(img, 2, 2); !strings.Contains(name, "dialog") && (dark && l > 60 || !dark && l < 200) {
		b.t.Fatalf("%s: background luminance %d, want dark=%v", name, l, dark)
	}
	b.t.Logf("%s: %v, %d colours", name, size, len(colours))
	if b.dir == "" {
		b.dir = artifacts(b.t)
	}
	if err := os.WriteFile(filepath.Join(b.dir, strings.ReplaceAll(name, " ", "-")+".png"), buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func luminance(img image.Image, x, y int) int {
	r, g, b, _ := img.At(x, y).RGBA()
	return int((299*(r>>8) + 587*(g>>8) + 114*(b>>8)) / 1000)
}

// TestReaderInBrowser opens a published site with sections and nested
// pages in Chromium, clicks through sections and pages, searches with
// the search box and follows a result, switches the theme with and
// without JavaScript, and checks screenshots of both themes.
func TestReaderInBrowser(t *testing.T) {
	t.Parallel()
	ctx := browsertest.New(t)
	s := apitest.New(t, "sqlite", apitest.Options{})
	f := newFixture(t, s, "", map[string]any{})
	archive := zipOf(t, map[string]string{
		"SUMMARY.md":       "# Summary\n\n* [Intro](README.md)\n* [Setup](setup/README.md)\n  * [Install](setup/install.md)\n* [FAQ](faq.md)\n",
		"README.md":        "# Intro\n\nWelcome to the handbook.\n\n## Getting around\n\nUse the navigation.\n",
		"setup/README.md":  "# Setup\n\nSetting up takes a minute.\n",
		"setup/install.md": "# Install\n\nRun the **kubernetes** chart:\n\n```sh\nhelm install folio ./chart\n```\n",
		"faq.md":           "# FAQ\n\n> Ask anything.\n\n| Question | Answer |\n| --- | --- |\n| Where? | Here |\n",
	})
	s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
		map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
	api := f.newSpace(t, "API", "# Endpoints\n\nThe kubernetes operator answers here.\n")
	var sec struct{ ID, Path string }
	s.Do(t, f.admin, "POST", f.siteAPI+"/sections", map[string]any{"spaceId": api, "title": "API reference"}).WantStatus(t, 201).JSON(t, &sec)
	f.publish(t)
	base := "/sites/" + f.site
	b := &tab{t: t, ctx: ctx}

	// Open the site and click through its pages.
	b.run(chromedp.EmulateViewport(1200, 800), chromedp.Navigate(s.URL+base+"/"))
	b.at(base+"/", "Intro")
	b.screenshot("light", false)
	var bg string
	b.eval("getComputedStyle(document.body).backgroundColor", &bg)
	if bg != "rgb(255, 255, 255)" {
		t.Fatalf("light background %q", bg)
	}
	// The default section's site space has its own path under the base.
	setup := b.follow("nav.tree a", "Setup")
	if !strings.HasPrefix(setup, base+"/") || !strings.HasSuffix(setup, "/setup") {
		t.Fatalf("Setup at %q", setup)
	}
	b.at(setup, "Setup")
	install := b.follow("nav.tree a", "Install")
	b.at(install, "Install")
	var crumbs, code string
	b.eval("document.querySelector('ol.breadcrumbs').innerText", &crumbs)
	b.eval("document.querySelector('pre.code').innerText", &code)
	if crumbs != "Setup" || !strings.Contains(code, "helm install folio ./chart") {
		t.Fatalf("breadcrumbs %q, code %q", crumbs, code)
	}
	faq := b.follow(`a[rel="next"]`, "FAQ")
	b.at(faq, "FAQ")
	b.follow(`a[rel="prev"]`, "Install")
	b.at(install, "Install")

	// Sections: the header's tabs lead to each section's content.
	b.click(`.tabs-bar a.section[href="` + base + `/` + sec.Path + `"]`)
	b.at(base+"/"+sec.Path, "Endpoints")
	var current string
	b.eval("document.querySelector('.tabs-bar a.section.current').textContent", &current)
	if current != "API reference" {
		t.Fatalf("current section %q", current)
	}
	b.click(`header a.brand`)
	b.at(base+"/", "Intro")

	// Search: the results page lists both pages with their matches
	// marked; the search dialog is tested by TestReaderViews.
	b.run(chromedp.Navigate(s.URL + base + "/~/search?q=kubernetes"))
	b.at(base+"/~/search?q=kubernetes", "Search")
	var results []string
	b.eval("[...document.querySelectorAll('ol.search-results > li a.result-title')].map(a => a.textContent)", &results)
	if fmt.Sprint(results) != "[Install Endpoints]" && fmt.Sprint(results) != "[Endpoints Install]" {
		t.Fatalf("results %q", results)
	}
	var marks []string
	b.eval("[...document.querySelectorAll('ol.search-results mark')].map(m => m.textContent)", &marks)
	if len(marks) < 2 || !strings.EqualFold(marks[0], "kubernetes") {
		t.Fatalf("marks %q", marks)
	}
	b.click(`ol.search-results a.result-title[href="` + install + `"]`)
	b.at(install, "Install")

	// Theme: the script switches at once and keeps the choice in the
	// cookie, so the next page is dark too.
	b.click(`form.theme-switch button[value="dark"]`)
	b.waitFor("document.documentElement.dataset.theme === 'dark' && getComputedStyle(document.body).backgroundColor === 'rgb(13, 17, 23)'")
	b.follow("nav.tree a", "FAQ")
	b.at(faq, "FAQ")
	b.waitFor("document.documentElement.dataset.theme === 'dark' && getComputedStyle(document.body).backgroundColor === 'rgb(13, 17, 23)'")
	var pressed string
	b.eval(`document.querySelector('form.theme-switch button[value="dark"]').getAttribute('aria-pressed')`, &pressed)
	if pressed != "true" {
		t.Fatalf("dark button aria-pressed=%q", pressed)
	}
	b.screenshot("dark", true)

	// Without JavaScript the switch is a form: it sets the cookie and
	// comes back to the same page.
	b.run(emulation.SetScriptExecutionDisabled(true), chromedp.Reload())
	b.at(faq, "FAQ")
	b.click(`form.theme-switch button[value="light"]`)
	b.waitFor("location.pathname === " + js(faq) + " && document.documentElement.dataset.theme === 'light'")
	b.eval("getComputedStyle(document.body).backgroundColor", &bg)
	if bg != "rgb(255, 255, 255)" {
		t.Fatalf("background after the form %q", bg)
	}
	// And search works as a plain form too.
	b.run(chromedp.SendKeys(`header form.search input[name="q"]`, "handbook", chromedp.ByQuery), chromedp.Submit(`header form.search input[name="q"]`, chromedp.ByQuery))
	b.at(base+"/~/search?q=handbook", "Search")
	b.at(b.follow(`ol.search-results a.result-title`, "Intro"), "Intro")
	b.screenshot("light again", false)
}
