package reader_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio/internal/apitest"
	fbrowser "github.com/foliodocs/folio/internal/browser"
	"github.com/foliodocs/folio/internal/browser/browsertest"
)

// The views test opens a site whose pages use every block type at phone,
// tablet and desktop widths in both themes. In each view it saves a
// screenshot (artifacts: $FOLIO_TEST_ARTIFACTS/reader, else a temporary
// folder), checks that nothing scrolls sideways, and runs axe-core,
// failing on serious or critical violations. axe-core comes from the
// npm registry through .ci/axe-core into ~/.cache/folio (or
// $FOLIO_AXE_CORE); without it the axe checks are skipped with a notice,
// except in CI (CI set), which requires it. Then it drives the phone
// menu to every page, the search dialog and the tabs by keyboard alone,
// and the copy button, and checks the page without JavaScript.

const everyBlock = "# Overview\n\nThis site exercises **every block** the reader renders, with *marks*, `inline code`, ~~strikes~~ and [a link](guide/install.md). Marker: zebra.\n\n" +
	"## Hints\n\n" +
	"{% hint style=\"info\" %}\nAn info hint with `code` and a [link](https://example.com/).\n{% endhint %}\n\n" +
	"{% hint style=\"success\" %}\n### Title of a hint\n\nDone well.\n{% endhint %}\n\n" +
	"{% hint style=\"warning\" %}\nMind the step.\n{% endhint %}\n\n" +
	"{% hint style=\"danger\" %}\nThis deletes everything.\n{% endhint %}\n\n" +
	"## Code\n\n" +
	"{% code title=\"main.go\" lineNumbers=\"true\" %}\n```go\npackage main\n\nimport \"fmt\"\n\n// main says hello.\nfunc main() {\n\tfmt.Println(\"hello, zebra\", 42)\n}\n```\n{% endcode %}\n\n" +
	"```sh\nhelm install folio ./chart --set replicas=3 --set image.tag=a-very-long-tag-that-makes-this-line-scroll-inside-its-box\n```\n\n" +
	"```json\n{\"name\": \"folio\", \"enabled\": true, \"count\": 3, \"tags\": null}\n```\n\n" +
	"## Tabs\n\n" +
	"{% tabs %}\n{% tab title=\"macOS\" %}\nInstall with Homebrew.\n{% endtab %}\n\n{% tab title=\"Linux\" %}\nInstall with apt.\n{% endtab %}\n\n{% tab title=\"Windows\" %}\nInstall with winget.\n{% endtab %}\n{% endtabs %}\n\n" +
	"## Expandable\n\n<details>\n\n<summary>More details</summary>\n\nThe hidden body of the expandable.\n\n</details>\n\n" +
	"## Table\n\n| Variable | Default | Description |\n| --- | --- | --- |\n| `FOLIO_ADDR` | `:8080` | The address the server listens on, host and port, for the API and every published site. |\n| `FOLIO_DATA` | `./data` | The folder of the SQLite database and of the files. |\n| `FOLIO_PUBLIC_URL` | none | The public URL of the server, used in links, sitemaps and signed file URLs. |\n\n" +
	"## Images\n\n![A gradient](gradient.png \"A caption under the picture\")\n\n" +
	"## Lists and quotes\n\n* [x] Done\n* [ ] To do\n\n1. First\n2. Second\n\n* One\n* Two\n\n> A quotation, to read slowly.\n\n---\n\n" +
	"## Math and embeds\n\n$$\nE = mc^2\n$$\n\n{% embed url=\"https://example.com/video\" %}\nA video\n{% endembed %}\n\n" +
	"{% content-ref url=\"guide/install.md\" %}\n[install.md](guide/install.md)\n{% endcontent-ref %}\n\n" +
	"{% file src=\"gradient.png\" %}\nThe gradient as a file\n{% endfile %}\n\n" +
	"## API\n\n{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n"

