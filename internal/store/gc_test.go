package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestBlobClaims checks the handshake between commits and the collector
// on bucket keys: a live claim touched since the cutoff is never taken, an
// old or absent one is, a commit then sees the collector's claim, and a
// claim left behind by a stopped collector is taken back after the stale
// time.
func TestBlobClaims(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		write := func(fn func(tx *store.Tx) error) error { return db.Write(ctx, fn) }
		var fresh []string
		// First claims are fresh: the caller checks the bytes exist.
		if err := write(func(tx *store.Tx) (err error) {
			fresh, err = store.ClaimBlobs(ctx, tx, []string{"blobs/b", "blobs/a", "blobs/a"}, tx.Now.Add(-time.Hour))
			return err
		}); err != nil || !slices.Equal(fresh, []string{"blobs/a", "blobs/b"}) {
			t.Fatalf("first claim: %v %v", fresh, err)
		}
		// Claimed again: live already, nothing to check.
		if err := write(func(tx *store.Tx) (err error) {
			fresh, err = store.ClaimBlobs(ctx, tx, []string{"blobs/a"}, tx.Now.Add(-time.Hour))
			return err
		}); err != nil || len(fresh) != 0 {
			t.Fatalf("second claim: %v %v", fresh, err)
		}
		// The collector cannot take claims touched after its cutoff, takes
		// keys nobody claimed, and reports both its claims.
		var dead []string
		if err := write(func(tx *store.Tx) (err error) {
			dead, err = store.TombstoneBlobs(ctx, tx, []string{"blobs/a", "blobs/orphan"}, tx.Now.Add(-time.Minute))
			return err
		}); err != nil || !slices.Equal(dead, []string{"blobs/orphan"}) {
			t.Fatalf("tombstones with a recent claim: %v %v", dead, err)
		}
		// With a cutoff after the claims, it takes them.
		if err := write(func(tx *store.Tx) (err error) {
			dead, err = store.TombstoneBlobs(ctx, tx, []string{"blobs/a", "blobs/b"}, tx.Now.Add(time.Minute))
			return err
		}); err != nil || len(dead) != 2 {
			t.Fatalf("tombstones with old claims: %v %v", dead, err)
		}
		// A commit now fails, changing nothing, until the claim is dropped.
		err := write(func(tx *store.Tx) (err error) {
			_, err = store.ClaimBlobs(ctx, tx, []string{"blobs/c", "blobs/a"}, tx.Now.Add(-time.Hour))
			return err
		})
		if !errors.Is(err, store.ErrBlobDeleting) || folio.KindOf(err) != folio.Unavailable {
			t.Fatalf("claim under a tombstone: %v", err)
		}
		var left []string
		if err := db.Read(ctx, func(tx *store.Tx) (err error) {
			left, err = store.LeftTombstones(ctx, tx, tx.Now.Add(time.Minute), 10)
			return err
		}); err != nil || !slices.Equal(left, []string{"blobs/a", "blobs/b", "blobs/orphan"}) {
			t.Fatalf("left tombstones: %v %v (blobs/c must not have been claimed)", left, err)
		}
		// A tombstone older than the stale time is taken back, fresh.
		if err := write(func(tx *store.Tx) (err error) {
			fresh, err = store.ClaimBlobs(ctx, tx, []string{"blobs/a"}, tx.Now.Add(time.Minute))
			return err
		}); err != nil || !slices.Equal(fresh, []string{"blobs/a"}) {
			t.Fatalf("revived claim: %v %v", fresh, err)
		}
		if err := write(func(tx *store.Tx) error { return store.DropTombstones(ctx, tx, []string{"blobs/a", "blobs/b"}) }); err != nil {
			t.Fatal(err)
		}
		if err := db.Read(ctx, func(tx *store.Tx) (err error) {
			left, err = store.LeftTombstones(ctx, tx, tx.Now.Add(time.Minute), 10)
			return err
		}); err != nil || !slices.Equal(left, []string{"blobs/orphan"}) {
			t.Fatalf("after dropping: %v %v (a live claim is not a tombstone)", left, err)
		}
	})
}

// TestPruneHistory removes finished jobs and old events, but never a job
// still due.
func TestPruneHistory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var done, due folio.ID
		err := db.Write(ctx, func(tx *store.Tx) (err error) {
			if done, err = store.StartJob(ctx, tx, "test", "{}", time.Minute); err != nil {
				return err
			}
			if err := store.FinishJob(ctx, tx, done); err != nil {
				return err
			}
			if due, err = store.EnqueueKeyedJob(ctx, tx, "test", "", "{}", tx.Now.Add(-time.Hour)); err != nil {
				return err
			}
			return store.CreateEvent(ctx, tx, &folio.Event{ID: folio.NewID(), OrgID: "o", SpaceID: "s", Type: "x", Payload: []byte("{}")})
		})
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]int64
		if err := db.Write(ctx, func(tx *store.Tx) (err error) {
			got, err = store.PruneHistoryBatch(ctx, tx, tx.Now.Add(time.Second), 100)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got["jobs"] != 1 || got["events"] != 1 {
			t.Errorf("pruned %v, want the finished job and the event", got)
		}
		err = db.Read(ctx, func(tx *store.Tx) error {
			if _, err := store.GetJob(ctx, tx, done); !folio.IsNotFound(err) {
				t.Errorf("finished job: %v, want NotFound", err)
			}
			_, err := store.GetJob(ctx, tx, due)
			return err
		})
		if err != nil {
			t.Errorf("the due job is gone: %v", err)
		}
	})
}
