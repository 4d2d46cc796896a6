package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Garbage collection (docs/garbage-collection.md): a scheduled job marks
// every object and blob that a revision, a PDF export or an integration
// still reaches, then removes the rest, but only what nobody wrote or reused
// during the grace period. Commits touch the objects they write or reuse in
// their transaction (the sweep's DELETE re-checks the time), and claim the
// bucket keys they bring (blob_claims: the sweep deletes bytes only under a
// claim of its own, which a commit either beat or sees and retries on), so
// a sweep never removes what a concurrent commit is about to reference.

// DefaultGCGrace is how long an unreachable object or blob is kept after
// its last write.
const DefaultGCGrace = time.Hour

// DefaultHistoryRetention is how long finished jobs, events, webhook
// deliveries and integration events are kept.
const DefaultHistoryRetention = 30 * 24 * time.Hour

// gcEvery is how often the "gc" schedule runs.
const gcEvery = 24 * time.Hour

// gcPage bounds the rows read or removed by one query of a collection.
const gcPage = 500

// GCReport tells what one collection found and removed.
type GCReport struct {
	PurgedSpaces   int   `json:"purgedSpaces"`
	LiveObjects    int   `json:"liveObjects"`
	LiveBlobs      int   `json:"liveBlobs"`
	MissingObjects int   `json:"missingObjects"`
	MissingBlobs   int   `json:"missingBlobs"`
	DeletedObjects int64 `json:"deletedObjects"`
	DeletedBlobs   int64 `json:"deletedBlobs"`
	DeletedPDFs    int64 `json:"deletedPDFs"`
	DeletedAssets  int64 `json:"deletedAssets"` // integration icons and previews, customization images
	PrunedHistory  int64 `json:"prunedHistory"`
}

// CollectGarbageJob runs a collection (the "gc" schedule).
func (a *App) CollectGarbageJob(ctx context.Context, _ string) error {
	_, err := a.CollectGarbage(ctx)
	return err
}

// CollectGarbage purges spaces deleted more than folio.SpaceRetention ago,
// removes the objects and blobs nothing reaches, and prunes old history.
// Runs of it must not overlap (the schedule's concurrency key sees to it).
func (a *App) CollectGarbage(ctx context.Context) (r GCReport, err error) {
	// Both cutoffs are taken before marking: anything written or reused
	// after them is kept, whatever the mark found.
	cutoff := a.clock.Now().Add(-a.gcGrace)  // the database's times
	wallCutoff := time.Now().Add(-a.gcGrace) // the bucket's times
	if r.PurgedSpaces, err = a.purgeOverdueSpaces(ctx); err != nil {
		return r, err
	}
	if a.blobs != nil {
		if err := a.finishTombstones(ctx); err != nil {
			return r, err
		}
	}
	m, err := a.markContent(ctx)
	if err != nil {
		return r, err
	}
	r.LiveObjects, r.LiveBlobs, r.MissingObjects = len(m.objects), len(m.blobs), m.missing
	if a.gcAfterMark != nil {
		a.gcAfterMark()
	}
	if r.DeletedObjects, err = a.sweepObjects(ctx, m, cutoff); err != nil {
		return r, err
	}
	if a.blobs != nil {
		if r.DeletedBlobs, r.MissingBlobs, err = a.sweepContentBlobs(ctx, m, wallCutoff, cutoff); err != nil {
			return r, err
		}
		if r.DeletedPDFs, err = a.sweepPDFs(ctx, wallCutoff); err != nil {
			return r, err
		}
		if r.DeletedAssets, err = a.sweepAssets(ctx, wallCutoff, cutoff); err != nil {
			return r, err
		}
		images, err := a.sweepCustomImages(ctx, wallCutoff)
		r.DeletedAssets += images
		if err != nil {
			return r, err
		}
	}
	if a.historyRetention > 0 {
		if r.PrunedHistory, err = a.pruneHistory(ctx, a.clock.Now().Add(-a.historyRetention)); err != nil {
			return r, err
		}
	}
	if r.MissingObjects > 0 || r.MissingBlobs > 0 {
		a.logger.Error("garbage collection found revisions whose content is missing",
			"missing_objects", r.MissingObjects, "missing_blobs", r.MissingBlobs)
	}
	a.logger.Info("garbage collected", "purged_spaces", r.PurgedSpaces, "live_objects", r.LiveObjects,
		"deleted_objects", r.DeletedObjects, "deleted_blobs", r.DeletedBlobs, "deleted_pdfs", r.DeletedPDFs,
		"deleted_assets", r.DeletedAssets, "pruned_history", r.PrunedHistory)
	return r, nil
}

