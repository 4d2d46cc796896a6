package markdown

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// get walks the JSON form of doc.Nodes along a dotted path such as
// "0.nodes.1.data.style" and returns the value found there.
func get(t *testing.T, doc *content.Document, path string) any {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	v = v.(map[string]any)["nodes"]
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(x) {
				t.Fatalf("path %s: no index %s in %v", path, p, x)
			}
			v = x[i]
		case map[string]any:
			v = x[p]
		default:
			t.Fatalf("path %s: cannot index %v with %s", path, v, p)
		}
	}
	return v
}

func TestConstructs(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want map[string]any // JSON paths into the nodes and their values
		out  string         // the Markdown FromDocument writes back
	}{
		{"paragraph", "Hello *world*.", map[string]any{
			"0.type": "paragraph", "0.nodes.0.leaves.1.text": "world", "0.nodes.0.leaves.1.marks.0.type": "italic"},
			"Hello *world*."},
		{"heading/1", "# One", map[string]any{"0.type": "heading-1"}, "# One"},
		{"heading/2", "## Two", map[string]any{"0.type": "heading-2"}, "## Two"},
		{"heading/4 maps to 3, source kept", "#### Four", map[string]any{"0.type": "heading-3", "0.key": "md-00dbf4080e6d"}, "#### Four"},
		{"list/unordered", "- a\n- b", map[string]any{"0.type": "list-unordered", "0.nodes.1.type": "list-item",
			"0.nodes.1.nodes.0.nodes.0.leaves.0.text": "b"}, "* a\n* b"},
		{"list/ordered start", "3. a\n4. b", map[string]any{"0.type": "list-ordered", "0.data.start": 3.0}, "3. a\n4. b"},
		{"list/ordered from one", "1. a", map[string]any{"0.data.start": nil}, "1. a"},
		{"list/tasks", "- [ ] a\n- [x] b", map[string]any{"0.type": "list-tasks", "0.nodes.0.data.checked": false,
			"0.nodes.1.data.checked": true, "0.nodes.1.nodes.0.nodes.0.leaves.0.text": "b"}, "* [ ] a\n* [x] b"},
		{"list/adjacent lists stay apart", "- a\n\n* b", map[string]any{"0.type": "list-unordered", "1.type": "list-unordered"}, "* a\n\n- b"},
		{"code/fenced", "```go\nx := 1\n\ny\n```", map[string]any{"0.type": "code", "0.data.syntax": "go",
			"0.nodes.0.type": "code-line", "0.nodes.1.nodes.0.leaves.0.text": "", "0.nodes.2.nodes.0.leaves.0.text": "y"},
			"```go\nx := 1\n\ny\n```"},
		{"code/indented", "    plain", map[string]any{"0.type": "code", "0.data.syntax": nil}, "```\nplain\n```"},
		{"code/backticks inside", "````\n```\n````", map[string]any{"0.nodes.0.nodes.0.leaves.0.text": "```"}, "````\n```\n````"},
		{"mark/code", "`a|b`", map[string]any{"0.nodes.0.leaves.0.marks.0.type": "code"}, "`a|b`"},
		{"mark/bold italic strike", "**b** *i* ~~s~~", map[string]any{"0.nodes.0.leaves.0.marks.0.type": "bold",
			"0.nodes.0.leaves.2.marks.0.type": "italic", "0.nodes.0.leaves.4.marks.0.type": "strikethrough"}, "**b** *i* ~~s~~"},
		{"mark/nested", "**a *b* c**", map[string]any{"0.nodes.0.leaves.1.marks.1.type": "italic"}, "**a *b* c**"},
		{"blockquote", "> q\n>\n> > inner", map[string]any{"0.type": "blockquote", "0.nodes.1.type": "blockquote"}, "> q\n>\n> > inner"},
		{"blockquote/code degrades", "> ```\n> x\n> ```", map[string]any{"0.nodes.0.type": "paragraph",
			"0.nodes.0.nodes.0.leaves.0.marks.0.type": "code"}, "> `x`"},
		{"hint", "{% hint style=\"danger\" %}\nNo **way**.\n{% endhint %}", map[string]any{"0.type": "hint", "0.data.style": "danger",
			"0.nodes.0.type": "paragraph"}, "{% hint style=\"danger\" %}\nNo **way**.\n{% endhint %}"},
		{"hint/unknown style stays text", "{% hint style=\"tip\" %}\nx\n{% endhint %}", map[string]any{"0.type": "paragraph",
			"0.nodes.0.leaves.0.text": "{% hint style=\"tip\" %}", "2.nodes.0.leaves.0.text": "{% endhint %}"},
			"\\{% hint style=\"tip\" %\\}\n\nx\n\n\\{% endhint %\\}"},
		{"divider", "a\n\n---\n\nb", map[string]any{"1.type": "divider", "1.isVoid": true}, "a\n\n***\n\nb"},
		{"math/block", "$$\na^2\n$$", map[string]any{"0.type": "math", "0.data.formula": "a^2"}, "$$\na^2\n$$"},
		{"math/inline", "so $$x$$ is", map[string]any{"0.nodes.1.type": "inline-math", "0.nodes.1.data.formula": "x"}, "so $$x$$ is"},
		{"math/escaped dollars", `\$\$x\$\$`, map[string]any{"0.nodes.0.leaves.0.text": "$$x$$"}, `\$\$x\$\$`},
		{"image/block", `![Alt](https://x/a.png "Cap")`, map[string]any{"0.type": "images", "0.nodes.0.type": "image",
			"0.nodes.0.data.ref.kind": "url", "0.nodes.0.data.ref.url": "https://x/a.png", "0.nodes.0.data.alt": "Alt",
			"0.nodes.0.fragments.0.fragment": "caption", "0.nodes.0.fragments.0.nodes.0.nodes.0.leaves.0.text": "Cap"},
			`<figure><img src="https://x/a.png" alt="Alt"><figcaption><p>Cap</p></figcaption></figure>`},
		{"image/inline", "a ![i](u.png) b", map[string]any{"0.nodes.1.type": "inline-image", "0.nodes.1.data.alt": "i"}, "a ![i](u.png) b"},
		{"file", `{% file src="file:F1" %}Report{% endfile %}`, map[string]any{"0.type": "file", "0.data.ref.file": "F1",
			"0.data.caption": "Report"}, "{% file src=\"file:F1\" %}\nReport\n{% endfile %}"},
		{"file/unresolved becomes a link, source kept", `{% file src="https://x/r.pdf" %}{% endfile %}`, map[string]any{"0.type": "paragraph",
			"0.nodes.0.type": "link", "0.nodes.0.data.ref.url": "https://x/r.pdf"}, `{% file src="https://x/r.pdf" %}{% endfile %}`},
		{"link/url", "[t](https://x.com/a_(b))", map[string]any{"0.nodes.0.type": "link", "0.nodes.0.data.ref.kind": "url",
			"0.nodes.0.data.ref.url": "https://x.com/a_(b)"}, `[t](https://x.com/a_(b))`},
		{"link/anchor", "[t](#top)", map[string]any{"0.nodes.0.data.ref": map[string]any{"kind": "anchor", "anchor": "top"}}, "[t](#top)"},
		{"link/page ref without resolver", "[t](page:P1)", map[string]any{"0.nodes.0.data.ref": map[string]any{"kind": "page", "page": "P1"}}, "[t](page:P1)"},
		{"link/bold around", "**see [x](u) now**", map[string]any{"0.nodes.1.nodes.0.leaves.0.marks.0.type": "bold"}, "**see [x](u) now**"},
		{"link/autolink", "<https://a.b>", map[string]any{"0.nodes.0.data.ref.url": "https://a.b"}, "<https://a.b>"},
		{"expandable", "<details>\n<summary>Q</summary>\n\nA\n\n</details>", map[string]any{"0.type": "expandable",
			"0.fragments.0.fragment": "expandable-title", "0.fragments.0.nodes.0.nodes.0.leaves.0.text": "Q",
			"0.fragments.1.fragment": "expandable-body", "0.fragments.1.nodes.0.nodes.0.leaves.0.text": "A"},
			"<details>\n\n<summary>Q</summary>\n\nA\n\n</details>"},
		{"expandable/empty body", "<details><summary>Q</summary>\n</details>", map[string]any{"0.fragments.1.nodes.0.type": "paragraph"},
			"<details>\n\n<summary>Q</summary>\n\n</details>"},
		{"tabs", "{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% tab title=\"B\" %}\nb\n{% endtab %}\n{% endtabs %}",
			map[string]any{"0.type": "tabs", "0.nodes.0.type": "tabs-item", "0.nodes.0.data.title": "A", "0.nodes.1.data.title": "B"},
			"{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n\n{% tab title=\"B\" %}\nb\n{% endtab %}\n{% endtabs %}"},
		{"tabs/unclosed stays text", "{% tabs %}\n{% tab title=\"A\" %}\na", map[string]any{"0.type": "paragraph",
			"0.nodes.0.leaves.0.text": "{% tabs %}", "1.nodes.0.leaves.0.text": "{% tab title=\"A\" %}"},
			"\\{% tabs %\\}\n\n\\{% tab title=\"A\" %\\}\n\na"},
		{"table", "| A | B |\n|:-:|--:|\n| 1 | **2** |", map[string]any{"0.type": "table", "0.isVoid": true,
			"0.data.view.columns": []any{"c0", "c1"}, "0.data.definition.c0.title": "A", "0.data.definition.c0.textAlignment": "center",
			"0.data.definition.c1.textAlignment": "right", "0.data.records.r0.values.c1": "r0c1",
			"0.fragments.1.fragment": "r0c1", "0.fragments.1.nodes.0.nodes.0.leaves.0.marks.0.type": "bold"},
			"| A   | B     |\n| :-: | ----: |\n| 1   | **2** |"},
		{"raw html kept", "<div>\n  <b>x</b>\n</div>", map[string]any{"0.type": "paragraph",
			"0.nodes.0.leaves.0.text": "<div>\n  <b>x</b>\n</div>"}, "<div>\n  <b>x</b>\n</div>"},
		{"hard break", "a\\\nb", map[string]any{"0.nodes.0.leaves.0.text": "a\nb"}, "a\\\nb"},
		{"escapes", `1\. not a list \*x\*`, map[string]any{"0.nodes.0.leaves.0.text": "1. not a list *x*"}, `1\. not a list \*x\*`},
		{"front matter", "---\ndescription: d\n---\n\n# T", map[string]any{"0.type": "code", "0.data.syntax": "yaml", "1.type": "heading-1"},
			"```yaml\ndescription: d\n```\n\n# T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustDoc(t, tt.md, nil)
			for path, want := range tt.want {
				if diff := cmp.Diff(want, get(t, doc, path)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", path, diff)
				}
			}
			out := roundTrip(t, doc, nil, nil)
			if diff := cmp.Diff(tt.out+"\n", out); diff != "" {
				t.Errorf("Markdown (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLinkResolution(t *testing.T) {
	md := "[a](../guide/setup.md) [b](setup.md#install) [c](.gitbook/assets/logo.png) [d](https://x.y/z.md) [e](#here)\n\n" +
		"![i](.gitbook/assets/pic.png)\n\n{% file src=\".gitbook/assets/r.pdf\" %}R{% endfile %}"
	doc := mustDoc(t, md, fakeResolver{})
	want := map[string]any{
		"0.nodes.0.data.ref": map[string]any{"kind": "page", "page": "page-setup"},
		"0.nodes.2.data.ref": map[string]any{"kind": "anchor", "anchor": "install", "page": "page-setup"},
		"0.nodes.4.data.ref": map[string]any{"kind": "file", "file": "file-logo.png"},
		"0.nodes.6.data.ref": map[string]any{"kind": "url", "url": "https://x.y/z.md"},
		"0.nodes.8.data.ref": map[string]any{"kind": "anchor", "anchor": "here"},
		"1.nodes.0.data.ref": map[string]any{"kind": "file", "file": "file-pic.png"},
		"2.data.ref":         map[string]any{"kind": "file", "file": "file-r.pdf"},
	}
	for path, w := range want {
		if diff := cmp.Diff(w, get(t, doc, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	out := roundTrip(t, doc, fakeResolver{}, fakeTarget{})
	wantMD := "[a](setup.md) [b](setup.md#install) [c](.gitbook/assets/logo.png) [d](https://x.y/z.md) [e](#here)\n\n" +
		"<figure><img src=\".gitbook/assets/pic.png\" alt=\"i\"><figcaption></figcaption></figure>\n\n{% file src=\".gitbook/assets/r.pdf\" %}\nR\n{% endfile %}\n"
	if diff := cmp.Diff(wantMD, out); diff != "" {
		t.Errorf("Markdown (-want +got):\n%s", diff)
	}
	// Without a LinkTarget, references are written as-is and read back.
	raw, _ := FromDocument(doc, nil)
	if !strings.Contains(string(raw), "[b](page:page-setup#install)") || !strings.Contains(string(raw), "file:file-r.pdf") {
		t.Errorf("references not written as-is:\n%s", raw)
	}
	roundTrip(t, doc, nil, nil)
}

func TestFromDocumentOfForeignContent(t *testing.T) {
	// A document built by hand (not from Markdown) with things Markdown
	// cannot hold exactly still writes text that reads back as valid.
	doc := content.NewDocument("Plain", "  spaced  ")
	emoji := content.Node{Object: content.ObjectInline, Type: content.InlineEmoji, IsVoid: true, Data: map[string]any{"code": "1f600"}}
	doc.Nodes = append(doc.Nodes,
		content.NewBlock(content.BlockParagraph, content.NewText("a"), emoji, content.NewText("b", content.MarkKeyboard)),
		content.Node{Object: content.ObjectBlock, Type: content.BlockEmbed, IsVoid: true, Data: map[string]any{"url": "https://e"}},
	)
	doc.Normalize()
	md, err := FromDocument(doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := mustDoc(t, string(md), nil)
	if got := back.PlainText(); !strings.Contains(got, "Plain") || !strings.Contains(got, "ab") {
		t.Errorf("text lost: %q from\n%s", got, md)
	}
	if md, _ := FromDocument(nil, nil); len(md) != 0 {
		t.Errorf("nil document wrote %q", md)
	}
}

func TestMarksAroundBreaksAndBlanks(t *testing.T) {
	// Documents not written from Markdown may put marks on blanks and breaks.
	doc := content.NewDocument()
	p := content.NewBlock(content.BlockParagraph, content.Node{Object: content.ObjectText, Leaves: []content.Leaf{
		{Object: content.ObjectLeaf, Text: "bold \n", Marks: []content.Mark{{Object: content.ObjectMark, Type: content.MarkBold}}},
		{Object: content.ObjectLeaf, Text: "next", Marks: []content.Mark{}},
		{Object: content.ObjectLeaf, Text: " it", Marks: []content.Mark{{Object: content.ObjectMark, Type: content.MarkItalic}}},
	}})
	doc.Nodes = append(doc.Nodes, p)
	md, _ := FromDocument(doc, nil)
	if want := "**bold** \\\nnext *it*\n"; string(md) != want {
		t.Errorf("got %q, want %q", md, want)
	}
	back := mustDoc(t, string(md), nil)
	roundTrip(t, back, nil, nil)
}

func TestNestedListsStayTight(t *testing.T) {
	for _, md := range []string{"* a\n  * b\n", "* a\n  1. b\n", "* a\n\n  3. b\n", "* a\n\n  *\n"} {
		doc := mustDoc(t, md, nil)
		if out := roundTrip(t, doc, nil, nil); out != md {
			t.Errorf("%q wrote %q", md, out)
		}
	}
}
