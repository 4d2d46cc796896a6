package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// CreateChangeRequestPage adds an empty document or group page to a change
// request's head, at the end of its parent's pages ("" for the top level),
// and returns its id: the web app's "New page" inside a change request,
// which is how a locked space (whose live content takes no edits) gets its
// first page. The caller needs the space's edit permission and the change
// request must take changes. Invalid, NotFound (space, change request or
// parent), Forbidden or Conflict (merged or archived).
func (a *App) CreateChangeRequestPage(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, in NewPageInput) (string, error) {
	title, err := pageTitle(in.Title)
	if err != nil {
		return "", err
	}
	if in.Type != content.PageDocument && in.Type != content.PageGroup {
		return "", folio.FieldErrorf("type", "type must be document or group")
	}
	id := folio.NewID()
	_, err = a.commitChangeRequest(ctx, caller, spaceID, ref, "", func(base *Content) (*content.Snapshot, error) {
		t := base.Tree.Fork()
		pages, ok := insertPage(t.Pages, in.Parent, -1, &content.Page{ID: id, Type: in.Type, Title: title})
		if !ok {
			return nil, errPageNotFound
		}
		t.Pages = pages
		return &content.Snapshot{Tree: t}, nil
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// CheckPageTitle validates a new page's title as CreatePage and
// CreateChangeRequestPage do (Invalid), so that a form which opens a change
// request for a page can refuse a bad title before opening it.
func CheckPageTitle(title string) error {
	_, err := pageTitle(title)
	return err
}
