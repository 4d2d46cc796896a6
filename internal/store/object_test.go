package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"github.com/google/go-cmp/cmp"
)

func obj(kind, data string) store.Object {
	sum := sha256.Sum256([]byte(data))
	return store.Object{Hash: hex.EncodeToString(sum[:]), Kind: kind, Data: []byte(data)}
}

func TestObjectsAreStoredOnceAndReadBack(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var objs []store.Object
		for i := range 450 { // more than one insert batch
			objs = append(objs, obj("document", fmt.Sprintf(`{"n":%d}`, i)))
		}
		for range 2 { // writing the same content twice stores it once
			if err := db.Write(ctx, func(tx *store.Tx) error { return store.PutObjects(ctx, tx, objs, tx.Now) }); err != nil {
				t.Fatal(err)
			}
		}
		hashes := []string{objs[0].Hash, objs[449].Hash, "missing"}
		var got map[string]store.Object
		err := db.Read(ctx, func(tx *store.Tx) (err error) { got, err = store.GetObjects(ctx, tx, hashes); return err })
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]store.Object{objs[0].Hash: objs[0], objs[449].Hash: objs[449]}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("objects (-want +got):\n%s", d)
		}
	})
}

func TestRevisionsRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := newUser(t, db, "rev@example.com")
		o := newOrg(t, db, u.ID, "")
		sp := folio.Space{ID: folio.NewID(), OrganizationID: o.ID, Title: "S", EditMode: "live", Visibility: "private",
			Revision: folio.NewID(), MergeRules: folio.MergeRules{Type: "inherit"}, DefaultLevel: folio.Level{Inherit: true}}
		r := &folio.Revision{ID: folio.NewID(), SpaceID: sp.ID, TreeHash: obj("tree", "{}").Hash, Parents: []folio.ID{"a", "b"}, Type: "merge"}
		err := db.Write(ctx, func(tx *store.Tx) error {
			sp.CreatedAt, sp.UpdatedAt = tx.Now, tx.Now
			if err := store.CreateSpace(ctx, tx, &sp); err != nil {
				return err
			}
			return store.CreateRevision(ctx, tx, r)
		})
		if err != nil {
			t.Fatal(err)
		}
		var got *folio.Revision
		db.Read(ctx, func(tx *store.Tx) (err error) { got, err = store.GetRevision(ctx, tx, sp.ID, r.ID); return err })
		if d := cmp.Diff(r, got); d != "" {
			t.Fatalf("revision (-want +got):\n%s", d)
		}
		err = db.Read(ctx, func(tx *store.Tx) error { _, err := store.GetRevision(ctx, tx, "other", r.ID); return err })
		if !folio.IsNotFound(err) {
			t.Fatalf("revision of another space: %v", err)
		}
	})
}

// TestSpacesOfOlderVersionsGetARevision checks migration 00009: a space
// whose revision id has no row (created before content existed) gets an
// empty revision.
func TestSpacesOfOlderVersionsGetARevision(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sp := newSpace(t, db, "old@example.com")
		// Migration 9 wrote objects as they were then (before 29 renamed
		// their time column).
		if err := store.ApplyMigration(ctx, db, 29, false); err != nil {
			t.Fatal(err)
		}
		if err := store.ReapplyMigration(ctx, db, 9); err != nil {
			t.Fatal(err)
		}
		if err := store.ApplyMigration(ctx, db, 29, true); err != nil {
			t.Fatal(err)
		}
		var rev *folio.Revision
		err := db.Read(ctx, func(tx *store.Tx) (err error) { rev, err = store.GetRevision(ctx, tx, sp.ID, sp.Revision); return err })
		if err != nil || rev.TreeHash != "29f64ed45ce64c0f58391ba637c6104dbebe6477d4ada4bae8e04c0052ff33c2" || len(rev.Parents) != 0 {
			t.Fatalf("revision after the upgrade: %+v, %v", rev, err)
		}
		var objs map[string]store.Object
		err = db.Read(ctx, func(tx *store.Tx) (err error) {
			objs, err = store.GetObjects(ctx, tx, []string{rev.TreeHash})
			return err
		})
		if err != nil || string(objs[rev.TreeHash].Data) != `{"pages":[]}` {
			t.Fatalf("empty tree object: %v %v", objs, err)
		}
	})
}
