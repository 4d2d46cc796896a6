package markdown

import (
	"strings"
	"unicode"

	east "github.com/yuin/goldmark/extension/ast"

	"github.com/foliodocs/folio/internal/content"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// Reading inline content: emphasis marks, links, images and references,
// merged into text leaves.

// marks is a set of text marks, kept in a fixed order.
type marks uint8

const (
	markBold marks = 1 << iota
	markItalic
	markStrike
	markCode
)

var markOrder = []struct {
	m   marks
	typ string
}{{markBold, content.MarkBold}, {markItalic, content.MarkItalic}, {markStrike, content.MarkStrikethrough}, {markCode, content.MarkCode}}

// inlines returns the inline nodes of parent's children, text merged.
func (c *converter) inlines(parent ast.Node, m marks) []content.Node {
	var acc inlineAcc
	c.inlinesTo(&acc, parent, m)
	return acc.finish()
}

// inlinesTo adds the inline nodes of parent's children to acc. Emphasis
// adds to the same acc rather than returning its own nodes, so that deep
// nesting does not copy the text once per level.
func (c *converter) inlinesTo(acc *inlineAcc, parent ast.Node, m marks) {
	// Emphasis nests as deep as the input is long ("*a *a … a* a*"), so
	// it is walked with a stack of its own: recursion would grow the
	// goroutine stack by hundreds of bytes a level, copying it each time.
	type frame struct {
		n ast.Node
		m marks
	}
	var open []frame
	n := parent.FirstChild()
	for {
		for n == nil {
			if len(open) == 0 {
				return
			}
			f := open[len(open)-1]
			open = open[:len(open)-1]
			n, m = f.n.NextSibling(), f.m
		}
		if mark, ok := emphasisMark(n); ok {
			open = append(open, frame{n, m})
			m |= mark
			n = n.FirstChild()
			continue
		}
		c.inline(acc, n, m)
		n = n.NextSibling()
	}
}

// emphasisMark returns the mark an emphasis or strikethrough node adds.
func emphasisMark(n ast.Node) (marks, bool) {
	switch n := n.(type) {
	case *ast.Emphasis:
		if n.Level >= 2 {
			return markBold, true
		}
		return markItalic, true
	case *east.Strikethrough:
		return markStrike, true
	}
	return 0, false
}

func (c *converter) inline(acc *inlineAcc, n ast.Node, m marks) {
	switch n := n.(type) {
	case *ast.Text:
		s := unescape(n.Value(c.src))
		if n.IsRaw() {
			s = string(n.Value(c.src))
		}
		switch {
		case n.HardLineBreak():
			s += "\n"
		case n.SoftLineBreak():
			s += " "
		}
		acc.add(textNode(s, m))
	case *ast.String:
		acc.add(textNode(string(n.Value), m))
	case *ast.CodeSpan:
		var b strings.Builder
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch t := ch.(type) {
			case *ast.Text:
				b.Write(t.Value(c.src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		acc.add(textNode(b.String(), m|markCode))
	case *ast.Emphasis, *east.Strikethrough:
		mark, _ := emphasisMark(n)
		c.inlinesTo(acc, n, m|mark)
	case *ast.Link:
		acc.add(c.link(c.ref(unescape(n.Destination), false), c.inlines(n, m)))
	case *ast.AutoLink:
		url := string(n.URL(c.src))
		acc.add(c.link(map[string]any{"kind": "url", "url": url}, []content.Node{textNode(string(n.Label(c.src)), m)}))
	case *ast.Image:
		img := voidInline(content.InlineImage)
		img.Data["ref"] = c.ref(unescape(n.Destination), true)
		// An image in an image's alt text adds nothing to that text
		// (inlineText skips it), so its own alt is not computed: nested
		// images would otherwise cost the square of their depth.
		if !c.inAlt {
			c.inAlt = true
			if alt := inlineText(c.inlines(n, 0)); alt != "" {
				img.Data["alt"] = alt
			}
			c.inAlt = false
		}
		if len(n.Title) > 0 {
			img.Data["caption"] = unescape(n.Title)
		}
		acc.add(img)
	case *mathNode:
		mn := voidInline(content.InlineMath)
		mn.Data["formula"] = n.formula
		acc.add(mn)
	case *east.TaskCheckBox:
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(c.src))
		}
		acc.add(textNode(strings.Join(strings.Fields(b.String()), " "), m))
	default:
		c.inlinesTo(acc, n, m)
	}
}

// link returns a link inline; children a link cannot hold are flattened to text.
func (c *converter) link(ref map[string]any, children []content.Node) content.Node {
	var kept inlineAcc
	for _, ch := range children {
		switch {
		case ch.Object == content.ObjectText, ch.Type == content.InlineImage:
			kept.add(ch)
		case ch.Type == content.InlineMath:
			kept.add(textNode("$$"+ch.Data["formula"].(string)+"$$", 0))
		default:
			for _, g := range ch.Nodes {
				kept.add(g)
			}
		}
	}
	l := content.NewInline(content.InlineLink, kept.finish()...)
	l.Data["ref"] = ref
	return l
}

// ref resolves a Markdown target to a content reference. Images (image
// set) can only refer to URLs and files.
func (c *converter) ref(target string, image bool) map[string]any {
	switch {
	case strings.HasPrefix(target, "file:"):
		return map[string]any{"kind": "file", "file": strings.TrimPrefix(target, "file:")}
	case !image && strings.HasPrefix(target, "page:"):
		id, anchor, _ := strings.Cut(strings.TrimPrefix(target, "page:"), "#")
		return pageRef(id, anchor)
	case !image && strings.HasPrefix(target, "#") && len(target) > 1:
		return map[string]any{"kind": "anchor", "anchor": target[1:]}
	}
	if image && c.data != nil && isDataURL(target) {
		if id, ok := c.data.Data(target); ok {
			return map[string]any{"kind": "file", "file": id}
		}
	}
	if c.resolver != nil && isRelative(target) {
		if !image {
			if id, anchor, ok := c.resolver.Page(target); ok {
				return pageRef(id, anchor)
			}
		}
		if id, ok := c.resolver.File(target); ok {
			return map[string]any{"kind": "file", "file": id}
		}
	}
	return map[string]any{"kind": "url", "url": target}
}

// pageRef returns {kind: page} or, with an anchor, {kind: anchor, page}:
// GitBook's page reference has no anchor of its own.
func pageRef(id, anchor string) map[string]any {
	if anchor != "" {
		return map[string]any{"kind": "anchor", "anchor": anchor, "page": id}
	}
	return map[string]any{"kind": "page", "page": id}
}

// isDataURL reports whether target is a data: URL (RFC 2397).
func isDataURL(target string) bool {
	return len(target) > 5 && strings.EqualFold(target[:5], "data:")
}

// isRelative reports whether target is a path rather than an absolute URL,
// a protocol-relative URL or an in-page anchor.
func isRelative(target string) bool {
	if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "//") {
		return false
	}
	if i := strings.IndexByte(target, ':'); i > 0 {
		scheme := target[:i]
		if !strings.ContainsAny(scheme, "/?#") {
			return false
		}
	}
	return true
}

// imagesOnly returns the images of a paragraph made only of images and
// blanks as image blocks, and nil for any other paragraph.
func imagesOnly(inl []content.Node) []content.Node {
	var imgs []content.Node
	for _, n := range inl {
		switch {
		case n.Type == content.InlineImage:
			img := voidBlock(content.BlockImage)
			img.Fragments = []content.Fragment{}
			img.Data["ref"] = n.Data["ref"]
			if alt, ok := n.Data["alt"]; ok {
				img.Data["alt"] = alt
			}
			if caption, ok := n.Data["caption"].(string); ok && caption != "" {
				img.Fragments = append(img.Fragments, captionFragment(caption))
			}
			imgs = append(imgs, img)
		case n.Object == content.ObjectText && strings.TrimSpace(leafText(n)) == "":
		default:
			return nil
		}
	}
	return imgs
}

func leafText(n content.Node) string {
	var b strings.Builder
	for _, l := range n.Leaves {
		b.WriteString(l.Text)
	}
	return b.String()
}

// inlineText returns the plain text of inline nodes.
func inlineText(nodes []content.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(leafText(n))
		if n.Type == content.InlineMath {
			b.WriteString("$$" + n.Data["formula"].(string) + "$$")
		}
		b.WriteString(inlineText(n.Nodes))
	}
	return strings.TrimSpace(b.String())
}

