package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// TestExtendInBrowser: in Chromium, an administrator connects a space to a
// git repository served over HTTP on loopback, imports it while the
// progress element updates without a reload, and finds the sync in the
// audit log; every page of the area (git sync, OpenAPI, translations,
// integrations, webhooks, audit log) is checked as views.check does.
func TestExtendInBrowser(t *testing.T) {
	repo := gitRepo(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Start\n\nHello.\n")
		u, _ := member(t, s, org, folio.RoleAdmin)
		caller := folio.Caller{UserID: u.ID}
		bg := context.Background()

		// Something on each page: a specification, a translation, an
		// installed integration, a webhook with a delivery.
		text := petstore
		if _, err := s.App.CreateOpenAPISpec(bg, caller, org, app.OpenAPISpecInput{Slug: "pets", Source: &app.OpenAPISource{Text: &text}}); err != nil {
			t.Fatal(err)
		}
		tr, err := s.App.CreateTranslation(bg, caller, org, app.TranslationInput{Language: "fr", Source: &app.TranslationSourceInput{Space: sp, Language: "en"}})
		if err != nil {
			t.Fatal(err)
		}
		s.Do(t, admin, "POST", "/v1/integrations/web-hello", map[string]any{"runtime": "v2", "title": "Hello", "description": "Says hello",
			"scopes": []string{"space:content:read"}, "organization": org, "previewImages": []string{}, "target": "all", "visibility": "public",
			"script": "export default {fetch: async () => new Response('hi')};"}).WantStatus(t, 200)
		if _, err := s.App.InstallIntegration(bg, caller, "web-hello", org); err != nil {
			t.Fatal(err)
		}
		rc := newReceiver(t)
		hookURL, events := rc.srv.URL, []string{"*"}
		hook, _, err := s.App.CreateWebhook(bg, caller, org, app.WebhookInput{URL: &hookURL, Events: &events})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.TestWebhook(bg, caller, org, hook.ID); err != nil {
			t.Fatal(err)
		}
		runJobs(t, s)

		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		textOf := func(sel string) string {
			t.Helper()
			var s string
			run(chromedp.Text(sel, &s, chromedp.ByQuery))
			return s
		}
		v := newViews(t, ctx, s.Store)

		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, u.Email))

		// The space's Git sync tab: connect and import.
		run(chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//nav[@class="space-tabs"]/a[.="Git sync"]`), chromedp.WaitVisible(`#git-url`, chromedp.ByQuery))
		v.check("gitsync-connect")
		run(chromedp.SendKeys(`#git-url`, repo, chromedp.ByQuery), chromedp.SetValue(`#git-branch`, "main", chromedp.ByQuery),
			chromedp.SendKeys(`#git-dir`, "docs", chromedp.ByQuery), chromedp.SendKeys(`#git-user`, "alice", chromedp.ByQuery),
			chromedp.SendKeys(`#git-pass`, "s3cret-pass", chromedp.ByQuery),
			chromedp.Click(`button[value="import"]`, chromedp.ByQuery), chromedp.WaitVisible(`.progress`, chromedp.ByQuery))
		if got := textOf(".progress-text"); got != "Import queued: waiting for its turn." {
			t.Fatalf("progress after queuing: %q", got)
		}
		v.check("gitsync-queued")
		// The page is not reloaded while the job runs: a mark set on it stays.
		var ignored any
		run(chromedp.Evaluate(`window.folioMark = "same page"`, &ignored))
		runJobs(t, s)
		wait, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Run(wait, chromedp.WaitVisible(`//p[@class="progress-text"][starts-with(., "Import done")]`)); err != nil {
			var dbg string
			run(chromedp.Evaluate(`[...document.scripts].map(s => s.src).join(" ") + " | " + document.querySelector(".progress").outerHTML`, &dbg))
			t.Fatalf("the progress did not update: %v (shows %q); %s", err, textOf(".progress-text"), dbg)
		}
		var mark string
		run(chromedp.Evaluate(`window.folioMark || ""`, &mark))
		if mark != "same page" {
			t.Fatal("the page reloaded to show the progress")
		}
		var state string
		run(chromedp.AttributeValue(`.progress`, "data-state", &state, nil, chromedp.ByQuery))
		if state != "success" {
			t.Fatalf("progress state %q", state)
		}
		// The section's heading and its link say the sync is over.
		if h, link := textOf("#op-heading"), textOf(".progress-refresh"); h != "Last sync" || link != "Refresh the page to see what it changed." {
			t.Fatalf("after the sync ended without a reload: heading %q, link %q", h, link)
		}
		// A reload shows the last result.
		run(chromedp.Reload(), chromedp.WaitVisible(`//h2[.="Last sync"]`))
		if got := textOf(".progress-text"); !strings.HasPrefix(got, "Import done") {
			t.Fatalf("after a reload: %q", got)
		}
		if got := titles(t, s, admin, sp); got != "Welcome from git,Guide" {
			t.Fatalf("pages after the import: %s", got)
		}
		v.check("gitsync-done")
		// The credentials are saved, sealed: the page says so (never what
		// they are) and forgets them on request.
		if got := textOf("dl.facts"); !strings.Contains(got, "Credentials saved (sealed)") || strings.Contains(got, "alice") {
			t.Fatalf("repository facts %q", got)
		}
		if got := textOf("#git-creds-hint"); !strings.Contains(got, "leave empty to keep the saved credentials") {
			t.Fatalf("credentials hint %q", got)
		}
		run(chromedp.Click(`//button[.="Forget the saved credentials"]`), chromedp.WaitVisible(`//p[@role="status"][starts-with(., "The saved credentials are forgotten")]`))
		if got := textOf("dl.facts"); !strings.Contains(got, "none saved") {
			t.Fatalf("repository facts after forgetting %q", got)
		}
		v.check("gitsync-forgotten")

		// The audit log names the sync.
		run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.Click(`//nav[@id="org-nav"]//a[.="Audit log"]`),
			chromedp.WaitVisible(`//h1[.="Audit log"]`))
		if log := textOf("ol.audit"); !strings.Contains(log, "space.git_sync_import") || !strings.Contains(log, u.DisplayName) {
			t.Fatalf("audit log %q", log)
		}
		v.check("audit")

		// Every other page of the area.
		for _, pg := range []struct{ name, path, heading string }{
			{"openapi", "/o/" + org + "/openapi", "OpenAPI specifications"},
			{"openapi-spec", "/o/" + org + "/openapi/pets", "pets"},
			{"translations", "/o/" + org + "/translations", "Translations"},
			{"translation", "/o/" + org + "/translations/" + tr.ID, "Handbook: en → fr"},
			{"integrations", "/o/" + org + "/integrations", "Integrations"},
			{"integration", "/o/" + org + "/integrations/web-hello", "Hello"},
			{"webhooks", "/o/" + org + "/webhooks", "Webhooks"},
			{"webhook", "/o/" + org + "/webhooks/" + hook.ID, "Webhook " + hookURL},
		} {
			run(chromedp.Navigate(s.URL+pg.path), chromedp.WaitVisible(`h1`, chromedp.ByQuery))
			if h := textOf("h1"); h != pg.heading {
				t.Fatalf("%s shows %q", pg.path, h)
			}
			v.check(pg.name)
		}
	})
}
