package markdown

import (
	"fmt"
	"sort"
	"strings"

	"github.com/foliodocs/folio/internal/content"
)

// Writing inline content: emphasis delimiters opened and closed across
// neighbours, code spans and escapes.

// atom is one piece of inline content: a run of text, a code span or an
// inline node, with the emphasis marks it needs around it.
type atom struct {
	marks       marks
	text        string
	code        bool
	node        *content.Node
	transparent bool // takes whatever marks are open (inline math, images, blanks)
}

func leafMarks(ms []content.Mark) marks {
	var m marks
	for _, mk := range ms {
		for _, o := range markOrder {
			if o.typ == mk.Type {
				m |= o.m
			}
		}
	}
	return m
}

// inline renders inline nodes, opening and closing emphasis so that marks
// shared by neighbours stay open across them.
func (w *writer) inline(nodes []content.Node, inTable bool) string {
	return w.inlineWith(nodes, 0, inTable)
}

func (w *writer) inlineWith(nodes []content.Node, base marks, inTable bool) string {
	var atoms []atom
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case content.ObjectText:
			for _, l := range n.Leaves {
				if l.Text == "" {
					continue
				}
				m := leafMarks(l.Marks) &^ base
				a := atom{marks: m &^ markCode, text: l.Text, code: m&markCode != 0}
				if !a.code && strings.TrimSpace(l.Text) == "" {
					a.transparent = true
				}
				atoms = append(atoms, a)
			}
		case content.ObjectInline:
			a := atom{node: n, transparent: true}
			if n.Type == content.InlineLink {
				if common, ok := commonMarks(n.Nodes); ok {
					a.marks, a.transparent = (common&^markCode)&^base, false
				}
			}
			atoms = append(atoms, a)
		}
	}
	var b []byte
	var open []marks // stack of single marks
	has := func(m marks) bool {
		for _, o := range open {
			if o == m {
				return true
			}
		}
		return false
	}
	closeFrom := func(j int) {
		// Closing delimiters go before trailing blanks, where Markdown sees them.
		cut := len(b)
		for cut > 0 {
			switch {
			case b[cut-1] == ' ' || b[cut-1] == '\t':
				cut--
				continue
			case cut > 1 && b[cut-1] == '\n' && b[cut-2] == '\\':
				cut -= 2 // a hard line break
				continue
			}
			break
		}
		ws := string(b[cut:])
		b = b[:cut]
		for k := len(open) - 1; k >= j; k-- {
			b = appendDelim(b, delim(open[k]))
		}
		b = append(b, ws...)
		open = open[:j]
	}
	for i, a := range atoms {
		want := a.marks
		if a.transparent {
			for _, o := range open {
				want |= o
			}
		}
		for j, o := range open {
			if want&o == 0 {
				closeFrom(j)
				break
			}
		}
		body := w.atomText(a, want|base, inTable)
		var need []marks
		for _, o := range markOrder[:3] {
			if want&o.m != 0 && !has(o.m) {
				need = append(need, o.m)
			}
		}
		if len(need) > 0 {
			// Open first the marks that last longest, so they nest outside.
			sort.SliceStable(need, func(x, y int) bool { return runLength(atoms[i:], need[x]) > runLength(atoms[i:], need[y]) })
			lead := leadingBlanks(body)
			b = append(b, lead...)
			body = body[len(lead):]
			for _, m := range need {
				b = appendDelim(b, delim(m))
				open = append(open, m)
			}
		}
		b = appendAfterDelim(b, body)
	}
	if len(open) > 0 {
		closeFrom(0)
	}
	return string(b)
}

// appendDelim appends an emphasis delimiter. An escaped delimiter
// character right before it would count as part of its run for the
// parser, so it is written as a character reference instead.
func appendDelim(b []byte, d string) []byte {
	if n := len(b); n >= 2 && b[n-2] == '\\' && b[n-1] == d[0] {
		b = append(b[:n-2], charRef(d[0])...)
	}
	return append(b, d...)
}

