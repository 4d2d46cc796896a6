package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/content"
)

// Section is one searchable part of a page: the text before the first
// heading, or a heading and the text up to the next one.
type Section struct {
	ID    string // the heading's anchor; "" for the text before the first heading
	Title string // the heading's text, whitespace collapsed; "" for the first section
	Body  string // plain text: one line per block, whitespace within a line collapsed
}

// Sections splits a page document at its headings (heading-1, -2 and -3)
// into sections, in document order. The first section, with ID and Title
// "", holds the text before the first heading and is always present, even
// empty, so callers can hang page-level data (such as the page title) on it.
//
// Headings split wherever they sit in the flow of blocks, including inside
// tabs, steppers, columns, hints and expandables, except in table cells and
// annotation bodies, where they are text of the current section. A heading's
// ID is its meta.id, else its data.id, else a slug of its text (see
// content.Slugify; text with no Latin letters or digits keeps its own
// letters), made unique within the document with -2, -3... suffixes.
//
// Bodies hold the text of paragraphs, lists, code, quotes, hints, table
// cells and column titles, expandable titles and bodies, tab titles, code
// block titles, button labels and annotation bodies (after the line they
// annotate); images, formulas, embeds and other void nodes add nothing.
func Sections(doc *content.Document) []Section {
	w := sectionWriter{sections: []Section{{}}}
	if doc != nil {
		w.blocks(doc.Nodes, true)
	}
	w.finish()
	return w.sections
}

// sectionWriter gathers the text of the open section; sections holds the
// finished ones followed by the open one, whose Body is still in text.
type sectionWriter struct {
	sections []Section
	text     textBuffer
	pending  [][]content.Fragment // fragments of inlines on the open line
	taken    map[string]bool      // anchors used so far
}

func (w *sectionWriter) blocks(nodes []content.Node, split bool) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == content.ObjectText || n.Object == content.ObjectInline:
			w.inline(&w.text, n)
		case split && isHeading(n.Type):
			w.heading(n)
		default:
			w.block(n, split)
		}
	}
	w.endLine()
}

func (w *sectionWriter) block(n *content.Node, split bool) {
	w.endLine()
	switch n.Type {
	case content.BlockTabsItem, content.BlockCode:
		if title, _ := n.Data["title"].(string); title != "" {
			w.text.write(title)
			w.endLine()
		}
	case content.BlockTable:
		w.columnTitles(n.Data)
		// Headings in cells are part of the table, not page sections.
		split = false
	}
	w.blocks(n.Nodes, split)
	for _, f := range n.Fragments {
		w.blocks(f.Nodes, split)
	}
}

// columnTitles writes a table's column titles, in view order.
func (w *sectionWriter) columnTitles(data map[string]any) {
	view, _ := data["view"].(map[string]any)
	columns, _ := view["columns"].([]any)
	definition, _ := data["definition"].(map[string]any)
	for _, c := range columns {
		id, _ := c.(string)
		def, _ := definition[id].(map[string]any)
		if title, _ := def["title"].(string); title != "" {
			w.text.write(title)
			w.text.space()
		}
	}
	w.endLine()
}

func (w *sectionWriter) inline(t *textBuffer, n *content.Node) {
	for _, l := range n.Leaves {
		t.write(l.Text)
	}
	if n.Type == content.InlineButton {
		if label, _ := n.Data["label"].(string); label != "" {
			t.space()
			t.write(label)
			t.space()
		}
	}
	for i := range n.Nodes {
		w.inline(t, &n.Nodes[i])
	}
	if len(n.Fragments) > 0 {
		w.pending = append(w.pending, n.Fragments)
	}
}

// endLine ends the open line, then writes the fragments of its inlines
// (annotation bodies), in which headings do not split.
func (w *sectionWriter) endLine() {
	w.text.endLine()
	for len(w.pending) > 0 {
		pending := w.pending
		w.pending = nil
		for _, fs := range pending {
			for _, f := range fs {
				w.blocks(f.Nodes, false)
			}
		}
	}
}

// heading closes the open section and opens the heading's.
func (w *sectionWriter) heading(n *content.Node) {
	w.endLine()
	var title textBuffer
	for i := range n.Nodes {
		w.inline(&title, &n.Nodes[i])
	}
	// Annotation bodies in the heading belong to the new section.
	pending := w.pending
	w.pending = nil
	w.finish()
	s := Section{Title: title.String(), ID: w.anchor(n, title.String())}
	w.sections = append(w.sections, s)
	w.pending = pending
	w.endLine()
}

// finish stores the open section's body.
func (w *sectionWriter) finish() {
	w.endLine()
	w.sections[len(w.sections)-1].Body = w.text.String()
	w.text.reset()
}

// anchor returns the heading's ID: meta.id, data.id, or a slug of its title
// made unique among the anchors seen so far.
func (w *sectionWriter) anchor(n *content.Node, title string) string {
	if w.taken == nil {
		w.taken = map[string]bool{}
	}
	for _, m := range []map[string]any{n.Meta, n.Data} {
		if id, _ := m["id"].(string); id != "" {
			w.taken[id] = true
			return id
		}
	}
	id := slug(title)
	if w.taken[id] {
		id = content.UniqueSlug(keys(w.taken), id)
	}
	w.taken[id] = true
	return id
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// slug is content.Slugify, except that a title with no Latin letters or
// digits, which Slugify turns into "page", keeps its own letters and digits
// ("概要" stays "概要"), and one with none at all becomes "section".
func slug(title string) string {
	// Slugify ignores everything it cannot spell in ASCII, so the title adds
	// something to " x" exactly when it has such characters.
	if content.Slugify(title+" x") != "x" {
		return content.Slugify(title)
	}
	var b strings.Builder
	eachTerm(title, func(term []byte) bool {
		if b.Len()+len(term)+1 > content.MaxSlugLength {
			return false
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.Write(term)
		return true
	})
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

func isHeading(typ string) bool {
	return typ == content.BlockHeading1 || typ == content.BlockHeading2 || typ == content.BlockHeading3
}

// textBuffer builds plain text with whitespace collapsed: runs of spaces
// within a line become one space, lines are separated by one newline, and
// empty lines and leading or trailing spaces are dropped.
type textBuffer struct {
	b        []byte
	lineOpen bool // the current line has text
	sep      byte // separator owed before the next text: 0, ' ' or '\n'
}

func (t *textBuffer) write(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
				t.space()
				i++
				continue
			}
			t.open()
			t.b = append(t.b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			t.space()
		} else {
			t.open()
			t.b = append(t.b, s[i:i+size]...)
		}
		i += size
	}
}

// open writes the separator owed before new text.
func (t *textBuffer) open() {
	if t.sep != 0 && len(t.b) > 0 {
		t.b = append(t.b, t.sep)
	}
	t.sep = 0
	t.lineOpen = true
}

// space asks for a space before the next text on this line.
func (t *textBuffer) space() {
	if t.lineOpen && t.sep == 0 {
		t.sep = ' '
	}
}

// endLine asks for a newline before the next text.
func (t *textBuffer) endLine() {
	if t.lineOpen {
		t.sep = '\n'
		t.lineOpen = false
	}
}

func (t *textBuffer) String() string { return string(t.b) }

func (t *textBuffer) reset() {
	t.b = t.b[:0]
	t.lineOpen = false
	t.sep = 0
}
