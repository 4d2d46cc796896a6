package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"github.com/foliodocs/folio"
)

// What garbage collection reads and removes (docs/garbage-collection.md).
// Every list is read in pages by key, so that no query holds the whole
// table and each page costs one index range.

// RevisionTree is a revision's id and the hash of its tree.
type RevisionTree struct {
	ID       folio.ID
	TreeHash string
}

// RevisionTreesAfter returns at most limit revisions whose id is greater
// than after, in id order: every revision of every space is a root of the
// content garbage collection (change requests' heads and the revisions
// comments were posted on are revisions too).
func RevisionTreesAfter(ctx context.Context, t *Tx, after folio.ID, limit int) ([]RevisionTree, error) {
	var out []RevisionTree
	err := t.query(ctx, `SELECT id, tree_hash FROM revisions WHERE id > ? ORDER BY id LIMIT ?`, []any{after, limit},
		func(r *sql.Rows) error {
			var rt RevisionTree
			if err := r.Scan(&rt.ID, &rt.TreeHash); err != nil {
				return err
			}
			out = append(out, rt)
			return nil
		})
	return out, wrap(err, "list revision trees")
}

// ObjectsUntouchedAfter returns at most limit object hashes greater than
// after, in hash order, of objects whose touched_at is before cutoff: the
// candidates of a sweep.
func ObjectsUntouchedAfter(ctx context.Context, t *Tx, after string, cutoff time.Time, limit int) ([]string, error) {
	var out []string
	err := t.query(ctx, `SELECT hash FROM objects WHERE hash > ? AND touched_at < ? ORDER BY hash LIMIT ?`,
		[]any{after, micros(cutoff), limit}, func(r *sql.Rows) error {
			var h string
			if err := r.Scan(&h); err != nil {
				return err
			}
			out = append(out, h)
			return nil
		})
	return out, wrap(err, "list untouched objects")
}

// DeleteObjects removes the objects among hashes that are still untouched
// since cutoff, and reports how many it removed. The condition is checked
// again by the DELETE itself: an object a commit reused since the sweep
// listed it stays (on PostgreSQL the DELETE waits for that commit's row
// lock and re-reads the row).
func DeleteObjects(ctx context.Context, t *Tx, hashes []string, cutoff time.Time) (int64, error) {
	if len(hashes) == 0 {
		return 0, nil
	}
	in, args := inList(t, hashes)
	n, err := t.once().exec(ctx, `DELETE FROM objects WHERE touched_at < ? AND hash IN `+in, append([]any{micros(cutoff)}, args...)...)
	return n, wrap(err, "delete objects")
}

// ExistingObjects returns which of hashes are stored, without their data.
func ExistingObjects(ctx context.Context, t *Tx, hashes []string) (map[string]bool, error) {
	out := make(map[string]bool, len(hashes))
	if len(hashes) == 0 {
		return out, nil
	}
	in, args := inList(t, hashes)
	err := t.once().query(ctx, `SELECT hash FROM objects WHERE hash IN `+in, args, func(r *sql.Rows) error {
		var h string
		if err := r.Scan(&h); err != nil {
			return err
		}
		out[h] = true
		return nil
	})
	return out, wrap(err, "check objects")
}

// PDFExportKey names one stored PDF export.
type PDFExportKey struct {
	SpaceID, RevisionID folio.ID
	Variant             string
}

