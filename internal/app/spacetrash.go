package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// MaxTrash bounds the deleted spaces ListDeletedSpaces returns.
const MaxTrash = 500

// ListDeletedSpaces lists an organization's spaces deleted less than
// folio.SpaceRetention ago that the caller could restore (they administer
// the space as it was), most recently deleted first. Non-members get
// NotFound, as for the organization.
func (a *App) ListDeletedSpaces(ctx context.Context, caller folio.Caller, orgID folio.ID) (out []folio.SpaceView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		ca, err := loadContentAccess(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		spaces, err := store.ListDeletedSpaces(ctx, tx, orgID, tx.Now.Add(-folio.SpaceRetention), MaxTrash)
		if err != nil {
			return err
		}
		out = []folio.SpaceView{}
		for _, s := range spaces {
			v := folio.SpaceView{Space: s, CallerRole: ca.spaceRole(&s)}
			if v.Permissions().Admin {
				out = append(out, v)
			}
		}
		return nil
	})
	return out, err
}
