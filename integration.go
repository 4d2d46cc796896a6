package folio

import (
	"encoding/json"
	"regexp"
	"slices"
	"time"
	"unicode/utf8"
)

// Integration value sets (the reference's).
var (
	IntegrationScopes = []string{"space:content:read", "space:content:write", "space:metadata:read",
		"space:metadata:write", "space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read",
		"site:script:inject", "site:script:cookies", "site:visitor:auth", "site:adaptive:read",
		"site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest"}
	IntegrationCategories   = []string{"analytics", "collaboration", "content", "gitsync", "marketing", "visitor-auth", "other"}
	IntegrationTargets      = []string{"all", "site", "space", "organization"}
	IntegrationVisibilities = []string{"public", "private", "unlisted"}
	IntegrationRuntimes     = []string{"v1", "v2"}
)

// Limits of integrations (the reference's where it states them).
const (
	MaxIntegrationTitle       = 30
	MaxIntegrationDescription = 100
	MaxIntegrationSummary     = 2048
	MaxIntegrationPreviews    = 3
	MaxIntegrationLinks       = 5
	MaxIntegrationBlocks      = 50
	MaxIntegrationSources     = 50
	MaxIntegrationScript      = 5 << 20 // bytes
	MaxIntegrationIcon        = 256 << 10
	MaxIntegrationPreview     = 1 << 20
	MaxIntegrationSecrets     = 50
	MaxIntegrationSecretValue = 8 << 10
	MaxIntegrationJSON        = 256 << 10 // configurations, blocks, content sources, CSP, each
)

var integrationNamePattern = regexp.MustCompile(`^[a-zA-Z0-9-_.]{1,100}$`)

// ValidIntegrationName reports whether name may name an integration.
func ValidIntegrationName(name string) bool {
	return integrationNamePattern.MatchString(name) && name != "." && name != ".."
}

// Integration is a published integration: its manifest, script and assets,
// owned by one organization. Its secrets are sealed and stored apart.
type Integration struct {
	Name           string
	OrganizationID ID
	Version        int
	Runtime        string
	Title          string
	Description    string
	Summary        string
	Visibility     string
	Target         string
	Scopes         []string
	Categories     []string
	Blocks         json.RawMessage // [] when none
	ContentSources json.RawMessage // [] when none
	Configurations json.RawMessage // {} when none
	ExternalLinks  []IntegrationLink
	CSP            json.RawMessage // string or object; nil when none
	Script         string
	Icon           string   // asset file name, "" when none
	PreviewImages  []string // asset file names
	DevTunnelURL   string
	DevAll         bool
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Allows reports whether the integration asks for a scope.
func (i *Integration) Allows(scope string) bool { return slices.Contains(i.Scopes, scope) }

// IntegrationView is an integration with its owner, as a caller sees it.
type IntegrationView struct {
	Integration
	Owner *OrganizationView
	Admin bool // the caller administers the owning organization
}

// InstalledIntegration is an installation with its integration.
type InstalledIntegration struct {
	Installation Installation
	Integration  IntegrationView
}

// IntegrationLink is one of an integration's external links.
type IntegrationLink struct {
	URL   string `json:"url"`
	Label string `json:"label"`
}

// IntegrationBlock is the part of a block the server reads.
type IntegrationBlock struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	URLUnfurl   []string `json:"urlUnfurl"`
}

// IntegrationContentSource is the part of a content source the server reads.
type IntegrationContentSource struct {
	ID            string          `json:"id"`
	Title         string          `json:"title"`
	Description   string          `json:"description"`
	Configuration json.RawMessage `json:"configuration"`
}

// IntegrationFilter narrows integration lists (the reference's filters).
type IntegrationFilter struct {
	Search         string
	Category       string
	BlockDomain    string
	Blocks         *bool
	ContentSources *bool
	Owner          ID
	Scope          string
	Target         string
	// InstalledOn keeps the integrations whose installation covers a
	// space or site (InstalledKind) of the organization listed in.
	InstalledKind string
	InstalledOn   ID
}

