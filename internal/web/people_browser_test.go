package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestPeopleInBrowser: an administrator creates an invite link on the
// members page; a person from another organization opens it in a second
// browser (its own cookies), signs in, joins and edits a page;
// the administrator changes their role, then removes them, which ends
// their session. The members, join, teams, team, permissions, trash,
// new collection, collection permissions and tokens views are checked as
// views.check does (360, 768, 1280 px, both themes, no sideways scroll,
// axe-core).
func TestPeopleInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, tok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		member(t, s, org, folio.RoleRead)
		newcomer := outsider(t, s)
		sp := space(t, s, org, tok, "Handbook", "# Welcome\n\nHello, writers.\n")
		bg := context.Background()
		ac := folio.Caller{UserID: admin.ID}
		team, err := s.App.CreateTeam(bg, ac, org, "Writers", []string{editor.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.App.SetGrant(bg, ac, folio.TargetSpace, sp, folio.PrincipalTeam, team.ID, folio.Some("edit")); err != nil {
			t.Fatal(err)
		}
		old := space(t, s, org, tok, "Old notes", "")
		if err := s.App.DeleteSpace(bg, ac, old); err != nil {
			t.Fatal(err)
		}

		run := func(ctx context.Context, actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		text := func(ctx context.Context, sel string) string {
			t.Helper()
			var s string
			run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery))
			return s
		}
		signInAs := func(ctx context.Context, email string) {
			t.Helper()
			run(ctx, chromedp.WaitVisible(`#email`, chromedp.ByQuery), chromedp.SendKeys(`#email`, email, chromedp.ByQuery),
				chromedp.SendKeys(`#password`, password, chromedp.ByQuery), chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery))
		}
		v := newViews(t, ctx, s.Store)

		// The administrator makes an invite link for the edit role.
		run(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+"/signin?next="+url.QueryEscape("/o/"+org+"/members")))
		signInAs(ctx, admin.Email)
		run(ctx, chromedp.WaitVisible(`#members-heading`, chromedp.ByQuery),
			chromedp.SetValue(`#invite-role`, "edit", chromedp.ByQuery),
			chromedp.Click(`//button[.="Create invite link"]`), chromedp.WaitVisible(`.new-link input.invite-url`, chromedp.ByQuery))
		var link string
		run(ctx, chromedp.Value(`.new-link input.invite-url`, &link, chromedp.ByQuery))
		if !strings.Contains(link, "/join/"+org+"/") {
			t.Fatalf("invite link %q", link)
		}
		// The copy button shows once the script runs.
		run(ctx, chromedp.WaitVisible(`.new-link button[data-copy]`, chromedp.ByQuery))
		v.check("members")

		// Another person, in a second browser with its own cookies (a new
		// browser context of the same Chromium fails to open a tab in
		// headless mode: "no browser is open").
		pctx := startBrowser(t)
		join := link[strings.Index(link, "/join/"):]
		run(pctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+join), chromedp.WaitVisible(`//a[.="Sign in to join"]`))
		run(pctx, chromedp.Click(`//a[.="Sign in to join"]`))
		signInAs(pctx, newcomer.Email)
		run(pctx, chromedp.WaitVisible(`//button[.="Join the organization"]`))
		if body := text(pctx, "main"); !strings.Contains(body, newcomer.Email) {
			t.Fatalf("join page %q", body)
		}
		pv := newViews(t, pctx, s.Store)
		pv.check("join")
		run(pctx, chromedp.Click(`//button[.="Join the organization"]`), chromedp.WaitVisible(`#spaces-heading`, chromedp.ByQuery))
		if got := roleOf(t, s, org, admin.ID, newcomer.ID); got != "edit" {
			t.Fatalf("the newcomer joined as %s", got)
		}
		// They edit a page.
		run(pctx, chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`.fe-content`, chromedp.ByQuery),
			chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		if err := chromedp.Run(pctx, chromedp.Poll(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Hello, writers." && $f.parentOffset === 15 })()`,
			nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("cursor at the end: %v", err)
		}
		run(pctx, chromedp.KeyEvent(" Welcome aboard."), chromedp.Click(`#editor-save`, chromedp.ByQuery))
		saved, cancelSave := context.WithTimeout(pctx, 30*time.Second)
		err = chromedp.Run(saved, chromedp.WaitVisible(`//div[@class="markdown"]/p[contains(., "Welcome aboard.")]`))
		cancelSave()
		if err != nil {
			t.Fatalf("the newcomer's edit was not saved: %v", err)
		}

		// The administrator makes them a reader, then removes them.
		row := `#member-` + newcomer.ID
		run(ctx, chromedp.Navigate(s.URL+"/o/"+org+"/members"), chromedp.WaitVisible(row, chromedp.ByQuery),
			chromedp.SetValue(row+` select[name="role"]`, "read", chromedp.ByQuery),
			chromedp.Click(row+` form[action$="/role"] button`, chromedp.ByQuery),
			chromedp.WaitVisible(`//p[@role="status"][contains(., "The role was changed.")]`))
		if got := roleOf(t, s, org, admin.ID, newcomer.ID); got != "read" {
			t.Fatalf("after the role change: %s", got)
		}
		if badge := text(ctx, row+" .person-name"); !strings.Contains(badge, "Read") {
			t.Fatalf("member row %q", badge)
		}
		run(ctx, chromedp.Click(row+` form[action$="/remove"] button`, chromedp.ByQuery),
			chromedp.WaitVisible(`//p[@role="status"][contains(., "The member was removed.")]`))
		if got := roleOf(t, s, org, admin.ID, newcomer.ID); got != "gone" {
			t.Fatalf("after removal: %s", got)
		}
		// Their session in this organization ended: its pages are gone.
		run(pctx, chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`h1`, chromedp.ByQuery))
		if h := text(pctx, "h1"); h != "Not found" {
			t.Fatalf("a removed member opens the space: %q", h)
		}

		// The other views.
		run(ctx, chromedp.Navigate(s.URL+"/o/"+org+"/teams"), chromedp.WaitVisible(`#teams-heading`, chromedp.ByQuery))
		v.check("teams")
		run(ctx, chromedp.Click(`//a[contains(., "Writers")]`), chromedp.WaitVisible(`#tm-heading`, chromedp.ByQuery))
		v.check("team")
		run(ctx, chromedp.Navigate(s.URL+"/s/"+sp), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//nav[@class="space-tabs"]/a[.="Permissions"]`), chromedp.WaitVisible(`#access-heading`, chromedp.ByQuery))
		v.check("permissions")
		run(ctx, chromedp.Navigate(s.URL+"/o/"+org+"/trash"), chromedp.WaitVisible(`//button[contains(., "Restore")]`))
		v.check("trash")
		run(ctx, chromedp.Click(`//button[contains(., "Restore")]`), chromedp.WaitVisible(`nav.space-tabs`, chromedp.ByQuery))
		if _, err := s.App.GetSpace(bg, ac, old); err != nil {
			t.Fatalf("restored space: %v", err)
		}
		run(ctx, chromedp.Navigate(s.URL+"/o/"+org+"/collections/new"), chromedp.WaitVisible(`#col-title`, chromedp.ByQuery))
		v.check("collection-new")
		run(ctx, chromedp.SendKeys(`#col-title`, "Guides", chromedp.ByQuery), chromedp.Click(`//button[.="Create collection"]`),
			chromedp.WaitVisible(`//h1[.="Guides"]`), chromedp.Click(`//a[contains(., "Permissions, move and transfer")]`),
			chromedp.WaitVisible(`#access-heading`, chromedp.ByQuery))
		v.check("collection-permissions")
		run(ctx, chromedp.Navigate(s.URL+"/account/tokens"), chromedp.WaitVisible(`#token-label`, chromedp.ByQuery),
			chromedp.SendKeys(`#token-label`, "CI publishing", chromedp.ByQuery), chromedp.Click(`//button[.="Create token"]`),
			chromedp.WaitVisible(`#new-token`, chromedp.ByQuery), chromedp.WaitVisible(`button[data-copy="new-token"]`, chromedp.ByQuery))
		var secret string
		run(ctx, chromedp.Value(`#new-token`, &secret, chromedp.ByQuery))
		s.Do(t, secret, "GET", "/v1/user", nil).WantStatus(t, 200)
		v.check("tokens")
	})
}
