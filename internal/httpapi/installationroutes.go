package httpapi

import (
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
)

// Scope sets of installation routes: a route opens to an installation token
// whose integration holds any one of its scopes (GitBook's integration
// scopes; docs/integrations.md, "Installation tokens").
var (
	// scopeSpace reads a space's settings.
	scopeSpace = []string{"space:metadata:read", "space:metadata:write", "space:content:read", "space:content:write"}
	// scopeContentRead reads a space's content and change requests.
	scopeContentRead = []string{"space:content:read", "space:content:write"}
	// scopeContentWrite edits a space's content.
	scopeContentWrite = []string{"space:content:write"}
	// scopeSelf is a route on the installation itself: every installation
	// token may call it, on its own installation only (the app checks).
	scopeSelf = []string{}
)

// installationRoutes are the only routes an installation token may call,
// with the scopes that open each. Anything else is refused before its
// handler runs (default deny), as site tokens are (siteRoutes). The app
// still checks every call: the space must be one the installation covers,
// the installation its own, and an installation is never a space admin.
var installationRoutes = map[string][]string{
	"GET /v1/spaces/{spaceId}": scopeSpace,

	// Content reads, of the current revision and of any revision.
	"GET /v1/spaces/{spaceId}/content":                                                               scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/pages":                                                         scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}":                                                 scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/path/{pagePath...}":                                            scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/files":                                                         scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/files/{fileId}":                                                scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}":                                                scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages":                                          scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}":                                  scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath...}":                             scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files":                                          scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}":                                 scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document":                         scopeContentRead,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document": scopeContentRead,
	"GET /v1/spaces/{spaceId}/documents/{documentId}":                                                scopeContentRead,
	"GET /v1/spaces/{spaceId}/search":                                                                scopeContentRead,
	"GET /v1/spaces/{spaceId}/links":                                                                 scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}/links":                                           scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}/backlinks":                                       scopeContentRead,
	"GET /v1/spaces/{spaceId}/content/files/{fileId}/backlinks":                                      scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests":                                                       scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                                     scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes":                             scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors":                        scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content":                             scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages":                       scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}":               scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath...}":          scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files":                       scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}":              scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/links":                               scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links":         scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks":     scopeContentRead,
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks":    scopeContentRead,
	"POST /v1/spaces/{spaceId}/content/import":                                                       scopeContentWrite,
	"POST /v1/spaces/{spaceId}/content/page/{pageId}/import":                                         scopeContentWrite,
	"POST /v1/spaces/{spaceId}/change-requests":                                                      scopeContentWrite,
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                                   scopeContentWrite,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update":                             scopeContentWrite,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import":                     scopeContentWrite,
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/import":       scopeContentWrite,

	// The installation itself, and its space and site links (the OAuth
	// helper of @gitbook/runtime reads and updates them).
	"GET /v1/integrations/{integrationName}/installations/{installationId}":                     scopeSelf,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}":                   scopeSelf,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/tokens":             scopeSelf,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces":              scopeSelf,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces":             scopeSelf,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}":    scopeSelf,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}":  scopeSelf,
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}": scopeSelf,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites":               scopeSelf,
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites":              scopeSelf,
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":      scopeSelf,
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":    scopeSelf,
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":   scopeSelf,
}

// installationScopes returns the scopes that open a route to installation
// tokens: nil when none do.
func installationScopes(pattern string) []string { return installationRoutes[pattern] }

// installationRouteAllowed refuses an installation token on any route
// outside installationRoutes, and on one whose scopes its integration
// lacks.
func installationRouteAllowed(c folio.Caller, r *http.Request) error {
	g := c.Installation
	if g == nil {
		return nil
	}
	scopes, ok := installationRoutes[r.Pattern]
	if !ok {
		return folio.Errorf(folio.Forbidden, "an installation token cannot call this operation")
	}
	if len(scopes) > 0 && !g.Allows(scopes...) {
		return folio.Errorf(folio.Forbidden, "this operation needs one of the integration scopes %s", strings.Join(scopes, ", "))
	}
	return nil
}
