package markdown

import (
	"os"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// TestGitBookByteForByte checks that a page written in GitBook's canonical
// form, with every block GitBook writes, reads and writes back unchanged,
// with and without a resolver.
func TestGitBookByteForByte(t *testing.T) {
	src, err := os.ReadFile("testdata/corpus/gitbook.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		r    Resolver
		lt   LinkTarget
	}{{"resolved", fakeResolver{}, fakeTarget{}}, {"unresolved", nil, nil}} {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustDoc(t, string(src), tc.r)
			out, err := FromDocument(doc, tc.lt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(src), string(out)); diff != "" {
				t.Errorf("round trip changed the Markdown (-source +written):\n%s", diff)
			}
		})
	}
}

// TestGitBookBlocks checks the Document block each GitBook form maps to,
// and the Markdown written back.
func TestGitBookBlocks(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want map[string]any
		out  string // "" when the source is written back unchanged
	}{
		{"hint/layout", "{% hint style=\"success\" %}\nOne.\n\nTwo.\n{% endhint %}",
			map[string]any{"0.type": "hint", "0.data.style": "success", "0.nodes.1.nodes.0.leaves.0.text": "Two."}, ""},
		{"hint/blank lines inside", "{% hint style=\"info\" %}\n\nOne.\n\n{% endhint %}",
			map[string]any{"0.type": "hint", "0.nodes.0.type": "paragraph"}, "{% hint style=\"info\" %}\nOne.\n{% endhint %}"},
		{"embed", `{% embed url="https://youtu.be/x" %}`, map[string]any{"0.type": "embed", "0.isVoid": true,
			"0.data.url": "https://youtu.be/x", "0.data.caption": nil}, ""},
		{"embed/caption", "{% embed url=\"https://youtu.be/x\" %}\nA video\n{% endembed %}",
			map[string]any{"0.type": "embed", "0.data.caption": "A video"}, ""},
		{"embed/caption on one line", `{% embed url="u" %}A video{% endembed %}`,
			map[string]any{"0.data.caption": "A video"}, "{% embed url=\"u\" %}\nA video\n{% endembed %}"},
		{"content-ref/url", "{% content-ref url=\"https://x.org\" %}\n[https://x.org](https://x.org)\n{% endcontent-ref %}",
			map[string]any{"0.type": "content-ref", "0.data.ref": map[string]any{"kind": "url", "url": "https://x.org"}}, ""},
		{"content-ref/page id", "{% content-ref url=\"page:P1\" %}\n[Setup](page:P1)\n{% endcontent-ref %}",
			map[string]any{"0.data.ref": map[string]any{"kind": "page", "page": "P1"}}, ""},
		{"content-ref/not three lines", "{% content-ref url=\"a.md\" %}\ntext\n\nmore\n{% endcontent-ref %}",
			map[string]any{"0.type": "paragraph", "0.nodes.0.leaves.0.text": "{% content-ref url=\"a.md\" %}"},
			"\\{% content-ref url=\"a.md\" %\\}\n\ntext\n\nmore\n\n\\{% endcontent-ref %\\}"},
		{"code/attributes", "{% code title=\"a.go\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```go\nx\n```\n{% endcode %}",
			map[string]any{"0.type": "code", "0.data.title": "a.go", "0.data.overflow": "wrap", "0.data.lineNumbers": true,
				"0.data.syntax": "go"}, ""},
		{"code/attribute order is GitBook's", "{% code lineNumbers=\"true\" title=\"a\" %}\n```\nx\n```\n{% endcode %}",
			map[string]any{"0.data.title": "a"}, "{% code title=\"a\" lineNumbers=\"true\" %}\n```\nx\n```\n{% endcode %}"},
		{"code/unknown attribute kept raw", "{% code colour=\"red\" %}\n```\nx\n```\n{% endcode %}",
			map[string]any{"0.type": "paragraph"}, ""},
		{"code/more than a code block", "{% code title=\"a\" %}\n```\nx\n```\ntext\n{% endcode %}",
			map[string]any{"0.type": "paragraph", "1.type": "code", "2.type": "paragraph", "3.type": "paragraph"},
			"\\{% code title=\"a\" %\\}\n\n```\nx\n```\n\ntext\n\n\\{% endcode %\\}"},
		{"stepper", "{% stepper %}\n{% step %}\n### One\n\nDo it.\n{% endstep %}\n\n{% step %}\nDone.\n{% endstep %}\n{% endstepper %}",
			map[string]any{"0.type": "stepper", "0.nodes.0.type": "stepper-step", "0.nodes.0.nodes.0.type": "heading-3",
				"0.nodes.1.nodes.0.nodes.0.leaves.0.text": "Done."}, ""},
		{"include/resolved", `{% include "reusable:R1" %}`, map[string]any{"0.type": "reusable-content", "0.isVoid": true,
			"0.data.ref": map[string]any{"kind": "reusable-content", "reusableContent": "R1"}}, ""},
		{"include/unresolved kept raw", `{% include "../.gitbook/includes/x.md" %}`, map[string]any{"0.type": "paragraph",
			"0.nodes.0.leaves.0.text": `{% include "../.gitbook/includes/x.md" %}`}, ""},
		{"figure", `<figure><img src="https://x/a.png" alt="A &#x26; B"><figcaption><p>Cap</p></figcaption></figure>`,
			map[string]any{"0.type": "images", "0.nodes.0.type": "image", "0.nodes.0.data.alt": "A & B",
				"0.nodes.0.data.ref":             map[string]any{"kind": "url", "url": "https://x/a.png"},
				"0.nodes.0.fragments.0.fragment": "caption", "0.nodes.0.fragments.0.nodes.0.nodes.0.leaves.0.text": "Cap"}, ""},
		{"figure/width and div", `<div align="center"><figure><img src="a.png" alt="" width="300"><figcaption></figcaption></figure></div>`,
			map[string]any{"0.data.align": "center", "0.nodes.0.data.width": 300.0, "0.nodes.0.fragments": []any{}}, ""},
		{"figure/markup in caption kept raw", `<figure><img src="a.png" alt=""><figcaption><p><em>x</em></p></figcaption></figure>`,
			map[string]any{"0.type": "paragraph"}, ""},
		{"openapi-operation", "{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n[OpenAPI pets](https://x.org/pets.yaml)\n{% endopenapi-operation %}",
			map[string]any{"0.type": "openapi-operation", "0.isVoid": true, "0.data.ref": map[string]any{"kind": "openapi", "spec": "pets"},
				"0.data.path": "/pets", "0.data.method": "get"}, ""},
		{"openapi-operation/canonical needs no kept source", "{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}",
			map[string]any{"0.type": "openapi-operation", "0.key": nil}, ""},
		{"openapi/url", "{% openapi src=\"https://x.org/o.yaml\" path=\"/a\" method=\"post\" %}\n[https://x.org/o.yaml](https://x.org/o.yaml)\n{% endopenapi %}",
			map[string]any{"0.type": "swagger", "0.data.ref": map[string]any{"kind": "url", "url": "https://x.org/o.yaml"},
				"0.data.path": "/a", "0.data.method": "post", "0.key": nil}, ""},
		{"openapi/other attributes kept raw", "{% openapi src=\"a\" path=\"/a\" method=\"get\" expanded=\"true\" %}\nx\n{% endopenapi %}",
			map[string]any{"0.type": "paragraph"}, ""},
		{"embed in a hint kept raw", "{% hint style=\"info\" %}\n{% embed url=\"https://x.org\" %}\n{% endhint %}",
			map[string]any{"0.type": "hint", "0.nodes.0.type": "paragraph", "0.nodes.0.nodes.0.leaves.0.text": "{% embed url=\"https://x.org\" %}"}, ""},
		{"embed in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% embed url=\"https://x.org\" %}\n{% endtab %}\n{% endtabs %}",
			map[string]any{"0.nodes.0.nodes.0.type": "embed"}, ""},
		{"updates kept raw", "{% updates format=\"full\" %}\n{% update date=\"2026-01-04\" %}\n## V1\n\n* New\n{% endupdate %}\n{% endupdates %}",
			map[string]any{"0.type": "paragraph", "0.key": "md-68809a9596a6"}, ""},
		{"unclosed unknown tag kept raw", "{% foo %}\n\ntext", map[string]any{"0.type": "paragraph", "1.type": "paragraph"}, ""},
		{"misplaced end tag stays text", "{% endtab %}", map[string]any{"0.nodes.0.leaves.0.text": "{% endtab %}"}, `\{% endtab %\}`},
		{"misplaced unknown end tag kept raw", "{% endfoo %}", map[string]any{"0.nodes.0.leaves.0.text": "{% endfoo %}"}, ""},
		{"link reference definition kept", "[x]: https://x.org\n\nSee [x].", map[string]any{"0.nodes.0.leaves.0.text": "[x]: https://x.org"}, ""},
		{"footnote kept", "Note[^1].\n\n[^1]: The note\n    goes on.", map[string]any{"1.nodes.0.leaves.0.text": "[^1]: The note\n    goes on."}, ""},
		{"heading anchor kept", `## Title <a href="#t" id="t"></a>`, map[string]any{"0.type": "heading-2"}, ""},
		{"entity kept", "Trailing&#x20;", map[string]any{"0.nodes.0.leaves.0.text": "Trailing"}, ""},
		{"divider", "***", map[string]any{"0.type": "divider"}, ""},
		{"table padded", "| A | Bee |\n| - | :-: |\n| 1 | 2 |", map[string]any{"0.type": "table"},
			"| A   | Bee |\n| --- | :-: |\n| 1   | 2   |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustDoc(t, tt.md, nil)
			for path, want := range tt.want {
				if diff := cmp.Diff(want, get(t, doc, path)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", path, diff)
				}
			}
			out, err := FromDocument(doc, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.out
			if want == "" {
				want = tt.md
			}
			if diff := cmp.Diff(want+"\n", string(out)); diff != "" {
				t.Errorf("Markdown (-want +got):\n%s", diff)
			}
			again, _ := FromDocument(mustDoc(t, string(out), nil), nil)
			if string(again) != string(out) {
				t.Errorf("not a fixed point:\n%s\nthen\n%s", out, again)
			}
		})
	}
}