// appendAfterDelim appends body; when it starts with an escaped copy of
// the delimiter just written, that one is a character reference.
func appendAfterDelim(b []byte, body string) []byte {
	if n := len(b); n >= 1 && len(body) >= 2 && body[0] == '\\' && body[1] == b[n-1] && strings.IndexByte("*~_", b[n-1]) >= 0 {
		b = append(b, charRef(body[1])...)
		body = body[2:]
	}
	return append(b, body...)
}

// charRef returns the hexadecimal character reference of an ASCII byte.
func charRef(c byte) string { return fmt.Sprintf("&#x%X;", c) }

func runLength(atoms []atom, m marks) int {
	n := 0
	for _, a := range atoms {
		if !a.transparent && a.marks&m == 0 {
			break
		}
		n++
	}
	return n
}

func delim(m marks) string {
	switch m {
	case markBold:
		return "**"
	case markItalic:
		return "*"
	case markStrike:
		return "~~"
	}
	return ""
}

// commonMarks returns the marks every text leaf of nodes carries.
func commonMarks(nodes []content.Node) (marks, bool) {
	all, seen := ^marks(0), false
	for _, n := range nodes {
		for _, l := range n.Leaves {
			if l.Text == "" {
				continue
			}
			all &= leafMarks(l.Marks)
			seen = true
		}
	}
	return all, seen
}

func (w *writer) atomText(a atom, open marks, inTable bool) string {
	if a.code {
		return codeSpan(a.text, inTable)
	}
	if a.node == nil {
		s := escapeText(a.text, true)
		if inTable {
			s = oneLine(s)
		}
		return s
	}
	n := a.node
	switch n.Type {
	case content.InlineLink:
		return "[" + w.inlineWith(n.Nodes, open, inTable) + "](" + destination(w.refTarget(n.Data["ref"])) + ")"
	case content.InlineImage:
		alt, _ := n.Data["alt"].(string)
		caption, _ := n.Data["caption"].(string)
		return w.image(n.Data["ref"], alt, oneLine(caption))
	case content.InlineMath:
		formula, _ := n.Data["formula"].(string)
		return "$$" + oneLine(formula) + "$$"
	}
	// Inlines without a Markdown form keep their text.
	d := content.Document{Nodes: []content.Node{{Object: content.ObjectBlock, Nodes: []content.Node{*n}}}}
	return escapeText(oneLine(d.PlainText()), false)
}

func codeSpan(s string, inTable bool) string {
	s = oneLine(s)
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") ||
		(strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escapeText backslash-escapes what Markdown would read as syntax; a "\n"
// becomes a hard line break when breaks is set, else a space.
func escapeText(s string, breaks bool) string {
	var b strings.Builder
	lineStart := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			if breaks {
				b.WriteString("\\\n")
			} else {
				b.WriteByte(' ')
			}
			lineStart = breaks
			continue
		}
		if lineStart && (c == ' ' || c == '\t') {
			b.WriteByte(c)
			continue
		}
		if lineStart {
			lineStart = false
			switch {
			case c == '#' || c == '-' || c == '+' || c == '=':
				b.WriteByte('\\')
			case c >= '0' && c <= '9':
				j := i
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				if j < len(s) && (s[j] == '.' || s[j] == ')') {
					b.WriteString(s[i:j])
					b.WriteByte('\\')
					i = j - 1
					continue
				}
			}
		}
		if strings.IndexByte("\\`*_[]<>|~$&{}", c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// leadingBlanks returns the spaces and hard line breaks body starts with;
// opening delimiters go after them.
func leadingBlanks(body string) string {
	i := 0
	for i < len(body) {
		switch {
		case body[i] == ' ' || body[i] == '\t':
			i++
			continue
		case strings.HasPrefix(body[i:], "\\\n"):
			i += 2
			continue
		}
		break
	}
	return body[:i]
}

// canInterrupt reports whether list n may start on the line right after a
// paragraph: CommonMark allows it only for a non-empty first item and, for
// ordered lists, a start of 1.
func canInterrupt(n content.Node) bool {
	if listFamily(n.Type) == "" || len(n.Nodes) == 0 || len(n.Nodes[0].Nodes) == 0 {
		return false
	}
	if n.Nodes[0].Nodes[0].Type != content.BlockParagraph {
		return false
	}
	if start, ok := n.Data["start"].(float64); ok && start != 1 {
		return false
	}
	return true
}
