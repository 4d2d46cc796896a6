package importer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLNesting bounds how deep HTML elements are walked; deeper subtrees
// are reduced to their text first, so no recursion here grows with the input.
const maxHTMLNesting = 256

// page is a converted page before it joins a tree.
type page struct {
	doc         *content.Document
	title       string // "" when the source names none
	description string
	icon        string // a Markdown page's front matter "icon:", "" for none
}

// convertHTML parses HTML into a Document. The first top-level heading-1
// becomes the title and leaves the body, else <title> gives it; <meta
// name="description"> gives the description. Invalid UTF-8 is replaced.
func convertHTML(src []byte, res markdown.Resolver) (page, error) {
	src = cleanText(src)
	var p page
	root, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		// The parser gives up on elements nested more than 512 deep; the
		// page's text is still worth keeping.
		p.title, p.doc = htmlText(src)
		if err := p.doc.Validate("html"); err != nil {
			return page{}, err
		}
		return p, nil
	}
	flattenDeep(root)
	c := &htmlConverter{res: res, hasBlock: map[*html.Node]bool{}}
	var body *html.Node
	for n := range root.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.DataAtom {
		case atom.Title:
			if p.title == "" && n.Namespace == "" { // not an SVG's <title>
				p.title = collapse(textOf(n))
			}
		case atom.Meta:
			if strings.EqualFold(attr(n, "name"), "description") && p.description == "" {
				p.description = collapse(attr(n, "content"))
			}
		case atom.Body:
			if body == nil {
				body = n
			}
		}
	}
	var nodes []content.Node
	if body != nil {
		nodes = c.blocks(body)
	}
	for i, n := range nodes {
		if n.Type == content.BlockHeading1 {
			p.title = collapse(plainText(n))
			nodes = append(nodes[:i], nodes[i+1:]...)
			break
		}
	}
	p.doc = &content.Document{Object: content.ObjectDocument, Data: map[string]any{},
		Nodes: markdown.ClampDepth(markdown.Fit(markdown.ContainerDocument, nodes))}
	p.doc.Normalize()
	if err := p.doc.Validate("html"); err != nil {
		return page{}, err
	}
	return p, nil
}

// htmlText returns the <title> and a document of paragraphs holding the
// text of src, one per block element, read with the tokenizer alone.
func htmlText(src []byte) (string, *content.Document) {
	z := html.NewTokenizer(bytes.NewReader(src))
	var title string
	var nodes []content.Node
	var text strings.Builder
	flush := func() {
		if t := collapse(text.String()); t != "" {
			nodes = append(nodes, paragraph([]content.Node{content.NewText(t)}))
		}
		text.Reset()
	}
	skip := atom.Atom(0) // the element whose raw text is being skipped
	inTitle := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		switch tt {
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case tt == html.StartTagToken && (a == atom.Script || a == atom.Style || a == atom.Template || a == atom.Noscript):
				skip = a
			case tt == html.EndTagToken && a == skip:
				skip = 0
			case a == atom.Title:
				inTitle = tt == html.StartTagToken
			case blockElements[a] || a == atom.Br:
				flush()
			}
		case html.TextToken:
			switch {
			case skip != 0:
			case inTitle:
				title += string(z.Text())
			default:
				text.Write(z.Text())
				text.WriteByte(' ')
			}
		}
	}
	flush()
	doc := &content.Document{Object: content.ObjectDocument, Data: map[string]any{}, Nodes: nodes}
	doc.Normalize()
	return collapse(title), doc
}

// flattenDeep replaces every element nested deeper than maxHTMLNesting with
// a text node of its text, without recursion.
func flattenDeep(root *html.Node) {
	type item struct {
		n     *html.Node
		depth int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth >= maxHTMLNesting && it.n.FirstChild != nil {
			text := textOf(it.n)
			for it.n.FirstChild != nil {
				it.n.RemoveChild(it.n.FirstChild)
			}
			it.n.AppendChild(&html.Node{Type: html.TextNode, Data: text})
			continue
		}
		for ch := it.n.FirstChild; ch != nil; ch = ch.NextSibling {
			stack = append(stack, item{ch, it.depth + 1})
		}
	}
}

