package app

import (
	"context"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// PageDocumentInput is a new document for a page, as the web app's editor
// saves it.
type PageDocumentInput struct {
	Page     string
	Document *content.Document
	// Since is the revision the writer started from (the space's, or the
	// change request's head). When set and the page's document changed
	// after it, the writer's changes are merged with the other ones block
	// by block (content.MergeDocuments), and the save is refused as a
	// conflict when both changed the same block, instead of overwriting
	// the other change. "" skips the check.
	Since folio.ID
	// ChangeRequest, when set (id or number), is the change request to
	// write into; the live content does not change.
	ChangeRequest string
}

// ErrEditConflict starts the message of the Conflict SavePageDocument
// answers when the page changed after the writer started, in the same
// blocks as the writer's changes.
const ErrEditConflict = "the page was changed by someone else since you started editing, in the same places as your changes"

// SavePageDocument replaces a page's document with in.Document, as one new
// revision of the space's live content (commit, checked by requireEditable
// like every content write) or of a change request's head
// (commitChangeRequest). Blocks that survive keep their keys and new ones
// get keys, as in every write (finishDocuments). When the page's document
// changed after in.Since, the two edits are merged three ways (the
// document at in.Since is the base) and the merge is saved; both having
// changed the same block is an *EditConflictError (Conflict), naming the
// blocks and carrying the merge with the writer's version there. A document that
// fails validation is Invalid; a page that is not a document is Invalid.
// Nothing changes when it fails. It returns the new revision's id.
func (a *App) SavePageDocument(ctx context.Context, caller folio.Caller, spaceID folio.ID, in PageDocumentInput) (folio.ID, error) {
	if in.Document == nil {
		return "", folio.FieldErrorf("document", "a document is required")
	}
	if err := in.Document.Validate("document"); err != nil {
		return "", err
	}
	// The document the writer started from, to tell a concurrent edit.
	var since *content.Hash
	if in.Since != "" {
		c, err := a.GetContent(ctx, caller, spaceID, in.Since)
		if err != nil {
			if folio.KindOf(err) == folio.NotFound {
				return "", folio.FieldErrorf("since", "the revision you started from is not one of this space's")
			}
			return "", err
		}
		if n, ok := c.Node(in.Page); ok {
			h := n.Page.Document
			since = &h
		}
	}
	// Normalized once, shared by every attempt (the builder never changes
	// it, and finishDocuments copies rather than changes).
	doc := in.Document
	build := func(base *Content) (*content.Snapshot, error) {
		n, ok := base.Node(in.Page)
		if !ok || n.Page.Type == content.PageLink {
			return nil, errPageNotFound
		}
		if n.Page.Type != content.PageDocument {
			return nil, folio.FieldErrorf("page", "only a document page has content to edit; this is a %s", n.Page.Type)
		}
		mine := doc
		if since != nil && n.Page.Document != *since {
			merged, err := a.mergeConcurrentEdit(ctx, *since, doc, n.Page.Document)
			if err != nil {
				return nil, err
			}
			mine = merged
		}
		snap := &content.Snapshot{Documents: map[content.Hash]*content.Document{}}
		h := snap.AddDocument(mine)
		t, err := base.Tree.EditAt(base.chain(in.Page), in.Page, func(p *content.Page) { p.Document = h })
		if err != nil {
			return nil, err
		}
		snap.Tree = t
		return snap, nil
	}
	if in.ChangeRequest != "" {
		rev, err := a.commitChangeRequest(ctx, caller, spaceID, in.ChangeRequest, "", build)
		if err != nil {
			return "", err
		}
		return rev.ID, nil
	}
	c, err := a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits, build: build})
	if err != nil {
		return "", err
	}
	return c.Revision.ID, nil
}

// EditConflictError refuses a save whose page someone else changed, since
// the writer started, in the same blocks: nothing changed. It is a
// Conflict naming the blocks. Merged is the three-way merge with the
// writer's version in those blocks and every other change of both sides,
// for the editor to carry on from (see SavePageDocument).
type EditConflictError struct {
	Blocks []string
	Merged *content.Document
}

func (e *EditConflictError) Error() string { return e.err().Message }

func (e *EditConflictError) err() *folio.Error {
	return folio.Errorf(folio.Conflict, "%s (%s)", ErrEditConflict, strings.Join(e.Blocks, "; "))
}

// Unwrap makes the error a folio Conflict for the HTTP layer.
func (e *EditConflictError) Unwrap() error { return e.err() }

// mergeConcurrentEdit merges the writer's document (ours, started from the
// document base) with the page's current one (theirs, saved by someone
// else meanwhile): the merged document, or an *EditConflictError when
// both changed a block differently.
func (a *App) mergeConcurrentEdit(ctx context.Context, base content.Hash, ours *content.Document, theirs content.Hash) (*content.Document, error) {
	var bd, td *content.Document
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if bd, err = a.loadDocument(ctx, tx, base); err != nil {
			return err
		}
		td, err = a.loadDocument(ctx, tx, theirs)
		return err
	})
	if err != nil {
		return nil, err
	}
	merged, conflicts := content.MergeDocuments(bd, ours, td)
	if len(conflicts) == 0 {
		return merged, nil
	}
	e := &EditConflictError{Merged: merged}
	for _, c := range conflicts {
		e.Blocks = append(e.Blocks, c.Message)
	}
	return nil, e
}
