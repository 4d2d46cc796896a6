package markdown

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/foliodocs/folio/internal/content"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gfm is the goldmark setup: CommonMark, GFM and inline $$math$$. The
// link parser is goldmark's own behind linkGuard (linkguard.go); emphasis
// and strikethrough are read by delimParser and matched by emphasisPass
// (emphasis.go) in place of goldmark's parsers, so GFM is its parts
// without extension.Strikethrough.
var gfm = goldmark.New(
	goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(inlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithASTTransformers(util.Prioritized(emphasisPass{}, 100)),
	)),
	goldmark.WithExtensions(extension.Linkify, extension.Table, extension.TaskList),
	goldmark.WithParserOptions(parser.WithInlineParsers(
		util.Prioritized(mathParser{}, 150),
		// The priority extension.Strikethrough gives its parser.
		util.Prioritized(delimParser{strike: true}, 500),
	)),
)

// inlineParsers returns goldmark's default inline parsers with the link
// parser wrapped in linkGuard and delimParser for the emphasis parser.
func inlineParsers() []util.PrioritizedValue {
	ps := parser.DefaultInlineParsers()
	link := parser.NewLinkParser()         // goldmark's one link parser
	emphasis := parser.NewEmphasisParser() // and its one emphasis parser
	for i := range ps {
		switch ps[i].Value {
		case link:
			ps[i].Value = linkGuard{inner: link}
		case emphasis:
			ps[i].Value = delimParser{}
		}
	}
	return ps
}

// converter turns segments and goldmark trees into Document nodes.
type converter struct {
	resolver Resolver
	reusable ReusableResolver // resolver's optional extension, or nil
	data     DataResolver     // resolver's optional extension, or nil
	keeper   rawKeeper
	allowed  blockSet // what the container being converted may hold
	src      []byte   // the source of the Markdown segment being converted
	inAlt    bool     // converting an image's alt text
}

func (c *converter) segments(s *segment) []content.Node {
	var out []content.Node
	for _, ch := range s.children {
		out = append(out, c.segment(ch)...)
	}
	return out
}

// within converts the children of s for a container that may hold
// allowed.
func (c *converter) within(s *segment, allowed blockSet) []content.Node {
	saved := c.allowed
	c.allowed = allowed
	defer func() { c.allowed = saved }()
	return c.segments(s)
}

// voidTags are the segments that become one void block, which some
// containers cannot hold: there they stay raw text rather than lose
// their meaning to fit.
var voidTags = map[segKind]string{
	segEmbed: content.BlockEmbed, segContentRef: content.BlockContentRef, segInclude: content.BlockReusableContent,
	segFigures: content.BlockImages, segOpenAPI: content.BlockOpenAPIOperation, segFile: content.BlockFile,
}

