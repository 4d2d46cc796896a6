package importer

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/google/go-cmp/cmp"
)

// htmlMarkdown converts an HTML body and writes the document back as
// Markdown, a compact view of its structure.
func htmlMarkdown(t *testing.T, body string) string {
	t.Helper()
	p, err := convertHTML([]byte(body), nil)
	if err != nil {
		t.Fatalf("convertHTML: %v", err)
	}
	if err := p.doc.Validate("document"); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	md, err := markdown.FromDocument(p.doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(md))
}

func TestHTMLConstructs(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"headings", "<h2>Two</h2><h3>Three</h3><h4>Four</h4><h6>Six</h6>", "## Two\n\n### Three\n\n### Four\n\n### Six"},
		{"h1 in body after another block stays", "<p>x</p><h2>a</h2>", "x\n\n## a"},
		{"paragraphs and white space", "<p>  one\n   two  </p>\n<p>three</p>", "one two\n\nthree"},
		{"marks", "<p><strong>s</strong> <b>b</b> <em>e</em> <i>i</i> <code>c</code> <s>s</s> <del>d</del></p>",
			// The Markdown writer joins runs split by a plain space; TestHTMLMarks
			// checks the leaves themselves.
			"**s b** *e i* `c` ~~s d~~"},
		{"nested marks", "<p><b>bold <i>both</i></b></p>", "**bold *both***"},
		{"line break", "<p>a<br>  b<br></p>", "a\\\nb"},
		{"link", `<p>see <a href="https://x.org/a?b=c">the <b>site</b></a>.</p>`, "see [the **site**](https://x.org/a?b=c)."},
		{"link white space moves out", `<p>a<a href="https://x.org"> b </a>c</p>`, "a [b](https://x.org) c"},
		{"anchor link", `<p><a href="#part">part</a></p>`, "[part](#part)"},
		{"link without href", `<p><a name="x">plain</a></p>`, "plain"},
		{"javascript link", `<p><a href="javascript:alert(1)">plain</a></p>`, "plain"},
		{"unordered list", "<ul><li>a</li><li>b<ul><li>b1</li></ul></li></ul>", "* a\n* b\n  * b1"},
		{"ordered list with start", `<ol start="3"><li>c</li><li>d</li></ol>`, "3. c\n4. d"},
		{"list with paragraphs", "<ul><li><p>a</p><p>a2</p></li></ul>", "* a\n\n  a2"},
		{"task list", `<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>`,
			"* [x] done\n* [ ] todo"},
		{"list without items", "<ul></ul><p>after</p>", "after"},
		{"code block", "<pre><code class=\"language-go\">a := 1\n\tb()\n</code></pre>", "```go\na := 1\n\tb()\n```"},
		{"code block lang class on pre", "<pre class=\"lang-sh\">ls\n</pre>", "```sh\nls\n```"},
		{"code block keeps markup as text", "<pre>x <b>y</b> &lt;z&gt;</pre>", "```\nx y <z>\n```"},
		{"blockquote", "<blockquote><p>q</p><blockquote>qq</blockquote></blockquote>", "> q\n>\n> > qq"},
		{"code in blockquote degrades", "<blockquote><pre>x\ny</pre></blockquote>", "> `x`\n>\n> `y`"},
		{"divider", "<p>a</p><hr><p>b</p>", "a\n\n***\n\nb"},
		{"table", "<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td><em>2</em></td></tr><tr><td>3</td></tr></tbody></table>",
			"| A   | B   |\n| --- | --- |\n| 1   | *2* |\n| 3   |     |"},
		{"table header of th cells", "<table><tr><th>H</th></tr><tr><td>v</td></tr></table>", "| H   |\n| --- |\n| v   |"},
		{"image block", `<p><img src="https://x.org/a.png" alt="An image"></p>`, `<figure><img src="https://x.org/a.png" alt="An image"><figcaption></figcaption></figure>`},
		{"inline image", `<p>before <img src="https://x.org/a.png"> after</p>`, "before ![](https://x.org/a.png) after"},
		{"data image dropped", `<p>x<img src="data:image/png;base64,AAAA"></p>`, "x"},
		{"figure caption", `<figure><img src="https://x.org/a.png" alt="a"><figcaption>Cap</figcaption></figure>`,
			`<figure><img src="https://x.org/a.png" alt="a"><figcaption><p>Cap</p></figcaption></figure>`},
		{"details", "<details><summary>More <b>info</b></summary><p>body</p><ul><li>x</li></ul></details>",
			"<details>\n\n<summary>More **info**</summary>\n\nbody\n\n* x\n\n</details>"},
		{"details without body", "<details><summary>Only</summary></details>", "<details>\n\n<summary>Only</summary>\n\n</details>"},
		{"stripped elements", "<nav>menu</nav><script>x()</script><style>p{}</style><p>kept</p><div hidden>no</div>", "kept"},
		{"transparent containers", "<div><section>a <span>b</span><div>c</div></section></div>", "a b\n\nc"},
		{"card link around blocks", `<a href="https://x.org"><h3>Card</h3><p>text</p></a>`, "### Card\n\ntext"},
		{"keyboard and sup", "<p><kbd>Ctrl</kbd> x<sup>2</sup></p>", "Ctrl x2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, htmlMarkdown(t, tt.html)); diff != "" {
				t.Errorf("markdown of document (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTMLMarks(t *testing.T) {
	p, err := convertHTML([]byte("<p><kbd>K</kbd><sup>2</sup><sub>3</sub><b><i>bi</i></b> <b>b </b>\n x <code>c</code></p>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, l := range p.doc.Nodes[0].Nodes[0].Leaves {
		var ms []string
		for _, m := range l.Marks {
			ms = append(ms, m.Type)
		}
		got = append(got, append([]string{l.Text}, ms...))
	}
	want := [][]string{{"K", content.MarkKeyboard}, {"2", content.MarkSuperscript}, {"3", content.MarkSubscript},
		{"bi", content.MarkBold, content.MarkItalic}, {" "}, {"b ", content.MarkBold}, {"x "}, {"c", content.MarkCode}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leaves (-want +got):\n%s", diff)
	}
}

func TestHTMLTextIsNotMarkup(t *testing.T) {
	const text = "*not* [a](b) {% hint style=\"info\" %} $$x$$ <b>"
	p, err := convertHTML([]byte("<p>"+strings.ReplaceAll(text, "<", "&lt;")+"</p>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.doc.PlainText(); got != text {
		t.Errorf("text = %q, want %q", got, text)
	}
}

func TestHTMLTitle(t *testing.T) {
	tests := []struct {
		name, html, arg, title, desc, body string
	}{
		{"h1 wins and leaves the body", "<html><head><title>Site | Page</title><meta name=description content=' About  it '></head>" +
			"<body><header><h1>Page</h1></header><p>x</p></body></html>", "arg", "Page", "About it", "x"},
		{"title element", "<title>From title</title><p>x</p>", "arg", "From title", "", "x"},
		{"argument", "<p>x</p>", "arg", "arg", "", "x"},
		{"untitled", "<p>x</p>", "", "Untitled", "", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := HTML([]byte(tt.html), tt.arg)
			if err != nil {
				t.Fatal(err)
			}
			checkSnapshot(t, s)
			p := s.Tree.Pages[0]
			if p.Title != tt.title || p.Description != tt.desc || p.Slug != content.Slugify(tt.title) {
				t.Errorf("title %q, description %q, slug %q; want %q, %q", p.Title, p.Description, p.Slug, tt.title, tt.desc)
			}
			if got := docMarkdown(t, s, p); got != tt.body {
				t.Errorf("body = %q, want %q", got, tt.body)
			}
		})
	}
}

func TestHTMLHostile(t *testing.T) {
	tests := []struct {
		name string
		html string
	}{
		{"deep divs", strings.Repeat("<div>", 20000) + "deep" + strings.Repeat("</div>", 20000)},
		{"deep lists", strings.Repeat("<ul><li>x", 500)},
		{"deep quotes", strings.Repeat("<blockquote>q", 500)},
		{"deep spans", strings.Repeat("<span><b>", 5000) + "t"},
		{"details in details in table in list", "<ul><li><table><tr><td><details><summary>s</summary><details><summary>t</summary><table><tr><td><pre>x</pre></td></tr></table></details></details></td></tr></table></li></ul>"},
		{"invalid UTF-8", "<p>caf\xe9 \xff</p>"},
		{"garbage", "<<<>>></p></li><td>x</table><p"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := HTML([]byte(tt.html), "t")
			if err != nil {
				t.Fatalf("HTML: %v", err)
			}
			checkSnapshot(t, s)
		})
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name, src, arg, title, desc, body string
	}{
		{"h1", "# The title\n\nBody.\n", "arg", "The title", "", "Body."},
		{"front matter", "---\ntitle: 'It''s here'\ndescription: \"A \\\"quoted\\\" text\" \n---\nBody.\n", "arg", "It's here", `A "quoted" text`, "Body."},
		{"h1 beats front matter", "---\ntitle: fm\n---\n# H1\n", "arg", "H1", "", ""},
		{"argument", "Body.\n", "arg", "arg", "", "Body."},
		{"untitled", "Body.\n", "  ", "Untitled", "", "Body."},
		{"bom", "\ufeff# Bom\n\nBody.\n", "", "Bom", "", "Body."},
		{"long title truncated", "# " + strings.Repeat("é", 300) + "\n", "", strings.Repeat("é", 255), "", ""},
		{"relative links stay urls", "[x](other.md)\n", "", "Untitled", "", "[x](other.md)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Markdown([]byte(tt.src), tt.arg)
			if err != nil {
				t.Fatal(err)
			}
			checkSnapshot(t, s)
			p := s.Tree.Pages[0]
			if p.Title != tt.title || p.Description != tt.desc {
				t.Errorf("title %q, description %q; want %q, %q", p.Title, p.Description, tt.title, tt.desc)
			}
			if got := docMarkdown(t, s, p); got != tt.body {
				t.Errorf("body = %q, want %q", got, tt.body)
			}
		})
	}
}

// TestMarkdownIcon: front matter's icon names the page's icon, as GitBook's
// Markdown does; anything but one short name is dropped.
func TestMarkdownIcon(t *testing.T) {
	for _, tt := range []struct{ name, icon, want string }{
		{"name", "rocket", "rocket"},
		{"quoted", `"book-open"`, "book-open"},
		{"words/dropped", "two words", ""},
		{"markup/dropped", "<b>", ""},
		{"long/dropped", strings.Repeat("x", 51), ""},
	} {
		s, err := Markdown([]byte("---\nicon: "+tt.icon+"\n---\n# Page\n"), "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := s.Tree.Pages[0].Icon; got != tt.want {
			t.Errorf("%s: icon %q, want %q", tt.name, got, tt.want)
		}
	}
}
