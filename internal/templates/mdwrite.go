package templates

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
)

// md accumulates GitBook-flavored Markdown, one block at a time; every block
// ends with a blank line.
type md struct{ strings.Builder }

func (b *md) para(s string) {
	if s = strings.TrimSpace(s); s != "" {
		b.WriteString(s)
		b.WriteString("\n\n")
	}
}

// block writes Markdown that may span several blocks (a description).
func (b *md) block(s string) { b.para(s) }

func (b *md) raw(s string) { b.WriteString(s) }

func (b *md) heading(level int, text string) {
	b.WriteString(strings.Repeat("#", level) + " " + text + "\n\n")
}

func (b *md) hint(style, text string) {
	b.WriteString("{% hint style=\"" + style + "\" %}\n" + text + "\n{% endhint %}\n\n")
}

func (b *md) list(items []string) {
	for _, it := range items {
		b.WriteString("- " + it + "\n")
	}
	b.WriteString("\n")
}

// table writes a GFM table of inline Markdown cells. It puts each cell on
// one line and escapes its pipes, which GFM unescapes even inside code spans
// and link destinations, so callers pass cells unescaped.
func (b *md) table(header []string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + strings.ReplaceAll(flatten(c), "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// code writes a fenced code block whose fence is longer than any run of
// backticks in body.
func (b *md) code(syntax, body string) {
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	b.WriteString(fence + syntax + "\n" + strings.TrimRight(body, "\n") + "\n" + fence + "\n\n")
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// codeSpan writes s as inline code on one line; "" stays empty, since
// Markdown has no empty code span.
func codeSpan(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func codeList(vals []string) string {
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		if c := codeSpan(v); c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, ", ")
}

// flatten reduces Markdown (a CommonMark description) to one line of
// inline Markdown, for a table cell.
func flatten(s string) string { return strings.Join(strings.Fields(s), " ") }

// commonMark prepares a CommonMark description from a spec to be embedded as
// blocks: lines that would open a GitBook block ("{% hint %}", "{% tabs %}")
// outside fenced code are escaped, so a spec cannot unbalance the page.
func commonMark(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case strings.HasPrefix(t, "{%"):
			lines[i] = strings.Replace(l, "{%", `\{%`, 1)
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// link writes a Markdown link with text shown literally; an empty URL gives
// the text alone.
func link(text, u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return inlineText(text)
	}
	u = strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "", "\r", "").Replace(u)
	return "[" + inlineText(text) + "](<" + u + ">)"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return folio.Clip(strings.TrimSpace(s), 200)
}

// uniqueTitle returns want, or want with " (2)", " (3)"… when a sibling
// already has that title.
func uniqueTitle(taken []string, want string) string {
	if !slices.Contains(taken, want) {
		return want
	}
	for n := 2; ; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		t := folio.Clip(want, 255-len(suffix)) + suffix
		if !slices.Contains(taken, t) {
			return t
		}
	}
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	return slices.SortedFunc(maps.Keys(m), cmp.Compare)
}
