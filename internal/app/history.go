package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// HistoryEntry is a revision of a space's main line with its author.
type HistoryEntry struct {
	folio.Revision
	Author *folio.User // nil when unknown (a deleted user, a git import)
}

// historyWindow is how many recent revisions ListHistory reads at once to
// find the main line among change requests' revisions.
const historyWindow = 1000

// ListHistory lists up to limit revisions of a space's main line, newest
// first, from its current revision back along first parents, with their
// authors (two queries). NotFound when the caller may not view the space.
func (a *App) ListHistory(ctx context.Context, caller folio.Caller, spaceID folio.ID, limit int) (out []HistoryEntry, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if !sv.Permissions().View || sv.DeletedAt != nil {
			return errSpaceNotFound
		}
		revs, err := store.RecentRevisions(ctx, tx, spaceID, historyWindow)
		if err != nil {
			return err
		}
		byID := make(map[folio.ID]*folio.Revision, len(revs))
		for i := range revs {
			byID[revs[i].ID] = &revs[i]
		}
		var ids []folio.ID
		for id := sv.Revision; id != "" && len(out) < limit; {
			r, ok := byID[id]
			if !ok {
				break
			}
			out = append(out, HistoryEntry{Revision: *r})
			ids = append(ids, r.CreatedBy)
			id = ""
			if len(r.Parents) > 0 {
				id = r.Parents[0]
			}
		}
		users, err := store.GetUsers(ctx, tx, ids)
		if err != nil {
			return err
		}
		for i := range out {
			out[i].Author = users[out[i].CreatedBy]
		}
		return nil
	})
	return out, err
}
