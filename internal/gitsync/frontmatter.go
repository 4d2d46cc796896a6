package gitsync

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/foliodocs/folio/internal/content"
)

// Data keys under which a page's document keeps front matter that has no
// page field, as YAML text in the file's own order and formatting.
const (
	dataFrontMatter = "gitFrontMatter" // unknown top-level keys ("cover: x\ncoverY: 0\n")
	dataLayoutExtra = "gitLayoutExtra" // unknown keys under layout, indented as written
)

// maxFrontMatterBytes bounds the front matter given to the YAML parser;
// larger front matter is kept verbatim as unknown text.
const maxFrontMatterBytes = 256 << 10

// frontMatter is what a page file's front matter says.
type frontMatter struct {
	description string
	icon        string
	hidden      bool
	layout      *content.Layout
	extra       string // unknown keys, verbatim
	layoutExtra string // unknown layout keys, verbatim
	title       string // "title", read only for reusable content files
	hasTitle    bool
}

// layoutFlags are the visibility flags of GitBook's layout, in the order
// GitBook writes them.
var layoutFlags = []string{"title", "description", "tableOfContents", "outline", "pagination", "metadata"}

// splitFrontMatter separates YAML front matter ("---" lines around it at
// the very start) from the body. Front matter that is not a YAML mapping is
// kept whole as unknown text, so nothing is lost and nothing fails.
func splitFrontMatter(src string) (frontMatter, string) { return splitFrontMatterOf(src, false) }

// splitFrontMatterOf is splitFrontMatter; withTitle makes "title" a known
// key, as it is in reusable content files.
func splitFrontMatterOf(src string, withTitle bool) (frontMatter, string) {
	var fm frontMatter
	if !strings.HasPrefix(src, "---\n") && !strings.HasPrefix(src, "---\r\n") {
		return fm, src
	}
	start := strings.IndexByte(src, '\n') + 1
	end, next := -1, -1
	for i := start; i < len(src); {
		j := strings.IndexByte(src[i:], '\n')
		lineEnd := len(src)
		if j >= 0 {
			lineEnd = i + j
		}
		if strings.TrimRight(src[i:lineEnd], "\r") == "---" {
			end, next = i, min(lineEnd+1, len(src))
			break
		}
		if j < 0 {
			break
		}
		i = lineEnd + 1
	}
	if end < 0 {
		return fm, src
	}
	text, body := src[start:end], src[next:]
	if len(text) > maxFrontMatterBytes {
		fm.extra = text
		return fm, body
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(text), &root); err != nil || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		if strings.TrimSpace(text) != "" {
			fm.extra = text
		}
		return fm, body
	}
	lines := strings.SplitAfter(text, "\n")
	m := root.Content[0]
	if !blockKeys(m, 1) {
		// Flow style or keys sharing a line: no line belongs to one key.
		fm.extra = text
		if !strings.HasSuffix(fm.extra, "\n") {
			fm.extra += "\n"
		}
		return fm, body
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, value := m.Content[i], m.Content[i+1]
		from := key.Line - 1
		if i == 0 {
			from = 0 // comments before the first key travel with it
		}
		to := len(lines)
		if i+2 < len(m.Content) {
			to = m.Content[i+2].Line - 1
		}
		if withTitle && key.Value == "title" && value.Kind == yaml.ScalarNode && value.Tag == "!!str" {
			fm.title, fm.hasTitle = collapse(value.Value), true
			continue
		}
		if !fm.known(key.Value, value, lines) {
			fm.extra += strings.Join(lines[max(0, min(from, len(lines))):max(0, min(to, len(lines)))], "")
		}
	}
	if fm.extra != "" && !strings.HasSuffix(fm.extra, "\n") {
		fm.extra += "\n"
	}
	return fm, body
}

