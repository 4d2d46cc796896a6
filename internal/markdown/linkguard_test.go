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
// destinations and titles.
func treeString(md goldmark.Markdown, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		fmt.Fprintf(&b, "%s%s", strings.Repeat(" ", depth), n.Kind())
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q", n.Value(src))
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.Image:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, depth+1)
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

func TestLinkGuardAgrees(t *testing.T) {
	cases := append([]string{}, linkCases...)
	for _, kind := range []string{"links", "image-links", "link-titles", "brackets", "images"} {
		cases = append(cases, string(mdtest.Adversarial(kind, 300)))
	}
	for _, c := range cases {
		if got, want := treeString(gfm, []byte(c)), treeString(plainGFM, []byte(c)); got != want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", c, got, want)
		}
	}
}

func FuzzLinkGuard(f *testing.F) {
	for _, c := range linkCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := treeString(gfm, src), treeString(plainGFM, src); got != want {
			t.Fatalf("%q:\ngot\n%s\nwant\n%s", src, got, want)
		}
	})
}
