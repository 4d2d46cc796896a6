package web

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// currentVersion is the page as someone else saved it, sent with a save's
// conflict so that the edit view shows both versions: the writer's, still
// in the editor, and this one. Revision is what the writer's next save
// builds on once they have seen it.
type currentVersion struct {
	Revision folio.ID          `json:"revision"`
	Document json.RawMessage   `json:"document"`
	Files    map[string]string `json:"files"`
}

// writeEditConflict answers a save refused as a Conflict: the GitBook error
// body, the page's current version (of the live content, or of the change
// request's head) when the caller may still read it, and the merge of both
// edits with the writer's version where they clash ("merged"), which the
// edit view puts in the editor so that saving again keeps everyone's
// other changes.
func (h *Handler) writeEditConflict(w http.ResponseWriter, r *http.Request, q *req, in app.PageDocumentInput, conflict error) error {
	ctx, spaceID := r.Context(), r.PathValue("space")
	rev := folio.ID("")
	if in.ChangeRequest != "" {
		cr, err := h.app.GetChangeRequest(ctx, q.caller, spaceID, in.ChangeRequest)
		if err != nil {
			return conflict
		}
		rev = cr.Revision
	}
	c, err := h.app.GetContent(ctx, q.caller, spaceID, rev)
	if err != nil {
		return conflict
	}
	doc, err := h.app.GetPageDocument(ctx, q.caller, spaceID, c.Revision.ID, in.Page)
	if err != nil {
		return conflict
	}
	cur := currentVersion{Revision: c.Revision.ID, Document: doc, Files: map[string]string{}}
	for _, id := range fileRefs(doc) {
		if f, ok := c.File(id); ok {
			cur.Files[id] = localFileURL(c.FileURL(f))
		}
	}
	body := map[string]any{
		"error":   map[string]any{"code": http.StatusConflict, "message": folio.MessageOf(conflict)},
		"current": cur,
	}
	var ec *app.EditConflictError
	if errors.As(conflict, &ec) && ec.Merged != nil {
		body["merged"] = ec.Merged
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusConflict)
	return json.NewEncoder(w).Encode(body)
}
