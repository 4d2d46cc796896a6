package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// ReviewView is a review with its users and whether it is outdated.
type ReviewView struct {
	folio.Review
	Reviewer    *folio.User
	RequestedBy *folio.User // nil when the review was not requested
	// Outdated is set when the review is superseded: the change request's
	// head moved since, or the reviewer submitted another review or was
	// asked to review again after it.
	Outdated bool
	// Comment is the comment posted with the review, as the caller sees
	// it in Markdown; nil when there is none.
	Comment *folio.CommentView
}

// RequestedReviewerView is a review request with its users.
type RequestedReviewerView struct {
	folio.RequestedReviewer
	User        *folio.User
	RequestedBy *folio.User
}

// ReviewInput is the body of a review (submitChangeRequestReview).
type ReviewInput struct {
	Status  string            `json:"status"`
	Comment *content.Document `json:"comment"`
}

// ReviewersInput is the body of requestReviewersForChangeRequest.
type ReviewersInput struct {
	Users       []folio.ID                        `json:"users"`
	Subject     folio.Optional[string]            `json:"subject"`
	Description folio.Optional[*content.Document] `json:"description"`
}

// reviewState loads a change request's reviews and requests and marks the
// outdated reviews.
func reviewState(ctx context.Context, tx *store.Tx, cr *folio.ChangeRequest) ([]folio.Review, []bool, []folio.RequestedReviewer, error) {
	reviews, err := store.ListReviews(ctx, tx, cr.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	requests, err := store.ListRequestedReviewers(ctx, tx, cr.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	// One pass from the newest review back: a review is outdated when its
	// head is not the change request's, when a later review by the same
	// reviewer supersedes it, or when its reviewer was asked again since.
	lastAsked := make(map[folio.ID]time.Time, len(requests))
	for _, q := range requests {
		if q.CreatedAt.After(lastAsked[q.UserID]) {
			lastAsked[q.UserID] = q.CreatedAt
		}
	}
	outdated := make([]bool, len(reviews))
	superseded := make(map[folio.ID]bool, len(reviews))
	for i := len(reviews) - 1; i >= 0; i-- {
		r := &reviews[i]
		outdated[i] = r.Revision != cr.Revision || superseded[r.ReviewerID] || lastAsked[r.ReviewerID].After(r.CreatedAt)
		superseded[r.ReviewerID] = true
	}
	return reviews, outdated, requests, nil
}

// SubmitReview records the caller's review of a change request's current
// head. Callers with the space's review permission only; a review answers
// the caller's pending review request, which it removes.
func (a *App) SubmitReview(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, in ReviewInput) (v *ReviewView, err error) {
	if in.Status != folio.ReviewApproved && in.Status != folio.ReviewChangesRequested {
		return nil, folio.FieldErrorf("status", "status must be approved or changes-requested")
	}
	var md string
	if in.Comment != nil {
		if md, err = documentMarkdown(in.Comment, "comment"); err != nil {
			return nil, err
		}
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Review, "you cannot review this space's change requests"); err != nil {
			return err
		}
		if err := cr.Writable(); err != nil {
			return err
		}
		r := &folio.Review{ID: folio.NewID(), ChangeRequestID: cr.ID, ReviewerID: caller.UserID, Status: in.Status,
			Revision: cr.Revision}
		requests, err := store.ListRequestedReviewers(ctx, tx, cr.ID)
		if err != nil {
			return err
		}
		for _, q := range requests {
			if q.UserID == caller.UserID {
				r.RequestedBy = q.RequestedBy
				if _, err := store.DeleteRequestedReviewer(ctx, tx, cr.ID, caller.UserID); err != nil {
					return err
				}
			}
		}
		if err := store.CreateReview(ctx, tx, r); err != nil {
			return err
		}
		if v, err = viewReview(ctx, tx, userCache{}, r, false); err != nil {
			return err
		}
		if md == "" {
			return nil
		}
		// The comment is one of the change request's comments, against the
		// head reviewed, naming the review as its target.
		c := folio.Comment{ID: folio.NewID(), SpaceID: sv.ID, ChangeRequest: cr.ID, AuthorID: caller.UserID,
			Markdown: md, Revision: cr.Revision, Status: folio.CommentOpen, PostedAt: tx.Now,
			Target: folio.CommentTarget{Review: r.ID}}
		if err := store.CreateComment(ctx, tx, &c); err != nil {
			return err
		}
		v.Comment, err = a.view(ctx, tx, caller, reviewThread(sv, cr), &c, folio.FormatMarkdown)
		return err
	})
	return v, err
}

// reviewThread is the comment thread set of a change request, for the
// views of its reviews' comments.
func reviewThread(sv *folio.SpaceView, cr *folio.ChangeRequest) *commentThread {
	return &commentThread{sv: sv, cr: cr, scope: CommentScope{Space: sv.ID, ChangeRequest: cr.ID}, perms: sv.Permissions()}
}

