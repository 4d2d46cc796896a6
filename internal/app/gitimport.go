package app

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/gitsync"
	"github.com/foliodocs/folio/internal/store"
)

// Importing a repository's branch into a space or a change request.

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
