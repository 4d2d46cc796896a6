package wire

import "github.com/foliodocs/folio"

// GitSyncState is the GitBook GitSyncState object (a space's Git info).
type GitSyncState struct {
	RepoName             string `json:"repoName"`
	InstallationProvider string `json:"installationProvider,omitempty"`
	Integration          string `json:"integration"`
	URL                  string `json:"url"`
	UpdatedAt            string `json:"updatedAt"`
}

// NewGitSyncState converts a space's Git info; nil stays nil.
func NewGitSyncState(g *folio.GitSyncState) *GitSyncState {
	if g == nil {
		return nil
	}
	return &GitSyncState{RepoName: g.RepoName, InstallationProvider: g.InstallationProvider,
		Integration: g.Integration, URL: g.URL, UpdatedAt: Time(g.UpdatedAt)}
}

// GitInfo is the answer of getSpaceGitInfo: the GitSyncState, plus where
// the space syncs and its newest operation, which the reference leaves to
// servers.
type GitInfo struct {
	GitSyncState
	Ref              string        `json:"ref"`
	ProjectDirectory string        `json:"projectDirectory,omitempty"`
	Commit           string        `json:"commit,omitempty"`
	Operation        *GitOperation `json:"operation,omitempty"`
}

// GitOperation is the GitBook GitSyncOperation object, with what Folio
// adds: the operation's id, its trigger timestamp, and its outcome (the
// commit, revision or change request it made).
type GitOperation struct {
	ID              string  `json:"id"`
	State           string  `json:"state"`
	Direction       string  `json:"direction"`
	Stage           string  `json:"stage"`
	DispatchedTasks int     `json:"dispatchedTasks"`
	CompletedTasks  int     `json:"completedTasks"`
	StartedAt       string  `json:"startedAt"`
	UpdatedAt       string  `json:"updatedAt"`
	CompletedAt     *string `json:"completedAt,omitempty"`
	Error           string  `json:"error,omitempty"`
	Timestamp       string  `json:"timestamp"`
	Force           bool    `json:"force,omitempty"`
	Standalone      bool    `json:"standalone,omitempty"`
	Outcome         string  `json:"outcome,omitempty"`
	Commit          string  `json:"commit,omitempty"`
	Revision        string  `json:"revision,omitempty"`
	ChangeRequest   string  `json:"changeRequest,omitempty"`
}

// NewGitInfo converts a git sync and its newest operation (nil for none).
func NewGitInfo(g *folio.GitSync, op *folio.GitOperation) GitInfo {
	info := GitInfo{GitSyncState: *NewGitSyncState(g.State()), Ref: g.Ref, ProjectDirectory: g.ProjectDir, Commit: g.LastCommit}
	if op != nil {
		info.Operation = NewGitOperation(op)
	}
	return info
}

// NewGitOperation converts an operation. Its tasks are its four stages,
// plus for an import the repository files its content stage reads
// (known once the stage starts), so completedTasks advances while a long
// import runs.
func NewGitOperation(op *folio.GitOperation) *GitOperation {
	started := op.CreatedAt
	if op.StartedAt != nil {
		started = *op.StartedAt
	}
	out := &GitOperation{ID: op.ID, State: op.State, Direction: op.Direction, Stage: op.Stage,
		DispatchedTasks: 4 + op.TasksTotal, CompletedTasks: completedStages(op) + op.TasksDone, StartedAt: Time(started), UpdatedAt: Time(op.UpdatedAt),
		CompletedAt: TimePtr(op.CompletedAt), Error: op.Error, Timestamp: Time(op.EventAt), Force: op.Force,
		Standalone: op.Standalone, Outcome: op.Outcome, Commit: op.Commit, Revision: op.Revision, ChangeRequest: op.ChangeRequest}
	if out.Stage == "" {
		out.Stage = folio.GitStageFetch
	}
	return out
}

// completedStages counts the stages an operation got through.
func completedStages(op *folio.GitOperation) int {
	if op.State == folio.GitSuccess {
		return 4
	}
	for i, s := range []string{folio.GitStageFetch, folio.GitStageConfig, folio.GitStageContent, folio.GitStageFinal} {
		if s == op.Stage {
			return i
		}
	}
	return 0
}
