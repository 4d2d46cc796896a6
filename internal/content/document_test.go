package content_test

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// testdata/full.json uses every block, inline and mark type of the reference
// and is valid against its JSONDocument schema; columns and if sit in a table
// cell, the only place the reference allows them.
func readFull(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func unmarshal(t *testing.T, b []byte) *content.Document {
	t.Helper()
	var d content.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return &d
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// sameJSON fails unless a and b hold the same JSON content, whatever the key
// order and spacing.
func sameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("JSON differs (-want +got):\n%s", diff)
	}
}

// roundTrip checks unmarshal → marshal keeps the JSON content and that
// decoding the output again gives the same document.
func roundTrip(t *testing.T, in []byte) *content.Document {
	t.Helper()
	d1 := unmarshal(t, in)
	out := marshal(t, d1)
	sameJSON(t, out, in)
	d2 := unmarshal(t, out)
	if diff := cmp.Diff(d1, d2); diff != "" {
		t.Errorf("document changed on a second decoding (-first +second):\n%s", diff)
	}
	return d1
}

func TestRoundTripFull(t *testing.T) {
	d := roundTrip(t, readFull(t))
	if err := d.Validate("document"); err != nil {
		t.Fatalf("Validate: %v", err)
	}

	// The sample must keep covering every type the package accepts.
	blocks, inlines, marks := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for _, n := range nodes {
			switch n.Object {
			case content.ObjectBlock:
				blocks[n.Type] = true
			case content.ObjectInline:
				inlines[n.Type] = true
			}
			for _, l := range n.Leaves {
				for _, m := range l.Marks {
					marks[m.Type] = true
				}
			}
			walk(n.Nodes)
			for _, f := range n.Fragments {
				walk(f.Nodes)
			}
		}
	}
	walk(d.Nodes)
	for _, c := range []struct {
		name string
		want []string
		seen map[string]bool
	}{
		{"block", content.BlockTypes(), blocks},
		{"inline", content.InlineTypes(), inlines},
		{"mark", content.MarkTypes(), marks},
	} {
		for _, typ := range c.want {
			if !c.seen[typ] {
				t.Errorf("testdata/full.json has no %s of type %q", c.name, typ)
			}
		}
		if len(c.seen) != len(c.want) {
			t.Errorf("%s types: sample has %d, package knows %d", c.name, len(c.seen), len(c.want))
		}
	}
}

func TestRoundTripHandWritten(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{
			// The shape GitBook's own document builders write: no isVoid on
			// non-void blocks, data objects everywhere, no schemaVersion.
			name: "builder style",
			in: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"heading-2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Install","marks":[]}]}]},
				{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[
					{"object":"leaf","text":"Run ","marks":[]},
					{"object":"leaf","text":"make","marks":[{"object":"mark","type":"code"}]}]}]},
				{"object":"block","type":"divider","isVoid":true,"data":{}},
				{"object":"block","type":"code","data":{"syntax":"bash"},"nodes":[
					{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"make","marks":[]}]}]}]}]}`,
		},
		{
			name: "absent optional properties stay absent",
			in: `{"object":"document","data":{"schemaVersion":2},"nodes":[
				{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"no data, no marks"}]}]},
				{"object":"block","type":"embed","isVoid":true,"data":{"url":"https://example.com"}},
				{"object":"block","type":"images","isVoid":false,"data":{},"nodes":[
					{"object":"block","type":"image","isVoid":true,"data":{"ref":{"kind":"url","url":"https://example.com/a.png"}},"fragments":[]}]}]}`,
		},
		{
			name: "unknown properties are kept",
			in: `{"object":"document","data":{"schemaVersion":1,"theme":"dark"},"origin":{"tool":"x"},"nodes":[
				{"object":"block","type":"paragraph","key":"p1","custom":[1,"two",null],"nodes":[
					{"object":"text","key":"t1","leaves":[{"object":"leaf","text":"hi","marks":[{"object":"mark","type":"bold","weight":700}],"id":"l1"}]}]},
				{"object":"block","type":"expandable","isVoid":true,"data":{},"fragments":[
					{"object":"fragment","key":"f1","fragment":"expandable-title","type":"expandable-title","open":true,"nodes":[
						{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"More","marks":[]}]}]}]}]}]}`,
		},
		{
			name: "unknown types decode for later validation",
			in:   `{"object":"document","data":{},"nodes":[{"object":"block","type":"heading-4","isVoid":true,"data":{"x":1.5},"nodes":[]}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { roundTrip(t, []byte(tt.in)) })
	}
}