// purgeOverdueSpaces purges the spaces whose purge job did not (a job
// given up, or a space deleted before purge jobs existed).
func (a *App) purgeOverdueSpaces(ctx context.Context) (n int, err error) {
	for {
		var ids []folio.ID
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			ids, err = store.OverdueDeletedSpaces(ctx, tx, tx.Now.Add(-folio.SpaceRetention), 100)
			return err
		})
		if err != nil || len(ids) == 0 {
			return n, err
		}
		for _, id := range ids {
			err := a.db.Write(ctx, func(tx *store.Tx) error {
				_, err := store.PurgeSpace(ctx, tx, id, tx.Now.Add(-folio.SpaceRetention).UnixMicro())
				return err
			})
			if err != nil {
				return n, err
			}
			n++
		}
	}
}

// gcMark is what a collection found reachable.
type gcMark struct {
	objects map[content.Hash]struct{}
	blobs   map[content.Hash]struct{}
	missing int
}

// markContent walks every revision's tree, each object once (revisions
// share subtrees by hash), so its cost is the number of distinct objects.
// Pages and trees are read for their references, documents only checked to
// exist.
func (a *App) markContent(ctx context.Context) (*gcMark, error) {
	m := &gcMark{objects: map[content.Hash]struct{}{}, blobs: map[content.Hash]struct{}{}}
	var after folio.ID
	for {
		var revs []store.RevisionTree
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			revs, err = store.RevisionTreesAfter(ctx, tx, after, gcPage)
			return err
		})
		if err != nil || len(revs) == 0 {
			return m, err
		}
		after = revs[len(revs)-1].ID
		var roots []content.Hash
		for _, rv := range revs {
			h, err := content.ParseHash(rv.TreeHash)
			if err != nil {
				m.missing++
				continue
			}
			if _, ok := m.objects[h]; !ok {
				m.objects[h] = struct{}{}
				roots = append(roots, h)
			}
		}
		if err := a.markFrom(ctx, m, roots); err != nil {
			return nil, err
		}
	}
}

// markFrom marks what the trees and pages under hashes (already marked)
// reach, one batch of objects per query.
func (a *App) markFrom(ctx context.Context, m *gcMark, pending []content.Hash) error {
	var docs []content.Hash
	for len(pending) > 0 || len(docs) > 0 {
		if len(docs) >= maxObjectsPerRead || (len(pending) == 0 && len(docs) > 0) {
			batch := docs[:min(len(docs), maxObjectsPerRead)]
			docs = docs[len(batch):]
			var have map[string]bool
			err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
				have, err = store.ExistingObjects(ctx, tx, hexes(batch))
				return err
			})
			if err != nil {
				return err
			}
			m.missing += len(batch) - len(have)
			continue
		}
		batch := pending[:min(len(pending), maxObjectsPerRead)]
		pending = pending[len(batch):]
		var got map[string]store.Object
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			got, err = store.GetObjects(ctx, tx, hexes(batch))
			return err
		})
		if err != nil {
			return err
		}
		for _, h := range batch {
			o, ok := got[h.String()]
			if !ok {
				m.missing++
				continue
			}
			pages, documents, blobs, err := content.Refs(o.Kind, []byte(o.Data))
			if err != nil {
				return fmt.Errorf("object %s: %w", h, err)
			}
			for _, p := range pages {
				if _, ok := m.objects[p]; !ok {
					m.objects[p] = struct{}{}
					pending = append(pending, p)
				}
			}
			for _, d := range documents {
				if _, ok := m.objects[d]; !ok {
					m.objects[d] = struct{}{}
					docs = append(docs, d)
				}
			}
			for _, b := range blobs {
				m.blobs[b] = struct{}{}
			}
		}
	}
	return nil
}

// maxObjectsPerRead bounds the objects one marking query reads.
const maxObjectsPerRead = 200

