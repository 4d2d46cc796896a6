// Package reader serves published sites as server-rendered HTML: routing
// by the site's path prefix (/sites/{siteId}) or custom hostname, the
// site's visibility (public, unlisted, share-link keys, and visitor
// authentication with signed visitor tokens, visitor.go), and the rendering of pages' Documents with
// html/template, code highlighted by chroma, OpenAPI blocks from the
// latest version of the organization's specifications (openapi.go).
//
// Allowed imports: folio, internal/app, internal/content, internal/openapi
// (for its Operation type).
package reader
