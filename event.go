package folio

import (
	"encoding/json"
	"time"
)

// Event types. The first three are the reference's; the others are
// Folio's, for organization webhooks (docs/webhooks.md). The reference's
// space_visibility_updated never happens here: a space's visibility is set
// when it is created and no operation changes it.
const (
	EventSpaceGitSyncStarted   = "space_gitsync_started"
	EventSpaceGitSyncCompleted = "space_gitsync_completed"
	EventSpaceContentUpdated   = "space_content_updated"

	EventSpaceDeleted         = "space_deleted"
	EventSpaceRestored        = "space_restored"
	EventChangeRequestCreated = "change_request_created"
	EventChangeRequestUpdated = "change_request_updated"
	EventChangeRequestMerged  = "change_request_merged"
	EventCommentCreated       = "comment_created"
	EventCommentReplyCreated  = "comment_reply_created"
	EventMemberAdded          = "member_added"
	EventMemberUpdated        = "member_updated"
	EventMemberRemoved        = "member_removed"
	EventSitePublished        = "site_published"
	EventSiteUnpublished      = "site_unpublished"
)

// EventTypes lists every event type Folio records.
var EventTypes = []string{
	EventSpaceContentUpdated, EventSpaceDeleted, EventSpaceRestored,
	EventSpaceGitSyncStarted, EventSpaceGitSyncCompleted,
	EventChangeRequestCreated, EventChangeRequestUpdated, EventChangeRequestMerged,
	EventCommentCreated, EventCommentReplyCreated,
	EventMemberAdded, EventMemberUpdated, EventMemberRemoved,
	EventSitePublished, EventSiteUnpublished,
}

// Event is something that happened, recorded in the transaction of the
// change it describes. Payload is the reference's event object for Type.
type Event struct {
	ID        ID
	OrgID     ID
	SpaceID   ID
	Type      string
	Payload   json.RawMessage
	CreatedAt time.Time
}
