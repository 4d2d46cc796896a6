package folio

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// Change request statuses (ChangeRequestStatus).
const (
	ChangeRequestDraft    = "draft"
	ChangeRequestOpen     = "open"
	ChangeRequestArchived = "archived"
	ChangeRequestMerged   = "merged"
)

// MaxChangeRequestSubject bounds a change request's subject, as in the
// reference.
const MaxChangeRequestSubject = 100

// ChangeRequest is a branch of a space's content: edits made on its own
// revisions, merged into the space when done.
type ChangeRequest struct {
	ID      ID
	SpaceID ID
	Number  int64 // incremental per space
	Status  string
	Subject string
	// Description is a JSON Document; nil when none was set.
	Description json.RawMessage
	CreatedBy   ID
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// RevisionInitial is the space's revision the change request forked.
	RevisionInitial ID
	// Revision is the change request's head.
	Revision ID
	// RevisionMergedAncestor is the space's revision last merged into the
	// change request by an update; empty before any update.
	RevisionMergedAncestor ID
	// RevisionMerged is the space's revision the merge produced.
	RevisionMerged ID
	MergedAt       *time.Time
	Comments       int // open comments, counted when read
}

// Base is the space revision the change request's content is relative to:
// the one of its last update, else the one it forked.
func (c *ChangeRequest) Base() ID {
	if c.RevisionMergedAncestor != "" {
		return c.RevisionMergedAncestor
	}
	return c.RevisionInitial
}

// Outdated reports whether the space moved on since the change request's
// base, given the space's current revision. A merged change request is
// never outdated.
func (c *ChangeRequest) Outdated(spaceRevision ID) bool {
	return c.Status != ChangeRequestMerged && spaceRevision != c.Base()
}

// Writable reports whether the change request's content may change (edits,
// updates and merges): not once merged or archived.
func (c *ChangeRequest) Writable() error {
	switch c.Status {
	case ChangeRequestMerged:
		return Errorf(Conflict, "the change request is merged: its content can no longer change")
	case ChangeRequestArchived:
		return Errorf(Conflict, "the change request is archived: reopen it before changing it")
	}
	return nil
}

// ValidChangeRequestStatus reports whether s is one of the statuses.
func ValidChangeRequestStatus(s string) bool {
	switch s {
	case ChangeRequestDraft, ChangeRequestOpen, ChangeRequestArchived, ChangeRequestMerged:
		return true
	}
	return false
}

// ChangeRequestTransition checks a status change made by PATCH (see
// docs/decisions.md): draft, open and archived move freely between one
// another, merged is reached only by merging and never left, and setting
// the current status is a no-op.
func ChangeRequestTransition(from, to string) error {
	switch {
	case from == to:
		return nil
	case to == ChangeRequestMerged:
		return FieldErrorf("status", "status merged is reached by merging the change request")
	case from == ChangeRequestMerged:
		return Errorf(Conflict, "the change request is merged: its status can no longer change")
	}
	return nil
}

// ValidateChangeRequestSubject checks a subject: at most 100 characters.
func ValidateChangeRequestSubject(s string) error {
	if utf8.RuneCountInString(s) > MaxChangeRequestSubject {
		return FieldErrorf("subject", "subject must be at most %d characters", MaxChangeRequestSubject)
	}
	return nil
}

// NewChangeRequest is the body of POST /spaces/{spaceId}/change-requests;
// other properties are allowed and ignored.
type NewChangeRequest struct {
	Subject string `json:"subject"`
}

// ChangeRequestFilter narrows a change request list.
type ChangeRequestFilter struct {
	Status            string // one status; never empty (the default is open)
	Creator           ID
	Contributor       ID
	RequestedReviewer ID
}

// Contributor is a user who wrote content in a change request.
type Contributor struct {
	UserID    ID
	FirstAt   time.Time
	LastAt    time.Time
	Revisions int // revisions the user made in the change request
}

// Review statuses (ChangeRequestReviewStatus).
const (
	ReviewApproved         = "approved"
	ReviewChangesRequested = "changes-requested"
)

// Review is a reviewer's verdict on a change request's head of the time.
type Review struct {
	ID              ID
	ChangeRequestID ID
	ReviewerID      ID
	RequestedBy     ID // empty when the review was not requested
	Status          string
	Revision        ID // the head reviewed
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// RequestedReviewer is a user asked to review a change request.
type RequestedReviewer struct {
	ChangeRequestID ID
	UserID          ID
	RequestedBy     ID
	Revision        ID // the head when asked
	CreatedAt       time.Time
}
