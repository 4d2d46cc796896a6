package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// MergeConflict is one thing both sides of a merge changed differently:
// about a page (PageID, Title), a file (FileID), or the space's variables
// or reusable content. Field is what clashed ("document", "title",
// "parent", "removed", "slug", "file"…); Blocks, for documents, describes
// each clashing block.
type MergeConflict struct {
	PageID  string
	Title   string
	FileID  string
	Field   string
	Message string
	Blocks  []string
}

// MergeConflictError refuses a merge or an update that would lose a change:
// nothing changed. It is a Conflict whose message lists every conflict.
type MergeConflictError struct {
	Conflicts []MergeConflict
}

func (e *MergeConflictError) Error() string { return e.err().Message }

func (e *MergeConflictError) err() *folio.Error {
	var b strings.Builder
	fmt.Fprintf(&b, "the change request conflicts with the space's content (%d conflicts): ", len(e.Conflicts))
	for i, c := range e.Conflicts {
		if i > 0 {
			b.WriteString("; ")
		}
		switch {
		case c.PageID != "":
			fmt.Fprintf(&b, "page %q (%s) %s: %s", c.Title, c.PageID, c.Field, c.Message)
		case c.FileID != "":
			fmt.Fprintf(&b, "file %s: %s", c.FileID, c.Message)
		default:
			fmt.Fprintf(&b, "%s: %s", c.Field, c.Message)
		}
		if len(c.Blocks) > 0 {
			b.WriteString(" (" + strings.Join(c.Blocks, "; ") + ")")
		}
	}
	return folio.Errorf(folio.Conflict, "%s", b.String())
}

// Unwrap makes the error a folio Conflict for the HTTP layer.
func (e *MergeConflictError) Unwrap() error { return e.err() }

// mergeTrees merges ours and theirs, forked from base, with documents
// changed on both sides merged block by block. The snapshot holds the
// merged tree and the documents the merge made.
func (a *App) mergeTrees(ctx context.Context, tx *store.Tx, base, ours, theirs *content.Tree) (*content.Snapshot, []MergeConflict, error) {
	snap := &content.Snapshot{Documents: map[content.Hash]*content.Document{}}
	blocks := map[[3]content.Hash][]content.BlockConflict{}
	var loadErr error
	load := func(h content.Hash) *content.Document {
		if loadErr != nil {
			return nil
		}
		d, err := a.loadDocument(ctx, tx, h)
		if err != nil {
			loadErr = err
			return nil
		}
		return d
	}
	mergeDoc := func(b, o, t content.Hash) (content.Hash, bool) {
		bd, od, td := load(b), load(o), load(t)
		if loadErr != nil {
			return content.Hash{}, false
		}
		out, conflicts := content.MergeDocuments(bd, od, td)
		if len(conflicts) > 0 {
			blocks[[3]content.Hash{b, o, t}] = conflicts
			return content.Hash{}, false
		}
		// Both sides may have added the same key or heading text.
		out, _ = content.Finish(out, nil, content.DerivedKeys(content.HashDocument(out)))
		h := content.HashDocument(out)
		snap.Documents[h] = out
		return h, true
	}
	merged, conflicts := content.Merge(base, ours, theirs, mergeDoc)
	if loadErr != nil {
		return nil, nil, loadErr
	}
	snap.Tree = merged
	if len(conflicts) == 0 {
		return snap, nil, nil
	}
	find := func(t *content.Tree, id string) *content.Page {
		if n, err := content.Find(t, id); err == nil {
			return n.Page
		}
		return nil
	}
	out := make([]MergeConflict, 0, len(conflicts))
	for _, c := range conflicts {
		mc := MergeConflict{PageID: c.PageID, FileID: c.FileID, Field: c.Field, Message: c.Message}
		if c.PageID != "" {
			bp, op, tp := find(base, c.PageID), find(ours, c.PageID), find(theirs, c.PageID)
			for _, p := range []*content.Page{tp, op, bp} {
				if p != nil {
					mc.Title = p.Title
					break
				}
			}
			if c.Field == "document" && op != nil && tp != nil {
				var bh content.Hash
				if bp != nil {
					bh = bp.Document
				}
				for _, bc := range blocks[[3]content.Hash{bh, op.Document, tp.Document}] {
					mc.Blocks = append(mc.Blocks, bc.Message)
				}
				mc.Message = "both sides changed the same part of the page's document differently"
			}
		}
		out = append(out, mc)
	}
	return nil, out, nil
}

