package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// CheckMerge says whether the caller could merge a change request now:
// nil when MergeChangeRequest would go ahead (a conflicting merge aside),
// else the error it would answer (Forbidden for those who may not merge or
// a deleted space, Conflict naming the merge rules not met), for the web
// app to say why its Merge button is disabled.
func (a *App) CheckMerge(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) error {
	return a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		return a.requireMergeable(ctx, caller)(tx, sv, cr)
	})
}
