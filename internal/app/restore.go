package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// RestorePageInput says which earlier version of a page to restore and
// where to write it.
type RestorePageInput struct {
	Revision folio.ID // the revision holding the version to restore
	Page     string
	// ChangeRequest, when set (id or number), is the change request to
	// restore into; the live content does not change.
	ChangeRequest string
	// NewChangeRequest, when set (and ChangeRequest is not), opens a change
	// request with this subject holding the restored page, in the same
	// transaction: nothing is left behind when the restore fails.
	NewChangeRequest *folio.NewChangeRequest
}

// RestoreResult is what a restore made: the new revision, and the change
// request it went into (nil for the live content).
type RestoreResult struct {
	Revision      folio.ID
	ChangeRequest *folio.ChangeRequest
}

// RestorePage writes a document page's version from an earlier revision
// (its document, title and emoji) as a new revision: of the live content
// (type rollback, checked by requireEditable like every content write), of
// a change request's head, or of a change request it opens. A page deleted
// since comes back where it was (at the end of the top level when its
// parent is gone too), without its subpages. Readers are refused
// (Forbidden), a page that is not a document in that revision is Invalid,
// a version equal to the current one is Invalid. Nothing changes when it
// fails.
func (a *App) RestorePage(ctx context.Context, caller folio.Caller, spaceID folio.ID, in RestorePageInput) (*RestoreResult, error) {
	if in.Revision == "" {
		return nil, folio.FieldErrorf("revision", "the revision to restore from is required")
	}
	if in.NewChangeRequest != nil {
		if err := folio.ValidateChangeRequestSubject(in.NewChangeRequest.Subject); err != nil {
			return nil, err
		}
	}
	var (
		old        *content.Page
		oldParent  string
		oldIndex   int
		oldDoc     *content.Document
		notEditor  error
		notInSpace error
	)
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, in.Revision)
		if err != nil {
			return err
		}
		// Refuse a reader before telling them anything about the page.
		if notEditor = requireEditable(c.Space); notEditor != nil {
			return nil
		}
		n, ok := c.Node(in.Page)
		if !ok {
			notInSpace = folio.FieldErrorf("page", "the page is not in that revision")
			return nil
		}
		if n.Page.Type != content.PageDocument {
			notInSpace = folio.FieldErrorf("page", "only a document page can be restored; this is a %s", n.Page.Type)
			return nil
		}
		old, oldParent, oldIndex = n.Page, n.Parent, n.Index
		if old.Document != (content.Hash{}) {
			oldDoc, err = a.loadDocument(ctx, tx, old.Document)
		}
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case notEditor != nil:
		return nil, notEditor
	case notInSpace != nil:
		return nil, notInSpace
	}
	build := func(base *Content) (*content.Snapshot, error) {
		snap := &content.Snapshot{Documents: map[content.Hash]*content.Document{}}
		var h content.Hash
		if oldDoc != nil {
			h = snap.AddDocument(oldDoc)
		}
		if n, ok := base.Node(in.Page); ok {
			if n.Page.Type != content.PageDocument {
				return nil, folio.FieldErrorf("page", "the page is now a %s: only a document can be restored", n.Page.Type)
			}
			if n.Page.Document == old.Document && n.Page.Title == old.Title && n.Page.Emoji == old.Emoji {
				return nil, folio.FieldErrorf("revision", "the page is already as it was in that revision: there is nothing to restore")
			}
			t, err := base.Tree.EditAt(base.chain(in.Page), in.Page, func(p *content.Page) {
				p.Document, p.Title, p.Emoji = h, old.Title, old.Emoji
			})
			if err != nil {
				return nil, err
			}
			snap.Tree = t
			return snap, nil
		}
		// Deleted since: back where it was, alone.
		p := old.Clone()
		p.Pages, p.Document, p.Slug, p.Path = nil, h, "", ""
		parent, index := oldParent, oldIndex
		if parent != "" {
			if _, ok := base.Node(parent); !ok {
				parent, index = "", -1
			}
		}
		t := base.Tree.Fork()
		pages, ok := insertPage(t.Pages, parent, index, p)
		if !ok {
			return nil, errPageNotFound
		}
		t.Pages = pages
		snap.Tree = t
		return snap, nil
	}
	switch {
	case in.ChangeRequest != "":
		rev, err := a.commitChangeRequest(ctx, caller, spaceID, in.ChangeRequest, "", build)
		if err != nil {
			return nil, err
		}
		cr, err := a.GetChangeRequest(ctx, caller, spaceID, in.ChangeRequest)
		if err != nil {
			return nil, err
		}
		return &RestoreResult{Revision: rev.ID, ChangeRequest: &cr.ChangeRequest}, nil
	case in.NewChangeRequest != nil:
		return a.restoreIntoNewChangeRequest(ctx, caller, spaceID, *in.NewChangeRequest, build)
	}
	c, err := a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionRollback, build: build})
	if err != nil {
		return nil, err
	}
	return &RestoreResult{Revision: c.Revision.ID}, nil
}

