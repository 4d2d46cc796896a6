package folio

import (
	"net/url"
	"strings"
	"time"
)

// Git sync directions (GitSyncOperationDirection).
const (
	GitImport = "import"
	GitExport = "export"
)

// Git sync operation states. GitBook's GitSyncOperationState has running,
// failure and success; Folio adds queued (waiting for the space's earlier
// operations) and skipped (an event older than the last one processed).
const (
	GitQueued  = "queued"
	GitRunning = "running"
	GitSuccess = "success"
	GitFailure = "failure"
	GitSkipped = "skipped"
)

// Git sync stages (GitSyncOperationStage).
const (
	GitStageFetch   = "repo_fetch"
	GitStageConfig  = "config_check"
	GitStageContent = "content_process"
	GitStageFinal   = "finalize"
)

// Outcomes of a successful import, recorded on its operation.
const (
	// GitOutcomeRevision: the import made a revision (current unless standalone).
	GitOutcomeRevision = "revision"
	// GitOutcomeChangeRequest: both sides changed since the last sync and
	// the import was not forced, so it landed as a change request.
	GitOutcomeChangeRequest = "change-request"
	// GitOutcomeUpToDate: nothing to do (the repository or the space did
	// not change since the last sync).
	GitOutcomeUpToDate = "up-to-date"
	// GitOutcomeCommit: an export pushed a commit.
	GitOutcomeCommit = "commit"
)

// GitIntegration is the integration name Folio's built-in git sync reports.
const GitIntegration = "git-sync"

// Limits of the git sync inputs.
const (
	MaxGitURLLength       = 2048
	MaxGitRefLength       = 255
	MaxGitCommitMessage   = 10_000
	MaxGitProjectDir      = 512
	MaxGitRepoCacheID     = 128
	GitOperationsKept     = 100 // per space; older operations are pruned
	MaxGitQueuedOperation = 20  // per space, queued or running at once
)

// GitSync is a space's connection to a git repository: where it syncs and
// how the last sync went. Credentials are never part of it.
type GitSync struct {
	SpaceID      ID
	URL          string // the repository URL without credentials
	Ref          string
	ProjectDir   string
	Provider     string // github, gitlab or ""
	TreeURL      string // repoTreeURL, or the gitInfo url
	CommitURL    string
	RepoCacheID  string
	UpdatedAt    time.Time
	LastEventAt  *time.Time // the newest trigger timestamp processed
	LastCommit   string     // the repository commit at the last sync
	LastRevision ID         // the space revision at the last sync
	Config       string     // the repository configuration the last import read (JSON), for exports
	Deleted      bool       // removed with deleteLegacyGitInstallation
	// HasCredentials says the sync keeps credentials for URL (sealed; the
	// value itself never leaves the store but to be opened by the app).
	HasCredentials bool
}

// RepoName is owner/name from the repository URL ("docs" for a local path).
func (g *GitSync) RepoName() string {
	u, err := url.Parse(g.URL)
	p := g.URL
	if err == nil {
		p = u.Path
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	parts := strings.Split(p, "/")
	if len(parts) >= 2 {
		return parts[len(parts)-2] + "/" + parts[len(parts)-1]
	}
	return parts[len(parts)-1]
}

// GitSyncState is the Git info of a space as its reads show it
// (the reference's GitSyncState).
type GitSyncState struct {
	RepoName             string    `json:"repoName"`
	InstallationProvider string    `json:"installationProvider,omitempty"`
	Integration          string    `json:"integration"`
	URL                  string    `json:"url"`
	UpdatedAt            time.Time `json:"updatedAt"`
}

// State returns the Git info of the sync.
func (g *GitSync) State() *GitSyncState {
	u := g.TreeURL
	if u == "" {
		u = g.URL
	}
	return &GitSyncState{RepoName: g.RepoName(), InstallationProvider: g.Provider, Integration: GitIntegration,
		URL: u, UpdatedAt: g.UpdatedAt}
}

// GitOperation is one import or export of a space, queued, running or ended.
type GitOperation struct {
	ID        ID
	SpaceID   ID
	Direction string
	State     string
	Stage     string
	// TasksDone and TasksTotal are the progress of the content stage of
	// an import: repository files read of those to read (0 of 0 before).
	TasksDone, TasksTotal int
	URL                   string // without credentials
	Ref                   string
	EventAt               time.Time // the trigger's timestamp (the request time when absent)
	Force                 bool
	Standalone            bool
	Outcome               string
	Commit                string
	Revision              ID
	ChangeRequest         ID
	Error                 string
	CreatedBy             ID
	CreatedAt             time.Time
	StartedAt             *time.Time
	UpdatedAt             time.Time
	CompletedAt           *time.Time
}

// Ended reports whether the operation finished (in any state).
func (o *GitOperation) Ended() bool {
	return o.State == GitSuccess || o.State == GitFailure || o.State == GitSkipped
}