// textOf returns the text of n's subtree in document order, without
// recursion; <br> counts as a line break.
func textOf(n *html.Node) string {
	var b strings.Builder
	stack := []*html.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case x.Type == html.TextNode:
			b.WriteString(x.Data)
		case x.Type == html.ElementNode && x.DataAtom == atom.Br:
			b.WriteByte('\n')
		case x.Type == html.ElementNode && skipped(x) && x != n:
			continue
		}
		// Children are pushed last first so they pop in document order.
		for ch := x.LastChild; ch != nil; ch = ch.PrevSibling {
			stack = append(stack, ch)
		}
	}
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// skipped reports whether an element and its content are left out: scripts,
// styles, navigation, the head, embedded objects, form controls and hidden
// elements.
func skipped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Nav, atom.Head, atom.Noscript, atom.Template, atom.Iframe,
		atom.Object, atom.Embed, atom.Svg, atom.Math, atom.Canvas, atom.Input, atom.Select,
		atom.Textarea, atom.Button, atom.Video, atom.Audio, atom.Link, atom.Meta, atom.Title:
		return true
	}
	if n.Namespace != "" { // foreign content the switch above does not name
		return true
	}
	return hasAttr(n, "hidden") || attr(n, "aria-hidden") == "true"
}

// blockElements are the elements that start a new block; any other element
// is inline, unless it holds one of these.
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Body: true,
	atom.Center: true, atom.Dd: true, atom.Details: true, atom.Dialog: true, atom.Dir: true, atom.Div: true,
	atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true,
	atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Header: true, atom.Hgroup: true, atom.Hr: true, atom.Html: true,
	atom.Legend: true, atom.Li: true, atom.Main: true, atom.Menu: true, atom.Ol: true, atom.P: true,
	atom.Pre: true, atom.Section: true, atom.Summary: true, atom.Table: true, atom.Tbody: true,
	atom.Td: true, atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Tr: true, atom.Ul: true,
	atom.Caption: true,
}

// htmlConverter turns an HTML tree into Document nodes.
type htmlConverter struct {
	res      markdown.Resolver
	hasBlock map[*html.Node]bool // memo of holdsBlock
}

// holdsBlock reports whether n is or holds a block element, in which case it
// is walked as a block container even if it is an inline element (a card
// link around a heading, a span around paragraphs).
func (c *htmlConverter) holdsBlock(n *html.Node) bool {
	if n.Type != html.ElementNode || skipped(n) {
		return false
	}
	if blockElements[n.DataAtom] {
		return true
	}
	if v, ok := c.hasBlock[n]; ok {
		return v
	}
	v := false
	for ch := n.FirstChild; ch != nil && !v; ch = ch.NextSibling {
		v = c.holdsBlock(ch)
	}
	c.hasBlock[n] = v
	return v
}

// blocks converts the children of n into blocks; inline content between
// blocks gathers into paragraphs.
func (c *htmlConverter) blocks(n *html.Node) []content.Node { return c.blocksExcept(n, nil) }

// blocksExcept is blocks, leaving out the children taken returns true
// for (the caller converts them itself).
func (c *htmlConverter) blocksExcept(n *html.Node, taken func(*html.Node) bool) []content.Node {
	var out []content.Node
	var inl inlineBuilder
	flush := func() {
		out = append(out, paragraphOrImages(inl.finish())...)
		inl = inlineBuilder{}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case taken != nil && taken(ch):
		case ch.Type == html.TextNode:
			inl.text(ch.Data, 0)
		case ch.Type != html.ElementNode || skipped(ch):
		case c.holdsBlock(ch):
			flush()
			out = append(out, c.block(ch)...)
		default:
			c.inline(&inl, ch, 0)
		}
	}
	flush()
	return out
}

// block converts one block-level element.
func (c *htmlConverter) block(n *html.Node) []content.Node {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		typ := content.BlockHeading3
		switch n.DataAtom {
		case atom.H1:
			typ = content.BlockHeading1
		case atom.H2:
			typ = content.BlockHeading2
		}
		inl := c.inlines(n)
		if len(inl) == 0 {
			return nil
		}
		return []content.Node{content.NewBlock(typ, inl...)}
	case atom.P:
		var b inlineBuilder
		c.inlineChildren(&b, n, 0)
		return paragraphOrImages(b.finish())
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		if l, ok := c.list(n); ok {
			return []content.Node{l}
		}
		return nil
	case atom.Pre:
		return []content.Node{codeBlock(textOf(n), language(n))}
	case atom.Blockquote:
		if nodes := markdown.Fit(markdown.ContainerQuote, c.blocks(n)); len(nodes) > 0 {
			return []content.Node{content.NewBlock(content.BlockQuote, nodes...)}
		}
		return nil
	case atom.Hr:
		return []content.Node{content.NewBlock(content.BlockDivider)}
	case atom.Table:
		return c.table(n)
	case atom.Details:
		return []content.Node{c.details(n)}
	case atom.Figure:
		return c.figure(n)
	}
	// Containers (div, section, li outside a list...) and inline elements
	// holding blocks are transparent.
	return c.blocks(n)
}

