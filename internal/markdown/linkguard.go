package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkGuard is goldmark's link parser with one shortcut. At "](" goldmark
// scans the link destination to its end before it knows whether the link
// closes, and "[a](" repeated makes every scan run to the end of the line:
// quadratic. Looking a label up as a reference also copies it with the
// reader's Value, which walks back over every line of the paragraph and
// copies the whole label before checking its length (at most 999): "[a]"
// on many lines, or "[" runs closed by "]" runs, were quadratic too; the
// reader linkGuard passes has a Value that finds the line by binary search
// and stops copying once the label is too long. linkGuard also decides from tables built once per line (linkLine)
// whether the inline link can close at all; when it cannot, it lets the
// link parser run with a reader that shows no destination, so the parser
// fails at once and goes on as it would after a long scan (trying the label
// as a shortcut reference). Links that may close are parsed unchanged.
type linkGuard struct {
	inner parser.InlineParser
}

var linkLineKey = parser.NewContextKey()

func (g linkGuard) Trigger() []byte { return g.inner.Trigger() }

// openersKey holds the openers ("[", "![") goldmark's link parser has
// open, as a *[]ast.Node: it closes the last one at each "]".
var openersKey = parser.NewContextKey()

func (g linkGuard) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	pc.Set(linkLineKey, nil)
	pc.Set(openersKey, nil)
	if cb, ok := g.inner.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

func (g linkGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	openers, _ := pc.Get(openersKey).(*[]ast.Node)
	if len(line) == 0 || line[0] != ']' {
		n := g.inner.Parse(parent, block, pc)
		if n != nil {
			if openers == nil {
				openers = new([]ast.Node)
				pc.Set(openersKey, openers)
			}
			*openers = append(*openers, n)
		}
		return n
	}
	var opener, before, holder ast.Node
	if openers != nil && len(*openers) > 0 {
		opener = (*openers)[len(*openers)-1]
		before, holder = opener.PreviousSibling(), opener.Parent()
	}
	r := &guardReader{Reader: block, lines: parent.Lines()}
	r.blind = len(line) > 1 && line[1] == '(' && cannotLink(line, seg, block, pc)
	n := g.inner.Parse(parent, r, pc)
	if opener != nil && holder != nil && opener.Parent() == nil {
		// goldmark took the opener out: into a link, or as text when no
		// link closed. That text stays a node of its own, between the
		// openers before it and the text of those closed after it, and at
		// each "]" goldmark walks every node after the opener ("[[[…]]]"
		// made that the square of the input): join it to its neighbours.
		*openers = (*openers)[:len(*openers)-1]
		if n == nil {
			joinTexts(holder, before)
		}
	}
	return n
}

// joinTexts joins the texts that follow from (the first child of parent
// when from is nil) into one where they can be: plain, adjacent in the
// source, with no line break before the last. It looks at no more than
// three nodes.
func joinTexts(parent, from ast.Node) {
	n := from
	if n == nil {
		n = parent.FirstChild()
	}
	for steps := 0; n != nil && steps < 2; steps++ {
		t, ok := n.(*ast.Text)
		next, ok2 := n.NextSibling().(*ast.Text)
		if !ok || !ok2 || next.IsRaw() || !joinable(t, next.Segment) {
			n = n.NextSibling()
			continue
		}
		t.Segment = t.Segment.WithStop(next.Segment.Stop)
		t.SetSoftLineBreak(next.SoftLineBreak())
		t.SetHardLineBreak(next.HardLineBreak())
		parent.RemoveChild(parent, next)
	}
}

// guardReader is the reader the link parser gets at "]". When blind, it
// shows the first line the parser peeks at (the one holding "]") and an
// empty line after, so that no destination parses.
type guardReader struct {
	text.Reader
	lines  *text.Segments // the lines of the block being parsed
	blind  bool
	peeked bool
}

func (r *guardReader) PeekLine() ([]byte, text.Segment) {
	line, seg := r.Reader.PeekLine()
	if r.blind && r.peeked {
		return line[:0], seg
	}
	r.peeked = true
	return line, seg
}

// maxLabel is CommonMark's limit on a link label, which goldmark checks
// after taking the label's Value.
const maxLabel = 999

