package folio

import (
	"encoding/json"
	"time"
)

// Event types (the reference's event types; integrations subscribe to
// them).
const (
	EventSpaceGitSyncStarted   = "space_gitsync_started"
	EventSpaceGitSyncCompleted = "space_gitsync_completed"
	EventSpaceContentUpdated   = "space_content_updated"
)

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
