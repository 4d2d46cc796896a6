package web_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestSitesInBrowser: an administrator creates a site from two spaces in
// Chromium, adds two sections, publishes it, makes it a share-link site,
// creates a share link (the reader answers its URL) and revokes it (the
// reader refuses it at once); the sites list and the site's page are
// checked as views.check does (360, 768 and 1280 px, both themes, no
// sideways scroll, axe-core).
func TestSitesInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		guide := space(t, s, org, admin, "Guide", "# Getting started\n\nWelcome, partners.\n")
		api := space(t, s, org, admin, "API reference", "# Calls\n\nEvery call.\n")
		faq := space(t, s, org, admin, "FAQ", "# Questions\n\nAnswers.\n")
		changelog := space(t, s, org, admin, "Changelog", "# Releases\n\nNew things.\n")
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
		// readerStatus asks the reader for a published URL over HTTP.
		readerStatus := func(published string) (int, string) {
			t.Helper()
			resp, err := http.Get(s.URL + strings.TrimPrefix(published, apitest.PublicURL))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		v := newViews(t, ctx, s.Store)

		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, u.Email))
		run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.Click(`//nav[@id="org-nav"]//a[.="Sites"]`), chromedp.WaitVisible(`#site-title`, chromedp.ByQuery))

		// Create a site from two spaces.
		run(chromedp.SendKeys(`#site-title`, "Partner docs", chromedp.ByQuery),
			chromedp.Click(`input[name="space"][value="`+guide+`"]`, chromedp.ByQuery),
			chromedp.Click(`input[name="space"][value="`+api+`"]`, chromedp.ByQuery),
			chromedp.Click(`//button[.="Create site"]`),
			chromedp.WaitVisible(`//h1[.="Partner docs"]`))
		if got := text("#structure .site-tree"); !strings.Contains(got, "Guide") || !strings.Contains(got, "API reference") {
			t.Fatalf("new site's structure %q", got)
		}
		// Two sections.
		for _, sec := range []struct{ space, title string }{{faq, "Help"}, {changelog, "News"}} {
			run(chromedp.SetValue(`#add-section-space`, sec.space, chromedp.ByQuery),
				chromedp.SendKeys(`#add-section-title`, sec.title, chromedp.ByQuery),
				chromedp.Click(`//button[.="Add section"]`),
				chromedp.WaitVisible(`//p[@role="status"][contains(., "The section was added.")]`),
				chromedp.WaitVisible(`//strong[.="`+sec.title+`"]`))
		}
		if got := structureOf(t, s, u.ID, org, siteIDOf(t, s, u.ID, org)); got != "Guide*[Guide*,API reference] Help[FAQ*] News[Changelog*]" {
			t.Fatalf("structure %s", got)
		}
		// Drag and drop (synthetic drag events): News onto the top half of
		// Help moves it before Help.
		id := siteIDOf(t, s, u.ID, org)
		it := items(t, s, u.ID, org, id)
		run(chromedp.Evaluate(`(() => {
			const from = document.getElementById("item-`+it["section News"][1]+`"), to = document.getElementById("item-`+it["section Help"][1]+`");
			const dt = new DataTransfer(), r = to.querySelector(".site-item-head").getBoundingClientRect();
			const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: r.left + 5, clientY: r.top + 2};
			from.dispatchEvent(new DragEvent("dragstart", at));
			to.dispatchEvent(new DragEvent("dragover", at));
			to.dispatchEvent(new DragEvent("drop", at));
		})()`, nil), chromedp.WaitVisible(`//p[@role="status"][.="Moved."]`))
		if got := structureOf(t, s, u.ID, org, id); got != "Guide*[Guide*,API reference] News[Changelog*] Help[FAQ*]" {
			t.Fatalf("after drag and drop: %s", got)
		}
		// Publish it, as a share-link site.
		run(chromedp.Click(`//button[.="Publish"]`), chromedp.WaitVisible(`//p[@role="status"][contains(., "The site is published.")]`))
		run(chromedp.Click(`input[name="visibility"][value="share-link"]`, chromedp.ByQuery), chromedp.Click(`//button[.="Save visibility"]`),
			chromedp.WaitVisible(`#link-name`, chromedp.ByQuery))
		run(chromedp.SendKeys(`#link-name`, "Partners", chromedp.ByQuery), chromedp.Click(`//button[.="Create share link"]`),
			chromedp.WaitVisible(`.share-links code`, chromedp.ByQuery))
		shared := text(".share-links code")
		if !strings.Contains(shared, "?shareKey=") {
			t.Fatalf("share link URL %q", shared)
		}
		// The Copy button shows once the script runs.
		var copyShown bool
		run(chromedp.Evaluate(`!document.querySelector(".share-links button.copy").hidden`, &copyShown))
		if !copyShown {
			t.Fatal("the Copy button stays hidden")
		}
		if st, body := readerStatus(shared); st != 200 || !strings.Contains(body, "Welcome, partners.") {
			t.Fatalf("the reader answers the shared URL %d:\n%s", st, body)
		}
		v.check("site")
		run(chromedp.Click(`details.item-menu > summary`, chromedp.ByQuery), chromedp.WaitVisible(`details.item-menu[open] .menu-body`, chromedp.ByQuery))
		v.check("site-item-menu", chromedp.Evaluate(`document.querySelector("details.item-menu").open = true`, nil))

		// Revoke it: the reader refuses the URL at once.
		run(chromedp.Click(`//form[contains(@action, "/revoke")]/button`), chromedp.WaitVisible(`//p[@role="status"][contains(., "revoked")]`))
		if st, _ := readerStatus(shared); st != 404 {
			t.Fatalf("the reader answers a revoked share link %d", st)
		}

		run(chromedp.Click(`//p[@class="crumbs"]/a[.="Sites"]`), chromedp.WaitVisible(`//h1[.="Sites"]`))
		if got := text(".sites-list"); !strings.Contains(got, "Partner docs") || !strings.Contains(got, "Published") {
			t.Fatalf("sites list %q", got)
		}
		v.check("sites")
	})
}

// siteIDOf is the id of the organization's only site.
func siteIDOf(t *testing.T, s *apitest.Server, user folio.ID, org string) string {
	t.Helper()
	l, err := s.App.ListSites(t.Context(), folio.Caller{UserID: user}, org, folio.SiteFilter{}, folio.ListOptions{Limit: 2})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("sites %v %v", l, err)
	}
	return l.Items[0].ID
}
