package search_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/google/go-cmp/cmp"
)

// readDoc decodes a document fixture from testdata and checks it against the
// reference schema, so the fixtures stay shaped as GitBook writes documents.
func readDoc(t *testing.T, name string) *content.Document {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var d content.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	if err := d.Validate("document"); err != nil {
		t.Fatalf("%s is not a valid document: %v", name, err)
	}
	return &d
}

func TestSectionsFixture(t *testing.T) {
	got := search.Sections(readDoc(t, "page.json"))
	want := []search.Section{
		{Body: "Welcome to Folio, see the site."},
		{ID: "getting-started", Title: "Getting started", Body: strings.Join([]string{
			"Ask or press Install now then relax.",
			"Not a section", // a heading in an annotation body does not split
			"See the FAQ",
			"First item",
			"Nested item",
			"main.go",
			"func main() {",
			`fmt.Println("hi")`,
			"}",
		}, "\n")},
		{ID: "custom-id", Title: "Media", Body: "A hint.\nA quote.\nCaption with a space link\nLogo:"},
		{ID: "getting-started-2", Title: "Getting started", Body: "More details\nHidden text."},
		{ID: "inside-expandable", Title: "Inside expandable", Body: strings.Join([]string{
			"Deep text.",
			"Go", "Go tab.", "Rust", "Rust tab.",
			"Count Name Link Picture", // column titles in view order
			"Cell heading",            // a heading in a table cell does not split
			"Cell one file",
		}, "\n")},
		{ID: "概要", Title: "概要"},
		{ID: "section", Title: "!!!", Body: "Last words."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sections (-want +got):\n%s", diff)
	}
}

func heading(typ, text string, meta, data map[string]any) content.Node {
	n := content.NewBlock(typ, content.NewText(text))
	if meta != nil {
		n.Meta = meta
	}
	if data != nil {
		n.Data = data
	}
	return n
}

func para(text string) content.Node {
	return content.NewBlock(content.BlockParagraph, content.NewText(text))
}

func doc(nodes ...content.Node) *content.Document {
	d := content.NewDocument()
	d.Nodes = nodes
	return d
}

func TestSections(t *testing.T) {
	h1, h2, h3 := content.BlockHeading1, content.BlockHeading2, content.BlockHeading3
	tests := []struct {
		name string
		doc  *content.Document
		want []search.Section
	}{
		{"nil document/one empty section", nil, []search.Section{{}}},
		{"empty document/one empty section", content.NewDocument(), []search.Section{{}}},
		{"no heading/one section", content.NewDocument("One", "Two"), []search.Section{{Body: "One\nTwo"}}},
		{"leading heading/first section kept empty",
			doc(heading(h1, "Intro", nil, nil), para("Text")),
			[]search.Section{{}, {ID: "intro", Title: "Intro", Body: "Text"}}},
		{"anchor/meta id before data id before slug",
			doc(heading(h1, "A", map[string]any{"id": "meta"}, map[string]any{"id": "data"}),
				heading(h2, "B", nil, map[string]any{"id": "data-b"}),
				heading(h3, "C c", nil, nil)),
			[]search.Section{{}, {ID: "meta", Title: "A"}, {ID: "data-b", Title: "B"}, {ID: "c-c", Title: "C c"}}},
		{"anchor/slug transliterates and collapses",
			doc(heading(h2, "  Café & Crème: 2.0 ", nil, nil)),
			[]search.Section{{}, {ID: "cafe-creme-2-0", Title: "Café & Crème: 2.0"}}},
		{"anchor/duplicate slugs get suffixes",
			doc(heading(h2, "Setup", nil, nil), heading(h2, "Setup", nil, nil), heading(h2, "setup!", nil, nil)),
			[]search.Section{{}, {ID: "setup", Title: "Setup"}, {ID: "setup-2", Title: "Setup"}, {ID: "setup-3", Title: "setup!"}}},
		{"anchor/slug avoids explicit ids",
			doc(heading(h2, "X", map[string]any{"id": "setup"}, nil), heading(h2, "Setup", nil, nil)),
			[]search.Section{{}, {ID: "setup", Title: "X"}, {ID: "setup-2", Title: "Setup"}}},
		{"anchor/non-Latin text keeps its letters",
			doc(heading(h2, "Привет, мир", nil, nil), heading(h2, "", nil, nil)),
			[]search.Section{{}, {ID: "привет-мир", Title: "Привет, мир"}, {ID: "section", Title: ""}}},
		{"anchor/the word page is a slug like any other",
			doc(heading(h2, "Page", nil, nil)),
			[]search.Section{{}, {ID: "page", Title: "Page"}}},
		{"nested heading/splits inside a list item",
			doc(content.NewBlock(content.BlockListUnordered,
				content.NewBlock(content.BlockListItem, para("Before"), heading(h3, "Inner", nil, nil), para("After"))),
				para("Outside")),
			[]search.Section{{Body: "Before"}, {ID: "inner", Title: "Inner", Body: "After\nOutside"}}},
		{"whitespace/collapsed within lines, blank lines dropped",
			content.NewDocument(" a \n\n b\u00a0\u2003c ", "", "   ", "d"),
			[]search.Section{{Body: "a b c\nd"}}},
		{"marks/leaves join without spaces",
			doc(content.NewBlock(content.BlockParagraph, content.NewText("bo"), content.NewText("ld", content.MarkBold), content.NewText(" text"))),
			[]search.Section{{Body: "bold text"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, search.Sections(tt.doc)); diff != "" {
				t.Errorf("Sections (-want +got):\n%s", diff)
			}
		})
	}
}

// words500 is a document of 500 words over headings, paragraphs and a list.
func words500() *content.Document {
	vocab := strings.Fields("install configure the server with a token and restart every node of the cluster " +
		"before upgrading search indexes documents pages spaces collections quickly")
	var nodes []content.Node
	w := 0
	for s := 0; w < 500; s++ {
		nodes = append(nodes, heading(content.BlockHeading2, "Section "+vocab[s%len(vocab)], nil, nil))
		w += 2
		for p := 0; p < 3 && w < 500; p++ {
			var b strings.Builder
			for i := 0; i < 30 && w < 500; i++ {
				b.WriteString(vocab[(w*7+i)%len(vocab)])
				b.WriteByte(' ')
				w++
			}
			nodes = append(nodes, para(b.String()))
		}
	}
	return doc(nodes...)
}

func BenchmarkSections(b *testing.B) {
	d := words500()
	b.ReportAllocs()
	for b.Loop() {
		search.Sections(d)
	}
}
