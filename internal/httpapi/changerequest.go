package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/wire"
)

// changeRequest converts a change request as the caller sees it.
func (s *Server) changeRequest(v *app.ChangeRequestView) wire.ChangeRequest {
	return s.urls.NewChangeRequest(&v.ChangeRequest, v.Creator, v.Outdated(), v.Comments)
}

// createChangeRequest serves POST /spaces/{spaceId}/change-requests.
func (s *Server) createChangeRequest(w http.ResponseWriter, r *http.Request) error {
	var in folio.NewChangeRequest
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateChangeRequest(r.Context(), caller(r), r.PathValue("spaceId"), in)
	if err != nil {
		return err
	}
	out := s.changeRequest(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// changeRequestFilter reads the filters of a change request list.
func changeRequestFilter(r *http.Request) (folio.ChangeRequestFilter, folio.ListOptions, error) {
	q := r.URL.Query()
	f := folio.ChangeRequestFilter{Status: q.Get("status"), Creator: q.Get("creator"), Contributor: q.Get("contributor"),
		RequestedReviewer: q.Get("requestedReviewer")}
	opts, err := listOptions(r)
	return f, opts, err
}

// listChangeRequestsForSpace serves GET /spaces/{spaceId}/change-requests.
func (s *Server) listChangeRequestsForSpace(w http.ResponseWriter, r *http.Request) error {
	f, opts, err := changeRequestFilter(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListChangeRequests(r.Context(), caller(r), r.PathValue("spaceId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.changeRequest))
	return nil
}

// listChangeRequestsForOrganization serves GET /orgs/{organizationId}/change-requests.
func (s *Server) listChangeRequestsForOrganization(w http.ResponseWriter, r *http.Request) error {
	f, opts, err := changeRequestFilter(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListOrganizationChangeRequests(r.Context(), caller(r), r.PathValue("organizationId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.changeRequest))
	return nil
}

// getChangeRequestByID serves GET .../change-requests/{changeRequestId},
// the id being the change request's id or number.
func (s *Server) getChangeRequestByID(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetChangeRequest(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.changeRequest(v))
	return nil
}

// updateChangeRequestByID serves PATCH .../change-requests/{changeRequestId}.
func (s *Server) updateChangeRequestByID(w http.ResponseWriter, r *http.Request) error {
	var in app.ChangeRequestUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateChangeRequest(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.changeRequest(v))
	return nil
}

// getContributorsByChangeRequestID serves GET .../contributors.
func (s *Server) getContributorsByChangeRequestID(w http.ResponseWriter, r *http.Request) error {
	cs, err := s.app.ListContributors(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	l := folio.List[app.ContributorView]{Items: cs, Count: len(cs)}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(c *app.ContributorView) wire.UserContributor {
		return s.urls.NewContributor(&c.Contributor, c.User)
	}))
	return nil
}

// inChangeRequest serves a content read of the space's revisions on a
// change request's head: the handler reads the revision the path names.
func (s *Server) inChangeRequest(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		head, err := s.app.ChangeRequestHead(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
		if err != nil {
			return err
		}
		r.SetPathValue("revisionId", head)
		return h(w, r)
	}
}

// importContentInChangeRequest serves POST .../content/import and
// .../content/page/{pageId}/import of a change request.
func (s *Server) importContentInChangeRequest(w http.ResponseWriter, r *http.Request) error {
	var in app.ImportInput
	if err := decode(r, &in); err != nil {
		return err
	}
	res, err := s.app.ImportContentInChangeRequest(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("pageId"), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/spaces/"+res.SpaceID+"/revisions/"+res.RevisionID))
	writeJSON(w, http.StatusCreated, map[string]any{"revision": res.RevisionID,
		"importedResources": res.Imported, "totalResources": res.Total})
	return nil
}

// mergeResult answers a merge or an update. A conflict answers 409 with
// the conflicts listed in the message and, one by one, in "conflicts".
func (s *Server) mergeResult(w http.ResponseWriter, r *http.Request, res *app.MergeResult, err error, result string) error {
	var mc *app.MergeConflictError
	if errors.As(err, &mc) {
		items := make([]wire.MergeConflict, len(mc.Conflicts))
		for i, c := range mc.Conflicts {
			items[i] = wire.MergeConflict{Page: c.PageID, Title: c.Title, File: c.FileID, Field: c.Field, Message: c.Message, Blocks: c.Blocks}
		}
		writeJSON(w, http.StatusConflict, wire.MergeConflictError{Error: wire.MergeConflictBody{
			Code: http.StatusConflict, Message: folio.MessageOf(err), Conflicts: items}})
		return nil
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"revision": res.Revision, "result": result})
	return nil
}

// mergeChangeRequest serves POST .../merge.
func (s *Server) mergeChangeRequest(w http.ResponseWriter, r *http.Request) error {
	res, err := s.app.MergeChangeRequest(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	return s.mergeResult(w, r, res, err, "merge")
}

// updateChangeRequest serves POST .../update.
func (s *Server) updateChangeRequest(w http.ResponseWriter, r *http.Request) error {
	res, err := s.app.UpdateChangeRequestFromSpace(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	return s.mergeResult(w, r, res, err, "update")
}

// getChangeRequestChanges serves GET .../changes: the semantic changes
// from the change request's base to its head, at most limit (default 10)
// of them, with how many more there are.
func (s *Server) getChangeRequestChanges(w http.ResponseWriter, r *http.Request) error {
	limit := 10
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > folio.MaxLimit {
			return folio.FieldErrorf("limit", "limit must be an integer between 1 and %d", folio.MaxLimit)
		}
		limit = n
	}
	ch, err := s.app.GetChangeRequestChanges(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	out := wire.SemanticChanges{Changes: []wire.SemanticChange{}}
	for _, c := range ch.Changes {
		for _, sc := range s.semanticChanges(ch, c) {
			if len(out.Changes) == limit {
				out.More++
				continue
			}
			out.Changes = append(out.Changes, sc)
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// changedPage describes a page of one side of a change.
func changedPage(c *app.Content, id string) *wire.ChangedPage {
	n, ok := c.Node(id)
	if !ok {
		return nil
	}
	return &wire.ChangedPage{ID: id, Type: n.Page.Type, Title: n.Page.Title, Path: c.Paths()[id]}
}

// semanticChanges converts one difference between a change request's base
// and head: a page both moved and edited makes two changes.
func (s *Server) semanticChanges(ch *app.ChangeRequestChanges, c content.Change) []wire.SemanticChange {
	if c.PageID != "" && c.Kind == content.Moved && c.Fields&(content.FieldDocument|content.FieldMetadata) != 0 {
		moved, edited := c, c
		moved.Fields, edited.Kind = content.FieldPosition, content.Modified
		edited.Fields &^= content.FieldPosition
		return append(s.semanticChanges(ch, moved), s.semanticChanges(ch, edited)...)
	}
	sc, ok := s.semanticChange(ch, c)
	if !ok {
		return nil
	}
	return []wire.SemanticChange{sc}
}

// semanticChange converts one difference between a change request's base
// and head.
func (s *Server) semanticChange(ch *app.ChangeRequestChanges, c content.Change) (wire.SemanticChange, bool) {
	if c.FileID != "" {
		side := ch.Head
		if c.Kind == content.Removed {
			side = ch.Base
		}
		f, ok := side.File(c.FileID)
		if !ok {
			return wire.SemanticChange{}, false
		}
		cf := &wire.ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: side.FileURL(f)}
		switch c.Kind {
		case content.Added:
			return wire.SemanticChange{Type: "file_created", File: cf}, true
		case content.Removed:
			return wire.SemanticChange{Type: "file_deleted", File: cf}, true
		}
		attrs := map[string]any{}
		if before, ok := ch.Base.File(c.FileID); ok {
			if before.Name != f.Name {
				attrs["name"] = wire.StringChange{Before: before.Name, After: f.Name}
			}
			if before.ContentType != f.ContentType {
				attrs["contentType"] = wire.StringChange{Before: before.ContentType, After: f.ContentType}
			}
			if before.Blob != f.Blob {
				attrs["downloadURL"] = wire.StringChange{Before: ch.Base.FileURL(before), After: side.FileURL(f)}
			}
		}
		if len(attrs) == 0 {
			attrs["name"] = wire.StringChange{Before: f.Name, After: f.Name}
		}
		return wire.SemanticChange{Type: "file_edited", File: cf, Attributes: attrs}, true
	}
	switch c.Kind {
	case content.Added:
		return wire.SemanticChange{Type: "page_created", Page: changedPage(ch.Head, c.PageID)}, true
	case content.Removed:
		return wire.SemanticChange{Type: "page_deleted", Page: changedPage(ch.Base, c.PageID)}, true
	}
	page := changedPage(ch.Head, c.PageID)
	if page == nil {
		return wire.SemanticChange{}, false
	}
	if c.Kind == content.Moved || c.Fields == content.FieldPosition {
		parent := &wire.ParentChange{}
		if c.From != "" {
			parent.Before = changedPage(ch.Base, c.From)
		}
		if c.To != "" {
			parent.After = changedPage(ch.Head, c.To)
		}
		if c.Kind == content.Modified {
			// A new place among the same siblings.
			if n, ok := ch.Head.Node(c.PageID); ok && n.Parent != "" {
				parent.Before, parent.After = changedPage(ch.Base, n.Parent), changedPage(ch.Head, n.Parent)
			}
		}
		return wire.SemanticChange{Type: "page_moved", Page: page, Parent: parent}, true
	}
	attrs := map[string]any{}
	var before *content.PageNode
	if n, ok := ch.Base.Node(c.PageID); ok {
		before = &n
	}
	if before != nil {
		b, a := before.Page, c.Page
		if b.Title != a.Title {
			attrs["title"] = wire.StringChange{Before: b.Title, After: a.Title}
		}
		if b.Description != a.Description {
			attrs["description"] = wire.StringChange{Before: b.Description, After: a.Description}
		}
		if b.Slug != a.Slug {
			attrs["slug"] = wire.StringChange{Before: b.Slug, After: a.Slug}
		}
		if b.Emoji != a.Emoji {
			attrs["emoji"] = wire.StringChange{Before: b.Emoji, After: a.Emoji}
		}
		if b.Document != a.Document {
			attrs["document"] = wire.StringChange{Before: b.Document.String(), After: a.Document.String()}
		}
	}
	if len(attrs) == 0 {
		// Only fields the reference does not list changed (layout, cover…).
		attrs["title"] = wire.StringChange{Before: page.Title, After: page.Title}
	}
	return wire.SemanticChange{Type: "page_edited", Page: page, Attributes: attrs}, true
}

// review converts a review.
func (s *Server) review(v *app.ReviewView) wire.Review {
	return s.urls.NewReview(&v.Review, v.Reviewer, v.RequestedBy, v.Outdated, v.Comment)
}

// requestedReviewer converts a review request.
func (s *Server) requestedReviewer(v *app.RequestedReviewerView) wire.RequestedReviewer {
	return s.urls.NewRequestedReviewer(&v.RequestedReviewer, v.User, v.RequestedBy)
}

// submitChangeRequestReview serves POST .../reviews.
func (s *Server) submitChangeRequestReview(w http.ResponseWriter, r *http.Request) error {
	var in app.ReviewInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.SubmitReview(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/spaces/"+r.PathValue("spaceId")+"/change-requests/"+v.ChangeRequestID+"/reviews"))
	writeJSON(w, http.StatusCreated, s.review(v))
	return nil
}

// getReviewsByChangeRequestID serves GET .../reviews.
func (s *Server) getReviewsByChangeRequestID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	var outdated *bool
	if r.URL.Query().Has("outdated") {
		b, err := queryBool(r, "outdated", false)
		if err != nil {
			return err
		}
		outdated = &b
	}
	l, err := s.app.ListReviews(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), outdated, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.review))
	return nil
}

// requestReviewersForChangeRequest serves POST .../requested-reviewers.
func (s *Server) requestReviewersForChangeRequest(w http.ResponseWriter, r *http.Request) error {
	var in app.ReviewersInput
	if err := decode(r, &in); err != nil {
		return err
	}
	vs, err := s.app.RequestReviewers(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), in)
	if err != nil {
		return err
	}
	out := make([]wire.RequestedReviewer, len(vs))
	for i := range vs {
		out[i] = s.requestedReviewer(&vs[i])
	}
	writeJSON(w, http.StatusOK, map[string]any{"users": out})
	return nil
}

// getRequestedReviewersByChangeRequestID serves GET .../requested-reviewers.
func (s *Server) getRequestedReviewersByChangeRequestID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListRequestedReviewers(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.requestedReviewer))
	return nil
}

// removeRequestedReviewerFromChangeRequest serves DELETE
// .../requested-reviewers/{userId}: 204 whether or not a request was
// withdrawn (wire rule 5).
func (s *Server) removeRequestedReviewerFromChangeRequest(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.RemoveRequestedReviewer(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

// listChangeRequestLinks serves GET .../links and
// .../content/page/{pageId}/links of a change request.
func (s *Server) listChangeRequestLinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, stats, crBroken, err := s.app.ChangeRequestLinks(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("pageId"), r.URL.Query().Get("status"), opts)
	if err != nil {
		return err
	}
	list := wire.NewList(l, s.linkUsage)
	var ws wire.LinkStats
	ws.Total, ws.Broken.Total, ws.Broken.ChangeRequest = stats.Total, stats.Broken, crBroken
	writeJSON(w, http.StatusOK, struct {
		wire.List[wire.LinkUsage]
		Stats wire.LinkStats `json:"stats"`
	}{list, ws})
	return nil
}

// listChangeRequestBacklinks serves the backlinks of a page or a file of
// a change request's head.
func (s *Server) listChangeRequestBacklinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ChangeRequestBacklinks(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("pageId"), r.PathValue("fileId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.location))
	return nil
}