// inlines returns the inline content of n.
func (c *htmlConverter) inlines(n *html.Node) []content.Node {
	var b inlineBuilder
	c.inlineChildren(&b, n, 0)
	return b.finish()
}

func (c *htmlConverter) inlineChildren(b *inlineBuilder, n *html.Node, m marks) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			b.text(ch.Data, m)
		case html.ElementNode:
			c.inline(b, ch, m)
		}
	}
}

// inline adds one element in inline context. Block elements met here (in a
// heading, a summary or a table header) only separate words.
func (c *htmlConverter) inline(b *inlineBuilder, n *html.Node, m marks) {
	if skipped(n) {
		return
	}
	switch n.DataAtom {
	case atom.Strong, atom.B:
		m |= markBold
	case atom.Em, atom.I, atom.Cite, atom.Dfn, atom.Var:
		m |= markItalic
	case atom.S, atom.Del, atom.Strike:
		m |= markStrike
	case atom.Code, atom.Tt, atom.Samp:
		m |= markCode
	case atom.Kbd:
		m |= markKeyboard
	case atom.Sup:
		m |= markSuperscript
	case atom.Sub:
		m |= markSubscript
	case atom.Br:
		b.lineBreak()
		return
	case atom.Img:
		if img, ok := c.image(n); ok {
			b.node(img)
		}
		return
	case atom.A:
		c.link(b, n, m)
		return
	}
	sep := blockElements[n.DataAtom]
	if sep {
		b.text(" ", m)
	}
	c.inlineChildren(b, n, m)
	if sep {
		b.text(" ", m)
	}
}

// link adds an <a>: a link inline when it has an href and content, else its
// content alone. White space at the link's ends moves outside it.
func (c *htmlConverter) link(b *inlineBuilder, n *html.Node, m marks) {
	href := strings.TrimSpace(attr(n, "href"))
	if href == "" || strings.HasPrefix(strings.ToLower(href), "javascript:") {
		c.inlineChildren(b, n, m)
		return
	}
	var in inlineBuilder
	c.inlineChildren(&in, n, m)
	children := linkChildren(in.finish())
	if len(children) == 0 {
		return
	}
	if in.lead {
		b.text(" ", m)
	}
	l := content.NewInline(content.InlineLink, children...)
	l.Data["ref"] = ref(c.res, href, false)
	b.node(l)
	if in.pending {
		b.text(" ", m)
	}
}

// linkChildren keeps what a link may hold, text and inline images,
// splicing the content of anything else (nested links) in its place.
func linkChildren(nodes []content.Node) []content.Node {
	var out []content.Node
	for _, n := range nodes {
		switch {
		case n.Object == content.ObjectText, n.Type == content.InlineImage:
			out = append(out, n)
		default:
			out = append(out, linkChildren(n.Nodes)...)
		}
	}
	return out
}

// image returns the inline image of an <img>; images without a usable
// source (none, or inline data: URIs that would bloat the document) are
// dropped.
func (c *htmlConverter) image(n *html.Node) (content.Node, bool) {
	src := strings.TrimSpace(attr(n, "src"))
	if src == "" {
		src = strings.TrimSpace(attr(n, "data-src"))
	}
	if src == "" || strings.HasPrefix(strings.ToLower(src), "data:") {
		return content.Node{}, false
	}
	img := content.NewInline(content.InlineImage)
	img.Data["ref"] = ref(c.res, src, true)
	if alt := collapse(attr(n, "alt")); alt != "" {
		img.Data["alt"] = alt
	}
	if title := collapse(attr(n, "title")); title != "" {
		img.Data["caption"] = title
	}
	return img, true
}

