package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestCustomizeInBrowser opens the customization page with its preview,
// changes the title and a colour and sees the preview follow and the
// contrast warning appear at once; then the organization settings and
// the PDF export, whose progress turns into the download link without a
// reload. Each view is checked as views.check does (screenshots at 360,
// 768 and 1280 px in both themes, no sideways scroll, axe-core).
func TestCustomizeInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, site, admin, _ := customSite(t, s)
		doc := customization(t, s, admin, org, site)
		doc["header"].(map[string]any)["links"] = []any{map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.example.com"}, "links": []any{}}}
		doc["footer"] = map[string]any{"groups": []any{map[string]any{"title": "Company", "links": []any{
			map[string]any{"title": "About", "to": map[string]any{"kind": "url", "url": "https://example.com/about"}}}}}, "copyright": "© Example"}
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/sites/"+site+"/customization", doc).WantStatus(t, 200)
		var email string
		if u, err := s.App.GetAuthenticatedUser(context.Background(), folio.Caller{UserID: userOf(t, s, admin)}); err == nil {
			email = u.Email
		} else {
			t.Fatal(err)
		}
		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		eval := func(js string, out any) {
			t.Helper()
			run(chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		}
		v := newViews(t, ctx, s.Store)
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, email))

		// The preview has loaded (the frame's load event, once more).
		previewLoaded := chromedp.ActionFunc(func(ctx context.Context) error {
			var ok bool
			return chromedp.Evaluate(`new Promise(r => { const f = document.getElementById("preview"); f.addEventListener("load", () => r(true), {once: true}); f.src = f.src; })`,
				&ok, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }).Do(ctx)
		})
		path := "/o/" + org + "/sites/" + site + "/customize"
		run(chromedp.Navigate(s.URL+path), chromedp.WaitVisible(`#customize-form`, chromedp.ByQuery), previewLoaded)
		v.check("customize", previewLoaded)

		// Typing a title reloads the preview with it; a colour that fails
		// AA is named at once.
		run(chromedp.SendKeys(`#title`, "Live title", chromedp.ByQuery))
		var src string
		eval(`new Promise(r => { const f = document.getElementById("preview"); f.addEventListener("load", () => r(f.src), {once: true}); })`, &src)
		if !strings.Contains(src, "title=Live+title") || !strings.Contains(src, "v=1") {
			t.Fatalf("preview after typing: %s", src)
		}
		var warning string
		eval(`(() => { const c = document.getElementById("primary_light"); c.value = "#ffff00"; c.dispatchEvent(new Event("input", {bubbles: true})); return document.getElementById("contrast").textContent; })()`, &warning)
		if !strings.Contains(warning, "light theme (#ffff00) has a contrast of 1.0:1") {
			t.Fatalf("contrast warning %q", warning)
		}
		eval(`new Promise(r => { const f = document.getElementById("preview"); f.addEventListener("load", () => r(f.src), {once: true}); })`, &src)
		if !strings.Contains(src, "primary_light=%23ffff00") {
			t.Fatalf("preview after the colour: %s", src)
		}
		v.check("customize-warning", previewLoaded)
		// Saving keeps them, and the page says so.
		run(chromedp.Click(`#customize-form button[type="submit"]`, chromedp.ByQuery), chromedp.WaitVisible(`p[role="status"]`, chromedp.ByQuery))
		doc = customization(t, s, admin, org, site)
		if doc["title"] != "Live title" || docAt(doc, "styling", "primaryColor", "light") != "#ffff00" {
			t.Fatalf("saved %v %v", doc["title"], docAt(doc, "styling", "primaryColor"))
		}

		run(chromedp.Navigate(s.URL+"/o/"+org+"/settings"), chromedp.WaitVisible(`form.settings`, chromedp.ByQuery))
		v.check("orgsettings")

		// PDF export: the page shows the running job, then the link.
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		p := &fakePrinter{gate: make(chan struct{})}
		s.App.SetPrinter(p)
		run(chromedp.Navigate(s.URL+"/s/"+sp+"/~/pdf"), chromedp.WaitVisible(`#pdf-start button`, chromedp.ByQuery))
		v.check("pdf")
		run(chromedp.Click(`#pdf-start button`, chromedp.ByQuery), chromedp.WaitVisible(`#pdf-progress`, chromedp.ByQuery))
		v.check("pdf-pending")
		close(p.gate)
		run(chromedp.WaitVisible(`#pdf-download a`, chromedp.ByQuery))
		var href string
		eval(`document.querySelector("#pdf-download a").getAttribute("href")`, &href)
		if !strings.Contains(href, "format=pdf") {
			t.Fatalf("download link %q", href)
		}
		v.check("pdf-done")
	})
}
