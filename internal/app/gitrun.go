package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/store"
)

// A git operation's run: claiming the queued job, progress and stages,
// the outcome recorded and announced.

// gitRun is one operation being run.
type gitRun struct {
	a      *App
	op     *folio.GitOperation
	params gitParams
	sync   *folio.GitSync
	remote gitrepo.Remote
	caller folio.Caller
}

// GitSyncJob runs a queued git operation. Failures the repository or the
// request caused end the operation with why; only outages are returned, so
// that the runner retries them.
func (a *App) GitSyncJob(ctx context.Context, payload string) error {
	var job gitJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "git job payload: %v", err)
	}
	r, skip, err := a.startGitRun(ctx, job.Operation)
	if err != nil || skip {
		return err
	}
	if a.git == nil {
		// A server without git sync picked the job: the operation ends,
		// rather than waiting on retries that would hold up the space.
		return r.finish(ctx, folio.Errorf(folio.Unavailable, "git sync is not configured on the server that ran this operation"))
	}
	runErr := r.run(ctx)
	return r.finish(ctx, runErr)
}

// startGitRun loads an operation and marks it running, or skipped when an
// event newer than its own was already processed for the space.
func (a *App) startGitRun(ctx context.Context, id folio.ID) (r *gitRun, skip bool, err error) {
	r = &gitRun{a: a}
	var creds string
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		op, params, sealed, err := store.GetGitOperation(ctx, tx, id)
		if err != nil {
			return err
		}
		if op.Ended() {
			skip = true
			return nil
		}
		if err := json.Unmarshal([]byte(params), &r.params); err != nil {
			return fmt.Errorf("decode git operation %s: %w", id, err)
		}
		g, err := store.GetGitSync(ctx, tx, op.SpaceID)
		if err != nil {
			return err
		}
		r.op, r.sync, creds = op, g, sealed
		now := tx.Now
		if g.Deleted {
			op.State, op.CompletedAt, op.Error = folio.GitSkipped, &now, "skipped: the space's git sync was removed"
			skip = true
			return store.UpdateGitOperation(ctx, tx, op)
		}
		if g.URL != op.URL || g.Ref != op.Ref {
			// The space syncs with another branch now: this operation's
			// branch has no base, as on a first sync.
			g.LastCommit, g.LastRevision = "", ""
		}
		if g.LastEventAt != nil && op.EventAt.Before(*g.LastEventAt) {
			op.State, op.CompletedAt = folio.GitSkipped, &now
			op.Error = fmt.Sprintf("skipped: an event newer than this one (%s) was already processed for this space (%s)",
				op.EventAt.Format(time.RFC3339Nano), g.LastEventAt.Format(time.RFC3339Nano))
			skip = true
			return store.UpdateGitOperation(ctx, tx, op)
		}
		op.State, op.Stage, op.StartedAt = folio.GitRunning, folio.GitStageFetch, &now
		if err := store.UpdateGitOperation(ctx, tx, op); err != nil {
			return err
		}
		return a.emitGitEvent(ctx, tx, op, folio.EventSpaceGitSyncStarted, "")
	})
	if err != nil || skip {
		return r, skip, err
	}
	r.caller = folio.Caller{UserID: r.op.CreatedBy, Org: r.params.Org}
	r.remote = gitrepo.Remote{URL: r.params.URL, Ref: r.params.Ref}
	if creds != "" {
		if a.sealer == nil {
			return r, false, r.finish(ctx, folio.Errorf(folio.Invalid, "the repository credentials cannot be read: this server has no secret key (set FOLIO_SECRET_KEY)"))
		}
		plain, err := a.sealer.Open(creds, gitSealContext(r.op.ID))
		if err != nil {
			return r, false, r.finish(ctx, folio.Errorf(folio.Invalid, "the repository credentials can no longer be read (was the server key changed?)"))
		}
		u, _ := url.Parse(r.params.URL)
		u.User = parseUserinfo(string(plain))
		r.remote.URL = u.String()
	}
	return r, false, nil
}

// parseUserinfo reads back a Userinfo's String form (user or user:password,
// escaped).
func parseUserinfo(s string) *url.Userinfo {
	u, err := url.Parse("http://" + s + "@x/")
	if err != nil || u.User == nil {
		return nil
	}
	return u.User
}

// progressSteps is how many times at most the progress of one stage is
// written: often enough to watch, rarely enough to cost nothing.
const progressSteps = 20