// mergeInputs are the three contents of a merge or update, read at once.
type mergeInputs struct {
	cr                  *folio.ChangeRequest
	base, current, head *Content
}

func (a *App) loadMergeInputs(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string,
	check func(tx *store.Tx, sv *folio.SpaceView, cr *folio.ChangeRequest) error) (in mergeInputs, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := check(tx, sv, cr); err != nil {
			return err
		}
		in.cr = cr
		if in.base, err = a.contentOf(ctx, tx, sv, cr.Base()); err != nil {
			return err
		}
		if in.current, err = a.contentOf(ctx, tx, sv, sv.Revision); err != nil {
			return err
		}
		in.head, err = a.contentOf(ctx, tx, sv, cr.Revision)
		return err
	})
	return in, err
}

// MergeResult is the outcome of a merge or an update: the revision made.
type MergeResult struct {
	Revision folio.ID
}

// requireMergeable is the check of a merge: the space's mergers, a change
// request that may change and whose merge rules are met. A locked space
// merges too: change requests are how its content changes.
func (a *App) requireMergeable(ctx context.Context, caller folio.Caller) func(tx *store.Tx, sv *folio.SpaceView, cr *folio.ChangeRequest) error {
	return func(tx *store.Tx, sv *folio.SpaceView, cr *folio.ChangeRequest) error {
		if sv.DeletedAt != nil {
			return errSpaceNotFound
		}
		if err := require(sv.Permissions().Merge, "you cannot merge this space's change requests"); err != nil {
			return err
		}
		if err := cr.Writable(); err != nil {
			return err
		}
		return a.checkMergeRules(ctx, tx, caller, sv, cr)
	}
}

// MergeChangeRequest merges a change request into its space: a three-way
// merge of its base, the space's current revision and its head, over the
// page tree and, for pages whose document both sides changed, block by
// block. Any conflict refuses the merge (MergeConflictError) and changes
// nothing. Otherwise a revision whose parents are the space's revision and
// the head becomes current, the change request is merged, and the indexes
// follow. A merge that loses a race with another write of the space merges
// again on top of it.
func (a *App) MergeChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (*MergeResult, error) {
	for attempt := 1; ; attempt++ {
		res, err := a.mergeOnce(ctx, caller, spaceID, ref)
		if lostRace(err) && attempt < maxCommitAttempts {
			if !backoff(ctx, attempt) {
				return nil, ctx.Err()
			}
			continue
		}
		return res, err
	}
}

func (a *App) mergeOnce(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (*MergeResult, error) {
	in, err := a.loadMergeInputs(ctx, caller, spaceID, ref, a.requireMergeable(ctx, caller))
	if err != nil {
		return nil, err
	}
	snap, err := a.threeWay(ctx, in.base, in.current, in.head)
	if err != nil {
		return nil, err
	}
	var (
		rev     *folio.Revision
		changes []content.Change
	)
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, in.cr.ID)
		if err != nil {
			return err
		}
		if err := a.requireMergeable(ctx, caller)(tx, sv, cr); err != nil {
			return err
		}
		if cr.Revision != in.cr.Revision {
			return store.ErrChangeRequestMoved
		}
		if err := a.putTree(ctx, tx, in.current.Tree, snap.Tree, snap.Documents); err != nil {
			return err
		}
		rev = &folio.Revision{ID: folio.NewID(), SpaceID: sv.ID, TreeHash: snap.Tree.Hash().String(),
			Parents: []folio.ID{in.current.Revision.ID, cr.Revision}, Type: folio.RevisionMerge, CreatedBy: caller.UserID}
		if err := store.CreateRevision(ctx, tx, rev); err != nil {
			return err
		}
		if err := store.SetSpaceRevision(ctx, tx, sv.ID, in.current.Revision.ID, rev.ID); err != nil {
			return err
		}
		if err := store.SetChangeRequestMerged(ctx, tx, cr.ID, cr.Revision, rev.ID); err != nil {
			return err
		}
		if err := emitContentUpdated(ctx, tx, &sv.Space, rev.ID); err != nil {
			return err
		}
		if err := emit(ctx, tx, sv.OrganizationID, sv.ID, folio.EventChangeRequestMerged,
			map[string]any{"spaceId": sv.ID, "changeRequestId": cr.ID, "revisionId": rev.ID, "mergedBy": caller.UserID}); err != nil {
			return err
		}
		sv.Revision = rev.ID
		changes = content.Diff(in.current.Tree, snap.Tree)
		return a.indexRevision(ctx, tx, sv, changes, snap.Documents)
	})
	if err != nil {
		return nil, err
	}
	a.cacheTree(in.current, snap.Tree, changes)
	return &MergeResult{Revision: rev.ID}, nil
}

