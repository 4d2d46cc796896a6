package reader

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
)

func withData(n content.Node, data map[string]any) content.Node {
	for k, v := range data {
		n.Data[k] = v
	}
	return n
}

func frag(name string, nodes ...content.Node) content.Fragment {
	return content.Fragment{Object: content.ObjectFragment, Fragment: name, Type: name, Nodes: nodes}
}

// TestRenderBlocks renders each kind of block the reader knows, and
// hostile URLs and text, through the page template.
func TestRenderBlocks(t *testing.T) {
	t.Parallel()
	p := func(s string) content.Node { return content.NewBlock(content.BlockParagraph, content.NewText(s)) }
	link := func(url, text string) content.Node {
		return withData(content.NewInline(content.InlineLink, content.NewText(text)),
			map[string]any{"ref": map[string]any{"kind": "url", "url": url}})
	}
	exp := content.NewBlock(content.BlockExpandable)
	exp.Fragments = []content.Fragment{frag(content.FragmentExpandableTitle, p("More")), frag(content.FragmentExpandableBody, p("Hidden body"))}
	doc := &content.Document{Nodes: []content.Node{
		content.NewBlock(content.BlockParagraph, link("javascript:alert(1)", "bad"), link("JaVaScRiPt:alert(1)", "bad2"),
			link("data:text/html,<script>x</script>", "bad3"), link("/ok", "good")),
		withData(content.NewBlock(content.BlockHint, p("Careful")), map[string]any{"style": "danger\" onclick=\"x"}),
		content.NewBlock(content.BlockTabs,
			withData(content.NewBlock(content.BlockTabsItem, p("Tab one body")), map[string]any{"title": "One"}),
			withData(content.NewBlock(content.BlockTabsItem, p("Tab two body")), map[string]any{"title": "Two"})),
		exp,
		withData(content.NewBlock(content.BlockMath), map[string]any{"formula": `x^2 < y</mtext><script>`}),
		withData(content.NewBlock(content.BlockMath), map[string]any{"formula": `\begin{matrix}</mtext><script>`}),
		content.NewBlock(content.BlockParagraph, content.NewText("Inline "), withData(content.NewInline(content.InlineMath), map[string]any{"formula": `\frac{1}{2}`})),
		withData(content.NewBlock(content.BlockEmbed), map[string]any{"url": "https://video.example/v?a=1&b=2"}),
		withData(content.NewBlock(content.BlockContentRef), map[string]any{"ref": map[string]any{"kind": "url", "url": "https://example.com/ref"}}),
		content.NewBlock(content.BlockImages, withData(content.NewBlock(content.BlockImage),
			map[string]any{"ref": map[string]any{"kind": "url", "url": `https://img.example/a.png" onerror="alert(1)`}, "alt": `"><script>`})),
		content.NewBlock(content.BlockStepper, content.NewBlock(content.BlockStepperStep, p("Unknown block text"))),
	}}
	doc.Normalize()
	r := &renderer{file: func(string) string { return "" }, page: func(string, string) string { return "" }}
	body, err := fragment("blocks", r.document(doc))
	if err != nil {
		t.Fatal(err)
	}
	v := &pageView{SiteTitle: "S", PageTitle: "P", Theme: "light", Body: body,
		Cover: &block{Src: "https://img.example/cover.png", DarkSrc: "https://img.example/dark.png", Width: 1600, Height: 400}}
	v.setDefaults()
	var b strings.Builder
	if err := pageTemplate.ExecuteTemplate(&b, "page", v); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`<a href="/ok">good</a>`, `class="hint hint-info"`, `<p class="tab-title">One</p>`,
		"Tab two body", `<details class="expandable"><summary>`, "<span>More</span></summary>", "Hidden body", `<math display="block"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>&lt;</mo><mi>y</mi><mo>&lt;</mo><mo>/</mo><mi>m</mi>`,
		`<annotation encoding="application/x-tex">x^2 &lt; y&lt;/mtext&gt;&lt;script&gt;</annotation></semantics></math>`,
		`<math display="block"><mtext class="tex">\begin{matrix}&lt;/mtext&gt;&lt;script&gt;</mtext></math>`,
		`Inline <math><semantics><mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac></mrow><annotation encoding="application/x-tex">\frac{1}{2}</annotation></semantics></math>`,
		`href="https://video.example/v?a=1&amp;b=2"`, `href="https://example.com/ref"`, "Unknown block text",
		`src="https://img.example/a.png%22%20onerror=%22alert%281%29"`,
		`<div class="page-cover"><img class="light-only has-dark" src="https://img.example/cover.png" alt="" width="1600" height="400"><img class="dark-only" src="https://img.example/dark.png" alt="" loading="lazy"></div>`, `alt="&#34;&gt;&lt;script&gt;"`, "--primary:#346DDB"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	for _, bad := range []string{"javascript:", "JaVaScRiPt", "data:text", "<script", `onclick="x`, `" onerror="`} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %s", bad)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestPrimaryColor keeps only hex colors.
func TestPrimaryColor(t *testing.T) {
	t.Parallel()
	for color, ok := range map[string]bool{"#abc": true, "#A0B1C2": true, "red": false, "#abcd": false,
		"#abc;}</style><script>": false, "": false} {
		if hexColor.MatchString(color) != ok {
			t.Errorf("%q: %v", color, !ok)
		}
	}
}
