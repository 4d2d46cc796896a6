package markdown

import (
	"strings"

	"github.com/foliodocs/folio/internal/content"
)

// blockSet is the set of block types a container may hold; it mirrors the
// containment table of content/schema.go for the containers built here.
type blockSet map[string]bool

func newSet(groups ...[]string) blockSet {
	s := blockSet{}
	for _, g := range groups {
		for _, t := range g {
			s[t] = true
		}
	}
	return s
}

var (
	essentials = []string{content.BlockParagraph, content.BlockHeading1, content.BlockHeading2, content.BlockHeading3,
		content.BlockListOrdered, content.BlockListUnordered, content.BlockListTasks, content.BlockDivider}
	rootBlocks = newSet(essentials, []string{content.BlockQuote, content.BlockHint, content.BlockImages, content.BlockFile,
		content.BlockCode, content.BlockMath, content.BlockExpandable, content.BlockTabs, content.BlockTable,
		content.BlockEmbed, content.BlockContentRef, content.BlockReusableContent, content.BlockStepper,
		content.BlockOpenAPI, content.BlockOpenAPIOperation})
	listItemBlocks = newSet(essentials, []string{content.BlockCode, content.BlockHint, content.BlockQuote, content.BlockMath, content.BlockTable})
	quoteBlocks    = newSet(essentials, []string{content.BlockQuote})
	hintBlocks     = newSet(essentials)
	// tabBlocks is what tabs-item and stepper-step hold.
	tabBlocks = newSet(essentials, []string{content.BlockCode, content.BlockFile, content.BlockImages, content.BlockHint,
		content.BlockQuote, content.BlockMath, content.BlockEmbed, content.BlockContentRef})
	expandableBlocks = newSet(essentials, []string{content.BlockImages, content.BlockCode, content.BlockTable, content.BlockHint,
		content.BlockQuote, content.BlockReusableContent})
	// Table cells may hold any block; keeping them simple matches what
	// GitBook's editor offers in a cell.
	cellBlocks = newSet(essentials, []string{content.BlockImages, content.BlockCode, content.BlockQuote})
)

// Containers whose content Fit adapts to what they may hold.
const (
	ContainerDocument   = "document"
	ContainerListItem   = content.BlockListItem
	ContainerQuote      = content.BlockQuote
	ContainerExpandable = content.BlockExpandable
	ContainerTableCell  = "table-cell"
)

var containers = map[string]blockSet{
	ContainerDocument: rootBlocks, ContainerListItem: listItemBlocks, ContainerQuote: quoteBlocks,
	ContainerExpandable: expandableBlocks, ContainerTableCell: cellBlocks,
}

// Fit returns blocks built for a container (one of the Container
// constants) with every block it cannot hold replaced by blocks it can,
// keeping the text, as the Markdown converter does; other importers (HTML)
// share it so that every import obeys the same containment rules.
func Fit(container string, nodes []content.Node) []content.Node {
	allowed, ok := containers[container]
	if !ok {
		allowed = rootBlocks
	}
	return fit(allowed, nodes)
}

// ClampDepth flattens top-level blocks nested so deep that their content
// would pass content.MaxDepth into paragraphs of their text.
func ClampDepth(nodes []content.Node) []content.Node { return clampDepth(nodes, 1) }

// fit returns nodes with every block the container cannot hold replaced by
// blocks it can, keeping the text: a quote or hint gives its children, code
// one paragraph per line, a table one paragraph per row, and so on.
func fit(allowed blockSet, nodes []content.Node) []content.Node {
	out := make([]content.Node, 0, len(nodes))
	for _, n := range nodes {
		if allowed[n.Type] {
			out = append(out, n)
			continue
		}
		out = append(out, fit(allowed, degrade(n))...)
	}
	return out
}

