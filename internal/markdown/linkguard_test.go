package markdown

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/markdown/mdtest"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// plainGFM is gfm without linkGuard: the reference linkGuard must agree with.
var plainGFM = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithInlineParsers(util.Prioritized(mathParser{}, 150))),
)

// treeString writes the goldmark tree of src: node kinds, text, link
// destinations and titles. Adjacent texts are written as one, with "\n"
// for a soft line break and "\\\n" for a hard one, since how goldmark
// splits text into nodes differs with the parsers that read it.
func treeString(md goldmark.Markdown, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		fmt.Fprintf(&b, "%s%s", strings.Repeat(" ", depth), n.Kind())
		switch n := n.(type) {
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.Image:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.Emphasis:
			fmt.Fprintf(&b, " %d", n.Level)
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			t, ok := c.(*ast.Text)
			if !ok {
				walk(c, depth+1)
				continue
			}
			var run strings.Builder
			raw := t.IsRaw()
			for ; ok && t.IsRaw() == raw; t, ok = c.NextSibling().(*ast.Text) {
				c = t
				run.Write(t.Value(src))
				if t.HardLineBreak() {
					run.WriteString("\\\n")
				} else if t.SoftLineBreak() {
					run.WriteString("\n")
				}
			}
			fmt.Fprintf(&b, "%sText raw=%v %q\n", strings.Repeat(" ", depth+1), raw, run.String())
		}
	}
	walk(md.Parser().Parse(text.NewReader(src)), 0)
	return b.String()
}

var linkCases = []string{
	"[a](b)", "[a]( b )", "[a](b \"t\")", "[a](b 't')", "[a](b (t))", "[a](<b c>)", "[a](<b", "[a](<b>",
	"[a](b", "[a](b c", "[a](b\n)", "[a](\nb)", "[a](b\n\"t\")", "[a](b \"t\nu\")", "[a](b(c)d)", "[a](b(c)",
	"[a](b\\)c)", "[a](b\\(c)", "[a](b)c)", "[a]()", "[a]( )", "[a](b x)", "[a](b\n[c](d))",
	"[a]\n\n[a]: /u", "[a](b\n\n[a]: /u", "[x [a](b)](c)", "![a](b)", "![a](b", "[a](b) [c](d", "[a](b [c](d)",
	"| a |\n|---|\n| [x](y |\n| [x](y) |", "> [a](b\n> c)", "- [a](b\n  c)", "[a](b\\", "[a](\\\\(b)",
	"[a](b)(c)", "[a]((b))", "[a](((b))", "[a](b)) [c](d))", "[a](b \"t\" x)", "[a](b 't'\n)",
}

// emphasisCases are for delimParser and emphasisPass (emphasis.go).
var emphasisCases = []string{
	"*a*", "**a**", "***a***", "_a_", "__a__", "~a~", "~~a~~", "~~~a~~~", "*a", "a*", "**a*", "*a**", "***a*", "*a***",
	"*a **b** c*", "**a *b* c**", "*a _b* c_", "_a *b_ c*", "a_b_c", "a*b*c", "*a*b*c*", "foo*bar*", "**foo*bar**",
	"*(*a*)*", "*a\\*b*", "\\*a*", "`*a*` *b*", "*a `b*` c*", "*[a*](b)", "[*a](b)*", "*a [b* c](d) e*",
	"[a *b ![c](d) e*](f)", "[a ![*b] c*](d)", "*a <span>b*</span>", "*a <http://x*y> b*", "~~a ~b~ c~~",
	"a ~~b~~~ c", "*a\nb*", "*a  \nb*", "**a\\\nb**", "- *a\n- b*", "> *a\n> b*", "| *a | b* |\n|---|---|\n| *c* | _d_ |",
	"*a*****b*", "__a__b", "_a_b_", "*a**b*", "**a*b**c*", "*a **b *c* d** e*", "www.a.com *b* ~c~ http://d.com/*e*",
	"\t*a*", "-\t*a*\n-\t_b_", "# *a* b_c_\n", "a\n===\n*b*", "*$$x*y$$*", "**a**\n\n**b**",
}

func TestLinkGuardAgrees(t *testing.T) {
	cases := append(append([]string{}, linkCases...), emphasisCases...)
	for _, kind := range []string{"links", "image-links", "link-titles", "brackets", "images", "brackets-nested",
		"emphasis-star", "emphasis-under", "emphasis-double", "emphasis-mixed", "emphasis-nested", "plain"} {
		cases = append(cases, string(mdtest.Adversarial(kind, 300)))
	}
	for _, c := range cases {
		if got, want := treeString(gfm, []byte(c)), treeString(plainGFM, []byte(c)); got != want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", c, got, want)
		}
	}
}

func FuzzLinkGuard(f *testing.F) {
	for _, c := range append(append([]string{}, linkCases...), emphasisCases...) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := treeString(gfm, src), treeString(plainGFM, src); got != want {
			t.Fatalf("%q:\ngot\n%s\nwant\n%s", src, got, want)
		}
	})
}
