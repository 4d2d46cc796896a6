package markdown

import (
	"regexp"
	"strings"
)

// segKind is the kind of one piece of the source after Liquid blocks have
// been split out.
type segKind int

const (
	segRoot segKind = iota
	segMarkdown
	segHint
	segTabs
	segTab
	segFile
	segMath
	segDetails
)

// segment is a node of the Liquid-level tree: Markdown text, or a GitBook
// block holding further segments.
type segment struct {
	kind     segKind
	text     string // Markdown for segMarkdown, formula for segMath, caption for segFile
	attr     string // hint style, tab title, file src, details summary
	open     string // the raw opening line(s), put back as text when unclosed
	children []*segment
}

var (
	reHint    = regexp.MustCompile(`^\{%\s*hint\s+style="(info|success|warning|danger)"\s*%\}$`)
	reEndHint = regexp.MustCompile(`^\{%\s*endhint\s*%\}$`)
	reTabs    = regexp.MustCompile(`^\{%\s*tabs\s*%\}$`)
	reEndTabs = regexp.MustCompile(`^\{%\s*endtabs\s*%\}$`)
	reTab     = regexp.MustCompile(`^\{%\s*tab\s+title="([^"]*)"\s*%\}$`)
	reEndTab  = regexp.MustCompile(`^\{%\s*endtab\s*%\}$`)
	reFile    = regexp.MustCompile(`^\{%\s*file\s+src="([^"]*)"\s*%\}(.*)$`)
	reEndFile = regexp.MustCompile(`\{%\s*endfile\s*%\}$`)
	reDetails = regexp.MustCompile(`^<details(?:\s+open)?>\s*(?:<summary>(.*)</summary>)?$`)
	reSummary = regexp.MustCompile(`^<summary>(.*)</summary>$`)
	reEndDet  = regexp.MustCompile(`^</details>$`)
	reFence   = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")
)

// maxCaptionLines bounds the lines a {% file %} caption may span.
const maxCaptionLines = 20