func (c *converter) segment(s *segment) []content.Node {
	if typ, ok := voidTags[s.kind]; ok && c.allowed != nil && !c.allowed[typ] {
		return []content.Node{c.rawParagraph(s.source)}
	}
	switch s.kind {
	case segMarkdown:
		return c.markdown([]byte(s.text))
	case segHint:
		n := block(content.BlockHint, fit(hintBlocks, c.within(s, hintBlocks)))
		n.Data["style"] = s.attr
		return []content.Node{n}
	case segTabs:
		return []content.Node{c.items(s, content.BlockTabs, content.BlockTabsItem, segTab)}
	case segStepper:
		return []content.Node{c.items(s, content.BlockStepper, content.BlockStepperStep, segStep)}
	case segEmbed:
		n := voidBlock(content.BlockEmbed)
		n.Data["url"] = s.attr
		if s.text != "" {
			n.Data["caption"] = s.text
		}
		return []content.Node{n}
	case segContentRef:
		n := voidBlock(content.BlockContentRef)
		n.Data["ref"] = c.ref(s.attr, false)
		if s.text != s.attr {
			c.keeper.label(&n, s.text)
		}
		return []content.Node{n}
	case segCode:
		nodes := c.markdown([]byte(s.text))
		data, _ := parseCodeAttrs(s.attr)
		if len(nodes) == 1 && nodes[0].Type == content.BlockCode {
			for k, v := range data {
				nodes[0].Data[k] = v
			}
		}
		return nodes
	case segInclude:
		id, ok := strings.CutPrefix(s.attr, "reusable:")
		if !ok && c.reusable != nil && isRelative(s.attr) {
			id, ok = c.reusable.Reusable(s.attr)
		}
		if !ok || id == "" {
			return []content.Node{c.rawParagraph(s.source)}
		}
		n := voidBlock(content.BlockReusableContent)
		n.Data["ref"] = map[string]any{"kind": "reusable-content", "reusableContent": id}
		return []content.Node{n}
	case segFigures:
		var imgs []content.Node
		for _, f := range s.figures {
			img := voidBlock(content.BlockImage)
			img.Fragments = []content.Fragment{}
			img.Data["ref"] = c.ref(f.src, true)
			img.Data["alt"] = f.alt
			if f.width != "" {
				w, _ := strconv.ParseFloat(f.width, 64)
				img.Data["width"] = w
			}
			if f.caption != "" {
				img.Fragments = append(img.Fragments, captionFragment(f.caption))
			}
			imgs = append(imgs, img)
		}
		n := block(content.BlockImages, imgs)
		if s.align != "" {
			n.Data["align"] = s.align
		}
		return []content.Node{n}
	case segOpenAPI:
		var n content.Node
		if s.attr == "openapi-operation" {
			n = voidBlock(content.BlockOpenAPIOperation)
			n.Data["ref"] = map[string]any{"kind": "openapi", "spec": s.attrs["spec"]}
		} else {
			n = voidBlock(content.BlockOpenAPI)
			n.Data["ref"] = c.ref(s.attrs["src"], true)
		}
		n.Data["path"], n.Data["method"] = s.attrs["path"], s.attrs["method"]
		if r, _ := n.Data["ref"].(map[string]any); r["kind"] != "file" && (&writer{}).block(n, false) != s.source {
			// The link inside names the spec's source, which the block
			// does not hold.
			c.keeper.keep(&n, s.source)
		}
		return []content.Node{n}
	case segRaw:
		if s.plain {
			return []content.Node{paragraph([]content.Node{textNode(s.text, 0)})}
		}
		return []content.Node{c.rawParagraph(s.text)}
	case segFile:
		n := c.file(s.attr, s.text)
		if n.Type == content.BlockParagraph {
			c.keeper.keep(&n, s.source)
		}
		return []content.Node{n}
	case segMath:
		n := voidBlock(content.BlockMath)
		n.Data["formula"] = s.text
		return []content.Node{n}
	case segDetails:
		title := c.inlineOnly(s.attr)
		body := fit(expandableBlocks, c.within(s, expandableBlocks))
		if len(body) == 0 {
			body = []content.Node{paragraph(nil)}
		}
		n := voidBlock(content.BlockExpandable)
		n.Fragments = []content.Fragment{
			{Object: content.ObjectFragment, Fragment: content.FragmentExpandableTitle, Type: content.FragmentExpandableTitle,
				Nodes: []content.Node{paragraph(title)}},
			{Object: content.ObjectFragment, Fragment: content.FragmentExpandableBody, Type: content.FragmentExpandableBody,
				Nodes: body},
		}
		return []content.Node{n}
	}
	return nil
}

// items converts tabs or a stepper: each item segment becomes an item
// block; content between items joins the item before it, or a new one.
func (c *converter) items(s *segment, typ, itemType string, itemKind segKind) content.Node {
	allowed := tabBlocks
	newItem := func(nodes []content.Node, title string) content.Node {
		it := block(itemType, fit(allowed, nodes))
		if typ == content.BlockTabs {
			it.Data["title"] = title
		}
		return it
	}
	var items []content.Node
	for _, ch := range s.children {
		if ch.kind == itemKind {
			items = append(items, newItem(c.within(ch, allowed), ch.attr))
			continue
		}
		saved := c.allowed
		c.allowed = allowed
		nodes := c.segment(ch)
		c.allowed = saved
		if len(nodes) == 0 {
			continue
		}
		if len(items) == 0 {
			items = append(items, newItem(nil, ""))
		}
		last := &items[len(items)-1]
		last.Nodes = append(last.Nodes, fit(allowed, nodes)...)
	}
	return block(typ, items)
}

// rawParagraph returns a paragraph holding Markdown source that has no
// Document form as its text, and keeps the source for FromDocument.
func (c *converter) rawParagraph(source string) content.Node {
	n := paragraph([]content.Node{textNode(source, 0)})
	c.keeper.keep(&n, source)
	return n
}

// captionFragment returns an image caption holding text.
func captionFragment(text string) content.Fragment {
	return content.Fragment{Object: content.ObjectFragment, Fragment: content.FragmentCaption,
		Nodes: []content.Node{paragraph([]content.Node{textNode(text, 0)})}}
}

// file converts {% file src %}: a file reference when the source resolves,
// else a paragraph linking to it, so nothing is lost.
func (c *converter) file(src, caption string) content.Node {
	if ref := c.ref(src, true); ref["kind"] == "file" {
		n := voidBlock(content.BlockFile)
		n.Data["ref"] = ref
		if caption != "" {
			n.Data["caption"] = caption
		}
		return n
	}
	label := caption
	if label == "" {
		label = src
	}
	return paragraph([]content.Node{c.link(c.ref(src, false), []content.Node{textNode(label, 0)})})
}