// restoreIntoNewChangeRequest opens a change request forked from the
// space's current revision whose head is the restore built on it, in one
// transaction; it builds again when another writer moved the space
// meanwhile.
func (a *App) restoreIntoNewChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, in folio.NewChangeRequest,
	build func(base *Content) (*content.Snapshot, error)) (*RestoreResult, error) {
	for attempt := 1; ; attempt++ {
		base, err := a.GetContent(ctx, caller, spaceID, "")
		if err != nil {
			return nil, err
		}
		if err := requireEditable(base.Space); err != nil {
			return nil, err
		}
		snap, err := build(base)
		if err != nil {
			return nil, err
		}
		snap = ownPages(snap, base.Tree, base.rt.index().nodes)
		if err := a.finishDocuments(ctx, base, snap); err != nil {
			return nil, err
		}
		baseIndex := base.rt.index().nodes
		snap.Tree.FillSlugsEdit(base.Tree, baseIndex)
		if err := snap.Tree.ValidateEdit(base.Tree, baseIndex); err != nil {
			return nil, err
		}
		var res *RestoreResult
		err = a.db.Write(ctx, func(tx *store.Tx) error {
			sv, _, err := space(ctx, tx, caller, spaceID)
			if err != nil {
				return err
			}
			if err := requireEditable(sv); err != nil {
				return err
			}
			if sv.Revision != base.Revision.ID {
				return errSpaceMoved
			}
			if err := a.putTree(ctx, tx, base.Tree, snap.Tree, snap.Documents); err != nil {
				return err
			}
			rev := &folio.Revision{ID: folio.NewID(), SpaceID: sv.ID, TreeHash: snap.Tree.Hash().String(),
				Parents: []folio.ID{base.Revision.ID}, Type: folio.RevisionEdits, CreatedBy: caller.UserID}
			if err := store.CreateRevision(ctx, tx, rev); err != nil {
				return err
			}
			cr := &folio.ChangeRequest{ID: folio.NewID(), SpaceID: sv.ID, Status: folio.ChangeRequestOpen, Subject: in.Subject,
				CreatedBy: caller.UserID, RevisionInitial: base.Revision.ID, Revision: rev.ID}
			if err := store.CreateChangeRequest(ctx, tx, cr); err != nil {
				return err
			}
			if err := store.AddContributor(ctx, tx, cr.ID, caller.UserID); err != nil {
				return err
			}
			if err := emit(ctx, tx, sv.OrganizationID, sv.ID, folio.EventChangeRequestCreated,
				map[string]any{"spaceId": sv.ID, "changeRequestId": cr.ID, "createdBy": caller.UserID}); err != nil {
				return err
			}
			res = &RestoreResult{Revision: rev.ID, ChangeRequest: cr}
			return nil
		})
		if err == errSpaceMoved || folio.KindOf(err) == folio.Unavailable {
			if attempt < maxCommitAttempts && backoff(ctx, attempt) {
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		a.cacheTree(base, snap.Tree, nil)
		return res, nil
	}
}

// errSpaceMoved says another writer changed the space between building a
// restore and storing it: build again.
var errSpaceMoved = folio.Errorf(folio.Unavailable, "the space changed meanwhile: try again")
