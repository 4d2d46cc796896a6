package wire

import (
	"encoding/json"

	"github.com/foliodocs/folio"
)

// OpenAPISpec is the GitBook OpenAPISpec object.
type OpenAPISpec struct {
	Object               string                 `json:"object"`
	ID                   string                 `json:"id"`
	CreatedAt            string                 `json:"createdAt"`
	UpdatedAt            string                 `json:"updatedAt"`
	Slug                 string                 `json:"slug"`
	SourceURL            string                 `json:"sourceURL,omitempty"`
	ProcessingState      string                 `json:"processingState"`
	Visibility           string                 `json:"visibility"`
	LastVersion          string                 `json:"lastVersion,omitempty"`
	LastProcessedAt      *string                `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode string                 `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors  []folio.OpenAPIProblem `json:"lastProcessedErrors,omitempty"`
	Permissions          OpenAPISpecPermissions `json:"permissions"`
	URLs                 OpenAPISpecURLs        `json:"urls"`
}

// OpenAPISpecPermissions are the caller's permissions on a specification.
type OpenAPISpecPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// OpenAPISpecURLs are the URLs of a specification.
type OpenAPISpecURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
}

// openAPIPath is a specification's path in the API.
func openAPIPath(s *folio.OpenAPISpec) string {
	return "/orgs/" + s.OrganizationID + "/openapi/" + s.Slug
}

// NewOpenAPISpec converts a specification as seen by a caller. A public
// specification's published URL is its latest version's raw document.
func (u URLs) NewOpenAPISpec(v *folio.OpenAPISpecView) OpenAPISpec {
	out := OpenAPISpec{Object: "openapi-spec", ID: v.ID, CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt),
		Slug: v.Slug, SourceURL: v.SourceURL, ProcessingState: v.ProcessingState, Visibility: v.Visibility,
		LastVersion: v.LastVersion, LastProcessedAt: TimePtr(v.LastProcessedAt), LastProcessErrorCode: v.LastErrorCode,
		LastProcessedErrors: v.LastErrors, Permissions: OpenAPISpecPermissions{View: true, Edit: v.Edit},
		URLs: OpenAPISpecURLs{Location: u.API(openAPIPath(&v.OpenAPISpec)), App: u.App("/o/" + v.OrganizationID + "/openapi/" + v.Slug)}}
	if v.Visibility == folio.OpenAPIPublic && v.LastVersion != "" {
		out.URLs.Published = u.OpenAPIRawURL(&v.OpenAPISpec, v.LastVersion)
	}
	return out
}

// OpenAPIRawURL is where a version's raw specification is served.
func (u URLs) OpenAPIRawURL(s *folio.OpenAPISpec, versionID string) string {
	return u.API("/openapi/" + s.ID + "/versions/" + versionID + "/raw")
}

// OpenAPIVersion is the GitBook OpenAPISpecVersion object.
type OpenAPIVersion struct {
	Object    string             `json:"object"`
	ID        string             `json:"id"`
	CreatedAt string             `json:"createdAt"`
	URL       string             `json:"url"`
	URLs      OpenAPIVersionURLs `json:"urls"`
}

// OpenAPIVersionURLs are the URLs of a version.
type OpenAPIVersionURLs struct {
	Location string `json:"location"`
}

// NewOpenAPIVersion converts a version of a specification.
func (u URLs) NewOpenAPIVersion(s *folio.OpenAPISpec, v *folio.OpenAPIVersion) OpenAPIVersion {
	return OpenAPIVersion{Object: "openapi-spec-version", ID: v.ID, CreatedAt: Time(v.CreatedAt),
		URL: u.OpenAPIRawURL(s, v.ID), URLs: OpenAPIVersionURLs{Location: u.API(openAPIPath(s) + "/versions/" + v.ID)}}
}

// OpenAPIContent is the GitBook OpenAPISpecContent object.
type OpenAPIContent struct {
	Filesystem json.RawMessage `json:"filesystem"`
	URL        string          `json:"url"`
}

// NewOpenAPIContent converts a version's content.
func (u URLs) NewOpenAPIContent(s *folio.OpenAPISpec, v *folio.OpenAPIVersion, c *folio.OpenAPIContent) OpenAPIContent {
	return OpenAPIContent{Filesystem: json.RawMessage(c.Filesystem), URL: u.OpenAPIRawURL(s, v.ID)}
}