// inlineOnly parses a line of Markdown and returns its inline nodes,
// flattening any block structure into text.
func (c *converter) inlineOnly(s string) []content.Node {
	nodes := c.markdown([]byte(s))
	if len(nodes) == 1 && nodes[0].Type == content.BlockParagraph {
		return nodes[0].Nodes
	}
	d := content.Document{Nodes: nodes}
	return []content.Node{textNode(strings.ReplaceAll(d.PlainText(), "\n", " "), 0)}
}

func (c *converter) markdown(src []byte) []content.Node {
	saved := c.src
	c.src = src
	defer func() { c.src = saved }()
	root := gfm.Parser().Parse(text.NewReader(src))
	return c.blocks(root)
}

func (c *converter) blocks(parent ast.Node) []content.Node {
	var out []content.Node
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		out = append(out, c.block(n)...)
	}
	return out
}

func (c *converter) block(n ast.Node) []content.Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		inl := c.inlines(n, 0)
		if imgs := imagesOnly(inl); imgs != nil {
			return []content.Node{block(content.BlockImages, imgs)}
		}
		p := paragraph(inl)
		c.keepLossy(&p, n)
		return []content.Node{p}
	case *ast.Heading:
		typ := content.BlockHeading3
		switch n.Level {
		case 1:
			typ = content.BlockHeading1
		case 2:
			typ = content.BlockHeading2
		}
		h := block(typ, c.inlines(n, 0))
		if src, ok := c.topSource(n); ok && strings.HasPrefix(src, "#") { // not setext
			c.keepLossy(&h, n)
		}
		return []content.Node{h}
	case *ast.ThematicBreak:
		return []content.Node{voidBlock(content.BlockDivider)}
	case *ast.FencedCodeBlock:
		b := c.code(linesText(n, c.src))
		if n.Info != nil {
			if lang := string(n.Language(c.src)); lang != "" {
				b.Data["syntax"] = lang
			}
		}
		return []content.Node{b}
	case *ast.CodeBlock:
		return []content.Node{c.code(linesText(n, c.src))}
	case *ast.Blockquote:
		if h, ok := c.alert(n); ok {
			return []content.Node{h}
		}
		return []content.Node{block(content.BlockQuote, fit(quoteBlocks, c.blocks(n)))}
	case *ast.List:
		return []content.Node{c.list(n)}
	case *ast.HTMLBlock:
		if src, ok := c.topSource(n); ok {
			if n.HasClosure() {
				src = c.extend(n.Lines().At(0).Start, n.ClosureLine.Stop)
			}
			return []content.Node{c.rawParagraph(src)}
		}
		var lines []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			lines = append(lines, strings.TrimSpace(string(seg.Value(c.src))))
		}
		if n.HasClosure() {
			lines = append(lines, strings.TrimSpace(string(n.ClosureLine.Value(c.src))))
		}
		return textParagraphs(strings.Join(lines, "\n"))
	case *east.Table:
		return []content.Node{c.table(n)}
	}
	// Unknown blocks: keep their lines as text, or their children.
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		var lines []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			lines = append(lines, strings.TrimSpace(string(seg.Value(c.src))))
		}
		return textParagraphs(strings.Join(lines, "\n"))
	}
	return c.blocks(n)
}

// topSource returns the source lines of a block that is a child of the
// segment's root, whole lines from their first byte, without the final
// line break; other blocks have their container's markers in their lines.
func (c *converter) topSource(n ast.Node) (string, bool) {
	if n.Parent() == nil || n.Parent().Kind() != ast.KindDocument || n.Lines().Len() == 0 {
		return "", false
	}
	return c.extend(n.Lines().At(0).Start, n.Lines().At(n.Lines().Len()-1).Stop), true
}

// extend returns c.src[start:stop] widened to whole lines, without the
// final line break and the indentation of the first line.
func (c *converter) extend(start, stop int) string {
	start, stop = max(0, min(start, len(c.src))), max(0, min(stop, len(c.src)))
	for start > 0 && c.src[start-1] != '\n' {
		start--
	}
	if stop > start && c.src[stop-1] == '\n' {
		stop--
	}
	for stop < len(c.src) && c.src[stop] != '\n' {
		stop++
	}
	return strings.TrimLeft(strings.TrimRight(string(c.src[start:stop]), "\r\n"), " ")
}

// keepLossy keeps the source of a top-level paragraph or heading that
// FromDocument would not write back as it was read (GitBook's anchors,
// colour marks and entities, soft line breaks, other emphasis markers...),
// unless it refers to pages or files, whose paths an export must write
// afresh.
func (c *converter) keepLossy(node *content.Node, n ast.Node) {
	src, ok := c.topSource(n)
	if !ok || refersToContent(node.Nodes) {
		return
	}
	if (&writer{}).block(*node, false) != src {
		c.keeper.keep(node, src)
	}
}

