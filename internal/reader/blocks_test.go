package reader

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
)

// TestRenderBlocksOneByOne: RenderBlocks gives one fragment per top-level
// block, whose concatenation is RenderDocument's output, headings lifted
// for the whole document (a heading-2 alone would otherwise become h1).
func TestRenderBlocksOneByOne(t *testing.T) {
	t.Parallel()
	doc := &content.Document{Object: content.ObjectDocument, Nodes: []content.Node{
		content.NewBlock(content.BlockHeading2, content.NewText("Install")),
		content.NewBlock(content.BlockParagraph, content.NewText("Run it.")),
		content.NewBlock(content.BlockHeading3, content.NewText("Details")),
	}}
	none := func(string) string { return "" }
	nopage := func(string, string) string { return "" }
	whole, err := RenderDocument(doc, none, nopage)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := RenderBlocks(doc, none, nopage)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d blocks", len(blocks))
	}
	var joined strings.Builder
	for _, b := range blocks {
		joined.WriteString(string(b))
	}
	if joined.String() != string(whole) {
		t.Fatalf("joined blocks\n%s\ndiffer from the document\n%s", joined.String(), whole)
	}
	if !strings.HasPrefix(string(blocks[0]), "<h2") || !strings.Contains(string(blocks[1]), "<p>Run it.</p>") || !strings.HasPrefix(string(blocks[2]), "<h3") {
		t.Fatalf("blocks %q", blocks)
	}
}
