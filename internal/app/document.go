package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

var (
	errDocumentNotFound        = folio.Errorf(folio.NotFound, "document not found")
	errReusableContentNotFound = folio.Errorf(folio.NotFound, "reusable content not found")
)

// GetPageDocument returns the document of a page of a revision (revisionID
// "" for the current one), as stored, or computed for a page computed from
// an OpenAPI specification: getPageDocumentInRevisionById. A
// group or link page has no document: NotFound. The evaluated and
// dereferenced options change nothing yet (Folio stores no expressions to
// evaluate, and reusable-content blocks stay references).
func (a *App) GetPageDocument(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID, pageID string) (doc json.RawMessage, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, revisionID)
		if err != nil {
			return err
		}
		n, ok := c.Node(pageID)
		if !ok {
			return errPageNotFound
		}
		if n.Page.Type != content.PageDocument {
			return errDocumentNotFound
		}
		// GitBook's renderer reads computed pages' documents here.
		doc, err = a.pageDocumentJSON(ctx, tx, c.Space.OrganizationID, n.Page, true)
		return err
	})
	return doc, err
}

// GetReusableContentDocument returns the document of a reusable content of
// a revision: getReusableContentDocumentInRevisionById.
func (a *App) GetReusableContentDocument(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID, id string) (doc json.RawMessage, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, revisionID)
		if err != nil {
			return err
		}
		for _, rc := range c.Tree.ReusableContents {
			if rc.ID == id {
				doc, err = a.loadDocumentJSON(ctx, tx, rc.Document)
				return err
			}
		}
		return errReusableContentNotFound
	})
	return doc, err
}

// GetDocument returns a document of a space by id: getDocumentById. A
// document's id is its content hash (the documentId of pages); only the
// documents of the space's current revision (its pages' and reusable
// contents') are found, so a hash cannot read content of another space or
// of an older revision. Documents of other revisions are read through
// their pages (getPageDocumentInRevisionById).
func (a *App) GetDocument(ctx context.Context, caller folio.Caller, spaceID folio.ID, documentID string) (doc json.RawMessage, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, "")
		if err != nil {
			return err
		}
		h, err := content.ParseHash(documentID)
		if err != nil || h.IsZero() || !hasDocument(c.Tree, h) {
			return errDocumentNotFound
		}
		doc, err = a.loadDocumentJSON(ctx, tx, h)
		return err
	})
	return doc, err
}

// hasDocument reports whether a page or a reusable content of t has the
// document h: O(pages).
func hasDocument(t *content.Tree, h content.Hash) bool {
	for _, rc := range t.ReusableContents {
		if rc.Document == h {
			return true
		}
	}
	var walk func(pages []*content.Page) bool
	walk = func(pages []*content.Page) bool {
		for _, p := range pages {
			if p.Document == h || walk(p.Pages) {
				return true
			}
		}
		return false
	}
	return walk(t.Pages)
}
