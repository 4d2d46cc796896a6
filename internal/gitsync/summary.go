package gitsync

import (
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// A SUMMARY.md is read line by line rather than through markdown.ToDocument:
// its grammar is small (headings, list items holding one link, horizontal
// rules), and a line reader sees what the Markdown model hides, such as a
// rule ending a group or the exact target text of each entry.

// summaryItem is one entry of SUMMARY.md: a group heading or a list entry.
type summaryItem struct {
	group    bool
	title    string // link text, entry text or heading text, unescaped
	target   string // link target as written (without <>), "" for none
	children []*summaryItem
	line     int // 1-based line number, for messages
}

// parseSummary reads SUMMARY.md. A heading-1 before any entry is the title
// of the table of contents and ignored; any other heading starts a group; a
// horizontal rule ends the current group. maxItems bounds the entries and
// groups (Invalid beyond it), as does content.MaxPageDepth their nesting.
func parseSummary(src string, maxItems int) ([]*summaryItem, error) {
	type open struct {
		indent int
		item   *summaryItem
	}
	var top []*summaryItem
	var group *summaryItem
	var stack []open
	count := 0
	seenEntry := false
	add := func(it *summaryItem) error {
		if count++; count > maxItems {
			return folio.Errorf(folio.Invalid, "SUMMARY.md lists more than %d pages", maxItems)
		}
		return nil
	}
	lineNo := 0
	for len(src) > 0 {
		var line string
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, ""
		}
		lineNo++
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent, rest := indentOf(line)
		if indent < 4 && isRule(rest) {
			group, stack = nil, stack[:0]
			continue
		}
		if level, text, ok := heading(rest); ok && indent < 4 {
			if level == 1 && !seenEntry && group == nil {
				continue
			}
			seenEntry = true
			g := &summaryItem{group: true, title: unescape(text), line: lineNo}
			if err := add(g); err != nil {
				return nil, err
			}
			top = append(top, g)
			group, stack = g, stack[:0]
			continue
		}
		body, ok := listItem(rest)
		if !ok {
			continue // paragraphs and continuation lines carry no entries
		}
		seenEntry = true
		it := &summaryItem{line: lineNo}
		if text, target, ok := linkAt(body); ok {
			it.title, it.target = unescape(text), target
		} else {
			it.title = unescape(strings.TrimSpace(body))
		}
		if err := add(it); err != nil {
			return nil, err
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		depth := len(stack) + 1
		if group != nil {
			depth++
		}
		if depth > content.MaxPageDepth {
			return nil, folio.Errorf(folio.Invalid, "SUMMARY.md line %d: pages nest at most %d levels deep", lineNo, content.MaxPageDepth)
		}
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].item
			parent.children = append(parent.children, it)
		case group != nil:
			group.children = append(group.children, it)
		default:
			top = append(top, it)
		}
		stack = append(stack, open{indent, it})
	}
	return top, nil
}

// indentOf returns the width of the line's leading white space (a tab
// counts 4) and the rest of the line.
func indentOf(line string) (int, string) {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n, line[i:]
		}
	}
	return n, ""
}

// isRule reports a thematic break: three or more of *, - or _ alone.
func isRule(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 3 || (s[0] != '*' && s[0] != '-' && s[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// heading reads an ATX heading ("## Title ##").
func heading(s string) (int, string, bool) {
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	text := strings.TrimSpace(s[level:])
	// A closing run of # after a space is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ")) {
		text = strings.TrimSpace(t)
	}
	return level, text, text != ""
}

// listItem returns the text after a list marker ("* ", "- ", "+ ", "1. ").
func listItem(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '*' || s[0] == '-' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		return s[2:], true
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && (s[i+1] == ' ' || s[i+1] == '\t') {
		return s[i+2:], true
	}
	return "", false
}

// linkAt reads "[text](target)" at the start of s (after white space); a
// target in angle brackets may hold spaces, and a link title after the
// target is ignored.
func linkAt(s string) (text, target string, ok bool) {
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	depth, end := 0, -1
	for i := 0; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 || end+1 >= len(s) || s[end+1] != '(' {
		return "", "", false
	}
	text, rest := s[1:end], s[end+2:]
	rest = strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(rest, "<") {
		var b strings.Builder
		for i := 1; i < len(rest); i++ {
			switch c := rest[i]; {
			case c == '\\' && i+1 < len(rest) && isPunct(rest[i+1]):
				i++
				b.WriteByte(rest[i])
			case c == '>':
				return text, b.String(), true
			case c == '<':
				return "", "", false
			default:
				b.WriteByte(c)
			}
		}
		return "", "", false
	}
	parens := 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\':
			i++
		case c == '(':
			parens++
		case c == ')' && parens == 0, c == ' ' || c == '\t':
			return text, unescape(rest[:i]), true
		case c == ')':
			parens--
		}
	}
	return "", "", false
}

// unescape removes Markdown backslash escapes before punctuation and
// trims the text.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return strings.TrimSpace(b.String())
}

func isPunct(c byte) bool { return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0 }

// writeSummary writes entries in GitBook's format: a "# Table of contents"
// title, "* [Title](target)" entries indented two spaces per level, groups
// as "## Title" with blank lines around them, and "***" before top-level
// entries that follow a group.
func writeSummary(items []*summaryItem) []byte {
	var b strings.Builder
	b.WriteString("# Table of contents\n")
	inGroup := false
	startList := true
	for _, it := range items {
		if it.group {
			b.WriteString("\n## ")
			b.WriteString(strings.ReplaceAll(escapeText(it.title), "#", `\#`))
			b.WriteString("\n")
			inGroup, startList = true, true
			for _, c := range it.children {
				if startList {
					b.WriteString("\n")
					startList = false
				}
				writeEntry(&b, c, 0)
			}
			continue
		}
		if inGroup {
			b.WriteString("\n***\n")
			inGroup, startList = false, true
		}
		if startList {
			b.WriteString("\n")
			startList = false
		}
		writeEntry(&b, it, 0)
	}
	return []byte(b.String())
}

func writeEntry(b *strings.Builder, it *summaryItem, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString("* [")
	b.WriteString(escapeText(it.title))
	b.WriteString("](")
	b.WriteString(escapeTarget(it.target))
	b.WriteString(")\n")
	for _, c := range it.children {
		writeEntry(b, c, depth+1)
	}
}

// escapeText escapes what would end or nest a link text, or read as
// emphasis or code to a Markdown reader.
func escapeText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `*`, `\*`, `_`, `\_`, "`", "\\`").Replace(collapse(s))
}

// escapeTarget writes a link target, in angle brackets (with \, < and >
// escaped) when it holds white space, parentheses, angle brackets or
// backslashes, or is empty.
func escapeTarget(s string) string {
	if s == "" || strings.ContainsAny(s, " \t()<>\\") {
		return "<" + strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`).Replace(s) + ">"
	}
	return s
}

// sameSummary reports whether two parsed summaries describe the same
// entries: kinds, titles and targets, in order.
func sameSummary(a, b []*summaryItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].group != b[i].group || a[i].title != b[i].title || a[i].target != b[i].target ||
			!sameSummary(a[i].children, b[i].children) {
			return false
		}
	}
	return true
}
