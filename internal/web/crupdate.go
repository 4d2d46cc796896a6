package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// conflictsView is the answer to an "Update from main" that conflicts:
// every conflict with both versions, and how to resolve it.
type conflictsView struct {
	Number    int64
	Subject   string
	Href      string // the change request's page
	Conflicts []conflictItem
}

// conflictItem is one conflict: what clashed and, for a page, its version
// in main and in the change request (documents as diffs from the change
// request's base).
type conflictItem struct {
	PageID, Title, Field, Message string
	Blocks                        []string
	MainTitle, OursTitle          string
	MainGone, OursGone            bool // the page was removed on that side
	Main, Ours                    []cmpBlock
	MainTooLarge, OursTooLarge    *tooLarge // that side is too different to show block by block
	CanTakeMain                   bool      // "Use main's version" is offered
}

// updateFromMain brings the space's current content into a change request
// (app.UpdateChangeRequestFromSpace). Conflicts refuse it, change nothing
// and are shown with both versions of each.
func (h *Handler) updateFromMain(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	_, err := h.app.UpdateChangeRequestFromSpace(r.Context(), q.caller, spaceID, ref)
	var mc *app.MergeConflictError
	if errors.As(err, &mc) {
		return h.renderConflicts(w, r, q, ref, mc)
	}
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref, http.StatusSeeOther)
	return nil
}

func (h *Handler) renderConflicts(w http.ResponseWriter, r *http.Request, q *req, ref string, mc *app.MergeConflictError) error {
	v, main, err := h.spaceFrame(r, q, "changes")
	if err != nil {
		return err
	}
	cr, err := h.app.GetChangeRequest(r.Context(), q.caller, v.Space.ID, ref)
	if err != nil {
		return err
	}
	base, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, cr.Base())
	if err != nil {
		return err
	}
	head, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, cr.Revision)
	if err != nil {
		return err
	}
	n := strconv.FormatInt(cr.Number, 10)
	cv := conflictsView{Number: cr.Number, Subject: cr.Subject, Href: v.Href + "/~/changes/" + n}
	if cv.Subject == "" {
		cv.Subject = "Change request #" + n
	}
	// doc loads a page's document on one side; nil when the page is not a
	// document there.
	doc := func(c *app.Content, id string) (*content.Document, bool, error) {
		n, ok := c.Node(id)
		if !ok {
			return nil, false, nil
		}
		if n.Page.Type != content.PageDocument {
			return nil, true, nil
		}
		d, err := h.document(r, q, v.Space.ID, c.Revision.ID, id)
		return d, true, err
	}
	for _, c := range mc.Conflicts {
		ci := conflictItem{PageID: c.PageID, Title: c.Title, Field: c.Field, Message: c.Message, Blocks: c.Blocks}
		if c.PageID == "" {
			if c.FileID != "" {
				ci.Title = "File " + c.FileID
			}
			cv.Conflicts = append(cv.Conflicts, ci)
			continue
		}
		if p, ok := main.Node(c.PageID); ok {
			ci.MainTitle = p.Page.Title
		} else {
			ci.MainGone = true
		}
		if p, ok := head.Node(c.PageID); ok {
			ci.OursTitle = p.Page.Title
		} else {
			ci.OursGone = true
		}
		if c.Field == "document" {
			bd, _, err := doc(base, c.PageID)
			if err != nil {
				return err
			}
			md, inMain, err := doc(main, c.PageID)
			if err != nil {
				return err
			}
			od, inOurs, err := doc(head, c.PageID)
			if err != nil {
				return err
			}
			// Each side is under an <h3>: documents' headings start at <h4>.
			from := ""
			if bd != nil {
				from = base.Revision.ID
			}
			if inMain {
				d, err := diffDocuments(bd, md, base, main, v.Href, 4)
				if err != nil {
					return err
				}
				ci.Main, ci.MainTooLarge = pairChanged(d.Blocks), d.note(v.Href, from, main.Revision.ID, c.PageID)
			}
			if inOurs {
				d, err := diffDocuments(bd, od, base, head, v.Href, 4)
				if err != nil {
					return err
				}
				ci.Ours, ci.OursTooLarge = pairChanged(d.Blocks), d.note(v.Href, from, head.Revision.ID, c.PageID)
			}
			ci.CanTakeMain = inMain && inOurs && v.CanPropose
		}
		cv.Conflicts = append(cv.Conflicts, ci)
	}
	v.Body = cv
	h.render(w, http.StatusConflict, "crconflicts", q, "Conflicts · "+cv.Subject+" · "+v.Space.Title, v)
	return nil
}

// takeMainVersion resolves a document conflict by writing main's version
// of the page into the change request (one save, refused when the change
// request's page changed meanwhile); updating from main then finds both
// sides equal there.
func (h *Handler) takeMainVersion(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref, pageID := r.PathValue("space"), r.PathValue("number"), r.PathValue("page")
	cr, err := h.app.GetChangeRequest(r.Context(), q.caller, spaceID, ref)
	if err != nil {
		return err
	}
	raw, err := h.app.GetPageDocument(r.Context(), q.caller, spaceID, "", pageID)
	if err != nil {
		return err
	}
	doc := content.NewDocument()
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, doc); err != nil {
			return err
		}
	}
	if _, err := h.app.SavePageDocument(r.Context(), q.caller, spaceID,
		app.PageDocumentInput{Page: pageID, Document: doc, Since: cr.Revision, ChangeRequest: ref}); err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref, http.StatusSeeOther)
	return nil
}

// setChangeRequestStatus archives a change request or reopens an archived
// one (app.UpdateChangeRequest with a status: editors of the space).
func (h *Handler) setChangeRequestStatus(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	status := r.PostForm.Get("status")
	if status != folio.ChangeRequestArchived && status != folio.ChangeRequestOpen {
		return folio.FieldErrorf("status", "a change request can be archived or reopened here")
	}
	if _, err := h.app.UpdateChangeRequest(r.Context(), q.caller, spaceID, ref,
		app.ChangeRequestUpdate{Status: folio.Some(status)}); err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref, http.StatusSeeOther)
	return nil
}
