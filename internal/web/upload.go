package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// uploadFile adds the image the editor posts (the request body, its type
// in Content-Type, its name in ?name=) to the space's files: the live
// content's, or the change request's of the path (app.AddSpaceFile). The
// CSRF token comes in X-CSRF-Token, as for saving. It answers JSON: the
// content reference the editor inserts, the file, and a URL showing it;
// errors are GitBook error bodies.
func (h *Handler) uploadFile(w http.ResponseWriter, r *http.Request, q *req) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, app.MaxSpaceFileBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return folio.Errorf(folio.TooLarge, "the file is larger than %d MiB", app.MaxSpaceFileBytes>>20)
	}
	if err != nil {
		return folio.Errorf(folio.Invalid, "the file could not be read")
	}
	f, err := h.app.AddSpaceFile(r.Context(), q.caller, r.PathValue("space"), r.PathValue("number"),
		r.URL.Query().Get("name"), r.Header.Get("Content-Type"), b)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	return json.NewEncoder(w).Encode(map[string]any{
		"ref":  map[string]string{"kind": "file", "file": f.File.ID},
		"file": map[string]any{"id": f.File.ID, "name": f.File.Name, "contentType": f.File.ContentType, "size": f.File.Size},
		"url":  localFileURL(f.URL),
	})
}

// localFileURL turns a signed file URL into a path on this server, so the
// edit view's images are same-origin whatever the public URL.
func localFileURL(u string) string {
	if i := strings.Index(u, "/v1/files/"); i >= 0 {
		return u[i:]
	}
	return u
}

// fileRefs lists the ids of the files a document's blocks refer to
// ({"kind": "file", "file": id} anywhere in its JSON).
func fileRefs(doc []byte) []string {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return nil
	}
	var ids []string
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if t["kind"] == "file" {
				if id, ok := t["file"].(string); ok && !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
			for _, c := range t {
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	return ids
}
