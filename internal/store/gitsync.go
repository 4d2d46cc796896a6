package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/foliodocs/folio"
)

// GetGitSync returns a space's git sync, or NotFound (also once removed).
func GetGitSync(ctx context.Context, t *Tx, spaceID folio.ID) (*folio.GitSync, error) {
	g := folio.GitSync{SpaceID: spaceID}
	var (
		updated int64
		last    sql.NullInt64
	)
	err := t.get(ctx, `SELECT url, ref, project_dir, provider, tree_url, commit_url, repo_cache_id,
		last_event_at, last_commit, last_revision, config, deleted, updated_at, credentials IS NOT NULL
		FROM git_syncs WHERE space_id = ?`,
		[]any{spaceID}, &g.URL, &g.Ref, &g.ProjectDir, &g.Provider, &g.TreeURL, &g.CommitURL, &g.RepoCacheID,
		&last, &g.LastCommit, &g.LastRevision, &g.Config, &g.Deleted, &updated, &g.HasCredentials)
	if err != nil {
		return nil, notFound(err, "get git sync", "no git sync is set up on this space")
	}
	g.LastEventAt = nullMicros(last)
	g.UpdatedAt = fromMicros(updated)
	return &g, nil
}

// PutGitSync records where a space syncs (a new row, or new settings for
// the row, which keeps its sync base while the repository URL and ref stay
// the same, and its credentials while the URL stays the same and the sync
// was not removed); UpdatedAt is the transaction's time.
func PutGitSync(ctx context.Context, t *Tx, g *folio.GitSync) error {
	g.UpdatedAt = t.Now
	_, err := t.exec(ctx, `INSERT INTO git_syncs (space_id, url, ref, project_dir, provider, tree_url, commit_url, repo_cache_id, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (space_id) DO UPDATE SET url = excluded.url, ref = excluded.ref, project_dir = excluded.project_dir,
			last_commit = CASE WHEN git_syncs.url = excluded.url AND git_syncs.ref = excluded.ref THEN git_syncs.last_commit ELSE '' END,
			last_revision = CASE WHEN git_syncs.url = excluded.url AND git_syncs.ref = excluded.ref THEN git_syncs.last_revision ELSE '' END,
			last_event_at = CASE WHEN git_syncs.url = excluded.url AND git_syncs.ref = excluded.ref AND NOT git_syncs.deleted
				THEN git_syncs.last_event_at ELSE NULL END,
			provider = excluded.provider, tree_url = excluded.tree_url, commit_url = excluded.commit_url,
			credentials = CASE WHEN git_syncs.url = excluded.url AND NOT git_syncs.deleted THEN git_syncs.credentials ELSE NULL END,
			repo_cache_id = excluded.repo_cache_id, deleted = FALSE, updated_at = excluded.updated_at`,
		g.SpaceID, g.URL, g.Ref, g.ProjectDir, g.Provider, g.TreeURL, g.CommitURL, g.RepoCacheID, micros(t.Now))
	if err != nil {
		return wrap(err, "put git sync")
	}
	return setSpaceGitState(ctx, t, g.SpaceID, g.State())
}

// SetGitSyncBase records the commit and revision that are equal after a
// sync with the repository branch at url and ref, and the trigger timestamp
// it processed. The base is kept only while the space still syncs with that
// branch.
func SetGitSyncBase(ctx context.Context, t *Tx, spaceID folio.ID, url, ref string, eventAt time.Time, commit string, revision folio.ID) error {
	if err := SetGitSyncEvent(ctx, t, spaceID, eventAt); err != nil {
		return err
	}
	_, err := t.exec(ctx, `UPDATE git_syncs SET last_commit = ?, last_revision = ? WHERE space_id = ? AND url = ? AND ref = ?`,
		commit, revision, spaceID, url, ref)
	return wrap(err, "set git sync base")
}

// SetGitSyncEvent records a processed trigger timestamp without moving the
// sync base (an operation that failed or changed nothing still counts).
func SetGitSyncEvent(ctx context.Context, t *Tx, spaceID folio.ID, eventAt time.Time) error {
	_, err := t.exec(ctx, `UPDATE git_syncs SET
		last_event_at = CASE WHEN last_event_at IS NULL OR last_event_at < ? THEN ? ELSE last_event_at END
		WHERE space_id = ?`, micros(eventAt), micros(eventAt), spaceID)
	return wrap(err, "set git sync event")
}

// SetGitSyncConfig keeps the repository configuration (.gitbook.yaml, as
// JSON) read by the space's last import, for exports to write.
func SetGitSyncConfig(ctx context.Context, t *Tx, spaceID folio.ID, config string) error {
	_, err := t.exec(ctx, `UPDATE git_syncs SET config = ? WHERE space_id = ?`, config, spaceID)
	return wrap(err, "set git sync config")
}

