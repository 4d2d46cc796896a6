package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/gitsync"
	"github.com/foliodocs/folio/internal/store"
)

// Exporting a space's content to a repository's branch, and what both
// directions share: authors, snapshots and the redirects of moved pages.

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
