package app

import (
	"context"

	"github.com/foliodocs/folio"
)

// CreateChangeRequestPage adds an empty document or group page to a change
// request's head, at the end of its parent's pages ("" for the top level),
// and returns its id: the web app's "New page" inside a change request,
// which is how a locked space (whose live content takes no edits) gets its
// first page. The caller needs the space's edit permission and the change
// request must take changes. Invalid, NotFound (space, change request or
// parent), Forbidden or Conflict (merged or archived).
func (a *App) CreateChangeRequestPage(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, in NewPageInput) (string, error) {
	id, build, err := in.builder()
	if err != nil {
		return "", err
	}
	if _, err = a.commitChangeRequest(ctx, caller, spaceID, ref, "", build); err != nil {
		return "", err
	}
	return id, nil
}
