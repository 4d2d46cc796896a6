package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// mathKind is the goldmark node kind of inline $$math$$.
var mathKind = ast.NewNodeKind("FolioMath")

// mathNode is inline math, $$formula$$ on one line.
type mathNode struct {
	ast.BaseInline
	formula string
}

func (n *mathNode) Kind() ast.NodeKind { return mathKind }

func (n *mathNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Formula": n.formula}, nil)
}

// mathParser reads GitBook's inline math, $$formula$$; a lone $ is text.
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("$$")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	formula := string(line[2 : 2+end])
	block.Advance(end + 4)
	return &mathNode{formula: formula}
}
