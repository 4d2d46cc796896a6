package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
)

// gcClock is a clock tests move forward; it starts at the wall clock.
type gcClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *gcClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *gcClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

// gcCluster is servers sharing one database and one bucket, as several
// "folio serve" processes do.
type gcCluster struct {
	apps   []*app.App
	dbs    []*store.DB
	bucket *blob.Bucket
	dir    string
	cfg    store.Config
	clock  *gcClock
	admin  folio.Caller
	org    folio.ID
}

func newGCCluster(t *testing.T, kind string, servers int, grace time.Duration) *gcCluster {
	t.Helper()
	ctx := context.Background()
	c := &gcCluster{dir: t.TempDir(), clock: &gcClock{}}
	c.cfg = storetest.Location(t, kind, store.Config{Clock: c.clock})
	var err error
	if c.bucket, err = fileblob.OpenBucket(c.dir, &fileblob.Options{NoTempDir: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.bucket.Close() })
	for range servers {
		c.addServer(t, grace)
	}
	boot, err := c.apps[0].Init(ctx, app.InitInput{Email: "gc@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if c.admin, err = c.apps[0].Authenticate(ctx, boot.Token); err != nil {
		t.Fatal(err)
	}
	c.org = boot.Organization.ID
	return c
}

// addServer starts one more server (with empty caches) on the cluster.
func (c *gcCluster) addServer(t *testing.T, grace time.Duration) *app.App {
	t.Helper()
	db, err := store.Open(context.Background(), c.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a := app.New(app.Config{DB: db, Clock: c.clock, Blobs: c.bucket, GCGrace: grace, PublicURL: "http://folio.test"})
	c.apps, c.dbs = append(c.apps, a), append(c.dbs, db)
	return a
}

// pngOf returns a small PNG whose bytes depend on n.
func pngOf(t testing.TB, n int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: uint8(n), G: uint8(n >> 8), B: uint8(n >> 16), A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// importZip imports files into a new space of the cluster through a, and
// returns the space.
func (c *gcCluster) importZip(t testing.TB, a *app.App, title string, files map[string][]byte) folio.ID {
	t.Helper()
	ctx := context.Background()
	sp, err := a.CreateSpace(ctx, c.admin, c.org, folio.NewSpace{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	in := app.ImportInput{Source: "zip", URL: "data:application/zip;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}
	if _, err := a.ImportContent(ctx, c.admin, sp.ID, "", in); err != nil {
		t.Fatalf("import into %s: %v", title, err)
	}
	return sp.ID
}

// purge removes a space at once, as its purge job would seven days after
// its deletion, leaving its content unreachable.
func (c *gcCluster) purge(t testing.TB, id folio.ID) {
	t.Helper()
	err := c.dbs[0].Write(context.Background(), func(tx *store.Tx) error {
		if err := store.SetSpaceDeleted(context.Background(), tx, id, true); err != nil {
			return err
		}
		_, err := store.PurgeSpace(context.Background(), tx, id, tx.Now.Add(time.Hour).UnixMicro())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ageBlobs sets every blob file's time back by d, as if written that long
// ago.
func (c *gcCluster) ageBlobs(t testing.TB, d time.Duration) {
	t.Helper()
	err := filepath.WalkDir(c.dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		return os.Chtimes(p, info.ModTime().Add(-d), info.ModTime().Add(-d))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkComplete reads every page document and file of every space given
// through a server with empty caches: each must be there.
func (c *gcCluster) checkComplete(t testing.TB, spaces []folio.ID) {
	t.Helper()
	ctx := context.Background()
	fresh := c.addServer(t.(*testing.T), time.Hour)
	for _, id := range spaces {
		ct, err := fresh.GetContent(ctx, c.admin, id, "")
		if err != nil {
			t.Fatalf("space %s: %v", id, err)
		}
		var walk func([]*content.Page)
		walk = func(pages []*content.Page) {
			for _, p := range pages {
				if p.Type == content.PageDocument {
					if _, err := fresh.GetPageDocument(ctx, c.admin, id, "", p.ID); err != nil {
						t.Errorf("space %s page %s: %v", id, p.Title, err)
					}
				}
				walk(p.Pages)
			}
		}
		walk(ct.Tree.Pages)
		for _, f := range ct.Tree.Files {
			if ok, err := c.bucket.Exists(ctx, "blobs/"+f.Blob.String()); err != nil || !ok {
				t.Errorf("space %s file %s: bytes missing (%v)", id, f.Name, err)
			}
		}
	}
}

func objectExists(t testing.TB, db *store.DB, h content.Hash) bool {
	t.Helper()
	var got map[string]store.Object
	err := db.Read(context.Background(), func(tx *store.Tx) (err error) {
		got, err = store.GetObjects(context.Background(), tx, []string{h.String()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_, ok := got[h.String()]
	return ok
}

// TestGarbageCollectionKeepsWhatACommitReuses removes the content of a
// space deleted more than seven days ago, except what a commit on another
// server reuses between the collector's mark and its sweep: a document
// imported again with the same text, and a file with the same bytes.
func TestGarbageCollectionKeepsWhatACommitReuses(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			c := newGCCluster(t, kind, 2, 10*time.Minute)
			a, b := c.apps[0], c.apps[1]
			shared, gone := pngOf(t, 1), pngOf(t, 2)
			// A document that shows a file names it by the file's id, which
			// each import draws anew; a text-only one is the same object
			// each time.
			old := c.importZip(t, a, "Old", map[string][]byte{
				"shared.md":  []byte("# Shared\n\nThis text comes back.\n"),
				"gone.md":    []byte("# Gone\n\nOnly the old space had this.\n\n![pic](gone.png)\n"),
				"pic.md":     []byte("# Pic\n\n![pic](shared.png)\n"),
				"shared.png": shared, "gone.png": gone})
			kept := c.importZip(t, a, "Kept", map[string][]byte{"kept.md": []byte("# Kept\n\nStays.\n")})
			oc, err := a.GetContent(ctx, c.admin, old, "")
			if err != nil {
				t.Fatal(err)
			}
			docs := map[string]content.Hash{}
			for _, p := range oc.Tree.Pages {
				docs[p.Title] = p.Document
			}
			if docs["Shared"].IsZero() || docs["Gone"].IsZero() {
				t.Fatalf("imported pages: %v", docs)
			}
			if err := a.DeleteSpace(ctx, c.admin, old); err != nil {
				t.Fatal(err)
			}
			// The old space's PDF, an icon no integration names any more,
			// and a file the collector does not know.
			for _, k := range []string{"pdf/" + old + "/" + oc.Revision.ID + "/space.pdf", "integrations/assets/gone.png", "pdf/notes.txt"} {
				if err := c.bucket.WriteAll(ctx, k, []byte("x"), nil); err != nil {
					t.Fatal(err)
				}
			}
			// Eight days on: the space is overdue for its purge, and all
			// content written so far is older than the grace period.
			c.clock.Advance(8 * 24 * time.Hour)
			c.ageBlobs(t, 8*24*time.Hour)

			var again folio.ID
			app.SetGCAfterMarkForTest(b, func() {
				again = c.importZip(t, a, "Again", map[string][]byte{
					"shared.md":  []byte("# Shared\n\nThis text comes back.\n"),
					"pic.md":     []byte("# Pic\n\n![pic](shared.png)\n"),
					"shared.png": shared})
			})
			r, err := b.CollectGarbage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			app.SetGCAfterMarkForTest(b, nil)
			if r.PurgedSpaces != 1 || r.DeletedBlobs != 1 || r.DeletedObjects == 0 || r.MissingObjects != 0 || r.MissingBlobs != 0 ||
				r.DeletedPDFs != 1 || r.DeletedAssets != 1 {
				t.Errorf("report %+v: want the old space purged, its objects, one blob, its PDF and the icon deleted, nothing missing", r)
			}
			if ok, _ := c.bucket.Exists(ctx, "pdf/notes.txt"); !ok {
				t.Error("a file of the bucket the collector does not know was removed")
			}
			ac, err := a.GetContent(ctx, c.admin, again, "")
			if err != nil {
				t.Fatal(err)
			}
			if d := ac.Tree.Pages[0].Document; ac.Tree.Pages[0].Title != "Pic" && ac.Tree.Pages[0].Title != "Shared" || len(ac.Tree.Pages) != 2 {
				t.Fatalf("pages imported again: %d", len(ac.Tree.Pages))
			} else if d != docs["Shared"] && ac.Tree.Pages[1].Document != docs["Shared"] {
				t.Fatal("the document imported again is not the same object: the test reuses nothing")
			}
			if !objectExists(t, c.dbs[0], docs["Shared"]) {
				t.Error("the document the concurrent commit reused was removed")
			}
			if objectExists(t, c.dbs[0], docs["Gone"]) {
				t.Error("the old space's own document is still stored")
			}
			if _, err := a.GetContent(ctx, c.admin, old, ""); folio.KindOf(err) != folio.NotFound {
				t.Errorf("purged space: %v, want NotFound", err)
			}
			c.checkComplete(t, []folio.ID{kept, again})

			// A second run finds everything reachable and nothing to do.
			r, err = a.CollectGarbage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.DeletedObjects != 0 || r.DeletedBlobs != 0 || r.MissingObjects != 0 || r.MissingBlobs != 0 || r.LiveBlobs != 1 {
				t.Errorf("second run %+v: want nothing deleted or missing, one live blob", r)
			}
		})
	}
}

// TestGarbageCollectionRacesCommitsOnTwoServers runs collections on one
// server without pause while another keeps making content unreachable and
// then, once it is older than the grace period, importing the same content
// again into spaces it keeps. Every kept space must stay complete.
func TestGarbageCollectionRacesCommitsOnTwoServers(t *testing.T) {
	if testing.Short() {
		t.Skip("races for seconds")
	}
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			const grace = 2 * time.Second
			c := newGCCluster(t, kind, 2, grace)
			a, b := c.apps[0], c.apps[1]
			gen := func(i int) map[string][]byte {
				return map[string][]byte{
					"page.md": []byte(fmt.Sprintf("# Generation %d\n\nSame text each time.\n", i)),
					"pic.md":  []byte("# Picture\n\n![pic](pic.png)\n"),
					"pic.png": pngOf(t, 100+i)}
			}
			stop := make(chan struct{})
			var (
				wg      sync.WaitGroup
				deleted int64
				runs    int
			)
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					r, err := b.CollectGarbage(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					deleted += r.DeletedObjects + r.DeletedBlobs
					runs++
				}
			})
			var kept []folio.ID
			// Each generation is imported again at a random age around the
			// grace period: sometimes before a sweep may take it, sometimes
			// after, sometimes while one runs.
			orphaned := map[int]time.Time{}
			deadline := time.Now().Add(4 * grace)
			for i := 0; time.Now().Before(deadline) || len(orphaned) > 0; i++ {
				if time.Now().Before(deadline) {
					z := c.importZip(t, a, fmt.Sprintf("Orphan %d", i), gen(i))
					c.purge(t, z)
					orphaned[i] = time.Now().Add(grace*8/10 + time.Duration(rand.Int64N(int64(grace/2))))
				}
				for g, at := range orphaned {
					if time.Now().After(at) {
						kept = append(kept, c.importZip(t, a, fmt.Sprintf("Kept %d", g), gen(g)))
						delete(orphaned, g)
					}
				}
				time.Sleep(50 * time.Millisecond)
			}
			close(stop)
			wg.Wait()
			if runs < 2 || deleted == 0 {
				t.Fatalf("%d collections deleted %d objects and blobs: the race did not happen", runs, deleted)
			}
			r, err := b.CollectGarbage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r.MissingObjects != 0 || r.MissingBlobs != 0 {
				t.Errorf("after the race %+v: content of kept spaces is missing", r)
			}
			c.checkComplete(t, kept)
			t.Logf("%d collections, %d kept spaces, %d objects and blobs deleted", runs, len(kept), deleted)
		})
	}
}

// TestGarbageCollectionRunsOnSchedule: the "gc" schedule every server
// records runs the collection once it is due.
func TestGarbageCollectionRunsOnSchedule(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			c := newGCCluster(t, kind, 1, time.Hour)
			a := c.apps[0]
			if err := a.EnsureSchedules(ctx); err != nil {
				t.Fatal(err)
			}
			orphan := "blobs/" + content.Hash{1, 2, 3}.String()
			if err := c.bucket.WriteAll(ctx, orphan, []byte("left by a failed commit"), nil); err != nil {
				t.Fatal(err)
			}
			c.ageBlobs(t, 2*time.Hour)
			runner := jobs.NewRunner(c.dbs[0], nil, a.JobHandlers())
			if _, err := runner.RunDue(ctx); err != nil {
				t.Fatal(err)
			}
			if ok, _ := c.bucket.Exists(ctx, orphan); !ok {
				t.Fatal("collected before the schedule was due")
			}
			c.clock.Advance(3 * time.Hour)
			for range 5 {
				if _, err := runner.RunDue(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if ok, _ := c.bucket.Exists(ctx, orphan); ok {
				t.Error("the scheduled collection left an unreferenced blob")
			}
		})
	}
}
