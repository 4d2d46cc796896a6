package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// TestSSOPageInBrowser opens the single sign-on page of an organization
// with a SAML and an OpenID Connect provider in Chromium: the copy buttons
// appear (the script shows them) and copy, the add form opens; each view
// is checked as views.check does (screenshots, no sideways scroll, axe).
func TestSSOPageInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		b := signIn(t, s, admin.Email)
		idp := ssotest.NewOIDC(t)
		addOIDCProvider(t, s, b, org, idp, "Acme ID")
		b.post(t, "/o/"+org+"/sso/saml", url.Values{"label": {"Okta"}, "entityID": {"https://idp.example.com/metadata"},
			"ssoURL": {"https://idp.example.com/sso"}, "certificate": {""}, "defaultRole": {"read"}}).redirect(t, "/o/"+org+"/sso?saved=added")

		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		v := newViews(t, ctx, s.Store)
		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, admin.Email))
		run(chromedp.Navigate(s.URL+"/o/"+org+"/sso"), chromedp.WaitVisible(`#oidc-heading`, chromedp.ByQuery),
			chromedp.WaitVisible(`button.copy`, chromedp.ByQuery))
		var visible int
		run(chromedp.Evaluate(`[...document.querySelectorAll("button.copy")].filter(b => !b.hidden).length`, &visible))
		if visible != 4 {
			t.Fatalf("%d copy buttons shown, want 4 (a redirect URL, an ACS URL, an entity ID, a metadata URL)", visible)
		}
		v.check("sso")
		// The button says whether the copy worked (headless Chromium may
		// refuse the clipboard: then the text is selected instead).
		var label string
		run(chromedp.Click(`button.copy`, chromedp.ByQuery),
			chromedp.Poll(`["Copied", "Select and copy"].includes(document.querySelector("button.copy").textContent)`, nil,
				chromedp.WithPollingTimeout(1500*time.Millisecond)),
			chromedp.Text(`button.copy`, &label, chromedp.ByQuery))
		if label != "Copied" && label != "Select and copy" {
			t.Fatalf("the copy button says %q after a click", label)
		}
		run(chromedp.Click(`section[aria-labelledby="oidc-heading"] > details > summary`, chromedp.ByQuery),
			chromedp.WaitVisible(`#oidc-new-issuer`, chromedp.ByQuery))
		v.check("sso-add")
		var main string
		run(chromedp.Text(`main`, &main, chromedp.ByQuery))
		if strings.Contains(main, idp.ClientSecret) {
			t.Fatal("the page shows the client secret")
		}
	})
}