// progress returns the gitsync progress callback of the run: it records
// the files read in the operation, every 1/progressSteps of the total and
// at the end, so getSpaceGitInfo shows a long import advancing.
func (r *gitRun) progress(ctx context.Context) func(done, total int) {
	written := 0
	return func(done, total int) {
		step := max(1, total/progressSteps)
		if done < total && done-written < step {
			return
		}
		written = done
		r.op.TasksDone, r.op.TasksTotal = done, total
		err := r.a.db.Write(ctx, func(tx *store.Tx) error { return store.UpdateGitOperation(ctx, tx, r.op) })
		if err != nil {
			// Progress is informative: the import goes on without it.
			r.a.logger.Warn("git operation progress not recorded", "operation", r.op.ID, "error", err.Error())
			return
		}
		if r.a.gitProgressHook != nil {
			r.a.gitProgressHook(r.op.SpaceID)
		}
	}
}

// stage records the stage an operation reached.
func (r *gitRun) stage(ctx context.Context, stage string) error {
	r.op.Stage = stage
	return r.a.db.Write(ctx, func(tx *store.Tx) error { return store.UpdateGitOperation(ctx, tx, r.op) })
}

// finish records how an operation ended and emits its completion. Every
// failure ends the operation, an unreachable repository included: retrying
// it here would hold up the space's later operations, and the next trigger
// tries again. Only a failure to record the outcome (the database) is
// returned, for the runner to retry the job.
func (r *gitRun) finish(ctx context.Context, runErr error) error {
	if k := folio.KindOf(runErr); runErr != nil && (k == folio.Internal || k == folio.Unavailable) && !errors.Is(runErr, context.Canceled) {
		r.a.logger.Warn("git operation failed", "operation", r.op.ID, "space", r.op.SpaceID, "error", redactError(runErr, r.remote.URL))
	}
	if ctx.Err() != nil {
		// Cancelled, or the server is stopping: the operation ends as
		// failed either way (a later trigger runs it again), recorded
		// with a context of its own.
		runErr = folio.Errorf(folio.Unavailable, "the operation was cancelled (cancelled job or server stopping)")
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
	}
	return r.a.db.Write(ctx, func(tx *store.Tx) error {
		now := tx.Now
		r.op.CompletedAt = &now
		if runErr == nil {
			r.op.State = folio.GitSuccess
		} else {
			r.op.State, r.op.Error = folio.GitFailure, gitErrorMessage(runErr, r.remote.URL)
			if err := store.SetGitSyncEvent(ctx, tx, r.op.SpaceID, r.op.EventAt); err != nil {
				return err
			}
		}
		if err := store.UpdateGitOperation(ctx, tx, r.op); err != nil {
			return err
		}
		if err := store.PruneGitOperations(ctx, tx, r.op.SpaceID, folio.GitOperationsKept); err != nil {
			return err
		}
		return r.a.emitGitEvent(ctx, tx, r.op, folio.EventSpaceGitSyncCompleted, r.op.State)
	})
}

// gitErrorMessage is what an operation's error says: the message of a
// user-facing error, never credentials.
func gitErrorMessage(err error, rawURL string) string {
	if folio.KindOf(err) == folio.Internal {
		return "internal error (see the server log)"
	}
	return redactError(err, rawURL)
}

// redactError returns err's message without the credentials of rawURL.
func redactError(err error, rawURL string) string {
	msg := folio.MessageOf(err)
	if folio.KindOf(err) == folio.Internal {
		msg = err.Error()
	}
	if u, perr := url.Parse(rawURL); perr == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "***")
			msg = strings.ReplaceAll(msg, url.QueryEscape(p), "***")
		}
		msg = strings.ReplaceAll(msg, rawURL, gitrepo.Redact(rawURL))
	}
	return msg
}

// emitGitEvent records a git sync event (space_gitsync_started or
// space_gitsync_completed, with state success or failure).
func (a *App) emitGitEvent(ctx context.Context, tx *store.Tx, op *folio.GitOperation, typ, state string) error {
	s, err := store.GetSpaceIncludingDeleted(ctx, tx, op.SpaceID)
	if err != nil {
		return err
	}
	p := map[string]any{"type": typ, "spaceId": op.SpaceID, "revisionId": op.Revision, "commitId": op.Commit,
		"operation": op.ID, "direction": op.Direction}
	if state != "" {
		p["state"] = state
	}
	return emit(ctx, tx, s.OrganizationID, op.SpaceID, typ, p)
}

// run runs the operation's stages.
func (r *gitRun) run(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.a.gitConfig.Timeout)
	defer cancel()
	if r.op.Direction == folio.GitExport {
		return r.export(ctx)
	}
	return r.importRepo(ctx)
}