// inlineAcc gathers inline nodes, merging adjacent text into one text node
// and adjacent leaves with equal marks into one leaf. The leaf being built
// is kept in a strings.Builder: a paragraph of many small pieces (a run of
// brackets is one text per bracket) would be quadratic with string +=.
type inlineAcc struct {
	nodes  []content.Node
	open   bool // a text node is being built
	leaves []content.Leaf
	buf    strings.Builder
	marks  []content.Mark // marks of the leaf in buf
}

// add appends n: a text node's leaves join the text being built.
func (a *inlineAcc) add(n content.Node) {
	if n.Object != content.ObjectText {
		a.endText()
		a.nodes = append(a.nodes, n)
		return
	}
	a.open = true
	for _, l := range n.Leaves {
		if l.Text == "" {
			continue
		}
		if a.buf.Len() > 0 && !sameMarks(a.marks, l.Marks) {
			a.endLeaf()
		}
		if a.buf.Len() == 0 {
			a.marks = l.Marks
		}
		a.buf.WriteString(l.Text)
	}
}

func (a *inlineAcc) endLeaf() {
	if a.buf.Len() > 0 {
		a.leaves = append(a.leaves, content.Leaf{Object: content.ObjectLeaf, Text: a.buf.String(), Marks: a.marks})
		a.buf.Reset()
	}
}

