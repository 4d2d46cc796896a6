package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// editMarkdownRoutes serves the edit view's Markdown view: conversions of
// the editor's document to Markdown and back (app.DocumentMarkdown and
// app.MarkdownDocument).
func (h *Handler) editMarkdownRoutes() {
	h.handle("POST /s/{space}/~/markdown", signedIn, h.convertMarkdown)
}

// markdownBody is what the Markdown view posts: a document to write as
// Markdown, or Markdown to read as a document.
type markdownBody struct {
	Document *content.Document `json:"document,omitempty"`
	Markdown *string           `json:"markdown,omitempty"`
}

// convertMarkdown turns the posted document into Markdown ({"markdown"})
// or the posted Markdown into a document ({"document"}); it changes
// nothing. Only writers of the space (live or through change requests)
// may use it; another organization's space answers 404. Page and file
// references are written as page:ID and file:ID, which read back as the
// same references.
func (h *Handler) convertMarkdown(w http.ResponseWriter, r *http.Request, q *req) error {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return folio.Errorf(folio.Invalid, "the conversion must be sent as JSON")
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDocumentBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return folio.Errorf(folio.TooLarge, "the document is larger than %d MB", maxDocumentBody>>20)
	}
	if err != nil {
		return folio.Errorf(folio.Invalid, "the document could not be read")
	}
	var body markdownBody
	if err := json.Unmarshal(b, &body); err != nil {
		return folio.FieldErrorf("document", "the request is not valid JSON: %v", err)
	}
	var out any
	switch {
	case body.Markdown != nil && body.Document == nil:
		doc, err := h.app.MarkdownDocument(r.Context(), q.caller, r.PathValue("space"), *body.Markdown)
		if err != nil {
			return err
		}
		out = map[string]any{"document": doc}
	case body.Document != nil && body.Markdown == nil:
		md, err := h.app.DocumentMarkdown(r.Context(), q.caller, r.PathValue("space"), body.Document)
		if err != nil {
			return err
		}
		out = map[string]string{"markdown": md}
	default:
		if _, err := h.app.GetSpace(r.Context(), q.caller, r.PathValue("space")); err != nil {
			return err
		}
		return folio.FieldErrorf("document", "send either a document or markdown")
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(out)
}
