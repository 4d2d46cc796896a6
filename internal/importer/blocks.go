package importer

import (
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// marks is a set of text marks, written in a fixed order.
type marks uint8

const (
	markBold marks = 1 << iota
	markItalic
	markStrike
	markCode
	markKeyboard
	markSuperscript
	markSubscript
)

var markOrder = []struct {
	m   marks
	typ string
}{
	{markBold, content.MarkBold}, {markItalic, content.MarkItalic}, {markStrike, content.MarkStrikethrough},
	{markCode, content.MarkCode}, {markKeyboard, content.MarkKeyboard},
	{markSuperscript, content.MarkSuperscript}, {markSubscript, content.MarkSubscript},
}

func (m marks) list() []content.Mark {
	out := []content.Mark{}
	for _, o := range markOrder {
		if m&o.m != 0 {
			out = append(out, content.Mark{Object: content.ObjectMark, Type: o.typ})
		}
	}
	return out
}

// inlineBuilder gathers inline nodes following HTML's white-space rules:
// runs of white space collapse into one space, and spaces at the start or
// end of the content, or next to a line break, disappear. Text is built in
// runs so that long paragraphs stay linear.
type inlineBuilder struct {
	nodes    []content.Node
	leaves   []content.Leaf // leaves of the text node being built
	run      strings.Builder
	runMarks marks
	started  bool  // some content has been written
	pending  bool  // white space waits for the next content
	spaceM   marks // marks of the text the pending white space was in
	lead     bool  // white space came before any content
	noSpace  bool  // a line break was just written: swallow white space
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// text adds text carrying marks m.
func (b *inlineBuilder) text(s string, m marks) {
	start := -1 // start of the current run of non-space bytes in s
	for i, r := range s {
		if isHTMLSpace(r) {
			if start >= 0 {
				b.write(s[start:i], m)
				start = -1
			}
			if !b.started {
				b.lead = true
			}
			if !b.pending {
				b.pending, b.spaceM = true, m
			}
			continue
		}
		if start < 0 {
			b.spaceBefore()
			start = i
		}
	}
	if start >= 0 {
		b.write(s[start:], m)
	}
}

// spaceBefore writes the pending space, if any, before new content.
func (b *inlineBuilder) spaceBefore() {
	if b.pending && b.started && !b.noSpace {
		b.write(" ", b.spaceM)
	}
	b.pending = false
}

func (b *inlineBuilder) write(s string, m marks) {
	if b.run.Len() > 0 && m != b.runMarks {
		b.endRun()
	}
	b.runMarks = m
	b.run.WriteString(s)
	b.started, b.noSpace = true, false
}

func (b *inlineBuilder) endRun() {
	if b.run.Len() > 0 {
		b.leaves = append(b.leaves, content.Leaf{Object: content.ObjectLeaf, Text: b.run.String(), Marks: b.runMarks.list()})
		b.run.Reset()
	}
}

func (b *inlineBuilder) endText() {
	b.endRun()
	if len(b.leaves) > 0 {
		b.nodes = append(b.nodes, content.Node{Object: content.ObjectText, Leaves: b.leaves})
		b.leaves = nil
	}
}

// lineBreak adds a hard line break (<br>), kept as "\n" in the text.
func (b *inlineBuilder) lineBreak() {
	if !b.started {
		return
	}
	b.pending = false
	b.write("\n", b.runMarks)
	b.noSpace = true
}

// node adds an inline node such as a link or an image.
func (b *inlineBuilder) node(n content.Node) {
	b.spaceBefore()
	b.endText()
	b.nodes = append(b.nodes, n)
	b.started, b.noSpace = true, false
}

// finish returns the nodes, without a trailing line break.
func (b *inlineBuilder) finish() []content.Node {
	b.endText()
	if k := len(b.nodes) - 1; k >= 0 && b.nodes[k].Object == content.ObjectText {
		ls := b.nodes[k].Leaves
		for len(ls) > 0 {
			l := &ls[len(ls)-1]
			l.Text = strings.TrimRight(l.Text, "\n")
			if l.Text != "" {
				break
			}
			ls = ls[:len(ls)-1]
		}
		b.nodes[k].Leaves = ls
		if len(ls) == 0 {
			b.nodes = b.nodes[:k]
		}
	}
	return b.nodes
}

// paragraph returns a paragraph of inlines, holding one empty text when there
// are none, as editors expect.
func paragraph(inl []content.Node) content.Node {
	if len(inl) == 0 {
		inl = []content.Node{content.NewText("")}
	}
	return content.NewBlock(content.BlockParagraph, inl...)
}

// paragraphOrImages returns nothing for no content, an images block for
// content made only of images, and a paragraph otherwise.
func paragraphOrImages(inl []content.Node) []content.Node {
	if len(inl) == 0 {
		return nil
	}
	var imgs []content.Node
	for _, n := range inl {
		if n.Type != content.InlineImage {
			return []content.Node{paragraph(inl)}
		}
		img := content.NewBlock(content.BlockImage)
		img.Data["ref"] = n.Data["ref"]
		if alt, ok := n.Data["alt"]; ok {
			img.Data["alt"] = alt
		}
		if caption, ok := n.Data["caption"].(string); ok && caption != "" {
			img.Fragments = []content.Fragment{{Object: content.ObjectFragment, Fragment: content.FragmentCaption,
				Nodes: []content.Node{paragraph([]content.Node{content.NewText(caption)})}}}
		}
		imgs = append(imgs, img)
	}
	return []content.Node{content.NewBlock(content.BlockImages, imgs...)}
}

// codeBlock returns a code block of one code-line per line of text.
func codeBlock(text, lang string) content.Node {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var lines []content.Node
	if text != "" {
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, content.NewBlock(content.BlockCodeLine, content.NewText(l)))
		}
	}
	n := content.NewBlock(content.BlockCode, lines...)
	if lang != "" {
		n.Data["syntax"] = lang
	}
	return n
}

// plainText returns the text of one node, as Document.PlainText does.
func plainText(n content.Node) string {
	d := content.Document{Nodes: []content.Node{n}}
	return d.PlainText()
}

// inlineText returns the text of inline nodes on one line.
func inlineText(nodes []content.Node) string {
	d := content.Document{Nodes: []content.Node{content.NewBlock(content.BlockParagraph, nodes...)}}
	return collapse(d.PlainText())
}

// collapse turns every run of white space into one space and trims the ends.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// truncate shortens s to at most n runes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

// ref resolves a link or image target to a content reference, as
// internal/markdown does for Markdown: in-page anchors, then pages and files
// through res for relative targets, else a URL. Images refer only to files
// and URLs.
func ref(res markdown.Resolver, target string, image bool) map[string]any {
	if !image && strings.HasPrefix(target, "#") && len(target) > 1 {
		return map[string]any{"kind": "anchor", "anchor": target[1:]}
	}
	if res != nil && isRelative(target) {
		if !image {
			if id, anchor, ok := res.Page(target); ok {
				if anchor != "" {
					return map[string]any{"kind": "anchor", "anchor": anchor, "page": id}
				}
				return map[string]any{"kind": "page", "page": id}
			}
		}
		if id, ok := res.File(target); ok {
			return map[string]any{"kind": "file", "file": id}
		}
	}
	return map[string]any{"kind": "url", "url": target}
}

// isRelative reports whether target is a path rather than an absolute URL,
// a protocol-relative URL or an in-page anchor.
func isRelative(target string) bool {
	if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "//") {
		return false
	}
	if i := strings.IndexByte(target, ':'); i > 0 && !strings.ContainsAny(target[:i], "/?#") {
		return false
	}
	return true
}