// TestEditedRawBlockIsWrittenFromContent checks that kept Markdown is used
// only while its block is unchanged.
func TestEditedRawBlockIsWrittenFromContent(t *testing.T) {
	doc := mustDoc(t, "## Title <a href=\"#t\" id=\"t\"></a>\n\n{% foo %}", nil)
	doc.Nodes[0].Nodes[0].Leaves[0].Text = "New title"
	doc.Nodes[1].Nodes[0].Leaves[0].Text = "{% bar %}"
	out, _ := FromDocument(doc, nil)
	if want := "## New title\n\n\\{% bar %\\}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestReusableTarget checks that reusable content is written through the
// optional ReusableTarget.
func TestReusableTarget(t *testing.T) {
	src := "{% include \"../.gitbook/includes/warn.md\" %}\n"
	doc := mustDoc(t, src, fakeResolver{})
	if got := get(t, doc, "0.data.ref.reusableContent"); got != "reusable-warn" {
		t.Fatalf("ref = %v", got)
	}
	out, _ := FromDocument(doc, fakeTarget{})
	if string(out) != src {
		t.Errorf("got %q, want %q", out, src)
	}
	out, _ = FromDocument(doc, nil)
	if want := "{% include \"reusable:reusable-warn\" %}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestRawDataSurvivesJSON checks that the kept Markdown lives in document
// data that Normalize, Validate and a JSON round trip keep.
func TestRawDataSurvivesJSON(t *testing.T) {
	src := "{% foo %}\n\nSome <b>bold</b> text.\n"
	doc := mustDoc(t, src, nil)
	b, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back content.Document
	if err := back.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	back.Normalize()
	if err := back.Validate("document"); err != nil {
		t.Fatal(err)
	}
	out, _ := FromDocument(&back, nil)
	if string(out) != src {
		t.Errorf("got %q, want %q", out, src)
	}
}

// hostileGitBook are GitBook-flavoured inputs that once were, or could be,
// expensive or wrong: unclosed and mismatched tags, deep nesting.
var hostileGitBook = []string{
	"{% code title=\"x\" %}\n```\n" + strings.Repeat("{% code %}\n", 50),
	strings.Repeat("{% stepper %}\n{% step %}\n", 40),
	strings.Repeat("{% updates %}\n", 50) + strings.Repeat("{% endupdates %}\n", 3),
	"{% content-ref url=\"a.md\" %}\n[a](a.md)\n",
	"{% embed url=\"x\" %}\n" + strings.Repeat("caption\n", 30) + "{% endembed %}",
	"<div><figure><img src=\"a\" alt=\"\"><figcaption></figcaption></figure>",
	"[^1]: x\n[a]: b\n{% endhint %}\n{% tab title=\"x\" %}",
	"{% hint style=\"info\" %}\n{% stepper %}\n{% step %}\n{% tabs %}\n{% tab title=\"a\" %}\nx\n{% endtab %}\n{% endtabs %}\n{% endstep %}\n{% endstepper %}\n{% endhint %}",
}

func TestPruneKept(t *testing.T) {
	doc := mustDoc(t, "{% foo %}\n\n{% bar %}\n\n{% content-ref url=\"u\" %}\n[Label](u)\n{% endcontent-ref %}\n", nil)
	doc.Nodes[0].Nodes[0].Leaves[0].Text = "edited"
	doc.Nodes = doc.Nodes[:1:1]
	doc.Nodes = append(doc.Nodes, mustDoc(t, "{% content-ref url=\"u\" %}\n[Label](u)\n{% endcontent-ref %}\n", nil).Nodes...)
	PruneKept(doc)
	kept, _ := doc.Data[DataRaw].(map[string]any)
	if len(kept) != 1 {
		t.Fatalf("kept %v, want only the content-ref label", kept)
	}
	doc.Nodes = doc.Nodes[:1]
	PruneKept(doc)
	if _, ok := doc.Data[DataRaw]; ok {
		t.Fatalf("DataRaw left: %v", doc.Data)
	}
	PruneKept(nil)
}
