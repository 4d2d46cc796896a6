package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestCustomImagesCollected: a collection removes the customization
// images nothing names once they are older than the grace period, and
// keeps those a site's customization or the organization's logo names,
// and a fresh upload not yet named.
func TestCustomImagesCollected(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			c := newGCCluster(t, kind, 1, 10*time.Minute)
			a := c.apps[0]
			site, err := a.CreateSite(ctx, c.admin, c.org, folio.NewSite{Title: "Docs"})
			if err != nil {
				t.Fatal(err)
			}
			upload := func(n int, siteID string) string {
				t.Helper()
				u, err := a.AddCustomImage(ctx, c.admin, c.org, siteID, "logo", pngOf(t, n))
				if err != nil {
					t.Fatal(err)
				}
				return u
			}
			logo, siteLogo, gone := upload(1, ""), upload(2, site.ID), upload(3, site.ID)
			if _, err := a.UpdateOrganization(ctx, c.admin, c.org, &folio.OrganizationUpdate{Logo: folio.Some(logo)}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.UpdateSiteCustomization(ctx, c.admin, c.org, site.ID, map[string]any{
				"header": map[string]any{"logo": map[string]any{"light": siteLogo, "dark": siteLogo}}}); err != nil {
				t.Fatal(err)
			}
			c.ageBlobs(t, time.Hour)
			fresh := upload(4, site.ID)
			r, err := a.CollectGarbage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.DeletedAssets != 1 {
				t.Errorf("deleted %d assets, want the one image nothing names", r.DeletedAssets)
			}
			for u, want := range map[string]bool{logo: true, siteLogo: true, gone: false, fresh: true} {
				name := u[strings.LastIndex(u, "/")+1:]
				rd, _, err := a.OpenCustomImage(ctx, name)
				if got := err == nil; got != want {
					t.Errorf("%s: kept %v, want %v (%v)", u, got, want, err)
				}
				if rd != nil {
					rd.Close()
				}
			}
			// The same bytes uploaded again are written again, and kept.
			if again := upload(3, site.ID); again != gone {
				t.Fatalf("same bytes, another URL: %s %s", again, gone)
			}
			if rd, _, err := a.OpenCustomImage(ctx, gone[strings.LastIndex(gone, "/")+1:]); err != nil {
				t.Fatalf("uploaded again: %v", err)
			} else {
				rd.Close()
			}
		})
	}
}