// attachReviewComments sets the comments of a page of reviews: one query
// for the comments and the three of their views, whatever the number of
// reviews.
func (a *App) attachReviewComments(ctx context.Context, tx *store.Tx, caller folio.Caller, th *commentThread, reviews []ReviewView) error {
	ids := make([]folio.ID, len(reviews))
	for i := range reviews {
		ids[i] = reviews[i].ID
	}
	byReview, err := store.ReviewComments(ctx, tx, ids)
	if err != nil || len(byReview) == 0 {
		return err
	}
	var cs []folio.Comment
	for _, r := range reviews {
		if c, ok := byReview[r.ID]; ok {
			cs = append(cs, c)
		}
	}
	vs, err := a.views(ctx, tx, caller, th, cs, folio.FormatMarkdown)
	if err != nil {
		return err
	}
	at := map[folio.ID]*folio.CommentView{}
	for i := range vs {
		at[vs[i].Target.Review] = &vs[i]
	}
	for i := range reviews {
		reviews[i].Comment = at[reviews[i].ID]
	}
	return nil
}

func viewReview(ctx context.Context, tx *store.Tx, users userCache, r *folio.Review, outdated bool) (*ReviewView, error) {
	v := &ReviewView{Review: *r, Outdated: outdated}
	var err error
	if v.Reviewer, err = users.get(ctx, tx, r.ReviewerID); err != nil {
		return nil, err
	}
	if r.RequestedBy != "" {
		if v.RequestedBy, err = users.get(ctx, tx, r.RequestedBy); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// ListReviews lists a change request's reviews, oldest first; outdated,
// when set, keeps only the reviews that are (or are not) outdated.
func (a *App) ListReviews(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, outdated *bool, opts folio.ListOptions) (l folio.List[ReviewView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		reviews, old, _, err := reviewState(ctx, tx, cr)
		if err != nil {
			return err
		}
		type entry struct {
			r        *folio.Review
			outdated bool
		}
		var kept []entry
		for i := range reviews {
			if outdated == nil || old[i] == *outdated {
				kept = append(kept, entry{&reviews[i], old[i]})
			}
		}
		// Only the page's reviews are viewed: their users in one query,
		// then their comments.
		pg, err := paginate(kept, opts)
		if err != nil {
			return err
		}
		users := userCache{}
		ids := make([]folio.ID, 0, 2*len(pg.Items))
		for _, e := range pg.Items {
			ids = append(ids, e.r.ReviewerID, e.r.RequestedBy)
		}
		if err := users.load(ctx, tx, ids); err != nil {
			return err
		}
		l = folio.List[ReviewView]{Count: pg.Count, Next: pg.Next, Items: make([]ReviewView, 0, len(pg.Items))}
		for _, e := range pg.Items {
			v, err := viewReview(ctx, tx, users, e.r, e.outdated)
			if err != nil {
				return err
			}
			l.Items = append(l.Items, *v)
		}
		return a.attachReviewComments(ctx, tx, caller, reviewThread(sv, cr), l.Items)
	})
	return l, err
}

// RequestReviewers asks members of the organization to review a change
// request, optionally changing its subject and description at once.
// Editors of the space only.
func (a *App) RequestReviewers(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, in ReviewersInput) (out []RequestedReviewerView, err error) {
	if in.Users == nil {
		return nil, folio.FieldErrorf("users", "users is required")
	}
	if len(in.Users) > folio.MaxLimit {
		return nil, folio.FieldErrorf("users", "users can name at most %d users", folio.MaxLimit)
	}
	// The subject and description change in the same transaction as the
	// requests, so that a refused request changes nothing.
	update := ChangeRequestUpdate{Subject: in.Subject, Description: in.Description}
	desc, err := update.prepare()
	if err != nil {
		return nil, err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Edit, "you cannot edit this space's change requests"); err != nil {
			return err
		}
		if err := cr.Writable(); err != nil {
			return err
		}
		missing, err := store.NonMembers(ctx, tx, sv.OrganizationID, in.Users)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return folio.FieldErrorf("users", "users: %s is not a member of the organization", missing[0])
		}
		if in.Subject.Set || in.Description.Set {
			if err := update.apply(ctx, tx, cr, desc); err != nil {
				return err
			}
		}
		users := userCache{}
		seen := map[folio.ID]bool{}
		for _, id := range in.Users {
			if seen[id] {
				continue
			}
			seen[id] = true
			q := &folio.RequestedReviewer{ChangeRequestID: cr.ID, UserID: id, RequestedBy: caller.UserID, Revision: cr.Revision}
			if err := store.PutRequestedReviewer(ctx, tx, q); err != nil {
				return err
			}
			v, err := viewRequest(ctx, tx, users, q)
			if err != nil {
				return err
			}
			out = append(out, *v)
		}
		return nil
	})
	return out, err
}

func viewRequest(ctx context.Context, tx *store.Tx, users userCache, q *folio.RequestedReviewer) (*RequestedReviewerView, error) {
	v := &RequestedReviewerView{RequestedReviewer: *q}
	var err error
	if v.User, err = users.get(ctx, tx, q.UserID); err != nil {
		return nil, err
	}
	if v.RequestedBy, err = users.get(ctx, tx, q.RequestedBy); err != nil {
		return nil, err
	}
	return v, nil
}

