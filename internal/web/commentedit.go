package web

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// Editing and deleting comments and replies from their threads: the forms
// post to {comment}/edit and {comment}/delete, and to
// {comment}/replies/{reply}/edit and .../delete, under a thread set's base
// (commentsRoutes). The app decides who may: the author edits; the author
// or an admin of the space deletes.

// editComment replaces the body of a comment (reply "") or of one of its
// replies with the form's Markdown, and goes back to it.
func (h *Handler) editComment(w http.ResponseWriter, r *http.Request, q *req, sc app.CommentScope, back string, comment, reply folio.ID) error {
	body, err := formText(r)
	if err != nil {
		return err
	}
	u := &folio.CommentUpdate{Body: body}
	if reply == "" {
		_, err = h.app.UpdateComment(r.Context(), q.caller, sc, comment, u)
	} else {
		_, err = h.app.UpdateReply(r.Context(), q.caller, sc, comment, reply, u)
	}
	if err != nil {
		return err
	}
	anchor := comment
	if reply != "" {
		anchor = reply
	}
	http.Redirect(w, r, back+"#c-"+anchor, http.StatusSeeOther)
	return nil
}

// deleteComment deletes a comment with its replies (reply "") or one
// reply, and goes back to the page (to the thread, for a reply).
func (h *Handler) deleteComment(w http.ResponseWriter, r *http.Request, q *req, sc app.CommentScope, back string, comment, reply folio.ID) error {
	var err error
	if reply == "" {
		err = h.app.DeleteComment(r.Context(), q.caller, sc, comment)
	} else {
		err = h.app.DeleteReply(r.Context(), q.caller, sc, comment, reply)
	}
	if err != nil {
		return err
	}
	if reply != "" {
		back += "#c-" + comment
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}
