package markdown

import (
	"sort"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark matches emphasis and strikethrough delimiters in
// ProcessDelimiters, which looks for each closer's opener by walking back
// over every earlier delimiter, with no "openers bottom" per kind of
// delimiter as the CommonMark reference implementations keep: delimiters
// that may open but never match ("*a_b**c__d~~e" repeated) are walked again
// by every later closer, and a 1 MB paragraph took minutes. goldmark calls
// ProcessDelimiters itself, so it cannot be replaced; instead delimParser
// takes the place of goldmark's emphasis and strikethrough parsers: it reads
// delimiter runs exactly as they do but keeps them as plain text, recording
// where they are, so goldmark's delimiter list stays empty. emphasisPass
// then matches the recorded runs after parsing, with goldmark's rules and
// in the same scopes (a link's or image's text alone, the rest of a block
// alone), keeping a bottom per kind of closer so that the whole is linear.

// delimRun is a delimiter run read by delimParser.
type delimRun struct {
	seg               text.Segment // the run in the source (with the padding goldmark gives it)
	char              byte
	canOpen, canClose bool
	done              bool // matched (or left as text) in its scope already
}

var delimRunsKey = parser.NewContextKey()

// delimChars tells parser.ScanDelimiter which bytes make a run; the other
// methods of the interface are not used by it.
type delimChars struct{}

func (delimChars) IsDelimiter(b byte) bool { return b == '*' || b == '_' || b == '~' }
func (delimChars) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}
func (delimChars) OnMatch(consumes int) ast.Node { return nil }

// delimParser reads runs of "*" and "_" (or, when strike, of "~") as
// goldmark's emphasis (strikethrough) parser does, and leaves them as text.
type delimParser struct{ strike bool }

func (p delimParser) Trigger() []byte {
	if p.strike {
		return []byte{'~'}
	}
	return []byte{'*', '_'}
}

func (p delimParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, delimChars{})
	if d == nil || p.strike && (d.OriginalLength > 2 || before == '~') {
		return nil
	}
	run := seg.WithStop(seg.Start + d.OriginalLength)
	runs, _ := pc.Get(delimRunsKey).(*[]delimRun)
	if runs == nil {
		runs = new([]delimRun)
		pc.Set(delimRunsKey, runs)
	}
	*runs = append(*runs, delimRun{seg: run, char: d.Char, canOpen: d.CanOpen, canClose: d.CanClose})
	block.Advance(d.OriginalLength)
	// The run joins the text before it, so that a paragraph of runs is not
	// a node per run: goldmark's link parser walks every node after an
	// unclosed "[" at each "]". goldmark appends the returned node again,
	// which leaves the last child where it is.
	if t, ok := parent.LastChild().(*ast.Text); ok && joinable(t, run) {
		t.Segment = t.Segment.WithStop(run.Stop)
		return t
	}
	return ast.NewTextSegment(run)
}

// joinable reports whether the text s may be added to t as one text: t is
// plain and ends where s starts, and s has no padding to lose.
func joinable(t *ast.Text, s text.Segment) bool {
	return !t.IsRaw() && !t.SoftLineBreak() && !t.HardLineBreak() && t.Segment.Stop == s.Start && s.Padding == 0
}

// emphasisPass is the AST transformer that turns the runs delimParser
// recorded into emphasis and strikethrough nodes.
type emphasisPass struct{}

func (emphasisPass) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	p, _ := pc.Get(delimRunsKey).(*[]delimRun)
	if p == nil || len(*p) == 0 {
		return
	}
	runs := *p
	pc.Set(delimRunsKey, nil)
	// Blocks are parsed in source order, so runs are sorted already; sort
	// anyway rather than rely on it.
	if !sort.SliceIsSorted(runs, func(i, j int) bool { return runs[i].seg.Start < runs[j].seg.Start }) {
		sort.Slice(runs, func(i, j int) bool { return runs[i].seg.Start < runs[j].seg.Start })
	}
	// A scope is the children of one node; a node's own scope is matched
	// before the scopes inside it (links, images), which is the order
	// goldmark's results follow. No recursion: emphasis can nest deeply.
	stack := []ast.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		matchScope(n, runs)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.HasChildren() {
				stack = append(stack, c)
			}
		}
	}
}

// delimNode is a delimiter run while its scope is matched.
type delimNode struct {
	ast.BaseInline
	seg               text.Segment // what is left of the run
	char              byte
	length, orig      int
	canOpen, canClose bool
	index             int // order in the scope
	prev, next        *delimNode
	linked            bool
}

var delimKind = ast.NewNodeKind("FolioDelimiter")

func (n *delimNode) Kind() ast.NodeKind { return delimKind }

