package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// restorePage restores a page's version from a revision (the "Restore
// this version" form): into the live content, a new change request or an
// existing one, as one app call (app.RestorePage), then goes to where it
// went.
func (h *Handler) restorePage(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, pageID := r.PathValue("space"), r.PathValue("page")
	in := app.RestorePageInput{Revision: r.PathValue("revision"), Page: pageID}
	switch r.PostForm.Get("into") {
	case "", "live":
	case "new":
		subject := strings.TrimSpace(r.PostForm.Get("subject"))
		if subject == "" {
			subject = "Restore an earlier version"
		}
		in.NewChangeRequest = &folio.NewChangeRequest{Subject: subject}
	case "cr":
		if in.ChangeRequest = r.PostForm.Get("cr"); in.ChangeRequest == "" {
			return folio.FieldErrorf("cr", "choose the change request to restore into")
		}
	default:
		return folio.FieldErrorf("into", "restore into the live content, a new change request or an existing one")
	}
	res, err := h.app.RestorePage(r.Context(), q.caller, spaceID, in)
	if err != nil {
		return err
	}
	to := "/s/" + spaceID + "/~/pages/" + pageID
	if res.ChangeRequest != nil {
		to = "/s/" + spaceID + "/~/changes/" + strconv.FormatInt(res.ChangeRequest.Number, 10)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}
