package content

import "strings"

// Document is a GitBook JSON document (JSONDocument): top-level blocks plus a
// data object holding "schemaVersion" and any other properties as decoded.
// Numbers inside Data decode as float64, as encoding/json does for any.
type Document struct {
	Object string         // ObjectDocument
	Data   map[string]any // "schemaVersion" (absent means the latest version) and extra properties
	Nodes  []Node         // top-level blocks
	Extra  map[string]any // unknown top-level properties, kept for round trips
}

// Node is one block, inline or text node. Which fields apply depends on
// Object: blocks and inlines have a Type, Data, and child Nodes or Fragments;
// text nodes have Leaves. A nil map or slice is written as an absent property
// and a non-nil empty one as {} or [], so round trips keep which properties
// were present (isVoid aside: see json.go).
type Node struct {
	Object    string         // ObjectBlock, ObjectInline or ObjectText
	Type      string         // block or inline type such as BlockParagraph; empty for text
	Key       string         // optional stable key
	IsVoid    bool           // set for void types; see IsVoidType
	Data      map[string]any // type-specific data, kept as decoded
	Meta      map[string]any // server-computed properties such as {"id"} or {"token"}
	Nodes     []Node         // children of blocks and inlines
	Leaves    []Leaf         // runs of text of a text node
	Fragments []Fragment     // named sub-documents: captions, expandable title and body, table cells, annotation bodies
	Extra     map[string]any // unknown properties, kept for round trips
}

// Leaf is a run of text sharing the same marks.
type Leaf struct {
	Object string // ObjectLeaf
	Text   string
	Marks  []Mark
	Extra  map[string]any // unknown properties, kept for round trips
}

// Mark is a formatting mark on a leaf, such as MarkBold; MarkColor carries
// {"text", "background"} in Data.
type Mark struct {
	Object string // ObjectMark
	Type   string
	Data   map[string]any
	Extra  map[string]any // unknown properties, kept for round trips
}

// Fragment is a named list of blocks attached to a node (DocumentFragment):
// an image caption, an expandable's title or body, a table cell or an
// annotation body.
type Fragment struct {
	Object   string // ObjectFragment
	Key      string
	Fragment string // the fragment's name, such as FragmentCaption
	Type     string // the fragment's type; for expandables the same as Fragment
	Nodes    []Node
	Extra    map[string]any // unknown properties, kept for round trips
}

// NewDocument returns a normalized document holding one paragraph per
// argument, each a single unmarked text leaf.
func NewDocument(paragraphs ...string) *Document {
	d := &Document{Object: ObjectDocument, Data: map[string]any{}, Nodes: make([]Node, 0, len(paragraphs))}
	for _, p := range paragraphs {
		d.Nodes = append(d.Nodes, NewBlock(BlockParagraph, NewText(p)))
	}
	return d
}

// NewBlock returns a normalized block of the given type holding children;
// for a void type IsVoid is set and no child list is added.
func NewBlock(typ string, children ...Node) Node {
	n := Node{Object: ObjectBlock, Type: typ, Nodes: children}
	n.normalize()
	return n
}

// NewInline returns a normalized inline of the given type holding children.
func NewInline(typ string, children ...Node) Node {
	n := Node{Object: ObjectInline, Type: typ, Nodes: children}
	n.normalize()
	return n
}

// NewText returns a text node of one leaf carrying the given mark types.
func NewText(text string, marks ...string) Node {
	l := Leaf{Object: ObjectLeaf, Text: text, Marks: make([]Mark, 0, len(marks))}
	for _, m := range marks {
		l.Marks = append(l.Marks, Mark{Object: ObjectMark, Type: m})
	}
	return Node{Object: ObjectText, Leaves: []Leaf{l}}
}

// Normalize fills in what the reference requires but writers often omit: the
// document's object, data and nodes, data on blocks and inlines, nodes on
// non-void ones, leaves and marks on text, and IsVoid from the type table.
// An absent data.schemaVersion stays absent: the reference reads it as the
// latest version, and publishes no number for that.
func (d *Document) Normalize() {
	if d.Object == "" {
		d.Object = ObjectDocument
	}
	if d.Data == nil {
		d.Data = map[string]any{}
	}
	if d.Nodes == nil {
		d.Nodes = []Node{}
	}
	for i := range d.Nodes {
		d.Nodes[i].normalize()
	}
}

func (n *Node) normalize() {
	if n.Object == ObjectText {
		if n.Leaves == nil {
			n.Leaves = []Leaf{}
		}
		for i := range n.Leaves {
			l := &n.Leaves[i]
			if l.Object == "" {
				l.Object = ObjectLeaf
			}
			if l.Marks == nil {
				l.Marks = []Mark{}
			}
			for j := range l.Marks {
				if l.Marks[j].Object == "" {
					l.Marks[j].Object = ObjectMark
				}
			}
		}
		return
	}
	if n.Data == nil {
		n.Data = map[string]any{}
	}
	if spec, ok := lookup(n.Object, n.Type); ok {
		n.IsVoid = spec.void
		if !spec.void && n.Nodes == nil {
			n.Nodes = []Node{}
		}
		if spec.requiresFragments && n.Fragments == nil {
			n.Fragments = []Fragment{}
		}
	}
	for i := range n.Nodes {
		n.Nodes[i].normalize()
	}
	for i := range n.Fragments {
		f := &n.Fragments[i]
		if f.Object == "" {
			f.Object = ObjectFragment
		}
		if f.Nodes == nil {
			f.Nodes = []Node{}
		}
		for j := range f.Nodes {
			f.Nodes[j].normalize()
		}
	}
}

// PlainText returns the text of the document for search and snippets: one
// line per block that holds text, in document order, with fragments (captions,
// expandable bodies, table cells, annotation bodies) after their owner's text.
// Void nodes such as images and formulas contribute nothing.
func (d *Document) PlainText() string {
	if d == nil {
		return ""
	}
	var w textWriter
	w.blocks(d.Nodes)
	return strings.Join(w.lines, "\n")
}

// textWriter gathers lines: runs of text and inline nodes make up one line,
// and every block boundary ends the current one.
type textWriter struct {
	lines   []string
	line    strings.Builder
	open    bool
	pending [][]Fragment // fragments of inlines on the open line
}

func (w *textWriter) blocks(nodes []Node) {
	for i := range nodes {
		n := &nodes[i]
		if n.Object == ObjectText || n.Object == ObjectInline {
			w.inline(n)
			continue
		}
		w.flush()
		w.blocks(n.Nodes)
		for _, f := range n.Fragments {
			w.blocks(f.Nodes)
		}
	}
	w.flush()
}

func (w *textWriter) inline(n *Node) {
	w.open = true
	for _, l := range n.Leaves {
		w.line.WriteString(l.Text)
	}
	for i := range n.Nodes {
		w.inline(&n.Nodes[i])
	}
	if len(n.Fragments) > 0 {
		w.pending = append(w.pending, n.Fragments)
	}
}

// flush ends the open line, then writes the fragments of its inlines.
func (w *textWriter) flush() {
	if w.open {
		w.lines = append(w.lines, w.line.String())
		w.line.Reset()
		w.open = false
	}
	pending := w.pending
	w.pending = nil
	for _, fs := range pending {
		for _, f := range fs {
			w.blocks(f.Nodes)
		}
	}
}
