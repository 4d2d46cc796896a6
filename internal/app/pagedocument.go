package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// PageDocumentInput is a new document for a page, as the web app's editor
// saves it.
type PageDocumentInput struct {
	Page     string
	Document *content.Document
	// Since is the revision the writer started from (the space's, or the
	// change request's head). When set and the page's document changed
	// after it, the save is refused as a conflict instead of overwriting
	// the other change. "" skips the check.
	Since folio.ID
	// ChangeRequest, when set (id or number), is the change request to
	// write into; the live content does not change.
	ChangeRequest string
}

// ErrEditConflict is the message of the Conflict SavePageDocument answers
// when the page changed after the writer started.
const ErrEditConflict = "the page was changed by someone else since you started editing: reload it to see their changes, then make yours again"

// SavePageDocument replaces a page's document with in.Document, as one new
// revision of the space's live content (commit, checked by requireEditable
// like every content write) or of a change request's head
// (commitChangeRequest). Blocks that survive keep their keys and new ones
// get keys, as in every write (finishDocuments). A document that fails
// validation is Invalid; a page that is not a document is Invalid; a page
// whose document changed after in.Since is Conflict. Nothing changes when
// it fails. It returns the new revision's id.
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
		if since != nil && n.Page.Document != *since {
			return nil, folio.Errorf(folio.Conflict, ErrEditConflict)
		}
		snap := &content.Snapshot{Documents: map[content.Hash]*content.Document{}}
		h := snap.AddDocument(doc)
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
