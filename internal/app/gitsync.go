package app

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/gitrepo"
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
	// What the operation does with the space's saved credentials, for the
	// audit log: "saved" (it gave some, which replace them), "used" (it
	// gave none and syncs with their URL), "forgotten" (it gave none and
	// syncs with another URL, which drops them) or "" (none involved).
	saved := ""
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
		// The space's sync so far, when it is with the same repository.
		var same, other *folio.GitSync
		if old, err := store.GetGitSync(ctx, tx, sv.ID); err == nil && !old.Deleted {
			if old.URL == g.URL {
				same = old
			} else {
				other = old
			}
		} else if err != nil && folio.KindOf(err) != folio.NotFound {
			return err
		}
		if g.TreeURL == "" && same != nil {
			// The repository's web address, once named, stays what the
			// space shows while it syncs with the same repository: an
			// operation that names none must not put the clone URL in its
			// place.
			g.TreeURL = same.TreeURL
			if g.Provider == "" {
				g.Provider = same.Provider
			}
		}
		// Credentials given replace the saved ones; none given use the
		// saved ones, which are only ever for the URL they were given
		// with (another URL forgets them: PutGitSync drops them).
		var keep string
		switch {
		case creds != nil:
			if keep, err = a.sealer.Seal([]byte(creds.String()), gitSyncSealContext(sv.ID, g.URL)); err != nil {
				return err
			}
			saved = "saved"
		case same != nil && same.HasCredentials:
			if sealed, err = a.reuseGitCredentials(ctx, tx, sv.ID, g.URL, op.ID); err != nil {
				return err
			}
			saved = "used"
		case other != nil && other.HasCredentials:
			saved = "forgotten"
		}
		if err := store.PutGitSync(ctx, tx, g); err != nil {
			return err
		}
		if keep != "" {
			if _, err := store.SetGitSyncCredentials(ctx, tx, sv.ID, keep); err != nil {
				return err
			}
		}
		// The URL without its credentials, which only say they exist.
		details := map[string]any{"url": op.URL, "ref": in.Ref, "projectDirectory": g.ProjectDir, "credentials": sealed != "",
			"operation": op.ID}
		if saved != "" {
			details["savedCredentials"] = saved
		}
		if err := audit(ctx, tx, caller, sv.OrganizationID, "space.git_sync_"+direction, "space", sv.ID, details); err != nil {
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

// gitSyncSealContext binds a space's saved credentials to the space and
// to the repository URL they were given for: they open for no other.
func gitSyncSealContext(spaceID folio.ID, url string) string {
	return "git-sync-credentials:" + spaceID + ":" + url
}

// reuseGitCredentials opens the credentials a space's sync saved for url
// and seals them for operation opID, as if the operation had given them.
func (a *App) reuseGitCredentials(ctx context.Context, tx *store.Tx, spaceID folio.ID, url string, opID folio.ID) (string, error) {
	stored, err := store.GitSyncCredentials(ctx, tx, spaceID)
	if err != nil || stored == "" {
		return "", err
	}
	unreadable := folio.Errorf(folio.Invalid,
		"the saved repository credentials can no longer be read (was the server key changed?): give them again, or forget them")
	if a.sealer == nil {
		return "", unreadable
	}
	plain, err := a.sealer.Open(stored, gitSyncSealContext(spaceID, url))
	if err != nil {
		return "", unreadable
	}
	return a.sealer.Seal(plain, gitSealContext(opID))
}

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
		g, err := store.GetGitSync(ctx, tx, sv.ID)
		if folio.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		// Removing the sync forgets its saved credentials too.
		if existed, err = store.RemoveGitSync(ctx, tx, sv.ID); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, sv.OrganizationID, "space.git_sync_removed", "space", sv.ID,
			map[string]any{"credentials": g.HasCredentials})
	})
	return existed, err
}

// ForgetGitCredentials erases the credentials a space's git sync saved
// (the sync stays); forgetting none is no error (existed reports which it
// was). It needs what a sync needs. Operations already queued keep the
// credentials they were queued with.
func (a *App) ForgetGitCredentials(ctx context.Context, caller folio.Caller, spaceID folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if err := requireGitSync(sv); err != nil {
			return err
		}
		if existed, err = store.SetGitSyncCredentials(ctx, tx, sv.ID, ""); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, sv.OrganizationID, "space.git_sync_credentials_forgotten", "space", sv.ID,
			map[string]any{"credentials": false})
	})
	return existed, err
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