// ListRequestedReviewers lists the pending review requests of a change
// request, earliest first.
func (a *App) ListRequestedReviewers(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, opts folio.ListOptions) (l folio.List[RequestedReviewerView], err error) {
	var out []RequestedReviewerView
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		qs, err := store.ListRequestedReviewers(ctx, tx, cr.ID)
		if err != nil {
			return err
		}
		users := userCache{}
		ids := make([]folio.ID, 0, 2*len(qs))
		for _, q := range qs {
			ids = append(ids, q.UserID, q.RequestedBy)
		}
		if err := users.load(ctx, tx, ids); err != nil {
			return err
		}
		for i := range qs {
			v, err := viewRequest(ctx, tx, users, &qs[i])
			if err != nil {
				return err
			}
			out = append(out, *v)
		}
		return nil
	})
	if err != nil {
		return l, err
	}
	return paginate(out, opts)
}

// RemoveRequestedReviewer withdraws a review request and reports whether
// there was one. Editors of the space only.
func (a *App) RemoveRequestedReviewer(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, userID folio.ID) (removed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Edit, "you cannot edit this space's change requests"); err != nil {
			return err
		}
		removed, err = store.DeleteRequestedReviewer(ctx, tx, cr.ID, userID)
		return err
	})
	return removed, err
}

// checkMergeRules refuses (Conflict) the merge of a change request whose
// merge rules are not met: the space's, or the organization's when the
// space inherits. Approvals count only when they are not outdated, so a
// new head needs new approvals. A user named by allow_bypass merges
// regardless. require_agent_review and custom rules are not enforced.
func (a *App) checkMergeRules(ctx context.Context, tx *store.Tx, caller folio.Caller, sv *folio.SpaceView, cr *folio.ChangeRequest) error {
	rules := sv.MergeRules
	if rules.Type == "inherit" {
		org, err := store.GetOrganization(ctx, tx, sv.OrganizationID)
		if err != nil {
			return err
		}
		rules = org.MergeRules
	}
	if rules.Type != "rules" || len(rules.Rules) == 0 {
		return nil
	}
	for _, r := range rules.Rules {
		if r.Rule == "allow_bypass" && slices.Contains(r.Users, caller.UserID) {
			return nil
		}
	}
	reviews, outdated, _, err := reviewState(ctx, tx, cr)
	if err != nil {
		return err
	}
	approved, changes := map[folio.ID]bool{}, map[folio.ID]bool{}
	for i, r := range reviews {
		if outdated[i] {
			continue
		}
		if r.Status == folio.ReviewApproved {
			approved[r.ReviewerID] = true
		} else {
			changes[r.ReviewerID] = true
		}
	}
	users := userCache{}
	names := func(ids []folio.ID) (string, error) {
		if err := users.load(ctx, tx, ids); err != nil {
			return "", err
		}
		var out []string
		for _, id := range ids {
			u, err := users.get(ctx, tx, id)
			if err != nil {
				return "", err
			}
			out = append(out, fmt.Sprintf("%s (%s)", u.DisplayName, id))
		}
		return strings.Join(out, ", "), nil
	}
	var unmet []string
	for _, r := range rules.Rules {
		switch r.Rule {
		case "require_specific_reviewers":
			var missing []folio.ID
			for _, id := range r.Users {
				if !approved[id] {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				n, err := names(missing)
				if err != nil {
					return err
				}
				unmet = append(unmet, "not yet approved by "+n)
			}
		case "require_one_of_specific_reviewers":
			if !slices.ContainsFunc(r.Users, func(id folio.ID) bool { return approved[id] }) {
				n, err := names(r.Users)
				if err != nil {
					return err
				}
				unmet = append(unmet, "not yet approved by one of "+n)
			}
		case "require_at_least_one_review":
			if len(approved) == 0 {
				unmet = append(unmet, "no approving review of the current changes")
			}
		case "require_all_reviews_approved":
			if len(changes) > 0 {
				ids := make([]folio.ID, 0, len(changes))
				for id := range changes {
					ids = append(ids, id)
				}
				slices.Sort(ids)
				n, err := names(ids)
				if err != nil {
					return err
				}
				unmet = append(unmet, "changes requested by "+n)
			}
		case "require_up_to_date_change_request":
			if cr.Outdated(sv.Revision) {
				unmet = append(unmet, "the change request must first be updated with the space's content")
			}
		case "require_change_request_subject":
			if strings.TrimSpace(cr.Subject) == "" {
				unmet = append(unmet, "the change request needs a subject")
			}
		case "require_change_request_description":
			if !hasText(cr.Description) {
				unmet = append(unmet, "the change request needs a description")
			}
		}
	}
	if len(unmet) > 0 {
		return folio.Errorf(folio.Conflict, "the space's merge rules are not met: %s", strings.Join(unmet, "; "))
	}
	return nil
}

// hasText reports whether a stored description holds any text.
func hasText(raw json.RawMessage) bool {
	if raw == nil {
		return false
	}
	var d content.Document
	if err := d.UnmarshalJSON(raw); err != nil {
		return false
	}
	return strings.TrimSpace(d.PlainText()) != ""
}