func hexes(hs []content.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// sweepObjects removes the objects untouched since cutoff that the mark
// did not reach.
func (a *App) sweepObjects(ctx context.Context, m *gcMark, cutoff time.Time) (n int64, err error) {
	after := ""
	for {
		var hs []string
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			hs, err = store.ObjectsUntouchedAfter(ctx, tx, after, cutoff, gcPage)
			return err
		})
		if err != nil || len(hs) == 0 {
			return n, err
		}
		after = hs[len(hs)-1]
		var dead []string
		for _, s := range hs {
			h, err := content.ParseHash(s)
			if _, live := m.objects[h]; err == nil && live {
				continue
			}
			dead = append(dead, s)
		}
		if len(dead) == 0 {
			continue
		}
		err = a.db.Write(ctx, func(tx *store.Tx) error {
			d, err := store.DeleteObjects(ctx, tx, dead, cutoff)
			n += d
			return err
		})
		if err != nil {
			return n, err
		}
	}
}

// sweepBucket lists the keys under prefix last written before cutoff, in
// batches, and deletes those that dead says nothing reaches, when nobody
// claimed them since claimCutoff (a zero claimCutoff: keys nobody claims,
// deleted at once). seen, when set, is told every key listed.
func (a *App) sweepBucket(ctx context.Context, prefix string, cutoff, claimCutoff time.Time, seen func(string),
	dead func([]string) ([]string, error)) (n int64, err error) {
	opts := &blob.ListOptions{Prefix: prefix}
	token := blob.FirstPageToken
	for {
		var page []*blob.ListObject
		var next []byte
		// A file bucket's listing fails when a file it found goes away
		// before it is read (an upload's temporary file): try the page
		// again.
		for attempt := 1; ; attempt++ {
			page, next, err = a.blobs.ListPage(ctx, token, gcPage, opts)
			if err == nil || attempt == 5 || ctx.Err() != nil {
				break
			}
			time.Sleep(time.Duration(attempt) * 10 * time.Millisecond)
		}
		if err != nil {
			return n, fmt.Errorf("list %s: %w", prefix, err)
		}
		var old []string
		for _, o := range page {
			if o.IsDir {
				continue
			}
			if seen != nil {
				seen(o.Key)
			}
			if o.ModTime.Before(cutoff) {
				old = append(old, o.Key)
			}
		}
		if len(old) > 0 {
			keys, err := dead(old)
			if err != nil {
				return n, err
			}
			d, err := a.deleteKeys(ctx, keys, claimCutoff)
			n += d
			if err != nil {
				return n, err
			}
		}
		if len(next) == 0 {
			return n, nil
		}
		token = next
	}
}

// deleteKeys deletes keys from the bucket. With a claimCutoff, it first
// takes the collector's claim on those nobody claimed since then, deletes
// only those, and drops its claims after: a commit claiming one of them
// meanwhile either came first (the key stays) or finds the collector's
// claim and puts the bytes again.
func (a *App) deleteKeys(ctx context.Context, keys []string, claimCutoff time.Time) (n int64, err error) {
	if len(keys) == 0 {
		return 0, nil
	}
	if !claimCutoff.IsZero() {
		err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
			keys, err = store.TombstoneBlobs(ctx, tx, keys, claimCutoff)
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	for _, k := range keys {
		if err := a.blobs.Delete(ctx, k); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return n, fmt.Errorf("delete %s: %w", k, err)
		}
		n++
	}
	if claimCutoff.IsZero() {
		return n, nil
	}
	return n, a.db.Write(ctx, func(tx *store.Tx) error { return store.DropTombstones(ctx, tx, keys) })
}

// finishTombstones deletes the keys a stopped collection claimed but did
// not finish with.
func (a *App) finishTombstones(ctx context.Context) error {
	for {
		var keys []string
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			keys, err = store.LeftTombstones(ctx, tx, tx.Now.Add(-a.gcGrace), gcPage)
			return err
		})
		if err != nil || len(keys) == 0 {
			return err
		}
		for _, k := range keys {
			if err := a.blobs.Delete(ctx, k); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				return fmt.Errorf("delete %s: %w", k, err)
			}
		}
		if err := a.db.Write(ctx, func(tx *store.Tx) error { return store.DropTombstones(ctx, tx, keys) }); err != nil {
			return err
		}
	}
}

