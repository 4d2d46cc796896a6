package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestNewSpaceInBrowser opens "New space" on the organization's page,
// creates a space in a collection with the keyboard-usable form, lands on
// it, adds its first page with "New page", then sees it locked: "Edit in a
// change request" in place of Edit. It checks the views (org-newspace,
// space-new, space-locked) as views.check does.
func TestNewSpaceInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleCreate)
		var col struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}).WantStatus(t, 201).JSON(t, &col)
		space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		v := newViews(t, ctx, s.Store)
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, u.Email))

		run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.WaitVisible(`.new-space > summary`, chromedp.ByQuery),
			chromedp.Click(`.new-space > summary`, chromedp.ByQuery), chromedp.WaitVisible(`#space-title`, chromedp.ByQuery))
		v.check("org-newspace")
		run(chromedp.SendKeys(`#space-title`, "Runbooks", chromedp.ByQuery),
			chromedp.SetValue(`#space-parent`, col.ID, chromedp.ByQuery),
			chromedp.Click(`.new-space button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#new-title`, chromedp.ByQuery))
		var h1, loc string
		run(chromedp.Text(`main h1`, &h1, chromedp.ByQuery), chromedp.Location(&loc))
		if h1 != "Runbooks" || !strings.Contains(loc, "/s/") {
			t.Fatalf("after New space: %q at %s", h1, loc)
		}
		v.check("space-new")
		run(chromedp.SendKeys(`#new-title`, "First steps", chromedp.ByQuery), chromedp.Click(`form.new-page button`, chromedp.ByQuery),
			chromedp.WaitVisible(`//article[contains(@class,"doc")]/h1[contains(., "First steps")]`))
		spaceID := strings.Split(strings.TrimPrefix(loc, s.URL+"/s/"), "/")[0]
		l, err := s.App.GetSpace(t.Context(), folio.Caller{UserID: u.ID}, spaceID)
		if err != nil || l.Parent != col.ID || l.Title != "Runbooks" {
			t.Fatalf("the new space %+v, %v", l, err)
		}

		// Locked: a change request in place of Edit, opened at once.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		run(chromedp.Reload(), chromedp.WaitVisible(`#cr-subject`, chromedp.ByQuery))
		var edits int
		run(chromedp.Evaluate(`[...document.querySelectorAll("a")].filter(a => a.textContent === "Edit").length + document.querySelectorAll("#new-title, #rename-title").length`, &edits))
		if edits != 0 {
			t.Fatalf("a locked space offers %d direct edit controls", edits)
		}
		v.check("space-locked")
	})
}
