package markdown

import (
	"bytes"
	"strings"

	"github.com/foliodocs/folio/internal/content"
	"github.com/yuin/goldmark/ast"
)

// AlertStyles maps the kinds of GitHub's alerts ("> [!NOTE]") to the hint
// styles they import as. IMPORTANT has no hint style of its own: it is
// key information rather than a risk, so it reads as info.
var AlertStyles = map[string]string{
	"NOTE": "info", "TIP": "success", "IMPORTANT": "info", "WARNING": "warning", "CAUTION": "danger",
}

// maxAlertMarker bounds the bytes read looking for an alert marker, the
// longest being "[!IMPORTANT]" with some blanks around it.
const maxAlertMarker = 32

// alert converts a block quote written as a GitHub alert — a top-level
// quote whose first line is "[!NOTE]", "[!TIP]", "[!IMPORTANT]",
// "[!WARNING]" or "[!CAUTION]" (any case) alone, followed by content — to
// a hint of the matching style (AlertStyles). The quote's source is kept
// (DataRaw), so that an unedited alert is written back as the alert it
// was; an edited one is written as a {% hint %}. Any other quote is not
// an alert, and GitHub does not read alerts nested in other blocks either.
func (c *converter) alert(q *ast.Blockquote) (content.Node, bool) {
	if q.Parent() == nil || q.Parent().Kind() != ast.KindDocument || !c.allowed[content.BlockHint] {
		return content.Node{}, false
	}
	p, ok := q.FirstChild().(*ast.Paragraph)
	if !ok {
		return content.Node{}, false
	}
	var marker []byte
	var end ast.Node // the last inline of the marker's line, nil when the paragraph is only the marker
	for in := p.FirstChild(); in != nil; in = in.NextSibling() {
		t, ok := in.(*ast.Text)
		if !ok || len(marker) > maxAlertMarker {
			return content.Node{}, false
		}
		marker = append(marker, t.Segment.Value(c.src)...)
		if t.SoftLineBreak() || t.HardLineBreak() {
			end = in
			break
		}
	}
	m := strings.TrimSuffix(strings.TrimSpace(string(marker)), `\`)
	if len(m) < 4 || !strings.HasPrefix(m, "[!") || !strings.HasSuffix(m, "]") {
		return content.Node{}, false
	}
	style, ok := AlertStyles[strings.ToUpper(m[2:len(m)-1])]
	if !ok || (end == nil && p.NextSibling() == nil) || (end != nil && end.NextSibling() == nil && p.NextSibling() == nil) {
		return content.Node{}, false // no content: GitHub shows a quote too
	}
	source, hasSource := c.quoteSource(q)
	if end == nil {
		q.RemoveChild(q, p)
	} else {
		for in := p.FirstChild(); in != nil; {
			next := in.NextSibling()
			p.RemoveChild(p, in)
			if in == end {
				break
			}
			in = next
		}
	}
	h := block(content.BlockHint, fit(hintBlocks, c.blocks(q)))
	h.Data["style"] = style
	if hasSource && !refersToContent(h.Nodes) {
		c.keeper.keep(&h, source)
	}
	return h, true
}

// quoteSource returns the source of a top-level block quote: from its
// first line to the last line of its content, and the quote lines (">")
// right after it (blank quote lines, a closing code fence).
func (c *converter) quoteSource(q *ast.Blockquote) (string, bool) {
	start, stop := -1, -1
	_ = ast.Walk(q, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if l := n.Lines(); l.Len() > 0 {
			if start < 0 || l.At(0).Start < start {
				start = l.At(0).Start
			}
			stop = max(stop, l.At(l.Len()-1).Stop)
		}
		return ast.WalkContinue, nil
	})
	if start < 0 {
		return "", false
	}
	// stop is just past the last line, its line break included or not:
	// move it to that line's break (or the end).
	if stop > 0 && c.src[stop-1] == '\n' {
		stop--
	}
	for stop < len(c.src) && c.src[stop] != '\n' {
		stop++
	}
	for stop < len(c.src) {
		rest := c.src[stop+1:]
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i]
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 || !bytes.HasPrefix(trimmed, []byte(">")) {
			break
		}
		stop += 1 + len(line)
	}
	return c.extend(start, stop), true
}
