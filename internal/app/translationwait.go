package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// TranslationRunWaiting reports whether a run of a translation is queued
// and not started yet (its status says pending or completed until the run
// starts), for the web app's live progress.
func (a *App) TranslationRunWaiting(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (waiting bool, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		tr, err := store.GetTranslation(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		n, err := store.WaitingKeyedJobs(ctx, tx, "translation:"+tr.ID)
		waiting = n > 0
		return err
	})
	return waiting, err
}
