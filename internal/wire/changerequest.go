package wire

import (
	"encoding/json"
	"strconv"

	"github.com/foliodocs/folio"
)

// ChangeRequest is the GitBook ChangeRequest object.
type ChangeRequest struct {
	Object                 string            `json:"object"`
	ID                     string            `json:"id"`
	Number                 int64             `json:"number"`
	Status                 string            `json:"status"`
	Subject                string            `json:"subject"`
	Description            json.RawMessage   `json:"description,omitempty"`
	CreatedBy              User              `json:"createdBy"`
	CreatedAt              string            `json:"createdAt"`
	UpdatedAt              string            `json:"updatedAt"`
	Space                  string            `json:"space"`
	Revision               string            `json:"revision"`
	RevisionInitial        string            `json:"revisionInitial"`
	RevisionMergedAncestor string            `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         string            `json:"revisionMerged,omitempty"`
	Comments               int               `json:"comments"`
	Outdated               bool              `json:"outdated"`
	URLs                   ChangeRequestURLs `json:"urls"`
}

// ChangeRequestURLs are the URLs of a change request.
type ChangeRequestURLs struct {
	App      string `json:"app"`
	Location string `json:"location"`
}

// ChangeRequestPath is the API path of a change request.
func ChangeRequestPath(c *folio.ChangeRequest) string {
	return "/spaces/" + c.SpaceID + "/change-requests/" + c.ID
}

// NewChangeRequest converts a change request, given its creator, whether
// it is outdated and its count of open comments.
func (u URLs) NewChangeRequest(c *folio.ChangeRequest, creator *folio.User, outdated bool, comments int) ChangeRequest {
	return ChangeRequest{
		Object: "change-request", ID: c.ID, Number: c.Number, Status: c.Status, Subject: c.Subject,
		Description: c.Description, CreatedBy: u.NewUser(creator), CreatedAt: Time(c.CreatedAt), UpdatedAt: Time(c.UpdatedAt),
		Space: c.SpaceID, Revision: c.Revision, RevisionInitial: c.RevisionInitial,
		RevisionMergedAncestor: c.RevisionMergedAncestor, RevisionMerged: c.RevisionMerged,
		Comments: comments, Outdated: outdated,
		URLs: ChangeRequestURLs{App: u.App("/s/" + c.SpaceID + "/~/changes/" + strconv.FormatInt(c.Number, 10)),
			Location: u.API(ChangeRequestPath(c))},
	}
}

// UserContributor is a contributor to a change request (UserContributor).
type UserContributor struct {
	UpdatedAt  string `json:"updatedAt"`
	Count      int    `json:"count"`
	User       User   `json:"user"`
	ActionType string `json:"actionType"`
}

// NewContributor converts a contributor who edited content.
func (u URLs) NewContributor(c *folio.Contributor, user *folio.User) UserContributor {
	return UserContributor{UpdatedAt: Time(c.LastAt), Count: c.Revisions, User: u.NewUser(user), ActionType: "edit"}
}

// MergeConflictError is the body of a merge or an update refused for
// conflicts: the error body with each conflict listed.
type MergeConflictError struct {
	Error MergeConflictBody `json:"error"`
}

// MergeConflictBody is the error of a refused merge.
type MergeConflictBody struct {
	Code      int             `json:"code"`
	Message   string          `json:"message"`
	Conflicts []MergeConflict `json:"conflicts"`
}

// MergeConflict is one conflict of a refused merge: a page (page, title),
// a file, or the space's variables or reusable content, with what clashed.
type MergeConflict struct {
	Page    string   `json:"page,omitempty"`
	Title   string   `json:"title,omitempty"`
	File    string   `json:"file,omitempty"`
	Field   string   `json:"field"`
	Message string   `json:"message"`
	Blocks  []string `json:"blocks,omitempty"`
}

// SemanticChanges is the GitBook RevisionSemanticChanges object.
type SemanticChanges struct {
	Changes []SemanticChange `json:"changes"`
	More    int              `json:"more,omitempty"`
}

// SemanticChange is one RevisionSemanticChange: type says which of page,
// file, parent and attributes are set.
type SemanticChange struct {
	Type       string         `json:"type"`
	Page       *ChangedPage   `json:"page,omitempty"`
	File       *ChangedFile   `json:"file,omitempty"`
	Parent     *ParentChange  `json:"parent,omitempty"`
	Attributes map[string]any `json:"attributes,omitempty"`
}

// ChangedPage is the GitBook ChangedRevisionPage object.
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// ChangedFile is the GitBook ChangedRevisionFile object.
type ChangedFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
}

// ParentChange is a moved page's parents before and after; absent means
// the top level.
type ParentChange struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

// StringChange is a ChangeAttributeString.
type StringChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Review is the GitBook ChangeRequestReview object; comment is present
// when the review was submitted with one.
type Review struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	Revision    string   `json:"revision"`
	Reviewer    User     `json:"reviewer"`
	RequestedBy *User    `json:"requestedBy,omitempty"`
	Status      string   `json:"status"`
	Outdated    bool     `json:"outdated"`
	Comment     *Comment `json:"comment,omitempty"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
}

// NewReview converts a review given its users and its comment (nil when
// it has none).
func (u URLs) NewReview(r *folio.Review, reviewer, requestedBy *folio.User, outdated bool, comment *folio.CommentView) Review {
	out := Review{Object: "change-request-review", ID: r.ID, Revision: r.Revision, Reviewer: u.NewUser(reviewer),
		Status: r.Status, Outdated: outdated, CreatedAt: Time(r.CreatedAt), UpdatedAt: Time(r.UpdatedAt)}
	if requestedBy != nil {
		rb := u.NewUser(requestedBy)
		out.RequestedBy = &rb
	}
	if comment != nil {
		c := u.NewComment(comment)
		out.Comment = &c
	}
	return out
}

// RequestedReviewer is the GitBook ChangeRequestRequestedReviewer object
// of a user.
type RequestedReviewer struct {
	Object      string `json:"object"`
	Revision    string `json:"revision"`
	RequestedBy User   `json:"requestedBy"`
	CreatedAt   string `json:"createdAt"`
	Kind        string `json:"kind"`
	User        User   `json:"user"`
}

// NewRequestedReviewer converts a review request given its users.
func (u URLs) NewRequestedReviewer(q *folio.RequestedReviewer, user, requestedBy *folio.User) RequestedReviewer {
	return RequestedReviewer{Object: "change-request-requested-reviewer", Revision: q.Revision,
		RequestedBy: u.NewUser(requestedBy), CreatedAt: Time(q.CreatedAt), Kind: "user", User: u.NewUser(user)}
}