// list converts ul/ol; items holding a leading checkbox make a task list.
func (c *htmlConverter) list(n *html.Node) (content.Node, bool) {
	typ := content.BlockListUnordered
	if n.DataAtom == atom.Ol {
		typ = content.BlockListOrdered
	}
	var items []content.Node
	tasks := false
	var stray []content.Node // content outside <li>, attached to the item before it
	addStray := func() {
		if len(stray) == 0 {
			return
		}
		if len(items) == 0 {
			items = append(items, content.NewBlock(content.BlockListItem))
		}
		last := &items[len(items)-1]
		last.Nodes = append(last.Nodes, markdown.Fit(markdown.ContainerListItem, stray)...)
		stray = nil
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && ch.DataAtom == atom.Li {
			addStray()
			item := content.NewBlock(content.BlockListItem, markdown.Fit(markdown.ContainerListItem, c.blocks(ch))...)
			if box := checkbox(ch); box != nil {
				tasks = true
				item.Data["checked"] = hasAttr(box, "checked")
			}
			items = append(items, item)
			continue
		}
		if ch.Type == html.ElementNode && !skipped(ch) && c.holdsBlock(ch) {
			stray = append(stray, c.block(ch)...)
			continue
		}
		if ch.Type == html.TextNode || ch.Type == html.ElementNode {
			var b inlineBuilder
			if ch.Type == html.TextNode {
				b.text(ch.Data, 0)
			} else {
				c.inline(&b, ch, 0)
			}
			stray = append(stray, paragraphOrImages(b.finish())...)
		}
	}
	addStray()
	if len(items) == 0 {
		return content.Node{}, false
	}
	for i := range items {
		if len(items[i].Nodes) == 0 {
			items[i].Nodes = []content.Node{paragraph(nil)}
		}
		if tasks {
			if _, ok := items[i].Data["checked"]; !ok {
				items[i].Data["checked"] = false
			}
		}
	}
	if tasks {
		typ = content.BlockListTasks
	}
	l := content.NewBlock(typ, items...)
	if typ == content.BlockListOrdered {
		if start, err := strconv.Atoi(strings.TrimSpace(attr(n, "start"))); err == nil && start >= 0 && start != 1 {
			l.Data["start"] = float64(start)
		}
	}
	return l, true
}

// checkbox returns the <input type=checkbox> that opens a list item, before
// any text, or nil.
func checkbox(li *html.Node) *html.Node {
	for n := range li.Descendants() {
		switch {
		case n.Type == html.TextNode && strings.TrimSpace(n.Data) != "":
			return nil
		case n.Type == html.ElementNode && n.DataAtom == atom.Input:
			if strings.EqualFold(attr(n, "type"), "checkbox") {
				return n
			}
			return nil
		case n.Type == html.ElementNode && (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol || n.DataAtom == atom.Img):
			return nil
		}
	}
	return nil
}

// language reads a code block's language from class="language-x" (or
// "lang-x") on the <pre> or the <code> inside it.
func language(pre *html.Node) string {
	nodes := []*html.Node{pre}
	for ch := pre.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && ch.DataAtom == atom.Code {
			nodes = append(nodes, ch)
		}
	}
	for _, n := range nodes {
		for _, class := range strings.Fields(attr(n, "class")) {
			for _, prefix := range []string{"language-", "lang-"} {
				if lang, ok := strings.CutPrefix(class, prefix); ok && lang != "" {
					return lang
				}
			}
		}
		if lang := attr(n, "data-lang"); lang != "" {
			return lang
		}
	}
	return ""
}

// details converts <details><summary> into an expandable.
func (c *htmlConverter) details(n *html.Node) content.Node {
	var title []content.Node
	seenSummary := false
	body := c.blocksExcept(n, func(ch *html.Node) bool {
		if ch.Type != html.ElementNode || ch.DataAtom != atom.Summary || seenSummary {
			return false
		}
		seenSummary = true
		title = c.inlines(ch)
		return true
	})
	body = markdown.Fit(markdown.ContainerExpandable, body)
	if len(body) == 0 {
		body = []content.Node{paragraph(nil)}
	}
	return expandable(paragraph(title), body)
}

func expandable(title content.Node, body []content.Node) content.Node {
	n := content.NewBlock(content.BlockExpandable)
	n.Fragments = []content.Fragment{
		{Object: content.ObjectFragment, Fragment: content.FragmentExpandableTitle, Type: content.FragmentExpandableTitle,
			Nodes: []content.Node{title}},
		{Object: content.ObjectFragment, Fragment: content.FragmentExpandableBody, Type: content.FragmentExpandableBody,
			Nodes: body},
	}
	return n
}

