package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	fbrowser "github.com/foliodocs/folio/internal/browser"
	"github.com/foliodocs/folio/internal/browser/browsertest"
)

// The app's browser tests check every view they open the same way (views
// below): at phone (360), tablet (768) and desktop (1280) widths, in the
// light and dark themes, they save a full-page screenshot (in
// $FOLIO_TEST_ARTIFACTS/web, else a temporary folder of the test), check
// that nothing scrolls sideways and that the background follows the
// theme, and run axe-core, failing on serious or critical violations.
// axe-core comes from .ci/axe-core (into ~/.cache/folio, or
// $FOLIO_AXE_CORE); without it the axe checks are skipped with a notice,
// except in CI (CI set), which requires it.

// startBrowser starts a headless Chromium for a whole browser test (15
// minutes at most: axe-core runs in every view, slowly on a busy machine).
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	browsertest.Need(t)
	path, err := fbrowser.Path()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, fbrowser.Options(path)...)
	bctx, cancelTab := chromedp.NewContext(actx)
	if err := chromedp.Run(bctx); err != nil {
		cancelTab()
		cancelAlloc()
		cancel()
		t.Fatalf("start Chromium: %v", err)
	}
	t.Cleanup(func() { cancelTab(); cancelAlloc(); cancel() })
	return bctx
}

// views checks the views of one browser test.
type views struct {
	t     *testing.T
	ctx   context.Context
	store string
	dir   string
	axe   string // axe-core's source, "" when absent
}

func newViews(t *testing.T, ctx context.Context, store string) *views {
	t.Helper()
	dir := os.Getenv("FOLIO_TEST_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else {
		dir = filepath.Join(dir, "web")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots in %s", dir)
	return &views{t: t, ctx: ctx, store: store, dir: dir, axe: axeScript(t)}
}

// axeScript is axe-core's source, or "" when it is not installed (the
// checks are then skipped, or the test fails in CI).
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("FOLIO_AXE_CORE")
	if path == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		if m, _ := filepath.Glob(filepath.Join(cache, "folio", "axe-core-*", "axe.min.js")); len(m) > 0 {
			path = m[len(m)-1]
		}
	}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("axe-core is required in CI: run .ci/axe-core (looked for %q)", path)
	}
	t.Log("axe-core checks SKIPPED: run .ci/axe-core to fetch it")
	return ""
}

func (v *views) run(actions ...chromedp.Action) {
	v.t.Helper()
	if err := chromedp.Run(v.ctx, actions...); err != nil {
		v.t.Fatal(err)
	}
}

func scheme(name string) chromedp.Action {
	return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: name}})
}

// check checks the current page as the view name at every width and in
// both themes, then leaves the tab at 1280 px in the light theme. after
// runs after each resize (to reopen a menu, say).
func (v *views) check(name string, after ...chromedp.Action) {
	v.t.Helper()
	for _, width := range []int64{360, 768, 1280} {
		for _, theme := range []string{"light", "dark"} {
			view := fmt.Sprintf("%s at %d px (%s)", name, width, theme)
			v.run(chromedp.EmulateViewport(width, 800), scheme(theme))
			v.run(after...)
			var wide []string
			v.run(chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth ? [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre, .table-wrap, table")).slice(0, 8).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)) : []`, &wide))
			var sideways bool
			v.run(chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &sideways))
			if sideways {
				v.t.Errorf("%s scrolls sideways; too wide: %v", view, wide)
			}
			var buf []byte
			v.run(chromedp.FullScreenshot(&buf, 100))
			img, err := png.Decode(bytes.NewReader(buf))
			if err != nil {
				v.t.Fatal(err)
			}
			r, g, b, _ := img.At(2, 2).RGBA()
			if l := (299*(r>>8) + 587*(g>>8) + 114*(b>>8)) / 1000; theme == "dark" && l > 60 || theme == "light" && l < 200 {
				v.t.Errorf("%s: background luminance %d", view, l)
			}
			file := fmt.Sprintf("app-%s-%s-%d-%s.png", v.store, name, width, theme)
			if err := os.WriteFile(filepath.Join(v.dir, file), buf, 0o644); err != nil {
				v.t.Fatal(err)
			}
			v.runAxe(view)
		}
	}
	v.run(chromedp.EmulateViewport(1280, 800), scheme("light"))
}

// runAxe runs axe-core on the page and fails on serious or critical
// violations, listing them (the others are logged).
func (v *views) runAxe(view string) {
	v.t.Helper()
	if v.axe == "" {
		return
	}
	var loaded bool
	v.run(chromedp.Evaluate("typeof axe !== 'undefined'", &loaded))
	if !loaded {
		var ignored any
		v.run(chromedp.Evaluate(v.axe+";true", &ignored))
	}
	var found []struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []string }
	}
	ctx, cancel := context.WithTimeout(v.ctx, time.Minute)
	defer cancel()
	err := chromedp.Run(ctx, chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.map(String)}))})))`,
		&found, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil {
		v.t.Fatalf("%s: axe: %v", view, err)
	}
	for _, f := range found {
		if f.Impact == "serious" || f.Impact == "critical" {
			v.t.Errorf("%s: axe %s (%s): %s at %v", view, f.ID, f.Impact, f.Help, f.Nodes)
		} else {
			v.t.Logf("%s: axe %s (%s): %s at %v", view, f.ID, f.Impact, f.Help, f.Nodes)
		}
	}
}

// browserSignIn signs in on the sign-in page of the server at base with
// the test password, and waits for the home page.
func browserSignIn(base, email string) chromedp.Tasks {
	return chromedp.Tasks{chromedp.Navigate(base + "/signin"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
		chromedp.SendKeys(`#email`, email, chromedp.ByQuery), chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
		chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery), chromedp.WaitVisible(`#orgs-heading`, chromedp.ByQuery)}
}