// GitSyncCredentials returns the sealed credentials a space's git sync
// keeps ("" for none), or NotFound.
func GitSyncCredentials(ctx context.Context, t *Tx, spaceID folio.ID) (string, error) {
	var sealed sql.NullString
	if err := t.get(ctx, `SELECT credentials FROM git_syncs WHERE space_id = ? AND NOT deleted`, []any{spaceID}, &sealed); err != nil {
		return "", notFound(err, "get git sync credentials", "no git sync is set up on this space")
	}
	return sealed.String, nil
}

// SetGitSyncCredentials keeps sealed credentials on a space's git sync,
// or forgets them ("", and then false when there were none).
func SetGitSyncCredentials(ctx context.Context, t *Tx, spaceID folio.ID, sealed string) (bool, error) {
	var v any
	if sealed != "" {
		v = sealed
	}
	n, err := t.exec(ctx, `UPDATE git_syncs SET credentials = ? WHERE space_id = ? AND NOT deleted AND (? OR credentials IS NOT NULL)`,
		v, spaceID, sealed != "")
	return n > 0, wrap(err, "set git sync credentials")
}

// RemoveGitSync marks a space's git sync removed; false when there was none
// left to remove.
func RemoveGitSync(ctx context.Context, t *Tx, spaceID folio.ID) (bool, error) {
	n, err := t.exec(ctx, `UPDATE git_syncs SET deleted = TRUE, last_event_at = NULL, last_commit = '', last_revision = '',
		credentials = NULL, updated_at = ? WHERE space_id = ? AND NOT deleted`, micros(t.Now), spaceID)
	if err != nil || n == 0 {
		return false, wrap(err, "remove git sync")
	}
	// Operations still waiting will not run: they end, and lose their
	// credentials, now.
	if _, err := t.exec(ctx, `UPDATE git_operations SET state = ?, error = ?, credentials = '', completed_at = ?, updated_at = ?
		WHERE space_id = ? AND state = ?`, folio.GitSkipped, "skipped: the space's git sync was removed",
		micros(t.Now), micros(t.Now), spaceID, folio.GitQueued); err != nil {
		return false, wrap(err, "skip queued git operations")
	}
	return true, setSpaceGitState(ctx, t, spaceID, nil)
}

const gitOperationColumns = `id, space_id, direction, state, stage, url, ref, event_at, force, standalone, outcome,
	commit_oid, revision_id, change_request, error, created_by, created_at, started_at, updated_at, completed_at,
	tasks_done, tasks_total`

func scanGitOperation(rows *sql.Rows, o *folio.GitOperation) error {
	var (
		event, created, updated int64
		started, completed      sql.NullInt64
	)
	if err := rows.Scan(&o.ID, &o.SpaceID, &o.Direction, &o.State, &o.Stage, &o.URL, &o.Ref, &event, &o.Force,
		&o.Standalone, &o.Outcome, &o.Commit, &o.Revision, &o.ChangeRequest, &o.Error, &o.CreatedBy, &created,
		&started, &updated, &completed, &o.TasksDone, &o.TasksTotal); err != nil {
		return err
	}
	o.EventAt, o.CreatedAt, o.UpdatedAt = fromMicros(event), fromMicros(created), fromMicros(updated)
	o.StartedAt, o.CompletedAt = nullMicros(started), nullMicros(completed)
	return nil
}

// CreateGitOperation records a queued operation with its parameters (JSON)
// and its sealed credentials ("" for none).
func CreateGitOperation(ctx context.Context, t *Tx, o *folio.GitOperation, params, credentials string) error {
	o.CreatedAt, o.UpdatedAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO git_operations (id, space_id, direction, state, stage, url, ref, params, credentials,
		event_at, force, standalone, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.SpaceID, o.Direction, o.State, o.Stage, o.URL, o.Ref, params, credentials, micros(o.EventAt),
		o.Force, o.Standalone, o.CreatedBy, micros(t.Now), micros(t.Now))
	return wrap(err, "create git operation")
}

// GetGitOperation returns an operation with its parameters and sealed
// credentials, or NotFound.
func GetGitOperation(ctx context.Context, t *Tx, id folio.ID) (o *folio.GitOperation, params, credentials string, err error) {
	o = new(folio.GitOperation)
	err = t.one(ctx, `SELECT `+gitOperationColumns+`, params, credentials FROM git_operations WHERE id = ?`, []any{id},
		func(rows *sql.Rows) error {
			var (
				event, created, updated int64
				started, completed      sql.NullInt64
			)
			if err := rows.Scan(&o.ID, &o.SpaceID, &o.Direction, &o.State, &o.Stage, &o.URL, &o.Ref, &event, &o.Force,
				&o.Standalone, &o.Outcome, &o.Commit, &o.Revision, &o.ChangeRequest, &o.Error, &o.CreatedBy, &created,
				&started, &updated, &completed, &o.TasksDone, &o.TasksTotal, &params, &credentials); err != nil {
				return err
			}
			o.EventAt, o.CreatedAt, o.UpdatedAt = fromMicros(event), fromMicros(created), fromMicros(updated)
			o.StartedAt, o.CompletedAt = nullMicros(started), nullMicros(completed)
			return nil
		})
	if err != nil {
		return nil, "", "", notFound(err, "get git operation", "git operation not found")
	}
	return o, params, credentials, nil
}

