package markdown

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/content"
)

// writer renders a Document as Markdown.
type writer struct {
	target   LinkTarget
	reusable ReusableTarget            // target's optional extension, or nil
	raw      map[string]map[string]any // the document's DataRaw entries
}

func (w *writer) document(doc *content.Document) string {
	s := w.blocks(doc.Nodes)
	if s == "" {
		return ""
	}
	return s + "\n"
}

// blocks renders sibling blocks separated by blank lines. Adjacent lists of
// one family alternate their marker so Markdown does not merge them.
func (w *writer) blocks(nodes []content.Node) string { return w.blocksSep(nodes, false) }

// blocksSep is blocks; with tight set, a list right after a paragraph
// follows on the next line, as in a tight list item.
func (w *writer) blocksSep(nodes []content.Node, tight bool) string {
	var b strings.Builder
	prevType := ""
	prevEmpty := false
	alt := false
	prevFamily := ""
	for _, n := range nodes {
		fam := listFamily(n.Type)
		if fam != "" && fam == prevFamily {
			alt = !alt
		} else {
			alt = false
		}
		prevFamily = fam
		s := w.block(n, alt)
		if s == "" {
			prevFamily = ""
			continue
		}
		if b.Len() > 0 {
			switch {
			case tight && prevType == content.BlockParagraph && canInterrupt(n), prevEmpty:
				// After an empty item a blank line would end the
				// containers around it too.
				b.WriteString("\n")
			default:
				b.WriteString("\n\n")
			}
		}
		b.WriteString(s)
		prevType = n.Type
		prevEmpty = endsWithEmptyItem(n)
	}
	return b.String()
}

// asParagraph returns the text of block n as paragraphs: a heading's
// inlines, or the plain text of other blocks.
func asParagraph(n content.Node) []content.Node {
	switch n.Type {
	case content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
		return []content.Node{paragraph(n.Nodes)}
	}
	d := content.Document{Nodes: []content.Node{n}}
	return textParagraphs(strings.ReplaceAll(d.PlainText(), "\n", " "))
}

// endsWithEmptyItem reports whether n is a list whose last item is empty,
// or ends with such a list.
func endsWithEmptyItem(n content.Node) bool {
	for depth := 0; listFamily(n.Type) != "" && len(n.Nodes) > 0 && depth <= content.MaxDepth; depth++ {
		item := n.Nodes[len(n.Nodes)-1]
		if len(item.Nodes) == 0 {
			return true
		}
		n = item.Nodes[len(item.Nodes)-1]
	}
	return false
}

func listFamily(typ string) string {
	switch typ {
	case content.BlockListUnordered, content.BlockListTasks:
		return "bullet"
	case content.BlockListOrdered:
		return "ordered"
	}
	return ""
}

