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

// TestRenderDiffBlocks: a diff's blocks carry no id, keep the document's
// heading order below the level asked for, and show every tab, so a block
// renders the same wherever it stands and on either side of a diff.
func TestRenderDiffBlocks(t *testing.T) {
	t.Parallel()
	tab := func(title, text string) content.Node {
		n := content.NewBlock(content.BlockTabsItem, content.NewBlock(content.BlockParagraph, content.NewText(text)))
		n.Data = map[string]any{"title": title}
		return n
	}
	setup := content.NewBlock(content.BlockHeading2, content.NewText("Setup"))
	setup.Meta = map[string]any{"id": "setup"}
	doc := &content.Document{Object: content.ObjectDocument, Nodes: []content.Node{
		setup,
		content.NewBlock(content.BlockHeading3, content.NewText("Details")),
		content.NewBlock(content.BlockTabs, tab("Linux", "apt install"), tab("macOS", "brew install")),
		setup,
	}}
	none := func(string) string { return "" }
	nopage := func(string, string) string { return "" }
	if got := TopHeading(doc); got != 2 {
		t.Fatalf("TopHeading %d, want 2", got)
	}
	for _, c := range []struct {
		top, level int
		want       []string
	}{
		{2, 4, []string{"<h4>Setup</h4>\n\n", "<h5>Details</h5>\n\n"}},
		{2, 3, []string{"<h3>Setup</h3>\n\n", "<h4>Details</h4>\n\n"}},
		// The other version has a heading-1: this one's start a level lower.
		{1, 4, []string{"<h5>Setup</h5>\n\n", "<h6>Details</h6>\n"}},
		{1, 5, []string{"<h6>Setup</h6>\n", "<h6>Details</h6>\n"}},
	} {
		blocks, err := RenderDiffBlocks(doc, c.top, c.level, none, nopage)
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) != 4 || string(blocks[0]) != c.want[0] || string(blocks[1]) != c.want[1] || blocks[3] != blocks[0] {
			t.Fatalf("top %d level %d: %q", c.top, c.level, blocks)
		}
		tabs := string(blocks[2])
		if want := `<div class="tabs"><section class="tab"><p class="tab-title">Linux</p><p>apt install</p>
</section><section class="tab"><p class="tab-title">macOS</p><p>brew install</p>
</section></div>
`; tabs != want {
			t.Fatalf("tabs %q", tabs)
		}
		for _, b := range blocks {
			if strings.Contains(string(b), "id=") || strings.Contains(string(b), "hidden") || strings.Contains(string(b), `href="#`) {
				t.Fatalf("a diff block has an id, hides a part or links an anchor: %s", b)
			}
		}
	}
	if blocks, err := RenderDiffBlocks(nil, 4, 4, none, nopage); err != nil || blocks != nil {
		t.Fatalf("nil document: %q %v", blocks, err)
	}
}
