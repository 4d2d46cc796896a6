package markdown

import (
	"fmt"
	"strconv"
	"strings"

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