// degrade returns simpler blocks carrying the text of n; every result is an
// essential block or holds fewer levels than n, so fit terminates.
func degrade(n content.Node) []content.Node {
	switch n.Type {
	case content.BlockQuote, content.BlockHint:
		return n.Nodes
	case content.BlockEmbed, content.BlockContentRef:
		ref, _ := n.Data["ref"].(map[string]any)
		label, _ := n.Data["caption"].(string)
		if url, ok := n.Data["url"].(string); ok {
			ref = map[string]any{"kind": "url", "url": url}
			if label == "" {
				label = url
			}
		}
		if ref == nil {
			return nil
		}
		if label == "" {
			label = n.Type
		}
		l := content.NewInline(content.InlineLink, textNode(label, 0))
		l.Data["ref"] = ref
		return []content.Node{paragraph([]content.Node{l})}
	case content.BlockStepper:
		var out []content.Node
		for _, it := range n.Nodes {
			out = append(out, it.Nodes...)
		}
		return out
	case content.BlockTabs:
		var out []content.Node
		for _, it := range n.Nodes {
			if title, _ := it.Data["title"].(string); title != "" {
				out = append(out, paragraph([]content.Node{textNode(title, markBold)}))
			}
			out = append(out, it.Nodes...)
		}
		return out
	case content.BlockExpandable:
		var out []content.Node
		for _, f := range n.Fragments {
			out = append(out, f.Nodes...)
		}
		return out
	case content.BlockCode:
		var out []content.Node
		for _, l := range n.Nodes {
			if s := leafText(firstOr(l.Nodes)); strings.TrimSpace(s) != "" {
				out = append(out, paragraph([]content.Node{textNode(s, markCode)}))
			}
		}
		return out
	case content.BlockImages:
		var inl []content.Node
		for _, img := range n.Nodes {
			in := voidInline(content.InlineImage)
			in.Data["ref"] = img.Data["ref"]
			if alt, ok := img.Data["alt"]; ok {
				in.Data["alt"] = alt
			}
			if len(img.Fragments) > 0 {
				d := content.Document{Nodes: img.Fragments[0].Nodes}
				in.Data["caption"] = d.PlainText()
			}
			inl = append(inl, in)
		}
		return []content.Node{paragraph(inl)}
	case content.BlockFile:
		label, _ := n.Data["caption"].(string)
		if label == "" {
			label = "file"
		}
		l := content.NewInline(content.InlineLink, textNode(label, 0))
		l.Data["ref"] = n.Data["ref"]
		return []content.Node{paragraph([]content.Node{l})}
	case content.BlockMath:
		m := voidInline(content.InlineMath)
		m.Data["formula"] = n.Data["formula"]
		return []content.Node{paragraph([]content.Node{m})}
	case content.BlockTable:
		return tableParagraphs(n)
	}
	d := content.Document{Nodes: []content.Node{n}}
	return textParagraphs(d.PlainText())
}

func firstOr(nodes []content.Node) content.Node {
	if len(nodes) == 0 {
		return content.Node{}
	}
	return nodes[0]
}

// tableParagraphs writes a table as one paragraph per row, cells joined by " | ".
func tableParagraphs(n content.Node) []content.Node {
	header, _, rows := tableCells(n)
	var out []content.Node
	if len(header) > 0 {
		out = append(out, paragraph([]content.Node{textNode(strings.Join(header, " | "), markBold)}))
	}
	for _, row := range rows {
		var cells []string
		for _, cell := range row {
			d := content.Document{Nodes: cell}
			cells = append(cells, strings.ReplaceAll(d.PlainText(), "\n", " "))
		}
		out = append(out, textParagraphs(strings.Join(cells, " | "))...)
	}
	return out
}

// clampDepth flattens containers nested so deep that their content would
// pass content.MaxDepth into paragraphs of their text.
func clampDepth(nodes []content.Node, depth int) []content.Node {
	out := nodes[:0]
	for _, n := range nodes {
		if n.Object != content.ObjectBlock {
			out = append(out, n)
			continue
		}
		limit := content.MaxDepth - 4
		if itemContainers[n.Type] {
			// Its children must stay items (a list holds list items, not
			// paragraphs), so it is flattened as a whole one level sooner.
			limit--
		}
		if depth >= limit && hasBlockChildren(n) {
			d := content.Document{Nodes: []content.Node{n}}
			out = append(out, textParagraphs(d.PlainText())...)
			continue
		}
		n.Nodes = clampDepth(n.Nodes, depth+1)
		for i := range n.Fragments {
			n.Fragments[i].Nodes = clampDepth(n.Fragments[i].Nodes, depth+1)
		}
		out = append(out, n)
	}
	return out
}

// itemContainers are the blocks whose children are items of one type.
var itemContainers = map[string]bool{
	content.BlockListOrdered: true, content.BlockListUnordered: true, content.BlockListTasks: true,
	content.BlockTabs: true, content.BlockImages: true, content.BlockCode: true, content.BlockStepper: true,
}

func hasBlockChildren(n content.Node) bool {
	if len(n.Fragments) > 0 {
		return true
	}
	for _, c := range n.Nodes {
		if c.Object == content.ObjectBlock {
			return true
		}
	}
	return false
}