func (w *writer) block(n content.Node, alt bool) string {
	if md, ok := w.keptSource(&n); ok {
		return md
	}
	switch n.Type {
	case content.BlockParagraph:
		return w.inline(n.Nodes, false)
	case content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
		level := map[string]int{content.BlockHeading1: 1, content.BlockHeading2: 2, content.BlockHeading3: 3}[n.Type]
		return strings.TrimSpace(strings.Repeat("#", level) + " " + oneLine(w.inline(n.Nodes, false)))
	case content.BlockListOrdered, content.BlockListUnordered, content.BlockListTasks:
		return w.list(n, alt)
	case content.BlockDivider:
		return "***"
	case content.BlockQuote:
		return prefixLines(w.blocks(n.Nodes), "> ", ">")
	case content.BlockCode:
		return w.code(n)
	case content.BlockHint:
		style, _ := n.Data["style"].(string)
		switch style {
		case "info", "success", "warning", "danger":
		default:
			style = "info"
		}
		return joinLines(fmt.Sprintf("{%% hint style=%q %%}", style), w.blocks(n.Nodes), "{% endhint %}")
	case content.BlockTabs, content.BlockStepper:
		open, item, endItem, end := "{% tabs %}", "{%% tab title=\"%s\" %%}", "{% endtab %}", "{% endtabs %}"
		if n.Type == content.BlockStepper {
			open, item, endItem, end = "{% stepper %}", "{% step %}", "{% endstep %}", "{% endstepper %}"
		}
		var items []string
		for _, it := range n.Nodes {
			tag := item
			if n.Type == content.BlockTabs {
				title, _ := it.Data["title"].(string)
				tag = fmt.Sprintf(item, strings.ReplaceAll(oneLine(title), `"`, "'"))
			}
			items = append(items, joinLines(tag, w.blocks(it.Nodes), endItem))
		}
		return joinLines(open, strings.Join(items, "\n\n"), end)
	case content.BlockImages:
		var figs []figure
		for _, img := range n.Nodes {
			f := figure{src: w.refTarget(img.Data["ref"])}
			for _, fr := range img.Fragments {
				d := content.Document{Nodes: fr.Nodes}
				f.caption = oneLine(d.PlainText())
			}
			f.alt, _ = img.Data["alt"].(string)
			if width, ok := img.Data["width"].(float64); ok && width >= 1 && width < 1e6 && width == float64(int(width)) {
				f.width = strconv.Itoa(int(width))
			}
			figs = append(figs, f)
		}
		if len(figs) == 0 {
			return ""
		}
		align, _ := n.Data["align"].(string)
		switch align {
		case "left", "center", "right":
		default:
			align = ""
		}
		return writeFigures(figs, align)
	case content.BlockFile:
		caption, _ := n.Data["caption"].(string)
		return joinLines(fmt.Sprintf("{%% file src=\"%s\" %%}", attrValue(w.refTarget(n.Data["ref"]))),
			w.tagText(caption), "{% endfile %}")
	case content.BlockEmbed:
		url, _ := n.Data["url"].(string)
		tag := fmt.Sprintf("{%% embed url=\"%s\" %%}", attrValue(url))
		if caption, _ := n.Data["caption"].(string); strings.TrimSpace(caption) != "" {
			return joinLines(tag, w.tagText(caption), "{% endembed %}")
		}
		return tag
	case content.BlockContentRef:
		target := w.refTarget(n.Data["ref"])
		label, ok := w.keptLabel(&n)
		if !ok {
			label = target
		}
		return joinLines(fmt.Sprintf("{%% content-ref url=\"%s\" %%}", attrValue(target)),
			"["+escapeText(oneLine(label), false)+"]("+destination(target)+")", "{% endcontent-ref %}")
	case content.BlockOpenAPIOperation, content.BlockOpenAPI:
		str := func(k string) string { v, _ := n.Data[k].(string); return attrValue(v) }
		if n.Type == content.BlockOpenAPIOperation {
			r, _ := n.Data["ref"].(map[string]any)
			spec, _ := r["spec"].(string)
			return fmt.Sprintf("{%% openapi-operation spec=\"%s\" path=\"%s\" method=\"%s\" %%}\n{%% endopenapi-operation %%}",
				attrValue(spec), str("path"), str("method"))
		}
		src := w.refTarget(n.Data["ref"])
		label := src
		if r, _ := n.Data["ref"].(map[string]any); r["kind"] == "file" {
			label = path.Base(src)
		}
		return joinLines(fmt.Sprintf("{%% openapi src=\"%s\" path=\"%s\" method=\"%s\" %%}", attrValue(src), str("path"), str("method")),
			"["+escapeText(oneLine(label), false)+"]("+destination(src)+")", "{% endopenapi %}")
	case content.BlockReusableContent:
		r, _ := n.Data["ref"].(map[string]any)
		id, _ := r["reusableContent"].(string)
		target := "reusable:" + id
		if w.reusable != nil {
			target = w.reusable.ReusablePath(id)
		}
		return fmt.Sprintf("{%% include \"%s\" %%}", attrValue(target))
	case content.BlockMath:
		formula, _ := n.Data["formula"].(string)
		return "$$\n" + formula + "\n$$"
	case content.BlockExpandable:
		var title, body []content.Node
		for _, f := range n.Fragments {
			switch {
			case f.Fragment == content.FragmentExpandableTitle || f.Type == content.FragmentExpandableTitle:
				for _, p := range f.Nodes {
					title = append(title, p.Nodes...)
				}
			case f.Fragment == content.FragmentExpandableBody || f.Type == content.FragmentExpandableBody:
				body = append(body, f.Nodes...)
			}
		}
		return joinNonEmpty("<details>", "<summary>"+oneLine(w.inline(title, false))+"</summary>", w.blocks(body), "</details>")
	case content.BlockTable:
		return w.table(n)
	}
	// Blocks without a Markdown form keep their text.
	d := content.Document{Nodes: []content.Node{n}}
	var parts []string
	for _, l := range strings.Split(d.PlainText(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, escapeText(l, true))
		}
	}
	return strings.Join(parts, "\n\n")
}