// isVoid is a plain bool: it is written when true and, for the types whose
// schema requires it, when false; an absent isVoid takes the type's value.
func TestNodeIsVoidCanonical(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"paragraph/explicit false dropped",
			`{"object":"block","type":"paragraph","isVoid":false,"nodes":[]}`,
			`{"object":"block","type":"paragraph","nodes":[]}`},
		{"divider/absent becomes true",
			`{"data":{},"type":"divider","object":"block"}`,
			`{"object":"block","type":"divider","isVoid":true,"data":{}}`},
		{"images/absent false written",
			`{"object":"block","type":"images","nodes":[]}`,
			`{"object":"block","type":"images","isVoid":false,"nodes":[]}`},
		{"annotation/absent false written",
			`{"object":"inline","type":"annotation","nodes":[],"fragments":[]}`,
			`{"object":"inline","type":"annotation","isVoid":false,"nodes":[],"fragments":[]}`},
		{"unknown type/absent stays absent",
			`{"object":"block","type":"made-up","nodes":[]}`,
			`{"object":"block","type":"made-up","nodes":[]}`},
		{"text/never written",
			`{"object":"text","leaves":[]}`,
			`{"object":"text","leaves":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n content.Node
			if err := json.Unmarshal([]byte(tt.in), &n); err != nil {
				t.Fatal(err)
			}
			if got := string(marshal(t, n)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"document/array", `[1]`, "invalid document: a document must be an object"},
		{"data/array", `{"object":"document","data":[],"nodes":[]}`, "invalid document: data must be an object"},
		{"nodes/string", `{"object":"document","data":{},"nodes":"x"}`, "invalid document: nodes must be an array"},
		{"node/number", `{"object":"document","nodes":[1]}`, "invalid document: nodes[0]: a node must be an object"},
		{"isVoid/string", `{"object":"document","nodes":[{"object":"block","type":"divider","isVoid":"yes"}]}`,
			"invalid document: nodes[0]: isVoid must be a boolean"},
		{"leaf/text number", `{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[
			{"object":"text","leaves":[{"object":"leaf","text":"a"},{"object":"leaf","text":5}]}]}]}`,
			"invalid document: nodes[0].nodes[0].leaves[1]: text must be a string"},
		{"mark/type number", `{"object":"document","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":[{"object":"mark","type":1}]}]}]}`,
			"invalid document: nodes[0].leaves[0].marks[0]: type must be a string"},
		{"fragment/nodes object", `{"object":"document","nodes":[{"object":"block","type":"image","fragments":[{"object":"fragment","nodes":{}}]}]}`,
			"invalid document: nodes[0].fragments[0]: nodes must be an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d content.Document
			err := json.Unmarshal([]byte(tt.in), &d)
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("error %v is %v, want invalid", err, folio.KindOf(err))
			}
			if got := folio.MessageOf(err); got != tt.want {
				t.Errorf("message %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("null/no-op", func(t *testing.T) {
		d := content.NewDocument("kept")
		if err := json.Unmarshal([]byte(`null`), d); err != nil {
			t.Fatal(err)
		}
		if d.PlainText() != "kept" {
			t.Errorf("null changed the document")
		}
	})
	t.Run("syntax error", func(t *testing.T) {
		var d content.Document
		var se *json.SyntaxError
		if err := json.Unmarshal([]byte(`{"object":`), &d); !errors.As(err, &se) {
			t.Errorf("got %v, want a *json.SyntaxError", err)
		}
	})
}

func TestNewDocument(t *testing.T) {
	d := content.NewDocument("Hello", "")
	want := `{"object":"document","data":{},"nodes":[` +
		`{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hello","marks":[]}]}]},` +
		`{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}]}`
	if got := string(marshal(t, d)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if err := d.Validate("description"); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if got := string(marshal(t, content.NewDocument())); got != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("empty document: %s", got)
	}
}

func TestNormalize(t *testing.T) {
	d := unmarshal(t, []byte(`{"nodes":[
		{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"text":"a","marks":[{"type":"bold"}]}]}]},
		{"object":"block","type":"divider","isVoid":false},
		{"object":"block","type":"image","isVoid":true,"data":{"ref":{"kind":"url","url":"u"}}},
		{"object":"block","type":"expandable","fragments":[{"fragment":"expandable-title","type":"expandable-title"}]}]}`))
	d.Normalize()
	want := `{"object":"document","data":{},"nodes":[
		{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":[{"object":"mark","type":"bold"}]}]}]},
		{"object":"block","type":"divider","isVoid":true,"data":{}},
		{"object":"block","type":"image","isVoid":true,"data":{"ref":{"kind":"url","url":"u"}},"fragments":[]},
		{"object":"block","type":"expandable","isVoid":true,"data":{},"fragments":[{"object":"fragment","fragment":"expandable-title","type":"expandable-title","nodes":[]}]}]}`
	sameJSON(t, marshal(t, d), []byte(want))
	if _, ok := d.Data["schemaVersion"]; ok {
		t.Errorf("Normalize set a schemaVersion; absent means the latest")
	}
}

// Test documents are built from these helpers.
var (
	text   = content.NewText
	block  = content.NewBlock
	inline = content.NewInline
)

func doc(nodes ...content.Node) *content.Document {
	return &content.Document{Object: content.ObjectDocument, Data: map[string]any{}, Nodes: nodes}
}

func para(s string) content.Node { return block(content.BlockParagraph, text(s)) }

// withData returns n with data set.
func withData(n content.Node, data map[string]any) content.Node {
	n.Data = data
	return n
}

// withFragments returns n holding the given fragments, each of blocks.
func withFragments(n content.Node, fs ...content.Fragment) content.Node {
	n.Fragments = fs
	return n
}

func fragment(name string, nodes ...content.Node) content.Fragment {
	return content.Fragment{Object: content.ObjectFragment, Fragment: name, Type: name, Nodes: nodes}
}

func link(children ...content.Node) content.Node {
	return withData(inline(content.InlineLink, children...), map[string]any{"ref": map[string]any{"kind": "url", "url": "u"}})
}

func image() content.Node {
	return withData(block(content.BlockImage), map[string]any{"ref": map[string]any{"kind": "url", "url": "u"}})
}

// quotes returns n nested blockquotes, n levels deep.
func quotes(n int) content.Node {
	q := block(content.BlockQuote)
	for range n - 1 {
		q = block(content.BlockQuote, q)
	}
	return q
}

// path returns "nodes[0]" repeated n times, joined by dots.
func path(n int) string {
	return strings.TrimSuffix(strings.Repeat("nodes[0].", n), ".")
}

func TestValidate(t *testing.T) {
	many := func(n int) *content.Document {
		nodes := make([]content.Node, n)
		for i := range nodes {
			nodes[i] = block(content.BlockParagraph)
		}
		return doc(nodes...)
	}
	version := func(v any) *content.Document {
		d := doc(para("x"))
		d.Data["schemaVersion"] = v
		return d
	}
	mutate := func(n content.Node, f func(*content.Node)) content.Node {
		f(&n)
		return n
	}
	markedText := func(marks ...content.Mark) content.Node {
		n := text("x")
		n.Leaves[0].Marks = marks
		return n
	}
	expandable := func(fs ...content.Fragment) content.Node {
		return withFragments(block(content.BlockExpandable), fs...)
	}
	table := func(nodes ...content.Node) content.Node {
		return withFragments(block(content.BlockTable), content.Fragment{Object: content.ObjectFragment, Fragment: "cell", Nodes: nodes})
	}
	const chars = content.MaxTextLength

	tests := []struct {
		name string
		doc  *content.Document
		want string // "" for valid
	}{
		{"document/nil", nil, "instructions: a document is required"},
		{"document/paragraphs", doc(para("a"), para("b")), ""},
		{"document/empty", doc(), ""},
		{"object/not document", &content.Document{Object: "documents"}, `instructions: object must be "document", not "documents"`},
		{"object/empty", &content.Document{}, `instructions: object must be "document", not ""`},

		{"schemaVersion/absent", doc(para("x")), ""},
		{"schemaVersion/integer", version(3.0), ""},
		{"schemaVersion/zero", version(0.0), ""},
		{"schemaVersion/Go int", version(2), ""},
		{"schemaVersion/string", version("1"), "instructions: data.schemaVersion must be a non-negative integer"},
		{"schemaVersion/fraction", version(1.5), "instructions: data.schemaVersion must be a non-negative integer"},
		{"schemaVersion/negative", version(-1.0), "instructions: data.schemaVersion must be a non-negative integer"},
		{"schemaVersion/null", version(nil), "instructions: data.schemaVersion must be a non-negative integer"},

		{"node/object leaf", doc(content.Node{Object: content.ObjectLeaf}), `instructions: nodes[0]: object must be "block", "inline" or "text", not "leaf"`},
		{"node/object empty", doc(para("x"), content.Node{}), `instructions: nodes[1]: object must be "block", "inline" or "text", not ""`},
		{"block/no type", doc(content.Node{Object: content.ObjectBlock}), "instructions: nodes[0]: a block needs a type"},
		{"block/unknown type", doc(block("heading-4")), `instructions: nodes[0]: unknown block type "heading-4"`},
		{"block/inline type", doc(block(content.InlineLink)), `instructions: nodes[0]: unknown block type "link"`},
		{"inline/block type", doc(block(content.BlockParagraph, inline(content.BlockParagraph))),
			`instructions: nodes[0].nodes[0]: unknown inline type "paragraph"`},

		{"document/contains text", doc(text("x")), "instructions: nodes[0]: the document cannot contain text"},
		{"document/contains inline", doc(link(text("x"))), "instructions: nodes[0]: the document cannot contain an inline"},
		{"document/contains list-item", doc(block(content.BlockListItem, para("x"))), "instructions: nodes[0]: the document cannot contain a list-item block"},
		{"document/contains code-line", doc(block(content.BlockCodeLine)), "instructions: nodes[0]: the document cannot contain a code-line block"},
		{"document/contains columns", doc(block(content.BlockColumns)), "instructions: nodes[0]: the document cannot contain a columns block"},
		{"document/contains if", doc(block(content.BlockIf)), "instructions: nodes[0]: the document cannot contain an if block"},

		{"paragraph/text and inlines", doc(block(content.BlockParagraph, text("a "), link(text("b")),
			withData(inline(content.InlineEmoji), map[string]any{"code": "1f600"}))), ""},
		{"paragraph/contains block", doc(block(content.BlockParagraph, para("x"))), "instructions: nodes[0].nodes[0]: a paragraph cannot contain a block"},
		{"heading/contains block", doc(block(content.BlockHeading2, block(content.BlockDivider))), "instructions: nodes[0].nodes[0]: a heading-2 cannot contain a block"},
		{"list/list items", doc(block(content.BlockListOrdered, block(content.BlockListItem, para("a"), block(content.BlockListUnordered)))), ""},
		{"list/contains paragraph", doc(block(content.BlockListUnordered, para("x"))), "instructions: nodes[0].nodes[0]: a list-unordered cannot contain a paragraph block"},
		{"list/contains text", doc(block(content.BlockListTasks, text("x"))), "instructions: nodes[0].nodes[0]: a list-tasks cannot contain text"},
		{"list-item/contains code and table", doc(block(content.BlockListUnordered, block(content.BlockListItem,
			block(content.BlockCode), table()))), ""},
		{"list-item/contains tabs", doc(block(content.BlockListUnordered, block(content.BlockListItem, block(content.BlockTabs)))),
			"instructions: nodes[0].nodes[0].nodes[0]: a list-item cannot contain a tabs block"},
		{"blockquote/contains blockquote", doc(block(content.BlockQuote, block(content.BlockQuote, para("x")))), ""},
		{"blockquote/contains hint", doc(block(content.BlockQuote, block(content.BlockHint))), "instructions: nodes[0].nodes[0]: a blockquote cannot contain a hint block"},
		{"hint/contains code", doc(block(content.BlockHint, block(content.BlockCode))), "instructions: nodes[0].nodes[0]: a hint cannot contain a code block"},
		{"code/contains paragraph", doc(block(content.BlockCode, para("x"))), "instructions: nodes[0].nodes[0]: a code cannot contain a paragraph block"},
		{"code-line/text and expression", doc(block(content.BlockCode, block(content.BlockCodeLine, text("x"),
			withData(inline(content.InlineExpression), map[string]any{"expression": "e"})))), ""},
		{"code-line/contains link", doc(block(content.BlockCode, block(content.BlockCodeLine, link(text("x"))))),
			"instructions: nodes[0].nodes[0].nodes[0]: a code-line cannot contain a link inline"},
		{"images/contains paragraph", doc(block(content.BlockImages, para("x"))), "instructions: nodes[0].nodes[0]: an images cannot contain a paragraph block"},
		{"tabs/contains paragraph", doc(block(content.BlockTabs, para("x"))), "instructions: nodes[0].nodes[0]: a tabs cannot contain a paragraph block"},
		{"tabs-item/contains expandable", doc(block(content.BlockTabs, block(content.BlockTabsItem, block(content.BlockExpandable)))),
			"instructions: nodes[0].nodes[0].nodes[0]: a tabs-item cannot contain an expandable block"},
		{"stepper/steps", doc(block(content.BlockStepper, block(content.BlockStepperStep, para("x"), block(content.BlockIntegration)))), ""},
		{"link/contains inline image", doc(block(content.BlockParagraph, link(text("x"), inline(content.InlineImage)))), ""},
		{"link/contains link", doc(block(content.BlockParagraph, link(link(text("x"))))),
			"instructions: nodes[0].nodes[0].nodes[0]: a link cannot contain a link inline"},
		{"annotation/contains emoji", doc(block(content.BlockParagraph, inline(content.InlineAnnotation, inline(content.InlineEmoji)))),
			"instructions: nodes[0].nodes[0].nodes[0]: an annotation cannot contain an inline"},

		{"void/divider holds empty text", doc(block(content.BlockDivider, text(""))), ""},
		{"void/divider holds a paragraph", doc(block(content.BlockDivider, para("x"))), "instructions: nodes[0].nodes[0]: a divider cannot contain a block"},
		{"void/emoji holds a link", doc(block(content.BlockParagraph, inline(content.InlineEmoji, link()))),
			"instructions: nodes[0].nodes[0].nodes[0]: an emoji cannot contain an inline"},
		{"isVoid/paragraph void", doc(mutate(para("x"), func(n *content.Node) { n.IsVoid = true })), "instructions: nodes[0]: a paragraph cannot be void"},
		{"isVoid/divider not void", doc(mutate(block(content.BlockDivider), func(n *content.Node) { n.IsVoid = false })), "instructions: nodes[0]: a divider must be void"},

		{"text/has type", doc(block(content.BlockParagraph, mutate(text("x"), func(n *content.Node) { n.Type = "bold" }))),
			"instructions: nodes[0].nodes[0]: a text node cannot have a type"},
		{"text/has nodes", doc(block(content.BlockParagraph, mutate(text("x"), func(n *content.Node) { n.Nodes = []content.Node{text("y")} }))),
			"instructions: nodes[0].nodes[0]: a text node cannot contain nodes"},
		{"text/has fragments", doc(block(content.BlockParagraph, withFragments(text("x"), fragment("caption")))),
			"instructions: nodes[0].nodes[0]: a text node cannot have fragments"},
		{"block/has leaves", doc(mutate(para("x"), func(n *content.Node) { n.Leaves = text("y").Leaves })), "instructions: nodes[0]: a paragraph cannot have leaves"},

		{"fragments/caption", doc(block(content.BlockImages, withFragments(image(), fragment(content.FragmentCaption, para("c"))))), ""},
		{"fragments/on paragraph", doc(withFragments(para("x"), fragment(content.FragmentCaption, para("c")))), "instructions: nodes[0]: a paragraph cannot have fragments"},
		{"fragments/object", doc(block(content.BlockImages, withFragments(image(), content.Fragment{Object: content.ObjectBlock, Fragment: content.FragmentCaption}))),
			`instructions: nodes[0].nodes[0].fragments[0]: object must be "fragment", not "block"`},
		{"fragments/unknown name", doc(block(content.BlockImages, withFragments(image(), fragment("title", para("c"))))),
			`instructions: nodes[0].nodes[0].fragments[0]: an image cannot have a fragment named "title"`},
		{"fragments/caption holds heading", doc(block(content.BlockImages, withFragments(image(), fragment(content.FragmentCaption, block(content.BlockHeading1, text("c")))))),
			"instructions: nodes[0].nodes[0].fragments[0].nodes[0]: a fragment of an image cannot contain a heading-1 block"},
		{"fragments/expandable", doc(expandable(fragment(content.FragmentExpandableTitle, para("t")), fragment(content.FragmentExpandableBody, para("b"), block(content.BlockCode)))), ""},
		{"fragments/expandable title of two", doc(expandable(fragment(content.FragmentExpandableTitle, para("t"), para("u")))),
			`instructions: nodes[0].fragments[0]: fragment "expandable-title" can hold at most 1 node`},
		{"fragments/expandable body empty", doc(expandable(fragment(content.FragmentExpandableBody))),
			`instructions: nodes[0].fragments[0]: fragment "expandable-body" needs at least 1 node`},
		{"fragments/expandable body holds tabs", doc(expandable(fragment(content.FragmentExpandableBody, block(content.BlockTabs)))),
			"instructions: nodes[0].fragments[0].nodes[0]: a fragment of an expandable cannot contain a tabs block"},
		{"fragments/annotation body", doc(block(content.BlockParagraph, withFragments(inline(content.InlineAnnotation, text("a")),
			content.Fragment{Object: content.ObjectFragment, Type: content.FragmentAnnotationBody, Nodes: []content.Node{para("note")}}))), ""},
		{"fragments/table cell holds any block", doc(table(block(content.BlockColumns, block(content.BlockColumn, para("x"))), block(content.BlockIf, para("y")))), ""},
		{"fragments/table cell holds text", doc(table(text("x"))),
			"instructions: nodes[0].fragments[0].nodes[0]: a fragment of a table cannot contain text"},

		{"leaf/object", doc(block(content.BlockParagraph, mutate(text("x"), func(n *content.Node) { n.Leaves[0].Object = content.ObjectMark }))),
			`instructions: nodes[0].nodes[0].leaves[0]: object must be "leaf", not "mark"`},
		{"mark/known types", doc(block(content.BlockParagraph, text("x", content.MarkTypes()...))), ""},
		{"mark/object", doc(block(content.BlockParagraph, markedText(content.Mark{Object: content.ObjectLeaf, Type: content.MarkBold}))),
			`instructions: nodes[0].nodes[0].leaves[0].marks[0]: object must be "mark", not "leaf"`},
		{"mark/unknown type", doc(block(content.BlockParagraph, text("x", content.MarkBold, "underline"))),
			`instructions: nodes[0].nodes[0].leaves[0].marks[1]: unknown mark type "underline"`},

		{"depth/32 levels", doc(quotes(32)), ""},
		{"depth/33 levels", doc(quotes(33)), "instructions: " + path(33) + ": nodes are nested deeper than 32 levels"},
		{"depth/33 levels through fragments", doc(expandable(fragment(content.FragmentExpandableBody, quotes(32)))),
			"instructions: nodes[0].fragments[0]." + path(32) + ": nodes are nested deeper than 32 levels"},
		{"nodes/100000", many(content.MaxNodes), ""},
		{"nodes/100001", many(content.MaxNodes + 1), "instructions: the document has more than 100000 nodes"},
		// é is two bytes: the limit counts characters, not bytes.
		{"text/5000000 characters", doc(para(strings.Repeat("é", chars-2)), para("ab")), ""},
		{"text/5000001 characters", doc(para(strings.Repeat("é", chars-2)), para("abc")), "instructions: the document has more than 5000000 characters of text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.doc.Validate("instructions")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var fe *folio.Error
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *folio.Error", err)
			}
			if fe.Kind != folio.Invalid || fe.Field != "instructions" {
				t.Errorf("kind %v field %q, want invalid instructions", fe.Kind, fe.Field)
			}
			if fe.Message != tt.want {
				t.Errorf("message\n got  %s\n want %s", fe.Message, tt.want)
			}
		})
	}
}

func TestValidateWithoutField(t *testing.T) {
	err := doc(text("x")).Validate("")
	if got, want := folio.MessageOf(err), "nodes[0]: the document cannot contain text"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPlainText(t *testing.T) {
	item := func(nodes ...content.Node) content.Node { return block(content.BlockListItem, nodes...) }
	tests := []struct {
		name string
		doc  *content.Document
		want string
	}{
		{"nil", nil, ""},
		{"empty", doc(), ""},
		{"paragraphs", content.NewDocument("one", "", "three"), "one\n\nthree"},
		{"leaves and inlines join", doc(block(content.BlockParagraph, text("a "), link(text("link"), inline(content.InlineImage)),
			inline(content.InlineEmoji), text(" end"))), "a link end"},
		{"nested lists", doc(block(content.BlockListUnordered, item(para("first"), block(content.BlockListOrdered, item(para("inner")))), item(para("second")))),
			"first\ninner\nsecond"},
		{"code lines", doc(block(content.BlockCode, block(content.BlockCodeLine, text("a := 1")), block(content.BlockCodeLine, text("b := 2")))),
			"a := 1\nb := 2"},
		{"voids add nothing", doc(para("before"), block(content.BlockDivider), block(content.BlockMath), para("after")), "before\nafter"},
		{"fragments follow their owner", doc(
			withFragments(block(content.BlockExpandable), fragment(content.FragmentExpandableTitle, para("Title")), fragment(content.FragmentExpandableBody, para("Body"))),
			block(content.BlockImages, withFragments(image(), fragment(content.FragmentCaption, para("Caption"))))),
			"Title\nBody\nCaption"},
		{"annotation body after its line", doc(
			block(content.BlockParagraph, text("see "), withFragments(inline(content.InlineAnnotation, text("this")),
				content.Fragment{Object: content.ObjectFragment, Type: content.FragmentAnnotationBody, Nodes: []content.Node{para("the note")}}), text(".")),
			para("next")),
			"see this.\nthe note\nnext"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.doc.PlainText(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("full sample", func(t *testing.T) {
		got := unmarshal(t, readFull(t)).PlainText()
		for _, want := range []string{"Introduction", "Plain, bold, italic", "Nested third", "make test", "Hidden text", "Cell one", "Beta users only", "The note.", "because"} {
			if !strings.Contains(got, want) {
				t.Errorf("plain text lacks %q:\n%s", want, got)
			}
		}
	})
}

func TestTypeLists(t *testing.T) {
	// Every list is sorted and disjoint, and void-ness follows the table.
	for _, l := range [][]string{content.BlockTypes(), content.InlineTypes(), content.MarkTypes()} {
		if !slices.IsSorted(l) {
			t.Errorf("not sorted: %v", l)
		}
	}
	if got := len(content.BlockTypes()); got != 35 {
		t.Errorf("%d block types, want the reference's 35", got)
	}
	if got := len(content.InlineTypes()); got != 9 {
		t.Errorf("%d inline types, want the reference's 9", got)
	}
	if got := len(content.MarkTypes()); got != 8 {
		t.Errorf("%d mark types, want the reference's 8", got)
	}
	for typ, want := range map[string]bool{content.BlockDivider: true, content.BlockImage: true, content.BlockTable: true,
		content.InlineMention: true, content.BlockParagraph: false, content.BlockImages: false, content.InlineLink: false} {
		if content.IsVoidType(typ) != want {
			t.Errorf("IsVoidType(%q) = %v, want %v", typ, !want, want)
		}
	}
}

// Strings are escaped by hand for speed; the bytes must match encoding/json.
func TestMarshalEscapesLikeEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " backslash \`, "tab\tnewline\nreturn\r", "\b\f\x00\x01\x1f\x7f",
		"<a href='x'>&amp;</a>", "line\u2028para\u2029", "bad \xff utf8 \xe2\x82", "é ₂ 🎉"} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got := marshal(t, content.Leaf{Object: content.ObjectLeaf, Text: s})
		if w := `{"object":"leaf","text":` + string(want) + `}`; string(got) != w {
			t.Errorf("%q:\n got  %s\n want %s", s, got, w)
		}
	}
}
