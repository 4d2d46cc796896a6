package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// gitView is a space's git sync page: the repository it is connected to,
// the form that connects it and runs an import or an export, and the
// newest operation with its live progress.
type gitView struct {
	CanSync   bool
	Locked    bool
	Connected bool
	Sync      folio.GitSync
	Web       string // the repository's web address
	Branch    string
	Op        *gitOpView
	Notice    string
	Status    string // the JSON status route
}

// gitOpView is the newest operation.
type gitOpView struct {
	Direction     string
	P             progress
	Commit        string
	RevisionHref  string
	ChangeRequest string // its href
	Created       time.Time
	Completed     *time.Time
}

func (h *Handler) gitPage(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "git")
	if err != nil {
		return err
	}
	b := &gitView{Locked: v.Locked, CanSync: v.Perms.TriggerGitSync && !v.Locked, Notice: noticeOf(r),
		Status: v.Href + "/~/git/status", Branch: "main"}
	info, err := h.app.GetSpaceGitInfo(r.Context(), q.caller, v.Space.ID)
	switch {
	case err == nil:
		b.Connected, b.Sync = true, *info.Sync
		b.Branch = strings.TrimPrefix(info.Sync.Ref, "refs/heads/")
		if st := info.Sync.State(); st.URL != info.Sync.URL {
			b.Web = st.URL
		}
		if op := info.Operation; op != nil {
			b.Op = &gitOpView{Direction: op.Direction, P: gitProgress(op), Commit: op.Commit, Created: op.CreatedAt, Completed: op.CompletedAt}
			b.Op.P.Href = b.Status
			if op.Revision != "" {
				b.Op.RevisionHref = v.Href + "/~/revisions/" + op.Revision
			}
			if op.ChangeRequest != "" {
				b.Op.ChangeRequest = v.Href + "/~/changes/" + op.ChangeRequest
			}
		}
	case folio.KindOf(err) != folio.NotFound:
		return err
	}
	v.Body = b
	h.renderLive(w, "gitsync", q, "Git sync · "+v.Space.Title, v)
	return nil
}

// gitStatus answers the newest operation's progress as JSON.
func (h *Handler) gitStatus(w http.ResponseWriter, r *http.Request, q *req) error {
	info, err := h.app.GetSpaceGitInfo(r.Context(), q.caller, r.PathValue("space"))
	if folio.KindOf(err) == folio.NotFound {
		if _, err := h.app.GetSpace(r.Context(), q.caller, r.PathValue("space")); err != nil {
			return err
		}
		return writeProgress(w, progress{State: "none", Text: "No sync yet.", Ended: true})
	}
	if err != nil {
		return err
	}
	if info.Operation == nil {
		return writeProgress(w, progress{State: "none", Text: "No sync yet.", Ended: true})
	}
	return writeProgress(w, gitProgress(info.Operation))
}

var gitStages = map[string]string{
	folio.GitStageFetch:   "fetching the repository",
	folio.GitStageConfig:  "reading the repository's configuration",
	folio.GitStageContent: "processing the content",
	folio.GitStageFinal:   "finishing",
}

// gitProgress says how an operation is going.
func gitProgress(op *folio.GitOperation) progress {
	what := "Import"
	if op.Direction == folio.GitExport {
		what = "Export"
	}
	p := progress{State: op.State, Done: op.TasksDone, Total: op.TasksTotal, Ended: op.Ended()}
	switch op.State {
	case folio.GitQueued:
		p.Text = what + " queued: waiting for its turn."
	case folio.GitRunning:
		stage := gitStages[op.Stage]
		if stage == "" {
			stage = "starting"
		}
		p.Text = what + " running: " + stage
		if op.TasksTotal > 0 {
			p.Text += fmt.Sprintf(" (%d of %d files)", op.TasksDone, op.TasksTotal)
		}
		p.Text += "."
	case folio.GitSuccess:
		switch op.Outcome {
		case folio.GitOutcomeChangeRequest:
			p.Text = what + " done: both sides changed since the last sync, so the repository's content is in a change request."
		case folio.GitOutcomeUpToDate:
			p.Text = what + " done: already up to date."
		case folio.GitOutcomeCommit:
			p.Text = what + " done: pushed commit " + shortCommit(op.Commit) + "."
		default:
			p.Text = what + " done: the space has the repository's content."
		}
	case folio.GitFailure:
		p.Text = what + " failed."
		p.Error = op.Error
		if p.Error == "" {
			p.Error = "The operation failed without saying why."
		}
	case folio.GitSkipped:
		p.Text = what + " skipped: a newer sync was already done."
	default:
		p.Text = what + ": " + op.State + "."
	}
	return p
}

func shortCommit(c string) string {
	if len(c) > 10 {
		return c[:10]
	}
	return c
}

// gitSync connects the space to a repository and queues an import or an
// export (the API's importGitRepository and exportToGitRepository):
// credentials go in the URL, which the app seals apart and never shows,
// and keeps (sealed) for the next syncs of that URL; empty fields use the
// saved ones.
func (h *Handler) gitSync(w http.ResponseWriter, r *http.Request, q *req) error {
	f := r.PostForm
	spaceID := r.PathValue("space")
	in := app.GitInput{URL: strings.TrimSpace(f.Get("url")), RepoProjectDirectory: strings.TrimSpace(f.Get("directory")),
		Force: f.Get("force") == "yes"}
	if branch := strings.TrimSpace(f.Get("branch")); branch != "" {
		in.Ref = "refs/heads/" + strings.TrimPrefix(branch, "refs/heads/")
	}
	if user, pass := f.Get("username"), f.Get("password"); user != "" || pass != "" {
		u, err := url.Parse(in.URL)
		if err != nil || in.URL == "" {
			return folio.FieldErrorf("url", "the repository URL is not a valid URL")
		}
		if user == "" {
			user = "x-access-token"
		}
		u.User = url.UserPassword(user, pass)
		in.URL = u.String()
	}
	var err error
	switch f.Get("direction") {
	case folio.GitImport:
		err = h.app.ImportGitRepository(r.Context(), q.caller, spaceID, in)
	case folio.GitExport:
		in.CommitMessage = f.Get("message")
		if strings.TrimSpace(in.CommitMessage) == "" {
			in.CommitMessage = "Update from Folio"
		}
		in.Force = false
		err = h.app.ExportToGitRepository(r.Context(), q.caller, spaceID, in)
	default:
		return folio.FieldErrorf("direction", "choose import or export")
	}
	if err != nil {
		return err
	}
	seeOther(w, r, "/s/"+spaceID+"/~/git", "queued")
	return nil
}

// gitDisconnect removes the space's git sync.
func (h *Handler) gitDisconnect(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID := r.PathValue("space")
	if _, err := h.app.DeleteLegacyGitInstallation(r.Context(), q.caller, spaceID); err != nil {
		return err
	}
	seeOther(w, r, "/s/"+spaceID+"/~/git", "disconnected")
	return nil
}

// gitForget erases the credentials the space's git sync saved.
func (h *Handler) gitForget(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID := r.PathValue("space")
	if _, err := h.app.ForgetGitCredentials(r.Context(), q.caller, spaceID); err != nil {
		return err
	}
	seeOther(w, r, "/s/"+spaceID+"/~/git", "forgotten")
	return nil
}
