package reader

import (
	"html/template"

	"github.com/foliodocs/folio/internal/content"
)

// RenderDocument renders a document's blocks to HTML exactly as the reader
// renders a page's body, for other surfaces (the web application). file
// resolves a file id to its URL and page a page id and anchor to a link;
// either answers "" for what it cannot resolve. OpenAPI blocks show their
// method and path only.
func RenderDocument(d *content.Document, file func(id string) string, page func(id, anchor string) string) (template.HTML, error) {
	r := &renderer{file: file, page: page}
	return fragment("blocks", r.document(d))
}

// CodeCSS returns the stylesheet of the reader's highlighted code
// (chroma's classes).
func CodeCSS() string { return codeCSS() }