func (n *delimNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// matchScope matches the delimiter runs in the texts that are children of
// parent.
func matchScope(parent ast.Node, runs []delimRun) {
	var nodes []*delimNode
	for c := parent.FirstChild(); c != nil; {
		next := c.NextSibling()
		if t, ok := c.(*ast.Text); ok && !t.IsRaw() {
			nodes = splitRuns(parent, t, runs, nodes)
		}
		c = next
	}
	if len(nodes) == 0 {
		return
	}
	for i, d := range nodes {
		d.index, d.linked = i, true
		if i > 0 {
			d.prev, nodes[i-1].next = nodes[i-1], d
		}
	}
	matchDelims(nodes[0])
	// What is left of the runs is text again.
	for _, d := range nodes {
		if p := d.Parent(); p != nil {
			if d.length > 0 {
				p.ReplaceChild(p, d, ast.NewTextSegment(d.seg))
			} else {
				p.RemoveChild(p, d)
			}
		}
	}
}

// splitRuns replaces t by texts and delimNodes for the runs not yet done
// that start inside it, and returns nodes with the new delimNodes added.
func splitRuns(parent ast.Node, t *ast.Text, runs []delimRun, nodes []*delimNode) []*delimNode {
	seg := t.Segment
	i := sort.Search(len(runs), func(i int) bool { return runs[i].seg.Start >= seg.Start })
	if i == len(runs) || runs[i].seg.Start >= seg.Stop {
		return nodes
	}
	at := ast.Node(t) // the node the next piece goes after
	rest := seg       // what is left of t
	for ; i < len(runs) && runs[i].seg.Start < seg.Stop; i++ {
		r := &runs[i]
		if r.done {
			continue
		}
		r.done = true
		if r.seg.Start > rest.Start {
			before := ast.NewTextSegment(rest.WithStop(r.seg.Start))
			parent.InsertAfter(parent, at, before)
			at = before
			rest = text.NewSegment(r.seg.Start, rest.Stop)
		}
		d := &delimNode{seg: r.seg, char: r.char, length: r.seg.Len(), orig: r.seg.Len(),
			canOpen: r.canOpen, canClose: r.canClose}
		parent.InsertAfter(parent, at, d)
		at = d
		nodes = append(nodes, d)
		rest = text.NewSegment(r.seg.Stop, rest.Stop)
	}
	if at == ast.Node(t) {
		return nodes // every run in t was done
	}
	if rest.Len() > 0 || t.SoftLineBreak() || t.HardLineBreak() {
		// The last piece keeps t itself, with its line break.
		t.Segment = rest
		parent.RemoveChild(parent, t)
		parent.InsertAfter(parent, at, t)
	} else {
		parent.RemoveChild(parent, t)
	}
	return nodes
}

// matchDelims matches the delimiters of one scope, from first on, as
// goldmark's ProcessDelimiters does: for each closer in order, the nearest
// earlier opener of the same character that the rule of three allows. When
// there is none, no later closer of the same kind (character, whether it
// can open, length modulo 3) can find one before this closer either, so
// bottom remembers where to stop.
func matchDelims(first *delimNode) {
	var bottom [3][2][3]int
	for a := range bottom {
		for b := range bottom[a] {
			for c := range bottom[a][b] {
				bottom[a][b][c] = -1
			}
		}
	}
	for closer := first; closer != nil; {
		if !closer.canClose {
			closer = closer.next
			continue
		}
		stop := &bottom[charIndex(closer.char)][boolIndex(closer.canOpen)][closer.orig%3]
		var opener *delimNode
		consume := 0
		for o := closer.prev; o != nil && o.index > *stop; o = o.prev {
			if o.canOpen && o.char == closer.char {
				if consume = consumption(o, closer); consume > 0 {
					opener = o
					break
				}
			}
		}
		if opener == nil {
			*stop = closer.index - 1
			next := closer.next
			if !closer.canOpen {
				closer.unlink()
			}
			closer = next
			continue
		}
		opener.consume(consume)
		closer.consume(consume)
		var node ast.Node
		if opener.char == '~' {
			node = east.NewStrikethrough()
		} else {
			node = ast.NewEmphasis(consume)
		}
		node.(interface{ SetPos(int) }).SetPos(opener.seg.Start)
		parent := opener.Parent()
		for c := opener.NextSibling(); c != nil && c != ast.Node(closer); {
			next := c.NextSibling()
			node.AppendChild(node, c)
			c = next
		}
		parent.InsertAfter(parent, opener, node)
		// The delimiters inside are text now.
		for d := opener.next; d != nil && d != closer; {
			next := d.next
			d.unlink()
			d = next
		}
		if opener.length == 0 {
			opener.unlink()
			parent.RemoveChild(parent, opener)
		}
		if closer.length == 0 {
			next := closer.next
			closer.unlink()
			parent.RemoveChild(parent, closer)
			closer = next
		}
	}
}

// consumption is goldmark's Delimiter.CalcComsumption: how many characters
// of each run a match takes, 0 when the rule of three forbids it.
func consumption(opener, closer *delimNode) int {
	if (opener.canClose || closer.canOpen) && (opener.orig+closer.orig)%3 == 0 && closer.orig%3 != 0 {
		return 0
	}
	if opener.length >= 2 && closer.length >= 2 {
		return 2
	}
	return 1
}

// consume takes n characters off the run, keeping its first ones as
// goldmark does.
func (d *delimNode) consume(n int) {
	d.length -= n
	d.seg = d.seg.WithStop(d.seg.Start + d.length)
}

// unlink takes d out of its scope's list; it stays in the tree (as text
// once the scope is done) unless removed.
func (d *delimNode) unlink() {
	if !d.linked {
		return
	}
	if d.prev != nil {
		d.prev.next = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	}
	d.prev, d.next, d.linked = nil, nil, false
}

func charIndex(c byte) int {
	switch c {
	case '*':
		return 0
	case '_':
		return 1
	}
	return 2
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
