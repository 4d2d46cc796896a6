package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// commentScope reads the thread set of a comment route: the space, and the
// change request when the route has one.
func commentScope(r *http.Request) app.CommentScope {
	return app.CommentScope{Space: r.PathValue("spaceId"), ChangeRequest: r.PathValue("changeRequestId")}
}

// commentFormat reads the format query parameter.
func commentFormat(r *http.Request) (string, error) {
	return folio.ParseCommentFormat(r.URL.Query().Get("format"))
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if opts.Desc, err = folio.ParseOrder(q.Get("order"), "desc"); err != nil {
		return err
	}
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	f := folio.CommentFilter{Status: q.Get("status"), TargetPage: q.Get("targetPage"), Authors: q["authors"]}
	l, err := s.app.ListComments(r.Context(), caller(r), commentScope(r), f, format, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewComment))
	return nil
}

func (s *Server) postComment(w http.ResponseWriter, r *http.Request) error {
	var in folio.NewComment
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.PostComment(r.Context(), caller(r), commentScope(r), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewComment(v))
	return nil
}

func (s *Server) getComment(w http.ResponseWriter, r *http.Request) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	v, err := s.app.GetComment(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), format)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewComment(v))
	return nil
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request) error {
	var in folio.CommentUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateComment(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewComment(v))
	return nil
}

func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteComment(r.Context(), caller(r), commentScope(r), r.PathValue("commentId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) listCommentReplies(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListReplies(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), format, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewCommentReply))
	return nil
}

func (s *Server) postCommentReply(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Body *folio.CommentBody `json:"body"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	v, err := s.app.PostReply(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), in.Body, format)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCommentReply(v))
	return nil
}

func (s *Server) getCommentReply(w http.ResponseWriter, r *http.Request) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	v, err := s.app.GetReply(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), r.PathValue("commentReplyId"), format)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCommentReply(v))
	return nil
}

func (s *Server) updateCommentReply(w http.ResponseWriter, r *http.Request) error {
	var in folio.CommentUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateReply(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), r.PathValue("commentReplyId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewCommentReply(v))
	return nil
}

func (s *Server) deleteCommentReply(w http.ResponseWriter, r *http.Request) error {
	err := s.app.DeleteReply(r.Context(), caller(r), commentScope(r), r.PathValue("commentId"), r.PathValue("commentReplyId"))
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) listCommenters(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListCommenters(r.Context(), caller(r), commentScope(r), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewMember))
	return nil
}