// ExistingPDFExports returns which of keys have an export row: a PDF in
// the bucket without one belongs to a purged space.
func ExistingPDFExports(ctx context.Context, t *Tx, keys []PDFExportKey) (map[PDFExportKey]bool, error) {
	out := make(map[PDFExportKey]bool, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	revs := make([]folio.ID, len(keys))
	for i, k := range keys {
		revs[i] = k.RevisionID
	}
	in, args := inList(t, revs)
	err := t.once().query(ctx, `SELECT space_id, revision_id, variant FROM pdf_exports WHERE revision_id IN `+in, args,
		func(r *sql.Rows) error {
			var k PDFExportKey
			if err := r.Scan(&k.SpaceID, &k.RevisionID, &k.Variant); err != nil {
				return err
			}
			out[k] = true
			return nil
		})
	return out, wrap(err, "check pdf exports")
}

// IntegrationAssetNames returns the stored names of every integration's
// icon and preview images: the roots of the integration assets in the
// bucket.
func IntegrationAssetNames(ctx context.Context, t *Tx) (map[string]bool, error) {
	out := map[string]bool{}
	err := t.query(ctx, `SELECT icon, preview_images FROM integrations`, nil, func(r *sql.Rows) error {
		var (
			icon, previews string
			names          []string
		)
		if err := r.Scan(&icon, &previews); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(previews), &names); err != nil {
			return err
		}
		if icon != "" {
			out[icon] = true
		}
		for _, n := range names {
			out[n] = true
		}
		return nil
	})
	return out, wrap(err, "list integration assets")
}

// OverdueDeletedSpaces returns at most limit spaces deleted before cutoff
// (their purge jobs normally removed them already).
func OverdueDeletedSpaces(ctx context.Context, t *Tx, cutoff time.Time, limit int) ([]folio.ID, error) {
	var out []folio.ID
	err := t.query(ctx, `SELECT id FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ? ORDER BY id LIMIT ?`,
		[]any{micros(cutoff), limit}, func(r *sql.Rows) error {
			var id folio.ID
			if err := r.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})
	return out, wrap(err, "list overdue deleted spaces")
}

// historyPrunes are the history tables pruned by age, with the condition
// a row must meet to go: an event, a delivery or a job that is still due
// stays whatever its age.
var historyPrunes = []struct{ name, table, key, cond string }{
	{"events", "events", "id", "created_at < ?"},
	{"webhook_deliveries", "webhook_deliveries", "id", "created_at < ? AND state <> '" + folio.DeliveryPending + "'"},
	{"integration_events", "integration_events", "id", "created_at < ? AND status <> '" + folio.IntegrationEventPending + "'"},
	{"jobs", "jobs", "id", "done_at < ?"},
}

// PruneHistoryBatch deletes at most limit rows of each history table older
// than before, and reports how many it deleted per table; the caller
// repeats until nothing is left, each batch its own transaction.
func PruneHistoryBatch(ctx context.Context, t *Tx, before time.Time, limit int) (map[string]int64, error) {
	out := map[string]int64{}
	for _, p := range historyPrunes {
		n, err := t.exec(ctx, `DELETE FROM `+p.table+` WHERE `+p.key+` IN (SELECT `+p.key+` FROM `+p.table+
			` WHERE `+p.cond+` LIMIT ?)`, micros(before), limit)
		if err != nil {
			return out, wrap(err, "prune "+p.name)
		}
		out[p.name] = n
	}
	return out, nil
}

// Blob claim states (the blob_claims table).
const (
	claimLive     = "live"
	claimDeleting = "deleting"
)

// ErrBlobDeleting is the answer of ClaimBlobs when the collector is
// removing one of the keys: the writer puts the bytes again and retries.
var ErrBlobDeleting = folio.Errorf(folio.Unavailable, "a file is being removed by garbage collection; try again")