// splitSegments splits src into a tree of segments. It never fails: a tag
// that is unknown, misplaced or never closed stays Markdown text.
func splitSegments(src string) *segment {
	lines := strings.SplitAfter(src, "\n")
	root := &segment{kind: segRoot}
	stack := []*segment{root}
	var buf strings.Builder
	flush := func() {
		if buf.Len() > 0 {
			top := stack[len(stack)-1]
			top.children = append(top.children, &segment{kind: segMarkdown, text: buf.String()})
			buf.Reset()
		}
	}
	push := func(s *segment) {
		flush()
		top := stack[len(stack)-1]
		top.children = append(top.children, s)
		stack = append(stack, s)
	}
	pop := func() { flush(); stack = stack[:len(stack)-1] }
	topKind := func() segKind { return stack[len(stack)-1].kind }

	fence := ""
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		if raw == "" {
			continue
		}
		line := strings.TrimRight(raw, " \t\r\n")
		if fence != "" {
			if isFenceClose(line, fence) {
				fence = ""
			}
			buf.WriteString(raw)
			continue
		}
		if m := reFence.FindStringSubmatch(line); m != nil && !(m[1][0] == '`' && strings.Contains(m[2], "`")) {
			fence = m[1]
			buf.WriteString(raw)
			continue
		}
		t := trimIndent(line)
		if t == "" {
			buf.WriteString(raw)
			continue
		}
		switch {
		case reHint.MatchString(t):
			push(&segment{kind: segHint, attr: reHint.FindStringSubmatch(t)[1], open: raw})
		case reEndHint.MatchString(t) && topKind() == segHint:
			pop()
		case reTabs.MatchString(t):
			push(&segment{kind: segTabs, open: raw})
		case reEndTabs.MatchString(t) && topKind() == segTabs:
			pop()
		case reTab.MatchString(t) && topKind() == segTabs:
			push(&segment{kind: segTab, attr: reTab.FindStringSubmatch(t)[1], open: raw})
		case reEndTab.MatchString(t) && topKind() == segTab:
			pop()
		case reFile.MatchString(t):
			m := reFile.FindStringSubmatch(t)
			s := &segment{kind: segFile, attr: m[1], open: raw}
			rest := m[2]
			switch {
			case reEndFile.MatchString(rest):
				s.text = strings.TrimSpace(reEndFile.ReplaceAllString(rest, ""))
			case strings.TrimSpace(rest) != "":
				buf.WriteString(raw) // a caption without its end tag: keep as text
				continue
			default:
				// The caption may run over the next lines, up to the end tag.
				var caption []string
				// Bounded so that many tags without an end stay linear.
				for j := i + 1; j < len(lines) && j <= i+maxCaptionLines; j++ {
					l := strings.TrimSpace(lines[j])
					if l == "" || (strings.HasPrefix(l, "{%") && !reEndFile.MatchString(l)) {
						break
					}
					if reEndFile.MatchString(l) {
						caption = append(caption, reEndFile.ReplaceAllString(l, ""))
						s.text = strings.TrimSpace(strings.Join(caption, " "))
						i = j
						break
					}
					caption = append(caption, l)
				}
			}
			flush()
			top := stack[len(stack)-1]
			top.children = append(top.children, s)
		case t == "$$":
			end := -1
			for j := i + 1; j < len(lines); j++ {
				if trimIndent(strings.TrimRight(lines[j], " \t\r\n")) == "$$" {
					end = j
					break
				}
			}
			if end < 0 {
				buf.WriteString(raw)
				continue
			}
			formula := strings.TrimRight(strings.Join(lines[i+1:end], ""), "\r\n")
			flush()
			top := stack[len(stack)-1]
			top.children = append(top.children, &segment{kind: segMath, text: formula})
			i = end
		case reDetails.MatchString(t):
			m := reDetails.FindStringSubmatch(t)
			open := raw
			summary, ok := m[1], strings.Contains(t, "<summary>")
			if !ok {
				// The summary may follow on the next non-blank line.
				for j := i + 1; j < len(lines); j++ {
					l := trimIndent(strings.TrimRight(lines[j], " \t\r\n"))
					if l == "" {
						continue
					}
					if sm := reSummary.FindStringSubmatch(l); sm != nil {
						summary, ok = sm[1], true
						open = strings.Join(lines[i:j+1], "")
						i = j
					}
					break
				}
			}
			if !ok {
				buf.WriteString(raw)
				continue
			}
			push(&segment{kind: segDetails, attr: summary, open: open})
		case reEndDet.MatchString(t) && topKind() == segDetails:
			pop()
		default:
			buf.WriteString(raw)
		}
	}
	flush()
	// Containers left open at the end are unwrapped: their opening line goes
	// back as text and their children move up to the parent.
	for len(stack) > 1 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent := stack[len(stack)-1]
		last := len(parent.children) - 1
		repl := append([]*segment{{kind: segMarkdown, text: s.open}}, s.children...)
		parent.children = append(parent.children[:last], repl...)
	}
	mergeMarkdown(root)
	return root
}

// mergeMarkdown joins adjacent Markdown segments, which unwrapping leaves
// behind, so that goldmark sees them as one text.
func mergeMarkdown(s *segment) {
	var out []*segment
	var run []string
	end := func() {
		if len(run) > 0 {
			out = append(out, &segment{kind: segMarkdown, text: strings.Join(run, "")})
			run = run[:0]
		}
	}
	for _, c := range s.children {
		if c.kind == segMarkdown {
			run = append(run, c.text)
			continue
		}
		mergeMarkdown(c)
		end()
		out = append(out, c)
	}
	end()
	s.children = out
}

// trimIndent drops up to three leading spaces: more make an indented code
// block in Markdown, where tags are not recognized.
func trimIndent(line string) string {
	for i := 0; i < 3 && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return ""
	}
	return line
}

func isFenceClose(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(t[n:]) == ""
}