// gradientPNG is a 640×320 picture.
func gradientPNG(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 640, 320))
	for y := range 320 {
		for x := range 640 {
			img.Set(x, y, color.RGBA{uint8(x * 255 / 640), uint8(y * 255 / 320), 180, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// axeScript is axe-core's source, or "" when it is not installed (the
// test then skips the checks, or fails in CI).
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("FOLIO_AXE_CORE")
	if path == "" {
		home, _ := os.UserHomeDir()
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			cache = filepath.Join(home, ".cache")
		}
		matches, _ := filepath.Glob(filepath.Join(cache, "folio", "axe-core-*", "axe.min.js"))
		if len(matches) > 0 {
			path = matches[len(matches)-1]
		}
	}
	b, err := os.ReadFile(path)
	if err != nil || path == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is required in CI: run .ci/axe-core (%v)", err)
		}
		t.Log("axe-core checks SKIPPED: run .ci/axe-core to fetch it")
		return ""
	}
	return string(b)
}

// axe runs axe-core on the page and fails on serious or critical
// violations, listing them.
func (b *tab) axe(script, view string) {
	b.t.Helper()
	if script == "" {
		return
	}
	var loaded bool
	b.run(chromedp.Evaluate("typeof axe !== 'undefined'", &loaded))
	if !loaded {
		var ignored any
		b.run(chromedp.Evaluate(script+";true", &ignored))
	}
	var found []struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []string }
	}
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	err := chromedp.Run(ctx, chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.map(String)}))})))`,
		&found, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil {
		b.t.Fatalf("%s: axe: %v", view, err)
	}
	for _, v := range found {
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Errorf("%s: axe %s (%s): %s at %v", view, v.ID, v.Impact, v.Help, v.Nodes)
		} else {
			b.t.Logf("%s: axe %s (%s): %s at %v", view, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
}

// noSideScroll fails when the page is wider than the viewport.
func (b *tab) noSideScroll(view string) {
	b.t.Helper()
	var wide []string
	b.eval(`document.documentElement.scrollWidth > innerWidth ? [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre, .table-wrap, .tabs-bar, [role=tablist], .math")).slice(0, 8).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)) : []`, &wide)
	var sw, iw int
	b.eval("document.documentElement.scrollWidth", &sw)
	b.eval("innerWidth", &iw)
	if sw > iw {
		b.t.Errorf("%s: the page scrolls sideways: %d > %d px, wide: %v", view, sw, iw, wide)
	}
}

// startBrowser starts Chromium with the test server's public host
// (apitest.PublicURL, which signed file URLs use) mapped to the server.
func startBrowser(t *testing.T, server string) context.Context {
	t.Helper()
	browsertest.Need(t)
	path, err := fbrowser.Path()
	if err != nil {
		t.Fatal(err)
	}
	su, _ := url.Parse(server)
	pu, _ := url.Parse(apitest.PublicURL)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	opts := append(fbrowser.Options(path), chromedp.Flag("host-resolver-rules", "MAP "+pu.Hostname()+" "+su.Host))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelTab := chromedp.NewContext(actx)
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	t.Cleanup(func() { cancelTab(); cancelAlloc(); cancel() })
	return bctx
}

