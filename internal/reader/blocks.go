package reader

import (
	"html/template"

	"github.com/foliodocs/folio/internal/content"
)

// RenderBlocks renders each top-level block of a document on its own, as
// RenderDocument renders it within the whole document (heading levels are
// lifted for the document as a whole): joined, the blocks are
// RenderDocument's output. The web application places controls between
// them (block comments).
func RenderBlocks(d *content.Document, file func(id string) string, page func(id, anchor string) string) ([]template.HTML, error) {
	r := &renderer{file: file, page: page}
	bs := r.document(d)
	out := make([]template.HTML, len(bs))
	for i := range bs {
		h, err := fragment("blocks", bs[i:i+1])
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}
