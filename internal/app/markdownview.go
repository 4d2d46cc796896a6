package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// DocumentMarkdown writes a document as Markdown for the app's Markdown
// view of a page of the space. It changes nothing; only those who may
// write the space's content (live or through change requests) may use it,
// and another organization's space answers not found. Page and file
// references are written as page:ID and file:ID, which MarkdownDocument
// reads back as the same references.
func (a *App) DocumentMarkdown(ctx context.Context, caller folio.Caller, spaceID folio.ID, doc *content.Document) (string, error) {
	if err := a.requireMarkdownView(ctx, caller, spaceID); err != nil {
		return "", err
	}
	doc.Normalize()
	if err := doc.Validate("document"); err != nil {
		return "", err
	}
	md, err := markdown.FromDocument(doc, nil)
	if err != nil {
		return "", err
	}
	return string(md), nil
}

// MarkdownDocument reads the Markdown view's text back as a document,
// under the same rule as DocumentMarkdown.
func (a *App) MarkdownDocument(ctx context.Context, caller folio.Caller, spaceID folio.ID, md string) (*content.Document, error) {
	if err := a.requireMarkdownView(ctx, caller, spaceID); err != nil {
		return nil, err
	}
	return markdown.ToDocument([]byte(md), nil)
}

func (a *App) requireMarkdownView(ctx context.Context, caller folio.Caller, spaceID folio.ID) error {
	sp, err := a.GetSpace(ctx, caller, spaceID)
	if err != nil {
		return err
	}
	if !sp.Permissions().Edit {
		return folio.Errorf(folio.Forbidden, "you cannot edit this space's content")
	}
	return nil
}
