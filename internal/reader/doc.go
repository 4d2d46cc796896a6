// Package reader serves published sites as server-rendered HTML: routing
// by the site's path prefix (/sites/{siteId}) or custom hostname, the
// site's visibility (public, unlisted, share-link keys, and visitor
// authentication with signed visitor tokens, visitor.go), and the rendering of pages' Documents with
// html/template, code highlighted by chroma, OpenAPI blocks from the
// latest version of the organization's specifications (openapi.go).
//
// The chrome (templates/page.html, static/reader.css and static/js) is
// described in docs/reader.md; pages are also served as Markdown
// (markdown.go: PAGE.md, llms.txt, llms-full.txt).
//
// Allowed imports: folio, internal/app, internal/content, internal/openapi
// (for its Operation type), internal/markdown (its writer), internal/lru,
// internal/search (highlighting).
package reader
