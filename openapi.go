package folio

import (
	"regexp"
	"time"
)

// OpenAPI processing states (OpenAPISpecProcessingState).
const (
	OpenAPIPending  = "pending"
	OpenAPIProgress = "progress"
	OpenAPIComplete = "complete"
)

// OpenAPI visibilities (OpenAPISpecVisibility).
const (
	OpenAPIPrivate = "private"
	OpenAPIPublic  = "public"
)

// OpenAPI processing error codes (OpenAPISpecProcessingErrorCode).
const (
	OpenAPIFetchTimeout = "FETCH_TIMEOUT"
	OpenAPIFetchError   = "FETCH_ERROR"
	OpenAPIParseError   = "PARSE_ERROR"
)

// Limits of OpenAPI specifications.
const (
	MaxOpenAPISlug       = 100
	MaxOpenAPITextBytes  = 5 << 20 // a specification given as text
	MaxOpenAPIURLLength  = 2048
	MaxOpenAPIProblems   = 100 // problems kept from one processing
	OpenAPIVersionsKept  = 100 // per specification; older versions are pruned
	OpenAPIRefreshEvery  = 6 * time.Hour
	OpenAPIScheduleEvery = 15 * time.Minute
)

// OpenAPISlugPattern is the pattern of a specification's slug.
var OpenAPISlugPattern = regexp.MustCompile(`^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$`)

// OpenAPIProblem is one processing error (OpenAPIErrorObject).
type OpenAPIProblem struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// OpenAPISpec is an organization's OpenAPI specification, from a URL or
// given as text, processed into versions.
type OpenAPISpec struct {
	ID              ID
	OrganizationID  ID
	Slug            string
	SourceURL       string // "" for a specification given as text
	SourceText      string // the text of a specification given as text
	Visibility      string
	ProcessingState string
	LastVersion     ID
	LastProcessedAt *time.Time
	LastErrorCode   string
	LastErrors      []OpenAPIProblem
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// OpenAPISpecView is a specification as seen by one caller.
type OpenAPISpecView struct {
	OpenAPISpec
	Edit bool
}

// OpenAPIVersion is one processed content of a specification; a new one is
// made only when the content changed.
type OpenAPIVersion struct {
	ID        ID
	SpecID    ID
	Hash      string
	CreatedAt time.Time
}

// OpenAPIContent is a version's content: the bundled files (JSON of the
// filesystem GitBook's renderer reads) and the raw entry document.
type OpenAPIContent struct {
	Filesystem string // JSON
	Raw        []byte
}