// sweepContentBlobs removes files' bytes that no revision's tree lists, and
// counts the listed ones the bucket lacks.
func (a *App) sweepContentBlobs(ctx context.Context, m *gcMark, cutoff, claimCutoff time.Time) (deleted int64, missing int, err error) {
	found := make(map[content.Hash]struct{}, len(m.blobs))
	seen := func(k string) {
		if h, err := content.ParseHash(strings.TrimPrefix(k, blobPrefix)); err == nil {
			if _, live := m.blobs[h]; live {
				found[h] = struct{}{}
			}
		}
	}
	deleted, err = a.sweepBucket(ctx, blobPrefix, cutoff, claimCutoff, seen, func(keys []string) ([]string, error) {
		var dead []string
		for _, k := range keys {
			h, err := content.ParseHash(strings.TrimPrefix(k, blobPrefix))
			if _, live := m.blobs[h]; err == nil && live {
				continue
			}
			dead = append(dead, k)
		}
		return dead, nil
	})
	return deleted, len(m.blobs) - len(found), err
}

// sweepPDFs removes PDFs whose export row is gone with its space.
func (a *App) sweepPDFs(ctx context.Context, cutoff time.Time) (int64, error) {
	return a.sweepBucket(ctx, pdfPrefix, cutoff, time.Time{}, nil, func(keys []string) ([]string, error) {
		parsed := map[string]store.PDFExportKey{}
		var list []store.PDFExportKey
		var dead []string
		for _, k := range keys {
			parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(k, pdfPrefix), ".pdf"), "/")
			if len(parts) != 3 {
				continue // not one of ours: left alone
			}
			pk := store.PDFExportKey{SpaceID: parts[0], RevisionID: parts[1], Variant: parts[2]}
			parsed[k] = pk
			list = append(list, pk)
		}
		var have map[store.PDFExportKey]bool
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			have, err = store.ExistingPDFExports(ctx, tx, list)
			return err
		})
		if err != nil {
			return nil, err
		}
		for k, pk := range parsed {
			if !have[pk] {
				dead = append(dead, k)
			}
		}
		return dead, nil
	})
}

// sweepAssets removes integration icons and preview images that no
// integration names any more.
func (a *App) sweepAssets(ctx context.Context, cutoff, claimCutoff time.Time) (int64, error) {
	var names map[string]bool
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) { names, err = store.IntegrationAssetNames(ctx, tx); return err })
	if err != nil {
		return 0, err
	}
	return a.sweepBucket(ctx, assetPrefix, cutoff, claimCutoff, nil, func(keys []string) ([]string, error) {
		var dead []string
		for _, k := range keys {
			if !names[strings.TrimPrefix(k, assetPrefix)] {
				dead = append(dead, k)
			}
		}
		return dead, nil
	})
}

// pruneHistory deletes finished jobs, events, webhook deliveries and
// integration events older than before, a batch per transaction.
func (a *App) pruneHistory(ctx context.Context, before time.Time) (n int64, err error) {
	for {
		var got map[string]int64
		err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
			got, err = store.PruneHistoryBatch(ctx, tx, before, gcPage)
			return err
		})
		if err != nil {
			return n, err
		}
		more := false
		for _, c := range got {
			n += c
			more = more || c == gcPage
		}
		if !more {
			return n, nil
		}
	}
}

// putBlob writes bytes under a content-addressed key unless the bucket has
// them; the transaction that references them claims the key (claimKeys).
func (a *App) putBlob(ctx context.Context, key string, data []byte, contentType string) error {
	ok, err := a.blobs.Exists(ctx, key)
	if err != nil {
		return fmt.Errorf("check %s: %w", key, err)
	}
	if ok {
		return nil
	}
	if err := a.blobs.Upload(ctx, key, bytes.NewReader(data), &blob.WriterOptions{ContentType: contentType}); err != nil {
		return fmt.Errorf("write %s: %w", key, err)
	}
	return nil
}

// claimKeys claims bucket keys in tx (store.ClaimBlobs) and checks that the
// bytes of those claimed anew exist: a collection may have removed them
// after they were put, and then the write must put them again.
func (a *App) claimKeys(ctx context.Context, tx *store.Tx, keys []string) error {
	fresh, err := store.ClaimBlobs(ctx, tx, keys, tx.Now.Add(-a.gcGrace))
	if err != nil {
		return err
	}
	for _, k := range fresh {
		ok, err := a.blobs.Exists(ctx, k)
		if err != nil {
			return fmt.Errorf("check %s: %w", k, err)
		}
		if !ok {
			return store.ErrBlobDeleting
		}
	}
	return nil
}