// refersToContent reports whether inline nodes link to a page, an anchor
// of a page or a file.
func refersToContent(nodes []content.Node) bool {
	for _, n := range nodes {
		if r, ok := n.Data["ref"].(map[string]any); ok {
			if k := r["kind"]; k == "page" || k == "file" || (k == "anchor" && r["page"] != nil) {
				return true
			}
		}
		if refersToContent(n.Nodes) {
			return true
		}
	}
	return false
}

// textParagraphs returns one paragraph holding s as plain text, trimmed so
// that it writes back and reads again unchanged; nothing for blank text.
func textParagraphs(s string) []content.Node {
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return []content.Node{paragraph([]content.Node{textNode(strings.Join(kept, "\n"), 0)})}
}

func linesText(n ast.Node, src []byte) string {
	var buf strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		buf.Write(seg.Value(src))
	}
	return buf.String()
}

// code returns a code block of one code-line per line of text.
func (c *converter) code(text string) content.Node {
	var lines []content.Node
	body := strings.TrimSuffix(text, "\n")
	if text != "" {
		for _, l := range strings.Split(body, "\n") {
			lines = append(lines, block(content.BlockCodeLine, []content.Node{textNode(strings.TrimSuffix(l, "\r"), 0)}))
		}
	}
	return block(content.BlockCode, lines)
}

func (c *converter) list(n *ast.List) content.Node {
	typ := content.BlockListUnordered
	if n.IsOrdered() {
		typ = content.BlockListOrdered
	}
	var items []content.Node
	tasks := false
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := block(content.BlockListItem, nil)
		if cb := taskBox(it); cb != nil {
			tasks = true
			item.Data["checked"] = cb.IsChecked
			cb.Parent().RemoveChild(cb.Parent(), cb)
		}
		item.Nodes = fit(listItemBlocks, c.blocks(it))
		items = append(items, item)
	}
	if tasks {
		typ = content.BlockListTasks
		for i := range items {
			if _, ok := items[i].Data["checked"]; !ok {
				items[i].Data["checked"] = false
			}
		}
	}
	l := block(typ, items)
	if typ == content.BlockListOrdered && n.Start != 1 {
		l.Data["start"] = float64(n.Start)
	}
	return l
}

func taskBox(item ast.Node) *east.TaskCheckBox {
	first := item.FirstChild()
	if first == nil {
		return nil
	}
	cb, _ := first.FirstChild().(*east.TaskCheckBox)
	return cb
}

func (c *converter) table(n *east.Table) content.Node {
	var header []string
	var rows [][][]content.Node
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		var cells [][]content.Node
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, c.inlines(cell, 0))
		}
		if _, ok := r.(*east.TableHeader); ok {
			for _, cell := range cells {
				header = append(header, inlineText(cell))
			}
			continue
		}
		rows = append(rows, cells)
	}
	var aligns []string
	for i := range header {
		a := "left"
		if i < len(n.Alignments) {
			switch n.Alignments[i] {
			case east.AlignCenter:
				a = "center"
			case east.AlignRight:
				a = "right"
			}
		}
		aligns = append(aligns, a)
	}
	return makeTable(header, aligns, rows)
}

// makeTable builds GitBook's table block: one text column definition per
// header cell, one record per row whose values name the fragment holding
// each cell. IDs are derived from positions so conversions are repeatable.
func makeTable(header, aligns []string, rows [][][]content.Node) content.Node {
	columns := make([]any, 0, len(header))
	definition := map[string]any{}
	for i, h := range header {
		id := fmt.Sprintf("c%d", i)
		columns = append(columns, id)
		definition[id] = map[string]any{"id": id, "title": h, "type": "text", "textAlignment": aligns[i]}
	}
	records := map[string]any{}
	fragments := []content.Fragment{}
	for r, row := range rows {
		values := map[string]any{}
		for i := range header {
			key := fmt.Sprintf("r%dc%d", r, i)
			var cell []content.Node
			if i < len(row) {
				cell = row[i]
			}
			values[columns[i].(string)] = key
			fragments = append(fragments, content.Fragment{Object: content.ObjectFragment, Fragment: key,
				Nodes: []content.Node{paragraph(cell)}})
		}
		records[fmt.Sprintf("r%d", r)] = map[string]any{"orderIndex": fmt.Sprintf("a%08d", r), "values": values}
	}
	t := voidBlock(content.BlockTable)
	t.Data["view"] = map[string]any{"type": "grid", "columns": columns, "hideHeader": false}
	t.Data["records"] = records
	t.Data["definition"] = definition
	t.Fragments = fragments
	return t
}

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
