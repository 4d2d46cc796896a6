package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// reviewPanel is a change request's reviewers: the reviews given, the
// reviews asked for, and the picker that asks for more (editors only,
// while the change request takes changes).
type reviewPanel struct {
	Href       string // the change request's page
	CSRF       string
	Reviews    []reviewItem
	Requested  []requestedItem
	CanRequest bool
	CanRemove  bool
	Candidates []userOption // members who may review, not yet asked
}

type reviewItem struct {
	Reviewer, Status string
	When             time.Time
	Outdated         bool
	Body             string
}

type requestedItem struct {
	UserID, Name, By string
}

type userOption struct {
	ID, Name string
}

func (h *Handler) reviewPanelFor(r *http.Request, q *req, v *spaceView, cr *app.ChangeRequestView) (*reviewPanel, error) {
	ctx := r.Context()
	ref := strconv.FormatInt(cr.Number, 10)
	p := &reviewPanel{Href: v.Href + "/~/changes/" + ref, CSRF: q.csrf}
	reviews, err := h.app.ListReviews(ctx, q.caller, v.Space.ID, cr.ID, nil, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return nil, err
	}
	// Newest first: the latest review of each reviewer is the one that counts.
	for i := len(reviews.Items) - 1; i >= 0; i-- {
		rv := reviews.Items[i]
		it := reviewItem{Status: rv.Status, When: rv.CreatedAt, Outdated: rv.Outdated}
		if rv.Reviewer != nil {
			it.Reviewer = rv.Reviewer.DisplayName
		}
		if rv.Comment != nil {
			it.Body = rv.Comment.Markdown
		}
		p.Reviews = append(p.Reviews, it)
	}
	requested, err := h.app.ListRequestedReviewers(ctx, q.caller, v.Space.ID, cr.ID, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return nil, err
	}
	asked := map[folio.ID]bool{}
	for _, rq := range requested.Items {
		it := requestedItem{UserID: rq.UserID}
		if rq.User != nil {
			it.Name = rq.User.DisplayName
		}
		if rq.RequestedBy != nil {
			it.By = rq.RequestedBy.DisplayName
		}
		asked[rq.UserID] = true
		p.Requested = append(p.Requested, it)
	}
	// The same permissions the app methods check: editors ask and remove.
	p.CanRemove = v.Perms.Edit
	p.CanRequest = v.Perms.Edit && cr.Writable() == nil
	if p.CanRequest {
		users, err := h.app.ListReviewerCandidates(ctx, q.caller, v.Space.ID, cr.ID)
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			if !asked[u.ID] {
				p.Candidates = append(p.Candidates, userOption{ID: u.ID, Name: u.DisplayName + " (" + u.Email + ")"})
			}
		}
	}
	return p, nil
}

// requestReviewer asks a member to review the change request.
func (h *Handler) requestReviewer(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	user := r.PostForm.Get("user")
	if user == "" {
		return folio.FieldErrorf("user", "choose a member to ask for a review")
	}
	if _, err := h.app.RequestReviewers(r.Context(), q.caller, spaceID, ref, app.ReviewersInput{Users: []folio.ID{user}}); err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref+"#reviewers", http.StatusSeeOther)
	return nil
}

// removeReviewer withdraws a review request.
func (h *Handler) removeReviewer(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID, ref := r.PathValue("space"), r.PathValue("number")
	removed, err := h.app.RemoveRequestedReviewer(r.Context(), q.caller, spaceID, ref, r.PathValue("user"))
	if err != nil {
		return err
	}
	if !removed {
		return folio.Errorf(folio.NotFound, "this member was not asked to review the change request")
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/changes/"+ref+"#reviewers", http.StatusSeeOther)
	return nil
}
