package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// Object is an immutable piece of content stored under the hash of its data.
type Object struct {
	Hash string // hex SHA-256 of the canonical encoding
	Kind string // document, page, chunk, tree, files
	Data []byte
}

// maxObjectsPerInsert bounds the rows of one INSERT, under both dialects'
// limits on bound parameters.
const maxObjectsPerInsert = 200

// PutObjects stores objects. One already stored is kept as it is (identical
// content is kept once, whoever writes it), but its touched_at moves to now
// when it is older than touchBefore: the garbage collector removes only
// objects untouched for its grace period, so a commit that reuses an object
// the last sweep found unreachable keeps it (docs/garbage-collection.md). On
// PostgreSQL the upsert locks the row until commit, so a sweep deleting it
// meanwhile waits and then sees the new time.
func PutObjects(ctx context.Context, t *Tx, objs []Object, touchBefore time.Time) error {
	// One order for every writer: two transactions inserting the same new
	// objects in opposite orders would deadlock on PostgreSQL.
	objs = slices.Clone(objs)
	slices.SortFunc(objs, func(a, b Object) int { return strings.Compare(a.Hash, b.Hash) })
	for start := 0; start < len(objs); start += maxObjectsPerInsert {
		batch := objs[start:min(start+maxObjectsPerInsert, len(objs))]
		var q strings.Builder
		q.WriteString(`INSERT INTO objects (hash, kind, data, touched_at) VALUES `)
		args := make([]any, 0, 4*len(batch)+1)
		for i, o := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?)")
			args = append(args, o.Hash, o.Kind, string(o.Data), micros(t.Now))
		}
		q.WriteString(` ON CONFLICT (hash) DO UPDATE SET touched_at = excluded.touched_at WHERE objects.touched_at < ?`)
		args = append(args, micros(touchBefore))
		if _, err := t.once().exec(ctx, q.String(), args...); err != nil {
			return wrap(err, "put objects")
		}
	}
	return nil
}

// GetObjects loads objects by hash. Missing hashes are left out of the map;
// callers treat a missing object of a stored revision as corruption.
func GetObjects(ctx context.Context, t *Tx, hashes []string) (map[string]Object, error) {
	out := make(map[string]Object, len(hashes))
	for start := 0; start < len(hashes); start += maxObjectsPerInsert {
		tx, batch := padIn(t, hashes[start:min(start+maxObjectsPerInsert, len(hashes))])
		err := tx.query(ctx, `SELECT hash, kind, data FROM objects WHERE hash IN (`+placeholders(len(batch))+`)`,
			toAny(batch), func(r *sql.Rows) error {
				var (
					o    Object
					data string
				)
				if err := r.Scan(&o.Hash, &o.Kind, &data); err != nil {
					return err
				}
				o.Data = []byte(data)
				out[o.Hash] = o
				return nil
			})
		if err != nil {
			return nil, wrap(err, "get objects")
		}
	}
	return out, nil
}

// CreateRevision records a revision of a space whose objects are stored;
// CreatedAt is set to the transaction's time.
func CreateRevision(ctx context.Context, t *Tx, r *folio.Revision) error {
	if r.Parents == nil {
		r.Parents = []folio.ID{}
	}
	parents, _ := json.Marshal(r.Parents)
	r.CreatedAt = t.Now
	var git any
	if r.Git != nil {
		b, _ := json.Marshal(r.Git)
		git = string(b)
	}
	_, err := t.exec(ctx, `INSERT INTO revisions (id, space_id, tree_hash, parents, type, git, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.SpaceID, r.TreeHash, string(parents), r.Type, git, r.CreatedBy, micros(t.Now))
	return wrap(err, "create revision")
}

// GetRevision returns a revision of a space, or NotFound.
func GetRevision(ctx context.Context, t *Tx, spaceID, id folio.ID) (*folio.Revision, error) {
	r := folio.Revision{SpaceID: spaceID}
	var (
		parents string
		git     sql.NullString
		created int64
	)
	err := t.get(ctx, `SELECT id, tree_hash, parents, type, git, created_by, created_at FROM revisions WHERE id = ? AND space_id = ?`,
		[]any{id, spaceID}, &r.ID, &r.TreeHash, &parents, &r.Type, &git, &r.CreatedBy, &created)
	if err != nil {
		return nil, notFound(err, "get revision", "revision not found")
	}
	if err := json.Unmarshal([]byte(parents), &r.Parents); err != nil {
		return nil, wrap(err, "decode revision parents")
	}
	if git.Valid {
		r.Git = new(folio.GitCommit)
		if err := json.Unmarshal([]byte(git.String), r.Git); err != nil {
			return nil, wrap(err, "decode revision git")
		}
	}
	r.CreatedAt = fromMicros(created)
	return &r, nil
}

// SetSpaceRevision moves a space's current revision from one revision to
// another. It fails with Conflict when the space no longer points at from:
// another writer committed first, and the caller must rebase.
func SetSpaceRevision(ctx context.Context, t *Tx, spaceID, from, to folio.ID) error {
	n, err := t.exec(ctx, `UPDATE spaces SET revision = ?, updated_at = ? WHERE id = ? AND revision = ?`,
		to, micros(t.Now), spaceID, from)
	if err != nil {
		return wrap(err, "set space revision")
	}
	if n == 0 {
		return folio.Errorf(folio.Conflict, "the space's content changed meanwhile; try again")
	}
	return nil
}

// RecentRevisions returns up to limit revisions of a space, newest first
// (change requests' revisions included: callers walk parents to keep the
// main line).
func RecentRevisions(ctx context.Context, t *Tx, spaceID folio.ID, limit int) ([]folio.Revision, error) {
	var out []folio.Revision
	err := t.query(ctx, `SELECT id, parents, type, created_by, created_at FROM revisions WHERE space_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ?`, []any{spaceID, limit}, func(rows *sql.Rows) error {
		r := folio.Revision{SpaceID: spaceID}
		var (
			parents string
			created int64
		)
		if err := rows.Scan(&r.ID, &parents, &r.Type, &r.CreatedBy, &created); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(parents), &r.Parents); err != nil {
			return err
		}
		r.CreatedAt = fromMicros(created)
		out = append(out, r)
		return nil
	})
	return out, wrap(err, "list revisions")
}
