// Package templates holds Folio's built-in space templates: the content that
// POST /spaces/{spaceId}/content/template (applySpaceTemplate) writes as a new
// revision of a space. Build returns a template as a content.Snapshot (a page
// tree plus the documents its pages point at), with fresh page ids on every
// call, so applying a template twice never reuses an id.
//
// Static templates (blank, product-docs, knowledge-base, changelog and the
// api-reference starter) are GitBook-flavored Markdown embedded under pages/,
// one folder per template. Each folder has a manifest.json giving the
// template's name and its page tree: titles, order, nesting, groups, emoji,
// descriptions and the Markdown file of each document page. Links between
// pages are written as relative Markdown links ("quickstart.md#anchor") and
// resolved to page references when the Markdown is converted; "{{title}}" in
// the Markdown is replaced by the space title (or the manifest's fallback).
//
// api-reference with an OpenAPI document generates its pages instead: an
// Introduction (info, servers, security schemes, links to the other pages),
// one page per tag (an operation goes under its first tag; untagged ones
// under "Default") and a Webhooks page for OpenAPI 3.1 webhooks. Each
// operation is a "METHOD /path" heading with its summary, description,
// parameters, request body, responses and an example curl request paired
// with a response example. Pages and operations keep the document's order.
// Files: openapi.go loads and orders the document, reference.go writes the
// pages, sample.go builds example values, curl.go the requests, mdwrite.go
// the Markdown. The Markdown is converted with internal/markdown like the
// static pages; text from the spec is escaped so it cannot open GitBook
// blocks or break tables.
//
// Page emoji are stored as GitBook stores them: lowercase hexadecimal
// codepoints joined by "-" ("1f44b"), without variation selectors or
// joiners; the reference's Emoji schema allows codepoints or characters.
//
// Pure: no I/O beyond the embedded files, no clock. Allowed imports: folio,
// internal/content, internal/markdown, kin-openapi, standard library.
package templates