// threeWay merges the change request's head (theirs) into the space's
// current content (ours) from their common base, refusing any conflict.
// When one side did not change, the other's tree is the result as is.
func (a *App) threeWay(ctx context.Context, base, ours, theirs *Content) (*content.Snapshot, error) {
	bh, oh, th := base.Tree.Hash(), ours.Tree.Hash(), theirs.Tree.Hash()
	switch {
	case oh == bh:
		return &content.Snapshot{Tree: theirs.Tree}, nil
	case th == bh || th == oh:
		return &content.Snapshot{Tree: ours.Tree}, nil
	}
	var (
		snap      *content.Snapshot
		conflicts []MergeConflict
	)
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		snap, conflicts, err = a.mergeTrees(ctx, tx, base.Tree, ours.Tree, theirs.Tree)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return nil, &MergeConflictError{Conflicts: conflicts}
	}
	// The merged pages are new objects: check them as any edit's.
	if err := snap.Tree.ValidateEdit(ours.Tree, ours.rt.index().nodes); err != nil {
		return nil, err
	}
	return snap, nil
}

// UpdateChangeRequest brings the space's current content into a change
// request: a three-way merge of its base, its head and the space's
// revision, which becomes its merged ancestor (its new base). Conflicts
// refuse the update and change nothing. An up-to-date change request is
// left as it is.
func (a *App) UpdateChangeRequestFromSpace(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (*MergeResult, error) {
	check := func(_ *store.Tx, sv *folio.SpaceView, cr *folio.ChangeRequest) error {
		return requireChangeRequestWritable(sv, cr)
	}
	for attempt := 1; ; attempt++ {
		in, err := a.loadMergeInputs(ctx, caller, spaceID, ref, check)
		if err != nil {
			return nil, err
		}
		if in.current.Revision.ID == in.cr.Base() {
			return &MergeResult{Revision: in.cr.Revision}, nil
		}
		snap, err := a.threeWay(ctx, in.base, in.head, in.current)
		if err != nil {
			return nil, err
		}
		b := crBase{cr: in.cr, head: in.head}
		rev, err := a.advanceChangeRequest(ctx, caller, b, snap, "", folio.RevisionUpdate,
			[]folio.ID{in.current.Revision.ID}, in.current.Revision.ID, false)
		if lostRace(err) && attempt < maxCommitAttempts {
			if !backoff(ctx, attempt) {
				return nil, ctx.Err()
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return &MergeResult{Revision: rev.ID}, nil
	}
}

// cacheTree keeps a tree a change request write or a merge stored, derived
// from the content it was built on: the next read of it, or the next write
// on top of it, need not load and index it again.
func (a *App) cacheTree(base *Content, tree *content.Tree, changes []content.Change) {
	if changes == nil {
		changes = content.Diff(base.Tree, tree)
	}
	pages := base.rt.pages
	for _, ch := range changes {
		switch {
		case ch.Kind == content.Added && ch.PageID != "":
			pages++
		case ch.Kind == content.Removed && ch.PageID != "":
			pages--
		}
	}
	rt := newRevTree(tree, pages)
	rt.derive(base.rt, changes)
	a.trees.Add(tree.Hash(), rt)
}