// UpdateGitOperation saves an operation's progress. An operation that
// ended loses its credentials.
func UpdateGitOperation(ctx context.Context, t *Tx, o *folio.GitOperation) error {
	o.UpdatedAt = t.Now
	var started, completed any
	if o.StartedAt != nil {
		started = micros(*o.StartedAt)
	}
	if o.CompletedAt != nil {
		completed = micros(*o.CompletedAt)
	}
	_, err := t.exec(ctx, `UPDATE git_operations SET state = ?, stage = ?, outcome = ?, commit_oid = ?, revision_id = ?,
		change_request = ?, error = ?, started_at = ?, updated_at = ?, completed_at = ?, tasks_done = ?, tasks_total = ?,
		credentials = CASE WHEN ? THEN '' ELSE credentials END WHERE id = ?`,
		o.State, o.Stage, o.Outcome, o.Commit, o.Revision, o.ChangeRequest, o.Error, started, micros(t.Now), completed,
		o.TasksDone, o.TasksTotal, o.Ended(), o.ID)
	return wrap(err, "update git operation")
}

// LatestGitOperation returns a space's newest operation, or NotFound.
func LatestGitOperation(ctx context.Context, t *Tx, spaceID folio.ID) (*folio.GitOperation, error) {
	o := new(folio.GitOperation)
	err := t.one(ctx, `SELECT `+gitOperationColumns+` FROM git_operations WHERE space_id = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`, []any{spaceID}, func(rows *sql.Rows) error { return scanGitOperation(rows, o) })
	if err != nil {
		return nil, notFound(err, "latest git operation", "no git operation")
	}
	return o, nil
}

// ListGitOperations returns a space's operations, oldest first (at most
// folio.GitOperationsKept are kept).
func ListGitOperations(ctx context.Context, t *Tx, spaceID folio.ID) ([]folio.GitOperation, error) {
	var out []folio.GitOperation
	err := t.query(ctx, `SELECT `+gitOperationColumns+` FROM git_operations WHERE space_id = ?
		ORDER BY created_at, id LIMIT ?`, []any{spaceID, folio.GitOperationsKept + folio.MaxGitQueuedOperation},
		func(rows *sql.Rows) error {
			var o folio.GitOperation
			if err := scanGitOperation(rows, &o); err != nil {
				return err
			}
			out = append(out, o)
			return nil
		})
	return out, wrap(err, "list git operations")
}

// CountActiveGitOperations counts a space's operations that have not ended.
func CountActiveGitOperations(ctx context.Context, t *Tx, spaceID folio.ID) (n int, err error) {
	err = t.get(ctx, `SELECT COUNT(*) FROM git_operations WHERE space_id = ? AND state IN (?, ?)`,
		[]any{spaceID, folio.GitQueued, folio.GitRunning}, &n)
	return n, wrap(err, "count git operations")
}

// PruneGitOperations removes a space's ended operations beyond the newest
// keep.
func PruneGitOperations(ctx context.Context, t *Tx, spaceID folio.ID, keep int) error {
	_, err := t.exec(ctx, `DELETE FROM git_operations WHERE space_id = ? AND state NOT IN (?, ?) AND id NOT IN (
		SELECT id FROM git_operations WHERE space_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
		spaceID, folio.GitQueued, folio.GitRunning, spaceID, keep)
	return wrap(err, "prune git operations")
}

// SetRevisionGit records the git commit of a revision (after an export
// pushed it); the revision's content does not change.
func SetRevisionGit(ctx context.Context, t *Tx, spaceID, revisionID folio.ID, git *folio.GitCommit) error {
	b, _ := json.Marshal(git)
	_, err := t.exec(ctx, `UPDATE revisions SET git = ? WHERE id = ? AND space_id = ?`, string(b), revisionID, spaceID)
	return wrap(err, "set revision git")
}

// setSpaceGitState keeps the space's copy of its Git info (nil: none).
func setSpaceGitState(ctx context.Context, t *Tx, spaceID folio.ID, st *folio.GitSyncState) error {
	var v any
	if st != nil {
		b, _ := json.Marshal(st)
		v = string(b)
	}
	_, err := t.exec(ctx, `UPDATE spaces SET git_sync = ? WHERE id = ?`, v, spaceID)
	return wrap(err, "set space git sync")
}
