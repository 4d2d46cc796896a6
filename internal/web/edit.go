package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/editor"
)

// editorAssets are the editor's script and stylesheet, served by the app
// under /assets/editor/.
var editorAssets = editor.New("/assets/editor/")

// maxDocumentBody bounds a saved document's JSON.
const maxDocumentBody = 8 << 20

// editView is the edit view of a page: the editor mounted on the page's
// document, the revision it started from, and where saving goes.
type editView struct {
	Title         string
	Document      string // the page's document, GitBook JSON
	Pages         string // [{id, title}] of the space's document pages, JSON
	Since         string
	Files         string // {id: url} of the files the document shows, JSON
	SaveURL       string
	UploadURL     string
	MarkdownURL   string // converts between the document and Markdown
	DoneURL       string
	CancelURL     string
	ChangeRequest string // "#3 Subject" when editing inside one
}

// editPage shows the edit view of a page of the live content.
func (h *Handler) editPage(w http.ResponseWriter, r *http.Request, q *req) error {
	v, c, err := h.spaceFrame(r, q, "pages")
	if err != nil {
		return err
	}
	if !v.CanEdit {
		if v.Locked {
			return folio.Errorf(folio.Forbidden, "the space is locked: edit it in a change request")
		}
		return folio.Errorf(folio.Forbidden, "you cannot edit this space's content")
	}
	pageID := r.PathValue("page")
	back := v.Href + "/~/pages/" + pageID
	ev := &editView{SaveURL: back + "/document", UploadURL: v.Href + "/~/files", DoneURL: back, CancelURL: back}
	return h.renderEdit(w, r, q, v, c, pageID, ev)
}

// editInChangeRequest shows the edit view of a page inside a change
// request: it starts from, and saves into, the change request's head.
func (h *Handler) editInChangeRequest(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "changes")
	if err != nil {
		return err
	}
	ref := r.PathValue("number")
	cr, err := h.app.GetChangeRequest(r.Context(), q.caller, v.Space.ID, ref)
	if err != nil {
		return err
	}
	if !v.CanPropose {
		return folio.Errorf(folio.Forbidden, "you cannot edit this space's content")
	}
	if err := cr.Writable(); err != nil {
		return err
	}
	head, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, cr.Revision)
	if err != nil {
		return err
	}
	pageID := r.PathValue("page")
	if pageID == "" {
		pageID = r.URL.Query().Get("page")
	}
	crHref := v.Href + "/~/changes/" + strconv.FormatInt(cr.Number, 10)
	subject := cr.Subject
	if subject == "" {
		subject = "Change request"
	}
	ev := &editView{SaveURL: crHref + "/pages/" + pageID + "/document", UploadURL: crHref + "/files", DoneURL: crHref, CancelURL: crHref,
		ChangeRequest: "#" + strconv.FormatInt(cr.Number, 10) + " " + subject}
	return h.renderEdit(w, r, q, v, head, pageID, ev)
}

func (h *Handler) renderEdit(w http.ResponseWriter, r *http.Request, q *req, v *spaceView, c *app.Content, pageID string, ev *editView) error {
	n, ok := c.Node(pageID)
	if !ok || n.Page.Type == content.PageLink {
		return folio.Errorf(folio.NotFound, "page not found")
	}
	if n.Page.Type != content.PageDocument {
		return folio.Errorf(folio.Invalid, "a group has no content to edit: open one of its pages")
	}
	doc, err := h.app.GetPageDocument(r.Context(), q.caller, c.Space.ID, c.Revision.ID, pageID)
	if err != nil {
		return err
	}
	type target struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	var targets []target
	content.Walk(c.Tree, func(p content.PageNode) bool {
		if p.Page.Type == content.PageDocument {
			targets = append(targets, target{p.Page.ID, p.Page.Title})
		}
		return true
	})
	pages, _ := json.Marshal(targets)
	urls := map[string]string{}
	for _, id := range fileRefs(doc) {
		if f, ok := c.File(id); ok {
			urls[id] = localFileURL(c.FileURL(f))
		}
	}
	files, _ := json.Marshal(urls)
	ev.Files = string(files)
	ev.MarkdownURL = v.Href + "/~/markdown"
	ev.Title, ev.Document, ev.Pages, ev.Since = n.Page.Title, string(doc), string(pages), c.Revision.ID
	v.Tree = h.tree(c, v.Href, pageID)
	v.Body = ev
	w.Header().Set("Content-Security-Policy", editor.CSP)
	h.renderPage(w, http.StatusOK, "edit", q, "Edit "+n.Page.Title+" · "+v.Space.Title, v, pageAssets{
		CSS:     []string{editorAssets.StyleURL()},
		Scripts: []string{editorAssets.ScriptURL(), assetsByKey["edit.js"].url},
	})
	return nil
}

// saveBody is what the edit view posts: the document and the revision the
// writer started from.
type saveBody struct {
	Document *content.Document `json:"document"`
	Since    folio.ID          `json:"since"`
}

// saveDocument replaces a page's document (in the live content, or in the
// change request of the path) with the one the editor posts as JSON; the
// CSRF token comes in the X-CSRF-Token header. It answers JSON: the new
// revision and where to go, or the error. A page changed since the writer
// started is merged with their changes; when both changed the same blocks
// it answers 409 with the page's current version (writeEditConflict).
func (h *Handler) saveDocument(w http.ResponseWriter, r *http.Request, q *req) error {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return folio.Errorf(folio.Invalid, "the document must be sent as JSON")
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDocumentBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return folio.Errorf(folio.TooLarge, "the document is larger than %d MB", maxDocumentBody>>20)
	}
	if err != nil {
		return folio.Errorf(folio.Invalid, "the document could not be read")
	}
	var body saveBody
	if err := json.Unmarshal(b, &body); err != nil {
		return folio.FieldErrorf("document", "the document is not valid JSON: %v", err)
	}
	spaceID, pageID := r.PathValue("space"), r.PathValue("page")
	in := app.PageDocumentInput{Page: pageID, Document: body.Document, Since: body.Since, ChangeRequest: r.PathValue("number")}
	rev, err := h.app.SavePageDocument(r.Context(), q.caller, spaceID, in)
	if folio.KindOf(err) == folio.Conflict && wantsJSON(r) {
		return h.writeEditConflict(w, r, q, in, err)
	}
	if err != nil {
		return err
	}
	loc := "/s/" + spaceID + "/~/pages/" + pageID
	if in.ChangeRequest != "" {
		loc = "/s/" + spaceID + "/~/changes/" + in.ChangeRequest
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(map[string]string{"revision": rev, "location": loc})
}

// wantsJSON says whether a request is the editor's: its errors are
// answered as GitBook error bodies rather than pages.
func wantsJSON(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Accept"), "application/json")
}

// writeJSONError answers an error as {"error":{"code":N,"message":"..."}}.
func writeJSONError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg}})
}

// serveEditorAsset serves the editor's script and stylesheet.
func (h *Handler) serveEditorAsset(w http.ResponseWriter, r *http.Request, q *req) error {
	w.Header().Del("Cache-Control")
	editorAssets.ServeHTTP(w, r)
	return nil
}