// known records a known key and reports whether it was one, with the
// shape GitBook gives it.
func (fm *frontMatter) known(key string, v *yaml.Node, lines []string) bool {
	switch key {
	case "description", "icon":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" && v.Tag != "!!null" {
			return false
		}
		if key == "description" {
			fm.description = collapse(v.Value)
		} else {
			fm.icon = strings.TrimSpace(v.Value)
		}
		return true
	case "hidden":
		var b bool
		if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
			return false
		}
		fm.hidden = b
		return true
	case "layout":
		if v.Kind != yaml.MappingNode || !blockKeys(v, 3) {
			return false
		}
		l := &content.Layout{Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			if !layoutKey(l, k.Value, val) {
				from := k.Line - 1
				to := len(lines)
				if i+2 < len(v.Content) {
					to = v.Content[i+2].Line - 1
				}
				fm.layoutExtra += strings.Join(lines[max(0, min(from, len(lines))):max(0, min(to, len(lines)))], "")
			}
		}
		if fm.layoutExtra != "" && !strings.HasSuffix(fm.layoutExtra, "\n") {
			fm.layoutExtra += "\n"
		}
		fm.layout = l
		return true
	}
	return false
}

// layoutKey sets one known layout key; false for anything else.
func layoutKey(l *content.Layout, key string, v *yaml.Node) bool {
	switch key {
	case "width":
		if v.Kind != yaml.ScalarNode || (v.Value != "default" && v.Value != "wide") {
			return false
		}
		l.Width = v.Value
		return true
	case "cover":
		visible, size, ok := visibility(v, true)
		if !ok || (size != "" && size != "hero" && size != "full") {
			return false
		}
		l.Cover, l.CoverSize = visible, size
		return true
	}
	for _, flag := range layoutFlags {
		if key != flag {
			continue
		}
		visible, size, ok := visibility(v, false)
		if !ok || size != "" {
			return false
		}
		switch flag {
		case "title":
			l.Title = visible
		case "description":
			l.Description = visible
		case "tableOfContents":
			l.TableOfContents = visible
		case "outline":
			l.Outline = visible
		case "pagination":
			l.Pagination = visible
		case "metadata":
			l.Metadata = visible
		}
		return true
	}
	return false
}

// visibility reads {visible: bool} (and size, when allowed).
func visibility(v *yaml.Node, withSize bool) (visible bool, size string, ok bool) {
	if v.Kind != yaml.MappingNode {
		return false, "", false
	}
	seen := false
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		switch {
		case k.Value == "visible" && val.Kind == yaml.ScalarNode && val.Decode(&visible) == nil:
			seen = true
		case k.Value == "size" && withSize && val.Kind == yaml.ScalarNode:
			size = val.Value
		default:
			return false, "", false
		}
	}
	return visible, size, seen
}

// writeFrontMatter writes a page's front matter in GitBook's order: hidden,
// icon, description, the kept unknown keys, then layout with its known keys
// first. It returns "" when there is nothing to write.
func writeFrontMatter(fm frontMatter) string {
	var b strings.Builder
	if fm.hasTitle {
		b.WriteString("title: " + yamlScalar(fm.title) + "\n")
	}
	if fm.hidden {
		b.WriteString("hidden: true\n")
	}
	if fm.icon != "" {
		b.WriteString("icon: " + yamlScalar(fm.icon) + "\n")
	}
	if fm.description != "" {
		b.WriteString("description: " + yamlScalar(fm.description) + "\n")
	}
	b.WriteString(fm.extra)
	if l := fm.layout; l != nil {
		b.WriteString("layout:\n")
		if l.Width != "" {
			b.WriteString("  width: " + l.Width + "\n")
		}
		if l.Cover || l.CoverSize != "" {
			b.WriteString("  cover:\n    visible: " + yesNo(l.Cover) + "\n")
			if l.CoverSize != "" {
				b.WriteString("    size: " + l.CoverSize + "\n")
			}
		}
		flags := []bool{l.Title, l.Description, l.TableOfContents, l.Outline, l.Pagination, l.Metadata}
		for i, name := range layoutFlags {
			b.WriteString("  " + name + ":\n    visible: " + yesNo(flags[i]) + "\n")
		}
		b.WriteString(fm.layoutExtra)
	}
	if b.Len() == 0 {
		return ""
	}
	return "---\n" + b.String() + "---\n"
}

func yesNo(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// collapse joins white space runs into single spaces and trims.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// blockKeys reports a block mapping whose keys start at column col, each
// on a later line than the one before, so that each key owns its lines.
func blockKeys(m *yaml.Node, col int) bool {
	if m.Style&yaml.FlowStyle != 0 {
		return false
	}
	last := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Column != col || k.Line <= last || k.Kind != yaml.ScalarNode {
			return false
		}
		last = k.Line
	}
	return true
}