func (a *inlineAcc) endText() {
	a.endLeaf()
	if a.open {
		a.nodes = append(a.nodes, content.Node{Object: content.ObjectText, Leaves: a.leaves})
		a.open, a.leaves = false, nil
	}
}

// finish returns the nodes gathered.
func (a *inlineAcc) finish() []content.Node {
	a.endText()
	return a.nodes
}

func sameMarks(a, b []content.Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type {
			return false
		}
	}
	return true
}

func textNode(s string, m marks) content.Node {
	l := content.Leaf{Object: content.ObjectLeaf, Text: s, Marks: []content.Mark{}}
	for _, o := range markOrder {
		if m&o.m != 0 {
			l.Marks = append(l.Marks, content.Mark{Object: content.ObjectMark, Type: o.typ})
		}
	}
	return content.Node{Object: content.ObjectText, Leaves: []content.Leaf{l}}
}

func block(typ string, children []content.Node) content.Node {
	if children == nil {
		children = []content.Node{}
	}
	return content.Node{Object: content.ObjectBlock, Type: typ, Data: map[string]any{}, Nodes: children}
}

func voidBlock(typ string) content.Node {
	return content.Node{Object: content.ObjectBlock, Type: typ, IsVoid: true, Data: map[string]any{}}
}

func voidInline(typ string) content.Node {
	return content.Node{Object: content.ObjectInline, Type: typ, IsVoid: true, Data: map[string]any{}}
}

// paragraph returns a paragraph of inlines, trimming blanks at its ends
// (Markdown drops them) and holding an empty text when there is nothing.
func paragraph(inl []content.Node) content.Node {
	inl = trimInline(inl)
	if len(inl) == 0 {
		inl = []content.Node{{Object: content.ObjectText, Leaves: []content.Leaf{{Object: content.ObjectLeaf, Text: "", Marks: []content.Mark{}}}}}
	}
	return block(content.BlockParagraph, inl)
}

// trimInline drops leading and trailing white space of unmarked-code text.
func trimInline(inl []content.Node) []content.Node {
	trim := func(idx int, left bool) {
		n := &inl[idx]
		if n.Object != content.ObjectText {
			return
		}
		for len(n.Leaves) > 0 {
			li := len(n.Leaves) - 1
			if left {
				li = 0
			}
			l := &n.Leaves[li]
			if hasCode(l.Marks) {
				return
			}
			if left {
				l.Text = strings.TrimLeftFunc(l.Text, unicode.IsSpace)
			} else {
				l.Text = strings.TrimRightFunc(l.Text, unicode.IsSpace)
			}
			if l.Text != "" {
				return
			}
			n.Leaves = append(n.Leaves[:li], n.Leaves[li+1:]...)
		}
	}
	if len(inl) > 0 {
		trim(0, true)
		trim(len(inl)-1, false)
	}
	out := inl[:0]
	for _, n := range inl {
		if n.Object == content.ObjectText && len(n.Leaves) == 0 {
			continue
		}
		out = append(out, n)
	}
	return out
}

func hasCode(ms []content.Mark) bool {
	for _, m := range ms {
		if m.Type == content.MarkCode {
			return true
		}
	}
	return false
}

// unescape resolves backslash escapes and entity references in one pass,
// as goldmark's HTML writer does.
func unescape(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]) {
			out.WriteByte(b[i+1])
			i++
			continue
		}
		if c == '&' {
			if j := strings.IndexByte(string(b[i:min(len(b), i+40)]), ';'); j > 0 {
				ref := b[i : i+j+1]
				r := util.ResolveEntityNames(util.ResolveNumericReferences(ref))
				if string(r) != string(ref) {
					out.Write(r)
					i += j
					continue
				}
			}
		}
		out.WriteByte(c)
	}
	return out.String()
}
