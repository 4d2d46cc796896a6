package app

import (
	"context"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestUserOnlyOperationsRefuseTokensWithoutAUser: the operations that act
// as the caller's user answer Forbidden to a site API token and to an
// installation token, whatever route reaches them, and write nothing (no
// organization, no token, no membership).
func TestUserOnlyOperationsRefuseTokensWithoutAUser(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			a := New(Config{DB: storetest.Open(t, kind, store.Config{})})
			acc, err := a.CreateAccount(ctx, NewAccount{Email: "ada@example.com", Name: "Ada"})
			if err != nil {
				t.Fatal(err)
			}
			user := folio.Caller{UserID: acc.User.ID}
			org, err := a.CreateOrganization(ctx, user, folio.NewOrganization{Title: "Acme"})
			if err != nil {
				t.Fatal(err)
			}
			// What the refused calls could change, as the user sees it.
			count := func() (orgs, tokens int) {
				o, err := a.ListOrganizations(ctx, user, folio.ListOptions{Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				tk, err := a.ListTokens(ctx, user, folio.ListOptions{Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				return o.Count, tk.Count
			}
			toks, err := a.ListTokens(ctx, user, folio.ListOptions{Limit: 1})
			if err != nil || len(toks.Items) != 1 {
				t.Fatalf("tokens %+v, %v", toks, err)
			}
			tokenID := toks.Items[0].ID
			orgs, tokens := count()
			callers := map[string]folio.Caller{
				"site": {Site: &folio.SiteGrant{Org: org.ID, Site: folio.NewID()}},
				"installation": {Installation: &folio.InstallationGrant{Org: org.ID, Installation: folio.NewID(),
					Integration: "bot", Scopes: folio.IntegrationScopes}},
				// A user id beside a grant does not make it a user's token.
				"installation with a user id": {UserID: acc.User.ID, Installation: &folio.InstallationGrant{Org: org.ID,
					Installation: folio.NewID(), Integration: "bot", Scopes: folio.IntegrationScopes}},
			}
			for name, c := range callers {
				for op, call := range map[string]func() error{
					"GetAuthenticatedUser": func() error { _, err := a.GetAuthenticatedUser(ctx, c); return err },
					"ListTokens":           func() error { _, err := a.ListTokens(ctx, c, folio.ListOptions{Limit: 10}); return err },
					"CreateToken":          func() error { _, _, err := a.CreateToken(ctx, c, "mine"); return err },
					"RevokeToken":          func() error { return a.RevokeToken(ctx, c, tokenID) },
					"ListOrganizations":    func() error { _, err := a.ListOrganizations(ctx, c, folio.ListOptions{Limit: 10}); return err },
					"CreateOrganization": func() error {
						_, err := a.CreateOrganization(ctx, c, folio.NewOrganization{Title: "Theirs"})
						return err
					},
					"JoinOrganization":   func() error { return a.JoinOrganization(ctx, c, org.ID) },
					"Ping":               func() error { _, err := a.Ping(ctx, c, org.ID); return err },
					"JoinWithInviteLink": func() error { return a.JoinWithInviteLink(ctx, c, org.ID, folio.NewID()) },
				} {
					err := call()
					if folio.KindOf(err) != folio.Forbidden || folio.MessageOf(err) != "this operation needs a user's API token" {
						t.Errorf("%s as %s: %v, want Forbidden", op, name, err)
					}
				}
			}
			if o, tk := count(); o != orgs || tk != tokens {
				t.Fatalf("refused calls wrote: organizations %d → %d, tokens %d → %d", orgs, o, tokens, tk)
			}
			if _, err := a.GetAuthenticatedUser(ctx, user); err != nil {
				t.Fatalf("the user's own call: %v", err)
			}
		})
	}
}
