package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// crActions is what the change request page offers the caller: editing
// its pages, reviewing and merging, each only when the server would
// accept it.
type crActions struct {
	Href      string // the change request's page
	CanEdit   bool
	Pages     []pageOption
	CanReview bool
	ShowMerge bool   // the caller may merge this space's change requests
	MergeWhy  string // why Merge is disabled; "" when it is enabled
}

type pageOption struct {
	ID, Title string
}

// crActionsFor builds the actions of a change request page.
func (h *Handler) crActionsFor(r *http.Request, q *req, v *spaceView, cr *app.ChangeRequestView, head *app.Content) (crActions, error) {
	a := crActions{Href: v.Href + "/~/changes/" + strconv.FormatInt(cr.Number, 10)}
	if cr.Writable() != nil {
		return a, nil
	}
	a.CanEdit = v.CanPropose
	if a.CanEdit && head != nil {
		content.Walk(head.Tree, func(n content.PageNode) bool {
			if n.Page.Type == content.PageDocument {
				title := n.Page.Title
				if n.Depth > 1 { // Walk's top level is depth 1
					title = strings.Repeat("– ", n.Depth-1) + title
				}
				a.Pages = append(a.Pages, pageOption{ID: n.Page.ID, Title: title})
			}
			return true
		})
	}
	a.CanReview = v.Perms.Review
	a.ShowMerge = v.Perms.Merge
	if a.ShowMerge {
		if err := h.app.CheckMerge(r.Context(), q.caller, v.Space.ID, cr.ID); err != nil {
			switch folio.KindOf(err) {
			case folio.Conflict, folio.Forbidden:
				a.MergeWhy = folio.MessageOf(err)
			default:
				return a, err
			}
		}
	}
	return a, nil
}

// createChangeRequest opens a change request from the "New change
// request" form (subject, description) and goes to it, or to the edit view
// of the form's page inside it.
func (h *Handler) createChangeRequest(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID := r.PathValue("space")
	subject := strings.TrimSpace(r.PostForm.Get("subject"))
	// The description is written with the change request, in one
	// transaction: one that the app refuses creates nothing.
	var desc *content.Document
	if d := strings.TrimSpace(r.PostForm.Get("description")); d != "" {
		var paras []string
		for _, p := range strings.Split(strings.ReplaceAll(d, "\r\n", "\n"), "\n\n") {
			if p = strings.TrimSpace(p); p != "" {
				paras = append(paras, p)
			}
		}
		desc = content.NewDocument(paras...)
	}
	cr, err := h.app.CreateChangeRequestWithDescription(r.Context(), q.caller, spaceID, folio.NewChangeRequest{Subject: subject}, desc)
	if err != nil {
		return err
	}
	n := strconv.FormatInt(cr.Number, 10)
	to := "/s/" + spaceID + "/~/changes/" + n
	if page := r.PostForm.Get("page"); page != "" {
		to += "/pages/" + page + "/edit"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// reviewChangeRequest submits the caller's review: "Approve" or "Request
// changes", with an optional comment.
func (h *Handler) reviewChangeRequest(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	in := app.ReviewInput{Status: r.PostForm.Get("status")}
	if c := strings.TrimSpace(r.PostForm.Get("comment")); c != "" {
		in.Comment = content.NewDocument(c)
	}
	if _, err := h.app.SubmitReview(r.Context(), q.caller, spaceID, ref, in); err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref, http.StatusSeeOther)
	return nil
}

// mergeChangeRequest merges a change request into the space.
func (h *Handler) mergeChangeRequest(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	if _, err := h.app.MergeChangeRequest(r.Context(), q.caller, spaceID, ref); err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref, http.StatusSeeOther)
	return nil
}