// Value returns the bytes of seg as goldmark's block reader does (line
// padding included, the text between lines left out), but finds seg's
// first line by binary search, and stops at maxLabel+2 bytes unless those
// are blank: the link parser only uses a longer value to see that it is
// too long, or blank.
func (r *guardReader) Value(seg text.Segment) []byte {
	n := r.lines.Len()
	if n == 0 {
		return r.Reader.Value(seg)
	}
	// The last line starting at or before seg.Start.
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if r.lines.At(mid).Start <= seg.Start {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if r.lines.At(lo).Start > seg.Start {
		return r.Reader.Value(seg)
	}
	src := r.Reader.Source()
	out := make([]byte, 0, min(seg.Len(), maxLabel+2)+1)
	blank := true
	i := seg.Start
	for line := lo; line < n; line++ {
		s := r.lines.At(line)
		if line > lo {
			i = s.Start
		}
		out = s.ConcatPadding(out)
		for ; i < seg.Stop && i < s.Stop; i++ {
			out = append(out, src[i])
			if blank && !util.IsSpace(src[i]) {
				blank = false
			}
			if !blank && len(out) > maxLabel+1 {
				return out
			}
		}
		if s.Stop > seg.Stop {
			break
		}
	}
	return out
}

// cannotLink reports whether the inline link whose "](" starts line (the
// rest of a line, from "]") surely fails to parse, following goldmark's
// parseLink: spaces, a destination (<...> or a run without spaces and with
// balanced parentheses), spaces, then ")" or a title. It answers false
// whenever it is not sure.
func cannotLink(line []byte, seg text.Segment, block text.Reader, pc parser.Context) bool {
	i := 2
	for i < len(line) && util.IsSpace(line[i]) {
		i++
	}
	if i == len(line) {
		return false // the destination would start on the next line
	}
	if line[i] == ')' {
		return false
	}
	ll := lineTables(line, seg, pc)
	off := seg.Start - ll.base
	if line[i] == '<' {
		return ll.nextGT[off+i+1] < 0
	}
	stop := int(ll.destEnd[off+i]) - off
	if stop < len(line) && line[stop] == ')' {
		return false
	}
	for stop < len(line) && util.IsSpace(line[stop]) {
		stop++
	}
	if stop < len(line) {
		return !closesLink(line[stop])
	}
	// Only spaces to the end of the line: the next line decides.
	l, pos := block.Position()
	block.AdvanceLine()
	next, _ := block.PeekLine()
	block.SetPosition(l, pos)
	if next == nil {
		return true
	}
	for _, c := range next {
		if !util.IsSpace(c) {
			return !closesLink(c)
		}
	}
	return false
}

// closesLink reports whether c, after a destination, may continue a link:
// its closing parenthesis or the opening of a title.
func closesLink(c byte) bool { return c == ')' || c == '"' || c == '\'' || c == '(' }

// linkLine holds, for the rest of one line from base (an offset in the
// source), where a destination starting at each position ends and the next
// unescaped ">" from each position; -1 for none.
type linkLine struct {
	base, stop int // source offsets of the first byte and of the line's end
	destEnd    []int32
	nextGT     []int32
}

// lineTables returns the tables of the line that line (from seg.Start) is
// the rest of, built on the first "](" of the line and reused after:
// inline parsing only moves forward, so each line is scanned a fixed
// number of times.
func lineTables(line []byte, seg text.Segment, pc parser.Context) *linkLine {
	if v, ok := pc.Get(linkLineKey).(*linkLine); ok && v != nil && v.stop == seg.Stop && v.base <= seg.Start {
		return v
	}
	n := len(line)
	ll := &linkLine{base: seg.Start, stop: seg.Stop, destEnd: make([]int32, n+1), nextGT: make([]int32, n+1)}
	// Escapes as goldmark reads them: a backslash before punctuation
	// takes that character out of play. Starting from "]" gives the same
	// pairing as starting after "(", which is never inside a backslash run.
	active := make([]bool, n)
	depth := make([]int32, n+1) // open parentheses before each position
	for k := 0; k < n; k++ {
		depth[k+1] = depth[k]
		if line[k] == '\\' && k < n-1 && util.IsPunct(line[k+1]) {
			depth[k+2] = depth[k]
			k++
			continue
		}
		active[k] = true
		switch line[k] {
		case '(':
			depth[k+1]++
		case ')':
			depth[k+1]--
		}
	}
	// From the right: the first unbalanced ")" after k is the first active
	// ")" that brings the depth to depth[k]-1; keep the nearest ")" for each
	// depth it leaves behind.
	closeAt := make([]int32, 2*n+3)
	for k := range closeAt {
		closeAt[k] = -1
	}
	level := func(d int32) int { return int(d) + n + 1 }
	nextSpace, nextGT := int32(n), int32(-1)
	ll.destEnd[n], ll.nextGT[n] = int32(n), -1
	for k := n - 1; k >= 0; k-- {
		if util.IsSpace(line[k]) {
			nextSpace = int32(k)
		}
		if active[k] {
			switch line[k] {
			case ')':
				closeAt[level(depth[k+1])] = int32(k)
			case '>':
				nextGT = int32(k)
			}
		}
		end := nextSpace
		if c := closeAt[level(depth[k]-1)]; c >= 0 && c < end {
			end = c
		}
		ll.destEnd[k], ll.nextGT[k] = end, nextGT
	}
	pc.Set(linkLineKey, ll)
	return ll
}