// joinLines joins the non-empty parts with line breaks: GitBook's layout
// of a block tag, its content and its end tag.
func joinLines(parts ...string) string {
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

// tagText returns a caption for the line between a tag and its end tag:
// on one line, and not mistaken for a tag.
func (w *writer) tagText(s string) string {
	s = strings.TrimSpace(oneLine(s))
	if strings.HasPrefix(s, "{%") {
		s = `\` + s
	}
	return s
}

func joinNonEmpty(parts ...string) string {
	kept := parts[:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

func (w *writer) list(n content.Node, alt bool) string {
	var items []string
	start := 1
	if f, ok := n.Data["start"].(float64); ok && f >= 0 && f < 1e9 {
		start = int(f)
	}
	for i, it := range n.Nodes {
		var marker string
		switch n.Type {
		case content.BlockListOrdered:
			d := "."
			if alt {
				d = ")"
			}
			marker = strconv.Itoa(start+i) + d + " "
		default:
			marker = "* "
			if alt {
				marker = "- "
			}
		}
		indent := strings.Repeat(" ", len(marker))
		if n.Type == content.BlockListTasks {
			checked, _ := it.Data["checked"].(bool)
			if checked {
				marker += "[x] "
			} else {
				marker += "[ ] "
			}
		}
		nodes := it.Nodes
		for n.Type == content.BlockListTasks && len(nodes) > 1 && nodes[0].Type == content.BlockParagraph &&
			w.inline(nodes[0].Nodes, false) == "" {
			nodes = nodes[1:] // writes nothing
		}
		if n.Type == content.BlockListTasks && len(nodes) > 0 && nodes[0].Type != content.BlockParagraph {
			// After the check box Markdown reads only paragraph text.
			nodes = append(asParagraph(nodes[0]), nodes[1:]...)
		}
		body := w.blocksSep(nodes, true)
		item := strings.TrimRight(marker+prefixRest(body, indent), " ")
		if first, _, _ := strings.Cut(item, "\n"); isThematicBreak(first) {
			// "* * *" would read as a divider: the content starts on the
			// next line instead, which an item may do.
			item = strings.TrimRight(marker, " ") + "\n" + indent + prefixRest(body, indent)
		}
		items = append(items, item)
	}
	return strings.Join(items, "\n")
}

// prefixRest indents every line of s but the first; blank lines stay empty.
func prefixRest(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

func prefixLines(s, prefix, blank string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = blank
		} else {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func (w *writer) code(n content.Node) string {
	var lines []string
	for _, l := range n.Nodes {
		d := content.Document{Nodes: []content.Node{{Object: content.ObjectBlock, Nodes: l.Nodes}}}
		lines = append(lines, d.PlainText())
	}
	body := strings.Join(lines, "\n")
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	syntax, _ := n.Data["syntax"].(string)
	if f := strings.Fields(syntax); len(f) > 0 {
		syntax = strings.ReplaceAll(f[0], "`", "")
	} else {
		syntax = ""
	}
	out := fence + syntax + "\n" + body + "\n" + fence
	if len(n.Nodes) == 0 {
		out = fence + syntax + "\n" + fence
	}
	if tag := codeTag(n.Data); tag != "" {
		return tag + "\n" + out + "\n{% endcode %}"
	}
	return out
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func (w *writer) table(n content.Node) string {
	header, aligns, rows := tableCells(n)
	if len(header) == 0 {
		return ""
	}
	// GitBook pads every column to its widest cell.
	grid := make([][]string, 0, len(rows)+1)
	hs := make([]string, len(header))
	for i, h := range header {
		hs[i] = escapeText(oneLine(h), false)
	}
	grid = append(grid, hs)
	for _, r := range rows {
		var cells []string
		for _, cell := range r {
			if len(cell) == 1 && cell[0].Type == content.BlockParagraph {
				cells = append(cells, oneLine(w.inline(cell[0].Nodes, true)))
				continue
			}
			d := content.Document{Nodes: cell}
			cells = append(cells, escapeText(oneLine(d.PlainText()), false))
		}
		grid = append(grid, cells)
	}
	widths := make([]int, len(header))
	for i := range widths {
		widths[i] = 3
	}
	for _, r := range grid {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	row := func(cells []string) string {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" " + c)
			if i < len(widths) {
				b.WriteString(strings.Repeat(" ", max(0, widths[i]-utf8.RuneCountInString(c))))
			}
			b.WriteString(" |")
		}
		return b.String()
	}
	seps := make([]string, len(header))
	for i, wd := range widths {
		switch aligns[i] {
		case "center":
			seps[i] = ":" + strings.Repeat("-", wd-2) + ":"
		case "right":
			seps[i] = strings.Repeat("-", wd-1) + ":"
		default:
			seps[i] = strings.Repeat("-", wd)
		}
	}
	lines := []string{row(grid[0]), row(seps)}
	for _, r := range grid[1:] {
		lines = append(lines, row(r))
	}
	return strings.Join(lines, "\n")
}

// tableCells reads a table block: column titles and alignments in view
// order, and the blocks of each cell, rows in orderIndex order.
func tableCells(n content.Node) (header, aligns []string, rows [][][]content.Node) {
	defs, _ := n.Data["definition"].(map[string]any)
	var cols []string
	if view, ok := n.Data["view"].(map[string]any); ok {
		if cs, ok := view["columns"].([]any); ok {
			for _, c := range cs {
				if s, ok := c.(string); ok {
					cols = append(cols, s)
				}
			}
		}
	}
	if cols == nil {
		for id := range defs {
			cols = append(cols, id)
		}
		sort.Strings(cols)
	}
	for _, id := range cols {
		def, _ := defs[id].(map[string]any)
		title, _ := def["title"].(string)
		align, _ := def["textAlignment"].(string)
		header = append(header, title)
		aligns = append(aligns, align)
	}
	frags := map[string][]content.Node{}
	for _, f := range n.Fragments {
		if f.Fragment != "" {
			frags[f.Fragment] = f.Nodes
		} else if f.Key != "" {
			frags[f.Key] = f.Nodes
		}
	}
	records, _ := n.Data["records"].(map[string]any)
	type rec struct{ id, order string }
	var order []rec
	for id, r := range records {
		rm, _ := r.(map[string]any)
		oi, _ := rm["orderIndex"].(string)
		order = append(order, rec{id, oi})
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].order != order[j].order {
			return order[i].order < order[j].order
		}
		return order[i].id < order[j].id
	})
	for _, o := range order {
		rm, _ := records[o.id].(map[string]any)
		values, _ := rm["values"].(map[string]any)
		var cells [][]content.Node
		for _, col := range cols {
			var cell []content.Node
			switch v := values[col].(type) {
			case string:
				if nodes, ok := frags[v]; ok {
					cell = nodes
				} else {
					cell = []content.Node{paragraph([]content.Node{textNode(v, 0)})}
				}
			case nil:
			default:
				cell = []content.Node{paragraph([]content.Node{textNode(fmt.Sprint(v), 0)})}
			}
			cells = append(cells, cell)
		}
		rows = append(rows, cells)
	}
	return header, aligns, rows
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// refTarget returns the Markdown target of a content reference.
func (w *writer) refTarget(ref any) string {
	r, _ := ref.(map[string]any)
	str := func(k string) string { s, _ := r[k].(string); return s }
	switch str("kind") {
	case "url":
		return str("url")
	case "file":
		if w.target != nil {
			return w.target.FilePath(str("file"))
		}
		return "file:" + str("file")
	case "page":
		if w.target != nil {
			return w.target.PagePath(str("page"), "")
		}
		return "page:" + str("page")
	case "anchor":
		if str("page") == "" {
			return "#" + str("anchor")
		}
		if w.target != nil {
			return w.target.PagePath(str("page"), str("anchor"))
		}
		return "page:" + str("page") + "#" + str("anchor")
	}
	return ""
}

func (w *writer) image(ref any, alt, caption string) string {
	s := "![" + escapeText(oneLine(alt), false) + "](" + destination(w.refTarget(ref))
	if caption != "" {
		s += ` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(caption) + `"`
	}
	return s + ")"
}

// destination writes a link target, in <> when it holds spaces.
func destination(t string) string {
	if t == "" || strings.ContainsAny(t, " \t\n<>") {
		return "<" + strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "\n", " ").Replace(t) + ">"
	}
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(t)
}
