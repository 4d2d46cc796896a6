package app_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestServersShareOneDatabase runs two servers' worth of stores and apps on
// one database at once, as several "folio serve" processes on PostgreSQL
// (or, on one machine, on one SQLite file) would: migrations, the first
// admin, token revocation and the last-admin rule must hold across them.
func TestServersShareOneDatabase(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			cfg := storetest.Location(t, kind, store.Config{})
			dbs := make([]*store.DB, 2)
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i := range dbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					dbs[i], errs[i] = store.Open(ctx, cfg) // both migrate at once
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("server %d: open: %v", i, err)
				}
				t.Cleanup(func() { dbs[i].Close() })
			}
			ttl := 50 * time.Millisecond
			apps := []*app.App{app.New(app.Config{DB: dbs[0], TokenCacheTTL: ttl}), app.New(app.Config{DB: dbs[1], TokenCacheTTL: ttl})}

			// Both bootstrap an empty database at once: exactly one wins.
			results := make([]*app.Bootstrap, 2)
			for i, a := range apps {
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[i], errs[i] = a.Init(ctx, app.InitInput{Email: "first@example.com"})
				}()
			}
			wg.Wait()
			won := 0
			var boot *app.Bootstrap
			for i, err := range errs {
				switch {
				case err == nil:
					won++
					boot = results[i]
				case errors.Is(err, app.ErrNotEmpty):
				default:
					t.Fatalf("server %d: init: %v", i, err)
				}
			}
			if won != 1 {
				t.Fatalf("%d servers created the first admin, want 1", won)
			}

			// A token made on one server works on the other, and its
			// revocation reaches the other within the cache TTL.
			admin, err := apps[1].Authenticate(ctx, boot.Token)
			if err != nil {
				t.Fatalf("server 2 refuses server 1's token: %v", err)
			}
			tok, secret, err := apps[0].CreateToken(ctx, admin, "shared")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := apps[1].Authenticate(ctx, secret); err != nil {
				t.Fatalf("new token refused on the other server: %v", err)
			}
			if err := apps[0].RevokeToken(ctx, admin, tok.ID); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * ttl)
			if _, err := apps[1].Authenticate(ctx, secret); folio.KindOf(err) != folio.Unauthenticated {
				t.Fatalf("revoked token still accepted after the TTL: %v", err)
			}

			// Two admins demote each other through different servers at once:
			// one demotion must fail, so an admin remains.
			org := boot.Organization.ID
			second, err := apps[0].CreateAccount(ctx, app.NewAccount{Email: "second@example.com", Organization: org, Role: folio.RoleAdmin})
			if err != nil {
				t.Fatal(err)
			}
			secondCaller, _ := apps[1].Authenticate(ctx, second.Token)
			for round := range 10 {
				wg.Add(2)
				go func() {
					defer wg.Done()
					_, errs[0] = apps[0].UpdateMemberRole(ctx, admin, org, second.User.ID, folio.Some("read"))
				}()
				go func() {
					defer wg.Done()
					_, errs[1] = apps[1].UpdateMemberRole(ctx, secondCaller, org, admin.UserID, folio.Some("read"))
				}()
				wg.Wait()
				var admins int
				err = dbs[0].Read(ctx, func(tx *store.Tx) (err error) { admins, err = store.CountAdmins(ctx, tx, org); return err })
				if err != nil {
					t.Fatal(err)
				}
				if admins < 1 {
					t.Fatalf("round %d: no admin left (%v, %v)", round, errs[0], errs[1])
				}
				// Make both admins again for the next round, through the one
				// whose demotion of the other succeeded.
				if admins == 1 {
					restorer := admin
					if errs[1] == nil {
						restorer = secondCaller
					}
					if _, err := apps[0].UpdateMemberRole(ctx, restorer, org, admin.UserID, folio.Some("admin")); err != nil {
						t.Fatal(err)
					}
					if _, err := apps[0].UpdateMemberRole(ctx, restorer, org, second.User.ID, folio.Some("admin")); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}
