package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// New pages inside change requests: the "New page" form of a change
// request's page, and the form of a locked space that opens a change
// request for a new page (a locked space's live content takes no edits, so
// this is how its first page is made).

// crPagesRoutes are the forms that add pages in change requests.
func (h *Handler) crPagesRoutes() {
	h.handle("POST /s/{space}/~/changes/{number}/pages", signedIn, h.createChangeRequestPage)
	h.handle("POST /s/{space}/~/pages/propose", signedIn, h.proposePage)
}

// pageInput reads a "New page" form: a document unless it says group.
func pageInput(r *http.Request) app.NewPageInput {
	in := app.NewPageInput{Type: r.PostForm.Get("type"), Title: r.PostForm.Get("title"), Parent: r.PostForm.Get("parent")}
	if in.Type == "" {
		in.Type = content.PageDocument
	}
	return in
}

// newPageForm reads a "New page" form and checks it as the app will.
func newPageForm(r *http.Request) (app.NewPageInput, error) {
	in := pageInput(r)
	return in, app.CheckNewPage(in)
}

// afterNewPage goes to a new page's editor in its change request (a
// document) or to the change request (a group, which has no content).
func afterNewPage(w http.ResponseWriter, r *http.Request, crHref string, in app.NewPageInput, id string) {
	to := crHref
	if in.Type == content.PageDocument {
		to += "/pages/" + id + "/edit"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// createChangeRequestPage adds a page to a change request.
func (h *Handler) createChangeRequestPage(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	in, err := newPageForm(r)
	if err != nil {
		return err
	}
	id, err := h.app.CreateChangeRequestPage(r.Context(), q.caller, spaceID, ref, in)
	if err != nil {
		return err
	}
	afterNewPage(w, r, "/s/"+spaceID+"/~/changes/"+ref, in, id)
	return nil
}

// proposePage opens a change request (its subject the form's, or "Add
// {title}") with a new page in it. The page's title is checked first, so a
// refused form opens nothing.
func (h *Handler) proposePage(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID := r.PathValue("space")
	in, err := newPageForm(r)
	if err != nil {
		return err
	}
	subject := strings.TrimSpace(r.PostForm.Get("subject"))
	if subject == "" {
		subject = "Add “" + strings.TrimSpace(in.Title) + "”"
		if len([]rune(subject)) > 255 {
			subject = string([]rune(subject)[:254]) + "…"
		}
	}
	cr, err := h.app.CreateChangeRequest(r.Context(), q.caller, spaceID, folio.NewChangeRequest{Subject: subject})
	if err != nil {
		return err
	}
	n := strconv.FormatInt(cr.Number, 10)
	id, err := h.app.CreateChangeRequestPage(r.Context(), q.caller, spaceID, n, in)
	if err != nil {
		return err
	}
	afterNewPage(w, r, "/s/"+spaceID+"/~/changes/"+n, in, id)
	return nil
}