// ClaimBlobs claims bucket keys for the transaction's commit: each becomes
// (or stays) live, touched now. It returns the keys it claimed anew (no
// claim before, or a claim a collector left behind more than stale ago):
// their bytes may have been removed before the claim, so the caller checks
// they exist before committing. It fails with ErrBlobDeleting when a
// collector is removing one of them. On PostgreSQL the claims stay locked
// until commit, so no collector takes them meanwhile.
func ClaimBlobs(ctx context.Context, t *Tx, keys []string, stale time.Time) (fresh []string, err error) {
	if len(keys) == 0 {
		return nil, nil
	}
	keys = slices.Clone(keys)
	slices.Sort(keys) // one locking order for every writer
	keys = slices.Compact(keys)
	in, args := inList(t, keys)
	state := map[string]string{}
	touched := map[string]int64{}
	err = t.once().query(ctx, `SELECT key, state, touched_at FROM blob_claims WHERE key IN `+in+` ORDER BY key`+t.db.d.forUpdate(), args,
		func(r *sql.Rows) error {
			var (
				k, s string
				at   int64
			)
			if err := r.Scan(&k, &s, &at); err != nil {
				return err
			}
			state[k], touched[k] = s, at
			return nil
		})
	if err != nil {
		return nil, wrap(err, "read blob claims")
	}
	var live, revive, missing []string
	for _, k := range keys {
		switch s, ok := state[k]; {
		case !ok:
			missing = append(missing, k)
		case s == claimLive:
			live = append(live, k)
		case touched[k] < micros(stale):
			revive = append(revive, k)
		default:
			return nil, ErrBlobDeleting
		}
	}
	if len(live)+len(revive) > 0 {
		in, args := inList(t, append(live, revive...))
		if _, err := t.once().exec(ctx, `UPDATE blob_claims SET state = ?, touched_at = ? WHERE key IN `+in,
			append([]any{claimLive, micros(t.Now)}, args...)...); err != nil {
			return nil, wrap(err, "touch blob claims")
		}
	}
	for _, k := range missing {
		n, err := t.exec(ctx, `INSERT INTO blob_claims (key, state, touched_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			k, claimLive, micros(t.Now))
		if err != nil {
			return nil, wrap(err, "claim blob")
		}
		if n == 0 {
			return nil, ErrBlobDeleting // a collector claimed it first
		}
	}
	return append(revive, missing...), nil
}

// TombstoneBlobs takes the collector's claim on the keys among keys that
// nobody claimed since cutoff (absent or old live claims), and returns
// every key of keys that now has a deleting claim: their bytes may go.
func TombstoneBlobs(ctx context.Context, t *Tx, keys []string, cutoff time.Time) ([]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	keys = slices.Clone(keys)
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := t.exec(ctx, `INSERT INTO blob_claims (key, state, touched_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			k, claimDeleting, micros(t.Now)); err != nil {
			return nil, wrap(err, "tombstone blob")
		}
	}
	in, args := inList(t, keys)
	if _, err := t.once().exec(ctx, `UPDATE blob_claims SET state = ?, touched_at = ? WHERE state = ? AND touched_at < ? AND key IN `+in,
		append([]any{claimDeleting, micros(t.Now), claimLive, micros(cutoff)}, args...)...); err != nil {
		return nil, wrap(err, "tombstone blobs")
	}
	var out []string
	err := t.once().query(ctx, `SELECT key FROM blob_claims WHERE state = ? AND key IN `+in, append([]any{claimDeleting}, args...),
		func(r *sql.Rows) error {
			var k string
			if err := r.Scan(&k); err != nil {
				return err
			}
			out = append(out, k)
			return nil
		})
	return out, wrap(err, "read tombstones")
}

// DropTombstones removes the collector's claims on keys whose bytes it
// deleted.
func DropTombstones(ctx context.Context, t *Tx, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	in, args := inList(t, keys)
	_, err := t.once().exec(ctx, `DELETE FROM blob_claims WHERE state = ? AND key IN `+in, append([]any{claimDeleting}, args...)...)
	return wrap(err, "drop tombstones")
}

// LeftTombstones returns at most limit keys of deleting claims older than
// before: a collector stopped between taking them and dropping them.
func LeftTombstones(ctx context.Context, t *Tx, before time.Time, limit int) ([]string, error) {
	var out []string
	err := t.query(ctx, `SELECT key FROM blob_claims WHERE state = ? AND touched_at < ? ORDER BY key LIMIT ?`,
		[]any{claimDeleting, micros(before), limit}, func(r *sql.Rows) error {
			var k string
			if err := r.Scan(&k); err != nil {
				return err
			}
			out = append(out, k)
			return nil
		})
	return out, wrap(err, "list left tombstones")
}
