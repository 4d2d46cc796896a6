package app_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
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

// twoServers is two apps on one database, as two "folio serve" processes,
// with an admin and a space of two pages, A and B.
type twoServers struct {
	apps   [2]*app.App
	caller folio.Caller
	space  folio.ID
	pages  map[string]string // page id by title
}

func openTwoServers(t *testing.T, kind string) *twoServers {
	t.Helper()
	ctx := context.Background()
	cfg := storetest.Location(t, kind, store.Config{})
	var ts twoServers
	for i := range ts.apps {
		db, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		ts.apps[i] = app.New(app.Config{DB: db})
	}
	a := ts.apps[0]
	acc, err := a.CreateAccount(ctx, app.NewAccount{Email: "admin@example.com", Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	ts.caller = folio.Caller{UserID: acc.User.ID}
	org, err := a.CreateOrganization(ctx, ts.caller, folio.NewOrganization{Title: "Org"})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := a.CreateSpace(ctx, ts.caller, org.ID, folio.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	ts.space = sv.ID
	for _, title := range []string{"A", "B"} {
		if _, err := a.ImportContent(ctx, ts.caller, ts.space, "", markdownImport("# "+title+"\n\nfirst\n")); err != nil {
			t.Fatal(err)
		}
	}
	c, err := a.GetContent(ctx, ts.caller, ts.space, "")
	if err != nil {
		t.Fatal(err)
	}
	ts.pages = map[string]string{}
	for _, p := range c.Tree.Pages {
		ts.pages[p.Title] = p.ID
	}
	return &ts
}

// markdownImport is an import of a Markdown text given inline.
func markdownImport(md string) app.ImportInput {
	return app.ImportInput{Source: "markdown", URL: "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(md))}
}

// changeRequest makes a change request whose head replaces one page's text.
func (ts *twoServers) changeRequest(t *testing.T, title, text string) folio.ID {
	t.Helper()
	ctx := context.Background()
	v, err := ts.apps[0].CreateChangeRequest(ctx, ts.caller, ts.space, folio.NewChangeRequest{Subject: title})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.apps[0].ImportContentInChangeRequest(ctx, ts.caller, ts.space, v.ID, ts.pages[title], markdownImport("# "+title+"\n\n"+text+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

// text returns a page's Markdown in the space's current revision.
func (ts *twoServers) text(t *testing.T, title string) string {
	t.Helper()
	pc, err := ts.apps[1].GetPage(context.Background(), ts.caller, ts.space, "", ts.pages[title], "",
		folio.PageOptions{Format: folio.FormatMarkdown})
	if err != nil {
		t.Fatal(err)
	}
	return *pc.Markdown
}

// history returns the space's current revision and its first-parent
// ancestors, newest first.
func (ts *twoServers) history(t *testing.T) []folio.ID {
	t.Helper()
	var out []folio.ID
	var next folio.ID
	for {
		c, err := ts.apps[1].GetContent(context.Background(), ts.caller, ts.space, next)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c.Revision.ID)
		if len(c.Revision.Parents) == 0 {
			return out
		}
		next = c.Revision.Parents[0]
	}
}

// TestChangeRequestNumbersAcrossServers creates change requests in one
// space through two servers at once: each gets its own number, and the
// numbers run from 1 without a gap.
func TestChangeRequestNumbersAcrossServers(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ts := openTwoServers(t, kind)
			const n = 20
			numbers := make([]int, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					v, err := ts.apps[i%2].CreateChangeRequest(context.Background(), ts.caller, ts.space,
						folio.NewChangeRequest{Subject: fmt.Sprint(i)})
					if err != nil {
						errs[i] = err
						return
					}
					numbers[i] = int(v.Number)
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			slices.Sort(numbers)
			for i, got := range numbers {
				if got != i+1 {
					t.Fatalf("numbers %v, want 1..%d each once", numbers, n)
				}
			}
		})
	}
}

// TestSameChangeRequestMergedOnTwoServers merges one change request through
// both servers at once, round after round: one merge wins, the other is
// refused with Conflict, and the winner's revision is the space's current
// one, in its history with every earlier round's.
func TestSameChangeRequestMergedOnTwoServers(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ts := openTwoServers(t, kind)
			var winners []folio.ID
			for round := range 4 {
				text := fmt.Sprintf("round %d", round)
				cr := ts.changeRequest(t, "A", text)
				var wg sync.WaitGroup
				results := make([]*app.MergeResult, 2)
				errs := make([]error, 2)
				for i, a := range ts.apps {
					wg.Add(1)
					go func() {
						defer wg.Done()
						results[i], errs[i] = a.MergeChangeRequest(ctx, ts.caller, ts.space, cr)
					}()
				}
				wg.Wait()
				var won *app.MergeResult
				for i, err := range errs {
					switch {
					case err == nil && won == nil:
						won = results[i]
					case err == nil:
						t.Fatalf("round %d: the change request merged twice: %v", round, results)
					case folio.KindOf(err) != folio.Conflict:
						t.Fatalf("round %d: server %d: %v, want a Conflict", round, i, err)
					}
				}
				if won == nil {
					t.Fatalf("round %d: no merge won: %v", round, errs)
				}
				winners = append(winners, won.Revision)
				v, err := ts.apps[1].GetChangeRequest(ctx, ts.caller, ts.space, cr)
				if err != nil {
					t.Fatal(err)
				}
				if v.Status != folio.ChangeRequestMerged || v.RevisionMerged != won.Revision {
					t.Fatalf("round %d: change request %s merged as %s, the winner made %s", round, v.Status, v.RevisionMerged, won.Revision)
				}
				c, err := ts.apps[1].GetContent(ctx, ts.caller, ts.space, "")
				if err != nil {
					t.Fatal(err)
				}
				if c.Revision.ID != won.Revision || len(c.Revision.Parents) != 2 {
					t.Fatalf("round %d: the space is at %s (parents %v), the winner made %s", round, c.Revision.ID, c.Revision.Parents, won.Revision)
				}
				if got := ts.text(t, "A"); !strings.Contains(got, text) {
					t.Fatalf("round %d: page A reads %q", round, got)
				}
			}
			history := ts.history(t)
			for _, w := range winners {
				if !slices.Contains(history, w) {
					t.Fatalf("merge %s is not in the space's history %v", w, history)
				}
			}
		})
	}
}

// TestDifferentChangeRequestsMergedOnTwoServers merges two change requests,
// forked from the same revision and editing different pages, through both
// servers at once, round after round: both land, the later on top of the
// earlier, so both revisions are in the space's history and both edits in
// its content.
func TestDifferentChangeRequestsMergedOnTwoServers(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ts := openTwoServers(t, kind)
			var merged []folio.ID
			for round := range 4 {
				text := fmt.Sprintf("round %d", round)
				crs := []folio.ID{ts.changeRequest(t, "A", text+" in A"), ts.changeRequest(t, "B", text+" in B")}
				var wg sync.WaitGroup
				results := make([]*app.MergeResult, 2)
				errs := make([]error, 2)
				for i, a := range ts.apps {
					wg.Add(1)
					go func() {
						defer wg.Done()
						results[i], errs[i] = a.MergeChangeRequest(ctx, ts.caller, ts.space, crs[i])
					}()
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				if results[0].Revision == results[1].Revision {
					t.Fatalf("round %d: both merges made revision %s", round, results[0].Revision)
				}
				merged = append(merged, results[0].Revision, results[1].Revision)
				for _, title := range []string{"A", "B"} {
					if got := ts.text(t, title); !strings.Contains(got, text+" in "+title) {
						t.Fatalf("round %d: page %s reads %q: a merge was lost", round, title, got)
					}
				}
			}
			history := ts.history(t)
			for _, m := range merged {
				if !slices.Contains(history, m) {
					t.Fatalf("merge %s is not in the space's history %v", m, history)
				}
			}
		})
	}
}
