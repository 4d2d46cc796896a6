package httpapi

import (
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// siteRoutes are the only routes a site API token may call: the reads of
// a site's published content that GitBook's renderer makes. Anything else
// is refused before its handler runs (default deny); the app checks the
// token's site and spaces on each of these.
var siteRoutes = map[string]bool{
	"GET /v1/orgs/{organizationId}/sites/{siteId}/published":             true,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/redirect":              true,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/search":               true,
	"POST /v1/orgs/{organizationId}/sites/{siteId}/ask":                  true,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/ask/questions":         true,
	"GET /v1/orgs/{organizationId}/sites/{siteId}/integration-scripts":   true, // the renderer embeds them
	"GET /v1/spaces/{spaceId}":                                           true,
	"GET /v1/spaces/{spaceId}/content":                                   true,
	"GET /v1/spaces/{spaceId}/content/pages":                             true,
	"GET /v1/spaces/{spaceId}/content/page/{pageId}":                     true,
	"GET /v1/spaces/{spaceId}/content/path/{pagePath...}":                true,
	"GET /v1/spaces/{spaceId}/content/files":                             true,
	"GET /v1/spaces/{spaceId}/content/files/{fileId}":                    true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}":                    true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages":              true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}":      true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath...}": true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files":              true,
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}":     true,
	"GET /v1/users/{userId}":                                             true,
}

// siteRoutesForRenderer are further reads of GitBook's renderer that a site
// token may call; the app checks each against the token's site: the
// space's current published revision only, change requests never
// (404), OpenAPI specifications of the site's organization (read only).
var siteRoutesForRenderer = []string{
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document",
	"GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document",
	"GET /v1/spaces/{spaceId}/documents/{documentId}",
	"GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}",
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content",
	"GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content",
}

func init() {
	for _, p := range siteRoutesForRenderer {
		siteRoutes[p] = true
	}
}

// siteRouteAllowed refuses a site API token on any route outside siteRoutes.
func siteRouteAllowed(c folio.Caller, r *http.Request) error {
	if c.Site == nil || siteRoutes[r.Pattern] {
		return nil
	}
	return folio.Errorf(folio.Forbidden, "a site API token only reads the published content of its site")
}

// resolvePublishedContentByURL answers POST /v1/urls/published.
func (s *Server) resolvePublishedContentByURL(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		URL             string `json:"url"`
		RedirectOnError bool   `json:"redirectOnError"`
		Visitor         *struct {
			JWTToken       string         `json:"jwtToken"`
			UnsignedClaims map[string]any `json:"unsignedClaims"`
		} `json:"visitor"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if in.URL == "" {
		return folio.FieldErrorf("url", "url is required")
	}
	var v app.Visitor
	if in.Visitor != nil {
		v = app.Visitor{Token: in.Visitor.JWTToken, Unsigned: in.Visitor.UnsignedClaims}
	}
	l, err := s.app.ResolvePublishedURL(r.Context(), in.URL, v, in.RedirectOnError)
	if err != nil {
		return err
	}
	if l.External != "" {
		// The visitor must sign in first: the renderer sends them there.
		writeJSON(w, http.StatusOK, wire.PublishedRedirect{Target: "external", Redirect: l.External})
		return nil
	}
	if rr := l.Redirect; rr != nil {
		// The site's published URL, on the form asked for (see
		// app.URLLookup.SiteURL), then the site space's path.
		target := l.SiteURL
		if rr.SiteSpace != nil {
			site := s.urls.SitePublished(&rr.Site.Site)
			target += strings.TrimPrefix(s.urls.SiteSpacePublished(&rr.Site.Site, rr.SiteSpace), site)
		}
		if id := rr.Redirect.Destination.PageID; id != "" {
			target += "/~/page/" + id
		}
		writeJSON(w, http.StatusOK, wire.PublishedRedirect{Target: "content", Redirect: target})
		return nil
	}
	writeJSON(w, http.StatusOK, wire.PublishedSiteContent{Site: l.Site.ID, SiteSection: l.SiteSection,
		SiteSpace: l.SiteSpace, Space: l.Space, Pathname: l.Pathname, BasePath: l.BasePath,
		SiteBasePath: l.SiteBasePath, APIToken: l.APIToken, Organization: l.Site.OrganizationID,
		ShareKey: l.ShareKey, Complete: l.Complete, CanonicalURL: l.CanonicalURL})
	return nil
}
