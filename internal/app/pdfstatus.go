package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// PDFStatus returns the state of the PDF of a checked print target (one
// that PrintURL made for the caller and OpenPrint read back) without
// starting it, as the web app's export page shows it: nil when it was
// never asked for. RequestPDF starts it.
func (a *App) PDFStatus(ctx context.Context, t PrintTarget) (e *folio.PDFExport, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		e, err = store.GetPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant())
		if folio.IsNotFound(err) {
			e, err = nil, nil
		}
		return err
	})
	return e, err
}
