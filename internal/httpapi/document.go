package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
)

// documentOptions checks the options of a document read: evaluated (the
// reference's documentEvaluated), dereferenced (sent by GitBook's renderer)
// and schema. Every accepted value answers the stored document (see
// app.GetPageDocument).
func documentOptions(r *http.Request) error {
	q := r.URL.Query()
	switch q.Get("evaluated") {
	case "", "true", "false", "deterministic-only":
	default:
		return folio.FieldErrorf("evaluated", "evaluated must be true, false or deterministic-only")
	}
	switch q.Get("dereferenced") {
	case "", "true", "false", "reusable-contents":
	default:
		return folio.FieldErrorf("dereferenced", "dereferenced must be true, false or reusable-contents")
	}
	switch q.Get("schema") {
	case "", "current", "next":
	default:
		return folio.FieldErrorf("schema", "schema must be current or next")
	}
	return nil
}

// writeDocument answers a stored document's JSON as it is.
func writeDocument(w http.ResponseWriter, doc []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(doc)
}

// getPageDocument serves GET .../revisions/{revisionId}/page/{pageId}/document.
func (s *Server) getPageDocument(w http.ResponseWriter, r *http.Request) error {
	if err := documentOptions(r); err != nil {
		return err
	}
	doc, err := s.app.GetPageDocument(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"), r.PathValue("pageId"))
	if err != nil {
		return err
	}
	writeDocument(w, doc)
	return nil
}

// getReusableContentDocument serves
// GET .../revisions/{revisionId}/reusable-contents/{reusableContentId}/document.
func (s *Server) getReusableContentDocument(w http.ResponseWriter, r *http.Request) error {
	if err := documentOptions(r); err != nil {
		return err
	}
	doc, err := s.app.GetReusableContentDocument(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"),
		r.PathValue("reusableContentId"))
	if err != nil {
		return err
	}
	writeDocument(w, doc)
	return nil
}

// getDocument serves GET /spaces/{spaceId}/documents/{documentId}.
func (s *Server) getDocument(w http.ResponseWriter, r *http.Request) error {
	if err := documentOptions(r); err != nil {
		return err
	}
	doc, err := s.app.GetDocument(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("documentId"))
	if err != nil {
		return err
	}
	writeDocument(w, doc)
	return nil
}
