package folio

import (
	"encoding/json"
	"time"
)

// MaxConditionLength bounds the condition expression of a site section or
// site space, in characters.
const MaxConditionLength = 1024

// AdaptiveSchema is the JSON Schema (draft-07) that describes the claims a
// visitor of an adaptive-content site brings. JSONSchema holds the document
// as the caller sent it, once it has been validated.
type AdaptiveSchema struct {
	SiteID     ID
	JSONSchema json.RawMessage
	UpdatedAt  time.Time
}

// TemplateCondition is a ready-made condition derived from an adaptive schema,
// offered to editors as a starting point.
type TemplateCondition struct {
	Description string
	Condition   string
}