// Validate checks the filter's values.
func (f *IntegrationFilter) Validate() error {
	if f.Category != "" && !slices.Contains(IntegrationCategories, f.Category) {
		return FieldErrorf("category", "category must be one of %s", joinOr(IntegrationCategories))
	}
	if f.Scope != "" && !slices.Contains(IntegrationScopes, f.Scope) {
		return FieldErrorf("scope", "scope must be one of %s", joinOr(IntegrationScopes))
	}
	if f.Target != "" && !slices.Contains(IntegrationTargets, f.Target) {
		return FieldErrorf("target", "target must be one of %s", joinOr(IntegrationTargets))
	}
	if f.BlockDomain != "" && !integrationNamePattern.MatchString(f.BlockDomain) {
		return FieldErrorf("blockDomain", "blockDomain must match ^[a-zA-Z0-9-_.]+$ and be at most 100 characters")
	}
	if utf8.RuneCountInString(f.Search) > 200 {
		return FieldErrorf("search", "search must be at most 200 characters")
	}
	return nil
}

func joinOr(values []string) string {
	out := ""
	for i, v := range values {
		switch {
		case i == 0:
		case i == len(values)-1:
			out += " or "
		default:
			out += ", "
		}
		out += v
	}
	return out
}

// Installation states (the reference's).
const (
	InstallationActive  = "active"
	InstallationPending = "pending"
	InstallationPaused  = "paused"
)

// Installation is an integration installed on an organization.
type Installation struct {
	ID             ID
	Integration    string
	OrganizationID ID
	Status         string
	SpaceSelection string // all or selected
	SiteSelection  string
	Configuration  json.RawMessage // an object
	ExternalIDs    []string
	Spaces         int // space installations
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Installation targets.
const (
	InstallOnSpace = "space"
	InstallOnSite  = "site"
)

// TargetInstallation is an installation's link to one space or site.
type TargetInstallation struct {
	InstallationID ID
	Integration    string
	OrganizationID ID
	Kind           string // InstallOnSpace or InstallOnSite
	TargetID       ID
	Status         string
	Configuration  json.RawMessage
	ExternalIDs    []string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// InstallationUpdate changes an installation or a target installation;
// nil fields stay as they are.
type InstallationUpdate struct {
	ExternalIDs    *[]string       `json:"externalIds"`
	Configuration  json.RawMessage `json:"configuration"`
	SpaceSelection *string         `json:"space_selection"`
	SiteSelection  *string         `json:"site_selection"`
}

// Limits of installations.
const (
	MaxExternalIDs        = 5
	MaxExternalID         = 200
	MaxInstallationConfig = 64 << 10 // bytes of configuration JSON
)

// Integration event states: pending until a delivery is tried; the
// reference's status shows success or failed.
const (
	IntegrationEventPending = "pending"
	IntegrationEventSuccess = "success"
	IntegrationEventFailed  = "failed"
)

// Integration event types of installations (the reference's).
const (
	EventInstallationSetup        = "installation_setup"
	EventInstallationDeleted      = "installation_deleted"
	EventSpaceInstallationSetup   = "space_installation_setup"
	EventSpaceInstallationDeleted = "space_installation_deleted"
	EventSiteInstallationSetup    = "site_installation_setup"
	EventSiteInstallationDeleted  = "site_installation_deleted"
	EventSiteView                 = "site_view"
)

// IntegrationEvent is an event as told to one installation, with the trace
// of its deliveries.
type IntegrationEvent struct {
	ID             ID
	Integration    string
	InstallationID ID
	Type           string
	Payload        json.RawMessage
	State          string
	Logs           []IntegrationEventLog
	Attempts       int
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// IntegrationEventLog is one line of an event's trace.
type IntegrationEventLog struct {
	Level     string    `json:"level"` // debug, info, warn, error
	Message   string    `json:"message"`
	Timestamp time.Time `json:"timestamp"`
}

// MaxEventLogs bounds an event's trace; later lines are dropped.
const MaxEventLogs = 200
