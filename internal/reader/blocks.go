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

// TopHeading returns the highest heading level (1–3) in a document, 4 when
// it has no heading: the level RenderDiffBlocks takes as top.
func TopHeading(d *content.Document) int {
	if d == nil {
		return 4
	}
	return topHeading(d.Nodes)
}

// RenderDiffBlocks renders each top-level block of a document for a diff
// of two versions of a page, where a block's HTML must be the same
// whatever surrounds it and the page shows many documents at once:
// headings carry no id and no anchor link, and a tab set shows every tab
// (no ids, nothing hidden). The document heading level top (the higher of
// both versions', TopHeading) renders as <h{level}>, the levels below it
// after it, down to <h6>.
func RenderDiffBlocks(d *content.Document, top, level int, file func(id string) string, page func(id, anchor string) string) ([]template.HTML, error) {
	if d == nil {
		return nil, nil
	}
	r := &renderer{file: file, page: page, static: true, shift: min(max(top, 1), 4) - 1, lift: level - 2}
	out := make([]template.HTML, len(d.Nodes))
	for i := range d.Nodes {
		h, err := fragment("block", r.block(&d.Nodes[i]))
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}
