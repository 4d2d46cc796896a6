package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestAppInBrowser signs in with a password in Chromium, browses from home
// to a space and a page, creates a page with the "New page" form, opens
// the change requests and history, and checks each view (sign-in, home,
// search, account, a space page, its page menu, change requests, a change
// request, history) as views.check does: screenshots at 360, 768 and
// 1280 px in both themes, no sideways scroll, axe-core.
func TestAppInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		md := "# Getting started\n\nWelcome to the **handbook**. Read [the FAQ](https://example.com/faq).\n\n" +
			"## Install\n\n1. Download\n2. Run `folio serve`\n\n" +
			"{% hint style=\"info\" %}\nThe first admin gets a sign-in link.\n{% endhint %}\n\n" +
			"| Role | May |\n| --- | --- |\n| read | read |\n| edit | write pages |\n\n" +
			"```go\nfunc main() { println(\"hello\") }\n```\n"
		sp := space(t, s, org, admin, "Handbook", md)
		var cr struct{ Number int }
		s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Describe the roles"}).WantStatus(t, 201).JSON(t, &cr)
		c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: u.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(strings.Replace(md, "| edit | write pages |", "| edit | write and move pages |", 1),
			"Welcome to the", "Welcome, writer, to the", 1)
		s.Do(t, admin, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content/page/%s/import", sp, cr.Number, c.Tree.Pages[0].ID),
			map[string]any{"source": "markdown", "url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(edited))}).WantStatus(t, 201)
		s.Do(t, admin, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/%d/comments", sp, cr.Number),
			map[string]any{"body": map[string]any{"markdown": "Please also mention reviewers."}}).WantStatus(t, 200)

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
		shots := v.check

		// Signed out, the root URL is the sign-in page.
		run(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+"/"), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
		if h := text("h1"); h != "Sign in to Folio" {
			t.Fatalf("root URL signed out shows %q", h)
		}
		shots("signin")
		run(chromedp.SendKeys(`#email`, u.Email, chromedp.ByQuery), chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
			chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery), chromedp.WaitVisible(`#orgs-heading`, chromedp.ByQuery))
		if h := text("h1"); h != "Home" {
			t.Fatalf("after sign-in: %q", h)
		}
		shots("home")
		run(chromedp.Navigate(s.URL+"/o/"+org+"?q=handbook"), chromedp.WaitVisible(`#results-heading`, chromedp.ByQuery))
		if r := text("main"); !strings.Contains(r, "Getting started") {
			t.Fatalf("search results %q", r)
		}
		shots("search")
		run(chromedp.Navigate(s.URL+"/account"), chromedp.WaitVisible(`#pw-heading`, chromedp.ByQuery))
		shots("account")
		run(chromedp.Navigate(s.URL + "/"))

		run(chromedp.Click(`a[href="/s/`+sp+`"]`, chromedp.ByQuery), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery))
		if h := text("article.doc h1"); h != "Getting started" {
			t.Fatalf("space shows %q", h)
		}
		if body := text(".markdown"); !strings.Contains(body, "write pages") || !strings.Contains(body, "println") {
			t.Fatalf("page body %q", body)
		}
		shots("space")

		// The keyboard-usable page menu opens, and New page creates a page.
		run(chromedp.Click(`details.menu > summary`, chromedp.ByQuery), chromedp.WaitVisible(`#rename-title`, chromedp.ByQuery))
		shots("page-menu")
		run(chromedp.SendKeys(`#new-title`, "Release notes", chromedp.ByQuery),
			chromedp.Click(`form.new-page button`, chromedp.ByQuery),
			chromedp.WaitVisible(`//article[contains(@class,"doc")]/h1[contains(., "Release notes")]`))
		if cur := text(`.sidebar a[aria-current="page"]`); cur != "Release notes" {
			t.Fatalf("current page in the tree: %q", cur)
		}

		run(chromedp.Click(`//nav[@class="space-tabs"]/a[.="Change requests"]`), chromedp.WaitVisible(`.statuses`, chromedp.ByQuery))
		shots("changes")
		run(chromedp.Click(`//a[contains(., "Describe the roles")]`), chromedp.WaitVisible(`//h1[contains(., "Describe the roles")]`))
		if d := text(".diff"); !strings.Contains(d, "write and move pages") || !strings.Contains(d, "Welcome, writer") {
			t.Fatalf("diff %q", d)
		}
		if c := text("article.comment"); !strings.Contains(c, "Please also mention reviewers.") {
			t.Fatalf("change request comment %q", c)
		}
		shots("changerequest")
		run(chromedp.Click(`//nav[@class="space-tabs"]/a[.="History"]`), chromedp.WaitVisible(`//h1[.="History"]`))
		if h := text("ol.list"); !strings.Contains(h, u.DisplayName) {
			t.Fatalf("history %q lacks the author", h)
		}
		shots("history")

		run(chromedp.Click(`.account button`, chromedp.ByQuery), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
	})
}