func TestReaderViews(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	axeJS := axeScript(t)
	s := apitest.New(t, "sqlite", apitest.Options{})
	f := newFixture(t, s, "", map[string]any{"title": "Aurora docs"})
	archive := zipOf(t, map[string]string{
		"SUMMARY.md":         "# Summary\n\n* [Overview](README.md)\n\n## Guides\n\n* [Install](guide/install.md)\n  * [Configure](guide/configure.md)\n* [Upgrade](guide/upgrade.md)\n\n## Reference\n\n* [API](api.md)\n",
		"README.md":          everyBlock,
		"guide/install.md":   "# Install\n\nDownload the archive and run it.\n\n## Requirements\n\nA computer.\n\n## Steps\n\n1. Download.\n2. Unpack.\n3. Run.\n",
		"guide/configure.md": "# Configure\n\nSet the environment variables.\n",
		"guide/upgrade.md":   "# Upgrade\n\nReplace the binary.\n",
		"api.md":             "# API\n\nThe API answers under /v1.\n",
		"gradient.png":       gradientPNG(t),
	})
	s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
		map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
	f.putSpec(t, "petstore", petsSpec)
	f.publish(t)
	s.DoUnchecked(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+f.siteSpace(t)+"/customization", map[string]any{
		"header": map[string]any{"links": []any{map[string]any{"title": "Blog", "to": map[string]any{"kind": "url", "url": "https://example.com/blog"}}}},
		"footer": map[string]any{"copyright": "© Aurora", "groups": []any{map[string]any{"title": "Community",
			"links": []any{map[string]any{"title": "Forum", "to": map[string]any{"kind": "url", "url": "https://example.com/forum"}}}}}},
	}).WantStatus(t, 200)
	base := "/sites/" + f.site
	ctx := startBrowser(t, s.URL)
	b := &tab{t: t, ctx: ctx, dir: artifacts(t)}
	t.Logf("screenshots in %s", b.dir)

	// Every view: screenshot, no sideways scroll, axe.
	for _, theme := range []string{"light", "dark"} {
		b.run(chromedp.Navigate(s.URL + base + "/~/theme?theme=" + theme + "&return=" + url.QueryEscape(base+"/")))
		b.at(base+"/", "Overview")
		for _, w := range []int{360, 768, 1280} {
			view := fmt.Sprintf("overview %d %s", w, theme)
			b.run(chromedp.EmulateViewport(int64(w), 900), chromedp.Reload())
			b.at(base+"/", "Overview")
			b.waitFor("[...document.images].every(i => i.loading === 'lazy' || i.complete)")
			b.noSideScroll(view)
			b.axe(axeJS, view)
			b.screenshotAt(view, theme == "dark", w)
		}
	}
	// A nested page (an open branch, breadcrumbs), the search results
	// page and the 404 page, in one view each.
	b.run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(s.URL+base+"/guides/install/configure"))
	b.at(base+"/guides/install/configure", "Configure")
	b.axe(axeJS, "nested page")
	b.screenshotAt("configure 1280 dark", true, 1280)
	b.run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(s.URL+base+"/~/search?q=install"))
	b.at(base+"/~/search?q=install", "Search")
	b.axe(axeJS, "search page")
	b.screenshotAt("search 1280 dark", true, 1280)
	b.run(chromedp.Navigate(s.URL + base + "/no/such/page"))
	b.waitFor("document.querySelector('main h1') && document.querySelector('.status-code').textContent === '404'")
	b.axe(axeJS, "404 page")
	b.screenshotAt("404 1280 dark", true, 1280)
	b.run(chromedp.Navigate(s.URL + base + "/~/theme?theme=light&return=" + url.QueryEscape(base+"/")))
	b.at(base+"/", "Overview")

	// The phone menu reaches every page: open it, follow each link not
	// yet visited, until every page has been seen.
	b.run(chromedp.EmulateViewport(360, 740), chromedp.Reload())
	b.at(base+"/", "Overview")
	seen := map[string]bool{}
	for round := 0; round < 10; round++ {
		var hrefs []string
		b.click("button.menu-button")
		b.waitFor("document.querySelector('button.menu-button').getAttribute('aria-expanded') === 'true' && getComputedStyle(document.getElementById('drawer')).display === 'block'")
		if round == 0 {
			b.menuCovers()
			b.screenshotViewport("menu 360 light", false, 360)
			b.axe(axeJS, "phone menu")
			b.menuKeepsFocus()
		}
		b.eval(`[...document.querySelectorAll("#drawer nav.tree a")].map(a => a.getAttribute("href"))`, &hrefs)
		var inert, blog bool
		b.eval(`document.querySelector("main").inert`, &inert)
		b.eval(`[...document.querySelectorAll("#drawer .drawer-links a")].some(a => a.textContent === "Blog" && a.offsetParent !== null)`, &blog)
		if !inert || !blog {
			t.Fatalf("open drawer: main inert %v, header link shown %v", inert, blog)
		}
		next := ""
		for _, h := range hrefs {
			if !seen[h] && next == "" {
				next = h
			}
		}
		if next == "" {
			break
		}
		seen[next] = true
		b.click(`#drawer nav.tree a[href="` + next + `"]`)
		b.waitFor("location.pathname === " + js(next) + " && !document.getElementById('drawer').classList.contains('open')")
	}
	if len(seen) != 5 {
		t.Fatalf("the phone menu reached %d pages: %v", len(seen), seen)
	}

	// The search dialog by keyboard alone: "/" opens it, typing searches,
	// arrows move, Enter opens the result; Ctrl-K opens it too and
	// Escape closes it.
	b.run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(s.URL+base+"/"))
	b.at(base+"/", "Overview")
	b.run(chromedp.KeyEvent("/"))
	b.waitFor("document.querySelector('dialog.search-dialog[open]') && document.activeElement === document.querySelector('dialog.search-dialog input')")
	var ignored any
	b.eval("document.querySelector('dialog.search-dialog input').value = ''", &ignored)
	b.run(chromedp.KeyEvent("upgrade"))
	b.waitFor("document.querySelectorAll('dialog.search-dialog [role=option]').length > 0 && !!document.querySelector('dialog.search-dialog input').getAttribute('aria-activedescendant')")
	b.screenshotAt("search dialog 1280 light", false, 1280)
	b.axe(axeJS, "search dialog")
	var first string
	b.eval("document.querySelector('dialog.search-dialog [role=option][aria-selected=true] .hit-title').textContent", &first)
	if first != "Upgrade" {
		t.Fatalf("first result %q", first)
	}
	b.run(chromedp.KeyEvent(kb.Enter))
	b.at(base+"/guides/upgrade", "Upgrade")
	b.run(chromedp.KeyEvent("k", chromedp.KeyModifiers(2))) // Ctrl
	b.waitFor("document.querySelector('dialog.search-dialog[open]')")
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor("!document.querySelector('dialog.search-dialog[open]')")

	// Tabs by keyboard: arrows, Home and End move the selection and show
	// one panel at a time.
	b.run(chromedp.Navigate(s.URL + base + "/"))
	b.at(base+"/", "Overview")
	// Math in the TeX subset is drawn as MathML: the exponent of
	// E = mc^2 sits above the baseline of its base.
	var raised bool
	b.eval(`(() => { const m = document.querySelector(".math msup"); if (!m) return false; const [c, two] = m.children; return two.getBoundingClientRect().bottom < c.getBoundingClientRect().bottom - 2 })()`, &raised)
	if !raised {
		t.Fatal("the math block is not drawn as MathML with a raised exponent")
	}
	b.eval("document.querySelector('.tabs [role=tab]').focus()", &ignored)
	selected := func() string {
		var v string
		b.eval("document.activeElement.textContent + ':' + [...document.querySelectorAll('.tabs [role=tabpanel]')].filter(p => !p.hidden).map(p => p.textContent.trim()).join('|')", &v)
		return v
	}
	for _, step := range []struct{ key, want string }{
		{kb.ArrowRight, "Linux:LinuxInstall with apt."}, {kb.ArrowRight, "Windows:WindowsInstall with winget."},
		{kb.ArrowRight, "macOS:macOSInstall with Homebrew."}, {kb.End, "Windows:WindowsInstall with winget."},
		{kb.ArrowLeft, "Linux:LinuxInstall with apt."}, {kb.Home, "macOS:macOSInstall with Homebrew."},
	} {
		b.run(chromedp.KeyEvent(step.key))
		if got := selected(); got != step.want {
			t.Fatalf("after %q: %q, want %q", step.key, got, step.want)
		}
	}

	// The copy button copies the code without its line numbers.
	b.run(browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite,
		browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(s.URL))
	b.click(".code-block .copy")
	b.waitFor("document.querySelector('.code-block .copy').hasAttribute('data-copied')")
	var clip string
	b.run(chromedp.Evaluate("navigator.clipboard.readText()", &clip, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if !strings.HasPrefix(clip, "package main\n\nimport \"fmt\"") || !strings.Contains(clip, "fmt.Println(\"hello, zebra\", 42)") {
		t.Fatalf("clipboard %q", clip)
	}

	// Without JavaScript: every tab panel shows, the phone layout shows
	// the navigation after the article, the search box is a form.
	b.run(emulation.SetScriptExecutionDisabled(true), chromedp.EmulateViewport(360, 740), chromedp.Reload())
	b.at(base+"/", "Overview")
	var panels int
	b.eval("[...document.querySelectorAll('.tabs .tab')].filter(p => p.offsetParent !== null).length", &panels)
	var navShown, menuHidden bool
	b.eval("getComputedStyle(document.getElementById('drawer')).display === 'block'", &navShown)
	b.eval("getComputedStyle(document.querySelector('.menu-button')).display === 'none'", &menuHidden)
	if panels != 3 || !navShown || !menuHidden {
		t.Fatalf("without JavaScript: %d panels shown, navigation shown %v, menu button hidden %v", panels, navShown, menuHidden)
	}
	b.noSideScroll("overview 360 without JavaScript")
	b.screenshotAt("overview 360 light nojs", false, 360)
	b.click("header form.search button")
	b.at(base+"/~/search?q=", "Search")
	b.run(chromedp.SendKeys(`main form.search-page-form input[name="q"]`, "zebra", chromedp.ByQuery), chromedp.Submit(`main form.search-page-form input`, chromedp.ByQuery))
	b.at(base+"/~/search?q=zebra", "Search")
	b.at(b.follow(`ol.search-results a.result-title`, "Overview"), "Overview")
}

// menuCovers checks the open phone menu: the drawer reaches from the
// header to the bottom of the viewport, scrolls on its own, and the page
// behind it is hidden.
func (b *tab) menuCovers() {
	b.t.Helper()
	var got struct {
		Top, Bottom, Header, Height float64
		Scrolls, Below              bool
		Hidden                      []string
		Icons                       int
	}
	b.eval(`(() => { const d = document.getElementById("drawer"), r = d.getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, header: document.querySelector("header.site").getBoundingClientRect().bottom, height: innerHeight,
			scrolls: getComputedStyle(d).overflowY === "auto" && d.scrollHeight > d.clientHeight,
			below: !!document.elementFromPoint(innerWidth / 2, innerHeight - 4).closest("#drawer"),
			hidden: ["main", "footer.site"].filter(s => getComputedStyle(document.querySelector(s)).visibility === "hidden"),
			icons: [...document.querySelectorAll(".menu-button svg")].filter(s => s.getClientRects().length).length} })()`, &got)
	if got.Top > got.Header+1 || got.Bottom < got.Height-1 || !got.Below || !got.Scrolls || len(got.Hidden) != 2 || got.Icons != 1 {
		b.t.Fatalf("open menu: drawer from %v to %v (header ends at %v, viewport %v), scrolls on its own %v, drawer at the bottom %v, hidden %v, button icons shown %d",
			got.Top, got.Bottom, got.Header, got.Height, got.Scrolls, got.Below, got.Hidden, got.Icons)
	}
}

// menuKeepsFocus checks that Tab and Shift-Tab stay in the open menu
// (its links and the menu button), that Escape closes it and gives the
// focus back to the button, and opens it again.
func (b *tab) menuKeepsFocus() {
	b.t.Helper()
	var stops int
	b.eval(`[...document.querySelectorAll("#drawer a[href], #drawer summary")].filter(e => e.getClientRects().length).length + 1`, &stops)
	where := func() string {
		var w string
		b.eval(`(() => { const a = document.activeElement; return a.matches(".menu-button") ? "button" : a.closest("#drawer") ? "drawer" : "outside: " + a.outerHTML.slice(0, 80) })()`, &w)
		return w
	}
	sawButton := false
	for i := 0; i < stops+2; i++ {
		b.run(chromedp.KeyEvent(kb.Tab))
		w := where()
		if w != "button" && w != "drawer" {
			b.t.Fatalf("Tab %d in the open menu: focus %s", i+1, w)
		}
		sawButton = sawButton || w == "button"
	}
	if !sawButton {
		b.t.Fatal("Tab never wrapped around to the menu button")
	}
	b.run(chromedp.Focus("button.menu-button", chromedp.ByQuery), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(8))) // Shift
	if w := where(); w != "drawer" {
		b.t.Fatalf("Shift-Tab from the menu button: focus %s", w)
	}
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor("document.activeElement === document.querySelector('button.menu-button') && document.querySelector('button.menu-button').getAttribute('aria-expanded') === 'false' && getComputedStyle(document.querySelector('main')).visibility === 'visible' && !document.querySelector('main').inert")
	b.click("button.menu-button")
	b.waitFor("document.querySelector('button.menu-button').getAttribute('aria-expanded') === 'true'")
}