// figure converts <figure>: its content, with the <figcaption> as the
// caption of the last image, or as a paragraph when there is no image.
func (c *htmlConverter) figure(n *html.Node) []content.Node {
	var caption []content.Node
	var out []content.Node
	var inl inlineBuilder
	flush := func() {
		out = append(out, paragraphOrImages(inl.finish())...)
		inl = inlineBuilder{}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case ch.Type == html.ElementNode && ch.DataAtom == atom.Figcaption:
			caption = append(caption, c.inlines(ch)...)
		case ch.Type == html.TextNode:
			inl.text(ch.Data, 0)
		case ch.Type != html.ElementNode || skipped(ch):
		case c.holdsBlock(ch):
			flush()
			out = append(out, c.block(ch)...)
		default:
			c.inline(&inl, ch, 0)
		}
	}
	flush()
	if len(caption) == 0 {
		return out
	}
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Type == content.BlockImages && len(out[i].Nodes) > 0 {
			img := &out[i].Nodes[len(out[i].Nodes)-1]
			img.Fragments = []content.Fragment{{Object: content.ObjectFragment, Fragment: content.FragmentCaption,
				Nodes: []content.Node{paragraph(caption)}}}
			return out
		}
	}
	return append(out, paragraph(caption))
}

// table converts a <table>: the first row becomes the header when it sits in
// <thead> or holds only <th> cells; otherwise the header is hidden. A
// <caption> becomes a paragraph before the table.
func (c *htmlConverter) table(n *html.Node) []content.Node {
	type row struct {
		cells  []*html.Node
		header bool
	}
	var rows []row
	var out []content.Node
	addRow := func(tr *html.Node, inHead bool) {
		r := row{header: true}
		for cell := tr.FirstChild; cell != nil; cell = cell.NextSibling {
			if cell.Type == html.ElementNode && (cell.DataAtom == atom.Td || cell.DataAtom == atom.Th) {
				r.cells = append(r.cells, cell)
				if cell.DataAtom == atom.Td && !inHead {
					r.header = false
				}
			}
		}
		if len(r.cells) > 0 {
			rows = append(rows, r)
		}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		switch ch.DataAtom {
		case atom.Caption:
			out = append(out, paragraphOrImages(c.inlines(ch))...)
		case atom.Tr:
			addRow(ch, false)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			for tr := ch.FirstChild; tr != nil; tr = tr.NextSibling {
				if tr.Type == html.ElementNode && tr.DataAtom == atom.Tr {
					addRow(tr, ch.DataAtom == atom.Thead)
				}
			}
		}
	}
	if len(rows) == 0 {
		return out
	}
	var header []string
	hide := true
	if rows[0].header {
		hide = false
		for _, cell := range rows[0].cells {
			header = append(header, inlineText(c.inlines(cell)))
		}
		rows = rows[1:]
	}
	var body [][][]content.Node
	for _, r := range rows {
		var cells [][]content.Node
		for _, cell := range r.cells {
			cells = append(cells, markdown.Fit(markdown.ContainerTableCell, c.blocks(cell)))
		}
		body = append(body, cells)
		for len(header) < len(cells) {
			header = append(header, "")
		}
	}
	return append(out, makeTable(header, hide, body))
}

// makeTable builds GitBook's table block as internal/markdown does: one text
// column per header cell, one record per row whose values name the fragment
// holding each cell; ids come from positions so conversions repeat.
func makeTable(header []string, hideHeader bool, rows [][][]content.Node) content.Node {
	columns := make([]any, 0, len(header))
	definition := map[string]any{}
	for i, h := range header {
		id := fmt.Sprintf("c%d", i)
		columns = append(columns, id)
		definition[id] = map[string]any{"id": id, "title": h, "type": "text", "textAlignment": "left"}
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
			if len(cell) == 0 {
				cell = []content.Node{paragraph(nil)}
			}
			values[columns[i].(string)] = key
			fragments = append(fragments, content.Fragment{Object: content.ObjectFragment, Fragment: key, Nodes: cell})
		}
		records[fmt.Sprintf("r%d", r)] = map[string]any{"orderIndex": fmt.Sprintf("a%08d", r), "values": values}
	}
	t := content.NewBlock(content.BlockTable)
	t.Data["view"] = map[string]any{"type": "grid", "columns": columns, "hideHeader": hideHeader}
	t.Data["records"] = records
	t.Data["definition"] = definition
	t.Fragments = fragments
	return t
}
