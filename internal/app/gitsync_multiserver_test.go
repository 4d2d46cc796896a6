package app_test

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"gocloud.dev/blob/fileblob"
)

// TestGitSyncsOfOneSpaceNeverOverlapAcrossServers triggers imports and
// exports of one space on two servers at once, each running its own job
// runner on the shared database: the operations run one at a time, in the
// order they were queued, and every one ends.
func TestGitSyncsOfOneSpaceNeverOverlapAcrossServers(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			cfg := storetest.Location(t, kind, store.Config{})
			files, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { files.Close() })
			apps := make([]*app.App, 2)
			runners := make([]*jobs.Runner, 2)
			for i := range apps {
				db, err := store.Open(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				apps[i] = app.New(app.Config{DB: db, Blobs: files, Git: &app.GitConfig{CacheDir: t.TempDir(), AllowFile: true}})
				runners[i] = jobs.NewRunner(db, nil, apps[i].JobHandlers()).WithPoll(20 * time.Millisecond)
			}
			boot, err := apps[0].Init(ctx, app.InitInput{Email: "git@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			admin, err := apps[0].Authenticate(ctx, boot.Token)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := apps[0].CreateSpace(ctx, admin, boot.Organization.ID, folio.NewSpace{Title: "Docs"})
			if err != nil {
				t.Fatal(err)
			}
			repo := gittest.Bare(t)
			gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n"}, "init")
			repoURL := (&url.URL{Scheme: "file", Path: repo}).String()

			rctx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			for _, r := range runners {
				wg.Go(func() { r.Run(rctx) })
			}
			const perServer = 4
			base := time.Now().UTC()
			var trig sync.WaitGroup
			for i, a := range apps {
				trig.Go(func() {
					for n := range perServer {
						in := app.GitInput{URL: repoURL, Ref: "refs/heads/main", Force: true}
						at := base.Add(time.Duration(n*2+i) * time.Millisecond)
						in.Timestamp = &at
						if n%2 == 1 {
							in.CommitMessage = fmt.Sprintf("export %d/%d", i, n)
							if err := a.ExportToGitRepository(ctx, admin, sp.ID, in); err != nil {
								t.Error(err)
							}
							continue
						}
						if err := a.ImportGitRepository(ctx, admin, sp.ID, in); err != nil {
							t.Error(err)
						}
					}
				})
			}
			trig.Wait()
			deadline := time.Now().Add(2 * time.Minute)
			var ops []folio.GitOperation
			for {
				ops, err = apps[1].ListGitOperations(ctx, admin, sp.ID)
				if err != nil {
					t.Fatal(err)
				}
				ended := 0
				for _, o := range ops {
					if o.Ended() {
						ended++
					}
				}
				if ended == len(ops) && len(ops) == 2*perServer {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("operations did not end: %+v", ops)
				}
				time.Sleep(50 * time.Millisecond)
			}
			stop()
			wg.Wait()
			var ran []folio.GitOperation
			for _, o := range ops {
				switch o.State {
				case folio.GitSuccess:
					ran = append(ran, o)
				case folio.GitSkipped:
				default:
					t.Errorf("operation %s %s: %s %s", o.ID, o.Direction, o.State, o.Error)
				}
			}
			if len(ran) == 0 {
				t.Fatal("no operation ran")
			}
			// Operations that ran never overlap, and ran in queue order.
			for i := 1; i < len(ran); i++ {
				prev, cur := ran[i-1], ran[i]
				if cur.StartedAt == nil || prev.CompletedAt == nil || cur.StartedAt.Before(*prev.CompletedAt) {
					t.Fatalf("operations overlap: %s ended %v, %s started %v", prev.ID, prev.CompletedAt, cur.ID, cur.StartedAt)
				}
			}
		})
	}
}
