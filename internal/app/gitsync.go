package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/gitsync"
	"github.com/foliodocs/folio/internal/netguard"
	"github.com/foliodocs/folio/internal/store"
)

// GitConfig configures git sync.
type GitConfig struct {
	// CacheDir holds the repository caches (repoCacheID); a temporary
	// folder when empty.
	CacheDir string
	// AllowFile allows file:// repositories (local paths on the server).
	AllowFile bool
	// SSHKey is the PEM private key used for ssh:// repositories; nil
	// refuses them. SSHKnownHosts (known_hosts lines) is required with it:
	// host keys are always checked.
	SSHKey, SSHKnownHosts []byte
	// AllowPrivate lets ssh repositories be on loopback and private
	// networks (--import-allow-private); otherwise the host's addresses go
	// through netguard like every tenant URL (http(s) goes through the
	// app's guarded client).
	AllowPrivate bool
	// MaxBytes caps what one sync fetches and reads; 0 selects
	// DefaultGitMaxBytes.
	MaxBytes int64
	// Timeout bounds one fetch or push; 0 selects DefaultGitTimeout.
	Timeout time.Duration
}

// Defaults of GitConfig.
const (
	DefaultGitMaxBytes = 1 << 30
	DefaultGitTimeout  = 10 * time.Minute
)

// GitInput is the body of importGitRepository and exportToGitRepository.
type GitInput struct {
	URL                  string     `json:"url"`
	Ref                  string     `json:"ref"`
	CommitMessage        string     `json:"commitMessage"` // export only
	RepoCacheID          string     `json:"repoCacheID"`
	RepoTreeURL          string     `json:"repoTreeURL"`
	RepoCommitURL        string     `json:"repoCommitURL"`
	RepoProjectDirectory string     `json:"repoProjectDirectory"`
	Timestamp            *time.Time `json:"timestamp"`
	Force                bool       `json:"force"`
	Standalone           bool       `json:"standalone"` // import only
	GitInfo              *struct {
		Provider string `json:"provider"`
		URL      string `json:"url"`
	} `json:"gitInfo"`
}

// gitParams are the parameters an operation keeps for its run (the URL
// without credentials; they are sealed apart).
type gitParams struct {
	URL           string `json:"url"`
	Ref           string `json:"ref"`
	CommitMessage string `json:"commitMessage,omitempty"`
	RepoCacheID   string `json:"repoCacheID,omitempty"`
	TreeURL       string `json:"repoTreeURL,omitempty"`
	CommitURL     string `json:"repoCommitURL,omitempty"`
	ProjectDir    string `json:"repoProjectDirectory,omitempty"`
	Org           string `json:"org,omitempty"` // the caller's token scope
}

// gitJob is the payload of a JobGitSync job.
type gitJob struct {
	Operation folio.ID `json:"operation"`
}

// refPattern is what a ref must look like: refs/heads/<branch>, where the
// branch follows git's ref name rules (no "..", no control characters or
// any of ~^:?*[\ and space, no component starting with "." or ending with
// ".lock").
var refPattern = regexp.MustCompile(`^refs/heads/[^\x00-\x20~^:?*\[\\\x7f]+$`)

func validRef(ref string) bool {
	if !refPattern.MatchString(ref) || len(ref) > folio.MaxGitRefLength || strings.Contains(ref, "..") ||
		strings.Contains(ref, "@{") || strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".") {
		return false
	}
	for _, c := range strings.Split(ref, "/") {
		if c == "" || strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	return true
}

var cacheIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:/@-]+$`)

// validate checks a git operation's input and splits its URL's
// credentials off: the URL that is kept and shown has none.
func (a *App) validateGit(in *GitInput, direction string) (clean *url.URL, creds *url.Userinfo, err error) {
	if a.git == nil {
		return nil, nil, folio.Errorf(folio.Unavailable, "git sync is not configured on this server")
	}
	if in.URL == "" {
		return nil, nil, folio.FieldErrorf("url", "url is required")
	}
	if len(in.URL) > folio.MaxGitURLLength {
		return nil, nil, folio.FieldErrorf("url", "url must be at most %d characters", folio.MaxGitURLLength)
	}
	u, err := url.Parse(in.URL)
	if err != nil || u.Scheme == "" {
		return nil, nil, folio.FieldErrorf("url", "url must be an absolute http, https, ssh or file URL")
	}
	switch u.Scheme {
	case "http", "https", "ssh":
		if u.Host == "" {
			return nil, nil, folio.FieldErrorf("url", "url must name a host")
		}
		if u.Scheme == "ssh" && a.gitConfig.SSHKey == nil {
			return nil, nil, folio.FieldErrorf("url", "ssh repositories need an ssh key configured on this server (--git-ssh-key)")
		}
	case "file":
		if !a.gitConfig.AllowFile {
			return nil, nil, folio.FieldErrorf("url", "file URLs are not allowed on this server")
		}
		if u.User != nil {
			return nil, nil, folio.FieldErrorf("url", "a file URL cannot carry credentials")
		}
	default:
		return nil, nil, folio.FieldErrorf("url", "url must be an absolute http, https, ssh or file URL")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, nil, folio.FieldErrorf("url", "url must not have a query or a fragment")
	}
	creds, u.User = u.User, nil
	if in.Ref == "" {
		return nil, nil, folio.FieldErrorf("ref", "ref is required")
	}
	if !validRef(in.Ref) {
		return nil, nil, folio.FieldErrorf("ref", "ref must be a branch in the form refs/heads/<branch>")
	}
	if direction == folio.GitExport {
		if strings.TrimSpace(in.CommitMessage) == "" {
			return nil, nil, folio.FieldErrorf("commitMessage", "commitMessage is required")
		}
		if len(in.CommitMessage) > folio.MaxGitCommitMessage {
			return nil, nil, folio.FieldErrorf("commitMessage", "commitMessage must be at most %d characters", folio.MaxGitCommitMessage)
		}
		if in.Standalone {
			return nil, nil, folio.FieldErrorf("standalone", "standalone applies to imports only")
		}
	} else if in.CommitMessage != "" {
		return nil, nil, folio.FieldErrorf("commitMessage", "commitMessage applies to exports only")
	}
	if len(in.RepoCacheID) > folio.MaxGitRepoCacheID || (in.RepoCacheID != "" && !cacheIDPattern.MatchString(in.RepoCacheID)) {
		return nil, nil, folio.FieldErrorf("repoCacheID", "repoCacheID must be at most %d letters, digits and ._:/@-", folio.MaxGitRepoCacheID)
	}
	if d := in.RepoProjectDirectory; d != "" {
		if len(d) > folio.MaxGitProjectDir || !cleanRepoPath(d) {
			return nil, nil, folio.FieldErrorf("repoProjectDirectory", "repoProjectDirectory must be a relative folder of the repository, without ..")
		}
	}
	for field, v := range map[string]string{"repoTreeURL": in.RepoTreeURL, "repoCommitURL": in.RepoCommitURL} {
		if v != "" && !webURL(v) {
			return nil, nil, folio.FieldErrorf(field, "%s must be an absolute http or https URL without credentials", field)
		}
	}
	if in.GitInfo != nil {
		if p := in.GitInfo.Provider; p != "" && p != "github" && p != "gitlab" {
			return nil, nil, folio.FieldErrorf("gitInfo.provider", "gitInfo.provider must be github or gitlab")
		}
		if in.GitInfo.URL != "" && !webURL(in.GitInfo.URL) {
			return nil, nil, folio.FieldErrorf("gitInfo.url", "gitInfo.url must be an absolute http or https URL without credentials")
		}
	}
	return u, creds, nil
}

// webURL reports whether s is an absolute http(s) URL without credentials
// and not too long.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && len(s) <= folio.MaxGitURLLength && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// cleanRepoPath reports whether p is a relative slash path inside the
// repository.
func cleanRepoPath(p string) bool {
	p = strings.Trim(p, "/")
	if p == "" || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." || c == ".." || c == ".git" {
			return false
		}
	}
	return true
}

// ImportGitRepository queues an import of a repository's branch into a
// space. It answers once the operation is recorded; the job runner runs it.
func (a *App) ImportGitRepository(ctx context.Context, caller folio.Caller, spaceID folio.ID, in GitInput) error {
	return a.queueGit(ctx, caller, spaceID, in, folio.GitImport)
}

// ExportToGitRepository queues an export of a space's current content to a
// repository's branch.
func (a *App) ExportToGitRepository(ctx context.Context, caller folio.Caller, spaceID folio.ID, in GitInput) error {
	return a.queueGit(ctx, caller, spaceID, in, folio.GitExport)
}

func (a *App) queueGit(ctx context.Context, caller folio.Caller, spaceID folio.ID, in GitInput, direction string) error {
	// Access first: who may not sync this space learns nothing of the rest.
	var orgRole folio.Role
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if err := requireGitSync(sv); err != nil {
			return err
		}
		if caller.Site == nil {
			if acc, err := access(ctx, tx, caller, sv.OrganizationID); err == nil {
				orgRole = acc.Role
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	u, creds, err := a.validateGit(&in, direction)
	if err != nil {
		return err
	}
	if (u.Scheme == "ssh" || u.Scheme == "file") && orgRole != folio.RoleAdmin {
		// The server's ssh key and disk serve every organization: only
		// organization admins may point a sync at them (docs/gitsync.md).
		return folio.Errorf(folio.Forbidden, "only organization admins may sync with %s repositories, which use the server's own access", u.Scheme)
	}
	if in.Timestamp != nil && in.Timestamp.After(a.clock.Now().Add(maxGitClockSkew)) {
		return folio.FieldErrorf("timestamp", "timestamp is in the future (more than %s ahead of the server's clock)", maxGitClockSkew)
	}
	op := &folio.GitOperation{ID: folio.NewID(), SpaceID: spaceID, Direction: direction, State: folio.GitQueued,
		URL: u.String(), Ref: in.Ref, Force: in.Force, Standalone: in.Standalone, CreatedBy: caller.UserID}
	var sealed string
	if creds != nil {
		if a.sealer == nil {
			return folio.Errorf(folio.Unavailable, "this server has no secret key to keep repository credentials with (set FOLIO_SECRET_KEY)")
		}
		if sealed, err = a.sealer.Seal([]byte(creds.String()), gitSealContext(op.ID)); err != nil {
			return err
		}
	}
	params, _ := json.Marshal(gitParams{URL: op.URL, Ref: in.Ref, CommitMessage: in.CommitMessage, RepoCacheID: in.RepoCacheID,
		TreeURL: in.RepoTreeURL, CommitURL: in.RepoCommitURL, ProjectDir: strings.Trim(in.RepoProjectDirectory, "/"), Org: caller.Org})
	return a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if err := requireGitSync(sv); err != nil {
			return err
		}
		n, err := store.CountActiveGitOperations(ctx, tx, sv.ID)
		if err != nil {
			return err
		}
		if n >= folio.MaxGitQueuedOperation {
			return folio.Errorf(folio.Conflict, "%d git operations are already waiting for this space; try again when they are done", n)
		}
		op.EventAt = tx.Now
		if in.Timestamp != nil {
			op.EventAt = in.Timestamp.UTC()
		}
		g := &folio.GitSync{SpaceID: sv.ID, URL: op.URL, Ref: in.Ref, ProjectDir: strings.Trim(in.RepoProjectDirectory, "/"),
			TreeURL: in.RepoTreeURL, CommitURL: in.RepoCommitURL, RepoCacheID: in.RepoCacheID}
		if in.GitInfo != nil {
			g.Provider = in.GitInfo.Provider
			if in.GitInfo.URL != "" {
				g.TreeURL = in.GitInfo.URL
			}
		}
		if g.TreeURL == "" {
			// The repository's web address, once named, stays what the
			// space shows while it syncs with the same repository: an
			// operation that names none must not put the clone URL in its
			// place.
			if old, err := store.GetGitSync(ctx, tx, sv.ID); err == nil && !old.Deleted && old.URL == g.URL {
				g.TreeURL = old.TreeURL
				if g.Provider == "" {
					g.Provider = old.Provider
				}
			} else if err != nil && folio.KindOf(err) != folio.NotFound {
				return err
			}
		}
		if err := store.PutGitSync(ctx, tx, g); err != nil {
			return err
		}
		// The URL without its credentials, which only say they exist.
		if err := audit(ctx, tx, caller, sv.OrganizationID, "space.git_sync_"+direction, "space", sv.ID,
			map[string]any{"url": op.URL, "ref": in.Ref, "projectDirectory": g.ProjectDir, "credentials": creds != nil,
				"operation": op.ID}); err != nil {
			return err
		}
		if err := store.CreateGitOperation(ctx, tx, op, string(params), sealed); err != nil {
			return err
		}
		payload, _ := json.Marshal(gitJob{Operation: op.ID})
		_, err = store.EnqueueKeyedJob(ctx, tx, folio.JobGitSync, gitJobKey(sv.ID), string(payload), tx.Now)
		return err
	})
}

// maxGitClockSkew is how far ahead of the server's clock a trigger's
// timestamp may be: a later one would make every following operation look
// older than it, and be skipped.
const maxGitClockSkew = 5 * time.Minute

// gitJobKey is the concurrency key of a space's git operations: one runs
// at a time, in the order they were queued, across every server.
func gitJobKey(spaceID folio.ID) string { return "git:" + spaceID }

func gitSealContext(opID folio.ID) string { return "git-operation:" + opID }

// requireGitSync is the check of the git operations: the caller may
// trigger git syncs and the space is neither locked nor deleted.
func requireGitSync(sv *folio.SpaceView) error {
	if sv.DeletedAt != nil {
		return errSpaceNotFound
	}
	if !sv.Permissions().View {
		return errSpaceNotFound
	}
	if sv.EditMode == folio.EditModeLocked {
		return folio.Errorf(folio.Forbidden, "the space is locked: unlock it before syncing it with git")
	}
	return require(sv.Permissions().TriggerGitSync, "you cannot sync this space with git")
}

// GitInfo is a space's git sync and its newest operation.
type GitInfo struct {
	Sync      *folio.GitSync
	Operation *folio.GitOperation // nil when none is recorded
}

// GetSpaceGitInfo returns a space's git sync; NotFound when none is set up.
func (a *App) GetSpaceGitInfo(ctx context.Context, caller folio.Caller, spaceID folio.ID) (info *GitInfo, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if sv.DeletedAt != nil {
			return errSpaceNotFound
		}
		g, err := store.GetGitSync(ctx, tx, sv.ID)
		if err != nil {
			return err
		}
		if g.Deleted {
			return folio.Errorf(folio.NotFound, "no git sync is set up on this space")
		}
		info = &GitInfo{Sync: g}
		op, err := store.LatestGitOperation(ctx, tx, sv.ID)
		if err == nil {
			info.Operation = op
		} else if folio.KindOf(err) != folio.NotFound {
			return err
		}
		return nil
	})
	return info, err
}

// ListGitOperations returns a space's recorded git operations, oldest
// first, for diagnostics and tests.
func (a *App) ListGitOperations(ctx context.Context, caller folio.Caller, spaceID folio.ID) (ops []folio.GitOperation, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		ops, err = store.ListGitOperations(ctx, tx, sv.ID)
		return err
	})
	return ops, err
}

// DeleteLegacyGitInstallation removes a space's git sync; removing one that
// is already gone is no error (existed reports which it was).
func (a *App) DeleteLegacyGitInstallation(ctx context.Context, caller folio.Caller, spaceID folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if err := requireGitSync(sv); err != nil {
			return err
		}
		if existed, err = store.RemoveGitSync(ctx, tx, sv.ID); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, sv.OrganizationID, "space.git_sync_removed", "space", sv.ID, nil)
	})
	return existed, err
}

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

// importRepo fetches the branch and turns it into a revision, or a change
// request when both sides changed since the last sync.
func (r *gitRun) importRepo(ctx context.Context) error {
	a := r.a
	var (
		cur, previous      *Content
		conflict, upToDate bool
		res                *gitsync.Result
	)
	// The tree is read while the repository cache is held: only the files
	// the docs need (see gitsync.Read), each distinct blob once.
	commit, err := a.git.FetchTree(ctx, r.remote, r.params.RepoCacheID, func(commit *gitrepo.Commit, tree *gitrepo.Tree) error {
		r.op.Commit = commit.Hash
		if err := r.stage(ctx, folio.GitStageConfig); err != nil {
			return err
		}
		var err error
		if cur, err = a.GetContent(ctx, r.caller, r.op.SpaceID, ""); err != nil {
			return err
		}
		// Pages keep their ids across syncs: they are matched by git path with
		// the content the repository was last synced with.
		previous = cur
		conflict = !r.op.Standalone && !r.op.Force && r.sync.LastRevision != "" && cur.Revision.ID != r.sync.LastRevision
		if conflict {
			if previous, err = a.GetContent(ctx, r.caller, r.op.SpaceID, r.sync.LastRevision); err != nil {
				return err
			}
		}
		upToDate = !r.op.Force && commit.Hash == r.sync.LastCommit
		if upToDate && !r.op.Standalone {
			return nil
		}
		// The configuration is checked in its own stage (Read parses it again).
		if cfgPath := path.Join(r.params.ProjectDir, ".gitbook.yaml"); tree.Has(cfgPath) {
			data, err := tree.ReadFile(cfgPath)
			if err != nil {
				return err
			}
			if _, err := gitsync.ParseConfig(data); err != nil {
				return err
			}
		}
		if err := r.stage(ctx, folio.GitStageContent); err != nil {
			return err
		}
		res, err = gitsync.Read(tree, gitsync.ReadOptions{ProjectDir: r.params.ProjectDir,
			TreeURL: r.params.TreeURL, Previous: previous.Tree, Progress: r.progress(ctx)})
		return err
	})
	if err != nil {
		return err
	}
	if commit.Empty {
		return folio.Errorf(folio.Invalid, "the repository has no branch %s", r.params.Ref)
	}
	if upToDate && !r.op.Standalone {
		r.op.Outcome = folio.GitOutcomeUpToDate
		return a.db.Write(ctx, func(tx *store.Tx) error {
			return store.SetGitSyncEvent(ctx, tx, r.op.SpaceID, r.op.EventAt)
		})
	}
	gitMeta := &folio.GitCommit{OID: commit.Hash, Message: strings.TrimRight(commit.Message, "\n"), Ref: r.params.Ref, URL: commitURL(r.params.CommitURL, commit.Hash)}
	replace := func(*Content) (*content.Snapshot, error) { return res.Snapshot, nil }
	if err := r.stage(ctx, folio.GitStageFinal); err != nil {
		return err
	}
	switch {
	case r.op.Standalone:
		c, err := a.commit(ctx, r.caller, r.op.SpaceID, edit{check: requireEditable, typ: folio.RevisionUpdate,
			revision: r.op.ID, build: replace, git: gitMeta, standalone: true})
		if err != nil && !(folio.KindOf(err) == folio.Conflict && a.revisionExists(ctx, r.op.SpaceID, r.op.ID)) {
			return err
		}
		r.op.Revision, r.op.Outcome = r.op.ID, folio.GitOutcomeRevision
		_ = c
		return nil
	case conflict:
		crID, err := a.gitChangeRequest(ctx, r, previous, commit.Message, replace, gitMeta)
		if err != nil {
			return err
		}
		r.op.ChangeRequest, r.op.Revision, r.op.Outcome = crID, r.op.ID, folio.GitOutcomeChangeRequest
		// The repository's commit is consumed: the change request holds
		// it. The space side stays unsynced until it is exported.
		return a.db.Write(ctx, func(tx *store.Tx) error {
			return store.SetGitSyncBase(ctx, tx, r.op.SpaceID, r.op.URL, r.op.Ref, r.op.EventAt, commit.Hash, r.sync.LastRevision)
		})
	}
	cfg, _ := json.Marshal(res.Config)
	// The sync base and configuration change with the revision, in its
	// transaction: a revision without its base would make the next import
	// of the same commit look like a conflict.
	syncBase := func(ctx context.Context, tx *store.Tx, rev *folio.Revision) error {
		if err := store.SetGitSyncConfig(ctx, tx, r.op.SpaceID, string(cfg)); err != nil {
			return err
		}
		return store.SetGitSyncBase(ctx, tx, r.op.SpaceID, r.op.URL, r.op.Ref, r.op.EventAt, commit.Hash, rev.ID)
	}
	_, err = a.commit(ctx, r.caller, r.op.SpaceID, edit{check: requireEditable, typ: folio.RevisionUpdate,
		revision: r.op.ID, build: replace, git: gitMeta, after: syncBase})
	if err != nil && !(folio.KindOf(err) == folio.Conflict && a.revisionExists(ctx, r.op.SpaceID, r.op.ID)) {
		return err
	}
	r.op.Revision, r.op.Outcome = r.op.ID, folio.GitOutcomeRevision
	// Redirects are the sites', added after: missing ones only, so a run
	// again adds what a failure left out.
	return a.applyGitRedirects(ctx, r, res)
}

// commitURL is repoCommitURL followed by the commit, or "".
func commitURL(prefix, hash string) string {
	if prefix == "" {
		return ""
	}
	return strings.TrimRight(prefix, "/") + "/" + hash
}

// gitChangeRequest opens a change request from the revision of the last
// sync whose head is the imported content.
func (a *App) gitChangeRequest(ctx context.Context, r *gitRun, base *Content, message string,
	replace func(*Content) (*content.Snapshot, error), git *folio.GitCommit) (folio.ID, error) {
	subject := "Import from git: " + firstLine(message)
	if len([]rune(subject)) > folio.MaxChangeRequestSubject {
		subject = string([]rune(subject)[:folio.MaxChangeRequestSubject])
	}
	crID := r.op.ID
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, r.caller, r.op.SpaceID)
		if err != nil {
			return err
		}
		if err := requireEditable(sv); err != nil {
			return err
		}
		if _, err := store.GetChangeRequest(ctx, tx, sv.ID, crID); err == nil {
			return nil // made by an earlier run of this job
		}
		cr := &folio.ChangeRequest{ID: crID, SpaceID: sv.ID, Status: folio.ChangeRequestOpen, Subject: subject,
			CreatedBy: r.caller.UserID, RevisionInitial: base.Revision.ID, Revision: base.Revision.ID}
		return store.CreateChangeRequest(ctx, tx, cr)
	})
	if err != nil {
		return "", err
	}
	if a.revisionExists(ctx, r.op.SpaceID, r.op.ID) {
		return crID, nil
	}
	if _, err := a.commitChangeRequest(ctx, r.caller, r.op.SpaceID, crID, r.op.ID, replace); err != nil {
		return "", err
	}
	return crID, a.db.Write(ctx, func(tx *store.Tx) error {
		return store.SetRevisionGit(ctx, tx, r.op.SpaceID, r.op.ID, git)
	})
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// export writes the space's current content to the branch, on top of the
// commit of the last sync, and pushes it.
func (r *gitRun) export(ctx context.Context) error {
	a := r.a
	cur, err := a.GetContent(ctx, r.caller, r.op.SpaceID, "")
	if err != nil {
		return err
	}
	head, err := a.git.Fetch(ctx, r.remote, r.params.RepoCacheID)
	if err != nil {
		return err
	}
	if err := r.stage(ctx, folio.GitStageConfig); err != nil {
		return err
	}
	moved := !head.Empty && r.sync.LastCommit != "" && head.Hash != r.sync.LastCommit
	snap, err := a.fullSnapshot(ctx, cur, true)
	if err != nil {
		return err
	}
	if err := r.stage(ctx, folio.GitStageContent); err != nil {
		return err
	}
	var existing gitsync.Files
	parent := ""
	if !head.Empty {
		existing, parent = gitsync.Files(head.Files), head.Hash
	}
	opts := gitsync.WriteOptions{ProjectDir: r.params.ProjectDir, Existing: existing, TreeURL: r.params.TreeURL}
	if r.sync.Config != "" {
		// The configuration the space was imported with: redirects and
		// structure names carry over to the repository exported to.
		var cfg gitsync.Config
		if json.Unmarshal([]byte(r.sync.Config), &cfg) == nil {
			opts.Config = &cfg
		}
	}
	files, err := gitsync.Write(snap, opts)
	if err != nil {
		return err
	}
	// Both sides changed since the last sync: pushing would hide the
	// repository's newer commits. The push is refused as a non-fast-forward
	// one unless forced; with force the space wins (on top of the branch,
	// whose history is kept). A branch that moved to exactly what this
	// export writes (an earlier run pushed it, then failed to record it)
	// is in sync.
	if moved && !r.op.Force && !sameRepoTree(files, existing) {
		return folio.Errorf(folio.Conflict, "the push was rejected as non-fast-forward: %s moved since the last sync (now at %.12s, last synced %.12s); import it first, or export with force",
			r.params.Ref, head.Hash, r.sync.LastCommit)
	}
	if err := r.stage(ctx, folio.GitStageFinal); err != nil {
		return err
	}
	hash := parent
	if parent == "" || !sameRepoTree(files, existing) {
		author := a.gitAuthor(ctx, r.caller.UserID)
		hash, err = a.git.Push(ctx, r.remote, r.params.RepoCacheID, parent, files, r.params.CommitMessage, author, r.op.Force)
		if err != nil {
			return err
		}
	}
	r.op.Commit, r.op.Revision, r.op.Outcome = hash, cur.Revision.ID, folio.GitOutcomeCommit
	git := &folio.GitCommit{OID: hash, Message: r.params.CommitMessage, Ref: r.params.Ref, CreatedByGitBook: true,
		URL: commitURL(r.params.CommitURL, hash)}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if err := store.SetRevisionGit(ctx, tx, r.op.SpaceID, cur.Revision.ID, git); err != nil {
			return err
		}
		return store.SetGitSyncBase(ctx, tx, r.op.SpaceID, r.op.URL, r.op.Ref, r.op.EventAt, hash, cur.Revision.ID)
	})
}

// sameRepoTree reports whether two repository trees hold the same files.
func sameRepoTree(a, b gitsync.Files) bool {
	if len(a) != len(b) {
		return false
	}
	for p, x := range a {
		y, ok := b[p]
		if !ok || string(x) != string(y) {
			return false
		}
	}
	return true
}

// gitAuthor is the author of exported commits: the user who triggered the
// export.
func (a *App) gitAuthor(ctx context.Context, userID folio.ID) gitrepo.Signature {
	sig := gitrepo.Signature{Name: "Folio", Email: "folio@localhost", When: a.clock.Now()}
	_ = a.db.Read(ctx, func(tx *store.Tx) error {
		u, err := store.GetUser(ctx, tx, userID)
		if err == nil {
			sig.Name, sig.Email = u.DisplayName, u.Email
		}
		return nil
	})
	return sig
}

// fullSnapshot loads a revision's whole content: its tree, every document
// (in batches) and, with withBlobs, every file's bytes (at most
// gitConfig.MaxBytes).
func (a *App) fullSnapshot(ctx context.Context, c *Content, withBlobs bool) (*content.Snapshot, error) {
	snap := &content.Snapshot{Tree: c.Tree, Documents: map[content.Hash]*content.Document{}, Blobs: map[content.Hash][]byte{}}
	var hashes []string
	seen := map[content.Hash]bool{}
	add := func(h content.Hash) {
		if !h.IsZero() && !seen[h] {
			seen[h] = true
			hashes = append(hashes, hashHex(h))
		}
	}
	for _, n := range content.Nodes(c.Tree) {
		add(n.Page.Document)
	}
	for _, rc := range c.Tree.ReusableContents {
		add(rc.Document)
	}
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		got, err := store.GetObjects(ctx, tx, hashes)
		if err != nil {
			return err
		}
		for h := range seen {
			o, ok := got[hashHex(h)]
			if !ok {
				return fmt.Errorf("document object %s is missing", h)
			}
			d, err := decodeDocument(h, o.Data)
			if err != nil {
				return err
			}
			snap.Documents[h] = d
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !withBlobs {
		return snap, nil
	}
	var total int64
	for _, f := range c.Tree.Files {
		if f.Blob.IsZero() || snap.Blobs[f.Blob] != nil {
			continue
		}
		if a.blobs == nil {
			return nil, folio.Errorf(folio.Unavailable, "file storage is not configured")
		}
		b, err := a.blobs.ReadAll(ctx, blobKey(f.Blob))
		if err != nil {
			return nil, fmt.Errorf("read file %s: %w", f.ID, err)
		}
		if total += int64(len(b)); total > a.gitConfig.MaxBytes {
			return nil, folio.Errorf(folio.Invalid, "the space's files are over the %d MiB a git export may write", a.gitConfig.MaxBytes>>20)
		}
		snap.Blobs[f.Blob] = b
	}
	return snap, nil
}

// applyGitRedirects turns the redirects of .gitbook.yaml into redirects of
// every site that shows the space: the old path, under the site space's
// path, leads to the page. Only missing redirects are added, never over one
// a site already has, and only when the operation's user may manage the
// organization's sites; sources that are not valid redirect paths, and
// redirects beyond a site's limit, are left out.
func (a *App) applyGitRedirects(ctx context.Context, r *gitRun, res *gitsync.Result) error {
	if len(res.Redirects) == 0 {
		return nil
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		// Redirects are a site's: only who may manage the organization's
		// sites has an import add them.
		s, err := store.GetSpace(ctx, tx, r.op.SpaceID)
		if err != nil {
			return err
		}
		if acc, err := access(ctx, tx, r.caller, s.OrganizationID); err != nil || !acc.Role.AtLeast(folio.RoleCreate) {
			return nil
		}
		sss, err := store.SiteSpacesOfSpace(ctx, tx, r.op.SpaceID)
		if err != nil {
			return err
		}
		for _, ss := range sss {
			n, err := store.CountRedirects(ctx, tx, ss.SiteID)
			if err != nil {
				return err
			}
			for _, rd := range res.Redirects {
				prefix := ss.Path
				if ss.Default {
					prefix = "" // the default site space is served at the site's root
				}
				source := redirectSource(prefix, rd.Source)
				if folio.ValidateRedirectSource("source", source) != nil {
					continue
				}
				dest := folio.RedirectDestination{Kind: "site-page", SiteSpaceID: ss.ID, PageID: rd.Page}
				_, err := store.RedirectBySource(ctx, tx, ss.SiteID, source)
				switch {
				case err == nil:
					// A redirect the site already has stays as it is.
				case folio.IsNotFound(err):
					if n >= folio.MaxRedirects {
						continue
					}
					n++
					if err := store.CreateRedirect(ctx, tx, &folio.SiteRedirect{ID: folio.NewID(), SiteID: ss.SiteID,
						Source: source, Destination: dest, CreatedAt: tx.Now}); err != nil {
						return err
					}
				default:
					return err
				}
			}
		}
		return nil
	})
}

// redirectSource is the site path of a repository redirect's old path:
// without .md, README.md standing for its folder, under the site space's
// path.
func redirectSource(siteSpacePath, old string) string {
	p := strings.Trim(old, "/")
	p = strings.TrimSuffix(p, ".md")
	if p == "README" || strings.HasSuffix(p, "/README") {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "README"), "/")
	}
	if siteSpacePath != "" {
		p = strings.Trim(siteSpacePath+"/"+p, "/")
	}
	return "/" + p
}

// setupGit makes the git client: http and https go through the server's
// guarded client (private addresses refused unless allowed), without its
// whole-request time limit, since a fetch is bounded by the operation's.
func (a *App) setupGit(cfg GitConfig) {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultGitMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultGitTimeout
	}
	hc := *a.http
	hc.Timeout = 0
	opts := gitrepo.Options{CacheDir: cfg.CacheDir, HTTP: &hc, AllowFile: cfg.AllowFile, SSHKey: cfg.SSHKey, SSHKnownHosts: cfg.SSHKnownHosts,
		MaxBytes: cfg.MaxBytes, Timeout: cfg.Timeout}
	if !cfg.AllowPrivate {
		opts.CheckAddress = netguard.Check
	}
	c, err := gitrepo.New(opts)
	if err != nil {
		a.logger.Error("git sync is off: its client could not be set up", "error", err.Error())
		return
	}
	a.git, a.gitConfig = c, cfg
}

// JobGiveUps returns, by job kind, what ends when the job runner gives a
// job up for good (failed, out of attempts, or cancelled): the operation
// users see, so that it never stays queued or running.
func (a *App) JobGiveUps() map[string]func(context.Context, string, string) {
	return map[string]func(context.Context, string, string){
		folio.JobGitSync:        a.gitJobGivenUp,
		folio.JobProcessOpenAPI: a.openAPIJobGivenUp,
	}
}

// gitJobGivenUp ends a git operation whose job was given up: failed, its
// credentials erased.
func (a *App) gitJobGivenUp(ctx context.Context, payload, reason string) {
	var job gitJob
	if json.Unmarshal([]byte(payload), &job) != nil || job.Operation == "" {
		return
	}
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		op, _, _, err := store.GetGitOperation(ctx, tx, job.Operation)
		if err != nil || op.Ended() {
			return err
		}
		now := tx.Now
		op.State, op.CompletedAt = folio.GitFailure, &now
		op.Error = "the operation could not finish and was given up"
		if reason == folio.ErrJobCancelled {
			op.Error = "the operation was cancelled"
		}
		if err := store.UpdateGitOperation(ctx, tx, op); err != nil {
			return err
		}
		return a.emitGitEvent(ctx, tx, op, folio.EventSpaceGitSyncCompleted, folio.GitFailure)
	})
	if err != nil && !folio.IsNotFound(err) {
		a.logger.Error("end a given-up git operation", "operation", job.Operation, "error", err.Error())
	}
}
