package markdown

import (
	"math"
	"regexp"
	"strings"

	"github.com/foliodocs/folio/internal/content"
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
	segEmbed
	segContentRef
	segCode
	segStepper
	segStep
	segInclude
	segFigures
	segOpenAPI
	segRaw
)

// segment is a node of the Liquid-level tree: Markdown text, or a GitBook
// block holding further segments.
type segment struct {
	kind segKind
	// text is Markdown for segMarkdown and segCode (the fenced block), the
	// formula for segMath, the caption for segFile and segEmbed, the link
	// label for segContentRef and the source for segRaw.
	text string
	// attr is the hint style, tab title, file src, details summary, embed
	// or content-ref url, code attributes or include path.
	attr   string
	open   string            // the raw opening line(s), kept as raw text when unclosed
	source string            // the whole source of a block tag or figure line
	attrs  map[string]string // attributes of segOpenAPI
	// plain marks a segRaw that is a misplaced, unclosed or malformed line
	// Folio reads ("$$", {% endtab %}...): it stays text, written escaped,
	// since written as it was it could take a meaning in its new place.
	plain    bool
	figures  []figure
	align    string // images alignment of segFigures
	children []*segment
}

var (
	reHint       = regexp.MustCompile(`^\{%\s*hint\s+style="(info|success|warning|danger)"\s*%\}$`)
	reEndHint    = regexp.MustCompile(`^\{%\s*endhint\s*%\}$`)
	reTabs       = regexp.MustCompile(`^\{%\s*tabs\s*%\}$`)
	reEndTabs    = regexp.MustCompile(`^\{%\s*endtabs\s*%\}$`)
	reTab        = regexp.MustCompile(`^\{%\s*tab\s+title="([^"]*)"\s*%\}$`)
	reEndTab     = regexp.MustCompile(`^\{%\s*endtab\s*%\}$`)
	reStepper    = regexp.MustCompile(`^\{%\s*stepper\s*%\}$`)
	reEndStepper = regexp.MustCompile(`^\{%\s*endstepper\s*%\}$`)
	reStep       = regexp.MustCompile(`^\{%\s*step\s*%\}$`)
	reEndStep    = regexp.MustCompile(`^\{%\s*endstep\s*%\}$`)
	reFile       = regexp.MustCompile(`^\{%\s*file\s+src="([^"]*)"\s*%\}(.*)$`)
	reEndFile    = regexp.MustCompile(`\{%\s*endfile\s*%\}$`)
	reEmbed      = regexp.MustCompile(`^\{%\s*embed\s+url="([^"]*)"\s*%\}(.*)$`)
	reEndEmbed   = regexp.MustCompile(`\{%\s*endembed\s*%\}$`)
	reContentRef = regexp.MustCompile(`^\{%\s*content-ref\s+url="([^"]*)"\s*%\}$`)
	reRefLink    = regexp.MustCompile(`^\[([^\]\n]*)\]\(([^()\s]*)\)$`)
	reEndRef     = regexp.MustCompile(`^\{%\s*endcontent-ref\s*%\}$`)
	reCode       = regexp.MustCompile(`^\{%\s*code((?:\s+[A-Za-z]+="[^"]*")*)\s*%\}$`)
	reEndCode    = regexp.MustCompile(`^\{%\s*endcode\s*%\}$`)
	reInclude    = regexp.MustCompile(`^\{%\s*include\s+"([^"]+)"\s*%\}$`)
	reTag        = regexp.MustCompile(`^\{%-?\s*([A-Za-z][\w-]*)(?:\s[^\n]*)?-?%\}$`)
	reDefinition = regexp.MustCompile(`^\[[^\]]{1,999}\]:`)
	reDetails    = regexp.MustCompile(`^<details(?:\s+open)?>\s*(?:<summary>(.*)</summary>)?$`)
	reSummary    = regexp.MustCompile(`^<summary>(.*)</summary>$`)
	reEndDet     = regexp.MustCompile(`^</details>$`)
	reFence      = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")
)

// maxSegmentDepth bounds how deep block tags nest.
const maxSegmentDepth = content.MaxDepth

// maxCaptionLines bounds the lines a {% file %} or {% embed %} caption may
// span.
const maxCaptionLines = 20

// splitSegments splits src into a tree of segments. It never fails: a tag
// that is unknown, misplaced or never closed becomes a raw segment, which
// is written back as it was read.
func splitSegments(src string) *segment {
	lines := strings.SplitAfter(src, "\n")
	ends := newEndIndex(lines)
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
	add := func(s *segment) {
		flush()
		top := stack[len(stack)-1]
		top.children = append(top.children, s)
	}
	push := func(s *segment) {
		if len(stack) > maxSegmentDepth {
			// Deeper blocks could not be held by a Document, and
			// unwrapping them when unclosed would copy their content
			// once per level.
			add(&segment{kind: segRaw, text: strings.TrimRight(s.open, "\r\n"), plain: true})
			return
		}
		add(s)
		stack = append(stack, s)
	}
	pop := func() { flush(); stack = stack[:len(stack)-1] }
	topKind := func() segKind { return stack[len(stack)-1].kind }
	raw := func(from, to int) {
		text := strings.TrimRight(strings.Join(lines[from:to+1], ""), "\r\n")
		add(&segment{kind: segRaw, text: text, plain: from == to && isStructural(trimIndent(strings.TrimSpace(text)))})
	}

	var fences fenceTracker
	// afterBreak is set where a paragraph cannot be going on: at the start,
	// after a blank line and after a tag.
	afterBreak := true
	for i := 0; i < len(lines); i++ {
		raw0 := lines[i]
		if raw0 == "" {
			continue
		}
		wasBreak := afterBreak
		afterBreak = strings.TrimSpace(raw0) == "" || strings.HasPrefix(strings.TrimSpace(raw0), "{%")
		line := strings.TrimRight(raw0, " \t\r\n")
		if fences.code(line) {
			buf.WriteString(raw0)
			continue
		}
		t := trimIndent(line)
		if t == "" {
			buf.WriteString(raw0)
			continue
		}
		if t[0] == '[' && wasBreak && reDefinition.MatchString(t) {
			// Footnote and link reference definitions, which have no
			// Document form, run to the next blank line.
			j := i
			for j+1 < len(lines) && strings.TrimSpace(lines[j+1]) != "" {
				j++
			}
			raw(i, j)
			i = j
			continue
		}
		if t[0] == '<' {
			if figs, align, ok := parseFigures(t); ok {
				add(&segment{kind: segFigures, figures: figs, align: align, source: t})
				continue
			}
		}
		if !strings.HasPrefix(t, "{%") && t != "$$" && !strings.HasPrefix(t, "<details") && !strings.HasPrefix(t, "</details") {
			buf.WriteString(raw0)
			continue
		}
		switch {
		case reHint.MatchString(t):
			push(&segment{kind: segHint, attr: reHint.FindStringSubmatch(t)[1], open: raw0})
		case reEndHint.MatchString(t) && topKind() == segHint:
			pop()
		case reTabs.MatchString(t):
			push(&segment{kind: segTabs, open: raw0})
		case reEndTabs.MatchString(t) && topKind() == segTabs:
			pop()
		case reTab.MatchString(t) && topKind() == segTabs:
			push(&segment{kind: segTab, attr: reTab.FindStringSubmatch(t)[1], open: raw0})
		case reEndTab.MatchString(t) && topKind() == segTab:
			pop()
		case reStepper.MatchString(t):
			push(&segment{kind: segStepper, open: raw0})
		case reEndStepper.MatchString(t) && topKind() == segStepper:
			pop()
		case reStep.MatchString(t) && topKind() == segStepper:
			push(&segment{kind: segStep, open: raw0})
		case reEndStep.MatchString(t) && topKind() == segStep:
			pop()
		case reFile.MatchString(t):
			m := reFile.FindStringSubmatch(t)
			caption, next, ok := captioned(lines, i, m[2], reEndFile)
			if !ok {
				raw(i, i) // a caption without its end tag
				continue
			}
			add(&segment{kind: segFile, attr: m[1], text: caption,
				source: strings.TrimRight(strings.Join(lines[i:next+1], ""), "\r\n")})
			i = next
		case reEmbed.MatchString(t):
			m := reEmbed.FindStringSubmatch(t)
			caption, next, ok := captioned(lines, i, m[2], reEndEmbed)
			if !ok {
				raw(i, i)
				continue
			}
			add(&segment{kind: segEmbed, attr: m[1], text: caption,
				source: strings.TrimRight(strings.Join(lines[i:next+1], ""), "\r\n")})
			i = next
		case reContentRef.MatchString(t):
			// GitBook writes three lines: the tag, a link, the end tag.
			var m []string
			if i+2 < len(lines) {
				m = reRefLink.FindStringSubmatch(strings.TrimRight(lines[i+1], " \t\r\n"))
			}
			if m == nil || !reEndRef.MatchString(strings.TrimSpace(lines[i+2])) {
				raw(i, i)
				continue
			}
			add(&segment{kind: segContentRef, attr: reContentRef.FindStringSubmatch(t)[1], text: m[1],
				source: strings.TrimRight(strings.Join(lines[i:i+3], ""), "\r\n")})
			i += 2
		case reCode.MatchString(t):
			end := codeEnd(lines, i)
			if _, ok := parseCodeAttrs(reCode.FindStringSubmatch(t)[1]); !ok || end < 0 {
				j := end
				if j < 0 {
					j = i
				}
				raw(i, j)
				i = j
				continue
			}
			add(&segment{kind: segCode, attr: reCode.FindStringSubmatch(t)[1],
				text: strings.Join(lines[i+1:end], "")})
			i = end
		case reInclude.MatchString(t):
			add(&segment{kind: segInclude, attr: reInclude.FindStringSubmatch(t)[1], source: strings.TrimRight(raw0, "\r\n")})
		case t == "$$":
			end := -1
			for j := i + 1; j < len(lines); j++ {
				if trimIndent(strings.TrimRight(lines[j], " \t\r\n")) == "$$" {
					end = j
					break
				}
			}
			if end < 0 {
				raw(i, i)
				continue
			}
			formula := strings.TrimRight(strings.Join(lines[i+1:end], ""), "\r\n")
			add(&segment{kind: segMath, text: formula})
			i = end
		case reDetails.MatchString(t):
			m := reDetails.FindStringSubmatch(t)
			open := raw0
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
				buf.WriteString(raw0)
				continue
			}
			push(&segment{kind: segDetails, attr: summary, open: open})
		case reEndDet.MatchString(t) && topKind() == segDetails:
			pop()
		case reTag.MatchString(t):
			// An unknown or misplaced tag: up to its end tag when there is
			// one, else the line alone, kept as raw text.
			name := reTag.FindStringSubmatch(t)[1]
			j := rawTagEnd(lines, i, name, ends)
			if attrs, ok := openAPIAttrs(name, t); ok && j > i {
				add(&segment{kind: segOpenAPI, attr: name, attrs: attrs,
					source: strings.TrimRight(strings.Join(lines[i:j+1], ""), "\r\n")})
			} else {
				raw(i, j)
			}
			i = j
		default:
			buf.WriteString(raw0)
		}
	}
	flush()
	// Containers left open at the end are unwrapped: their opening line
	// becomes raw text and their children move up to the parent.
	for len(stack) > 1 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent := stack[len(stack)-1]
		last := len(parent.children) - 1
		repl := append([]*segment{{kind: segRaw, text: strings.TrimRight(s.open, "\r\n"), plain: true}}, s.children...)
		parent.children = append(parent.children[:last], repl...)
	}
	mergeMarkdown(root)
	return root
}

// knownTags are the tags Folio reads. One of them that is misplaced or
// malformed is kept alone as raw text, and the raw text of an unknown tag
// never reaches over one of them, so that it cannot take the end tag of a
// block around it.
var knownTags = map[string]bool{
	"hint": true, "tabs": true, "tab": true, "stepper": true, "step": true, "file": true, "embed": true,
	"content-ref": true, "code": true, "include": true,
}

// isStructural reports whether a line is one Folio gives a meaning to: a
// tag it reads, the end tag of one, a details tag or a math fence.
func isStructural(t string) bool {
	if t == "$$" || strings.HasPrefix(t, "<details") || strings.HasPrefix(t, "</details") {
		return true
	}
	if m := reEndTag.FindStringSubmatch(t); m != nil {
		return knownTags[m[1]]
	}
	m := reTag.FindStringSubmatch(t)
	return m != nil && knownTags[m[1]]
}

// rawTagEnd returns the line of the end tag closing the unknown tag named
// name on line i, or i when there is none or when a tag Folio reads comes
// before it.
func rawTagEnd(lines []string, i int, name string, ends *endIndex) int {
	if strings.HasPrefix(name, "end") || knownTags[name] {
		return i
	}
	if j := ends.next(name, i); j > i && ends.nextKnown(i) > j {
		return j
	}
	return i
}

// codeEnd returns the line of the {% endcode %} that closes the {% code %}
// tag on line i around exactly one fenced block, or -1.
func codeEnd(lines []string, i int) int {
	if i+1 >= len(lines) {
		return -1
	}
	m := reFence.FindStringSubmatch(strings.TrimRight(lines[i+1], " \t\r\n"))
	if m == nil || (m[1][0] == '`' && strings.Contains(m[2], "`")) {
		return -1
	}
	for j := i + 2; j < len(lines); j++ {
		if isFenceClose(strings.TrimRight(lines[j], " \t\r\n"), m[1]) {
			if j+1 < len(lines) && reEndCode.MatchString(strings.TrimSpace(lines[j+1])) {
				return j + 1
			}
			return -1
		}
	}
	return -1
}

// captioned reads the caption of a {% file %} or {% embed %} tag on line i
// whose rest of line is rest: on that line up to the end tag, or on the
// next lines up to it. Without an end tag an embed stands alone (ok, next
// = i); a file or embed whose same-line caption has no end tag is not ok.
func captioned(lines []string, i int, rest string, end *regexp.Regexp) (caption string, next int, ok bool) {
	switch {
	case end.MatchString(rest):
		return strings.TrimSpace(end.ReplaceAllString(rest, "")), i, true
	case strings.TrimSpace(rest) != "":
		return "", i, false
	}
	var parts []string
	// Bounded so that many tags without an end stay linear.
	for j := i + 1; j < len(lines) && j <= i+maxCaptionLines; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" || (strings.HasPrefix(l, "{%") && !end.MatchString(l)) {
			break
		}
		if end.MatchString(l) {
			if c := end.ReplaceAllString(l, ""); c != "" {
				parts = append(parts, c)
			}
			return strings.TrimSpace(strings.Join(parts, " ")), j, true
		}
		parts = append(parts, l)
	}
	return "", i, true
}

// endIndex lists, for each tag name, the lines holding its end tag
// ("{% endname %}") outside fenced code, so that finding the end of an
// unknown tag costs no scan of the rest of the source.
type endIndex struct {
	lines map[string][]int
	pos   map[string]int // how far next has advanced in lines[name]
	known []int          // lines holding a tag Folio reads or a details tag, in order
	kpos  int            // how far nextKnown has advanced in known
}

var reEndTag = regexp.MustCompile(`^\{%-?\s*end([A-Za-z][\w-]*)\s*-?%\}$`)

func newEndIndex(lines []string) *endIndex {
	e := &endIndex{lines: map[string][]int{}, pos: map[string]int{}}
	var fences fenceTracker
	for i, raw := range lines {
		line := strings.TrimRight(raw, " \t\r\n")
		if fences.code(line) {
			continue
		}
		t := trimIndent(line)
		switch {
		case strings.HasPrefix(t, "{%"):
			if m := reEndTag.FindStringSubmatch(t); m != nil {
				e.lines[m[1]] = append(e.lines[m[1]], i)
				if knownTags[m[1]] {
					e.known = append(e.known, i)
				}
			} else if m := reTag.FindStringSubmatch(t); m != nil && knownTags[m[1]] {
				e.known = append(e.known, i)
			}
		case strings.HasPrefix(t, "<details") || strings.HasPrefix(t, "</details"):
			e.known = append(e.known, i)
		}
	}
	return e
}

// next returns the first end-tag line of name after line i, or -1. Calls
// for one name must come with growing i, as the splitter makes them.
func (e *endIndex) next(name string, i int) int {
	ls := e.lines[name]
	p := e.pos[name]
	for p < len(ls) && ls[p] <= i {
		p++
	}
	e.pos[name] = p
	if p < len(ls) {
		return ls[p]
	}
	return -1
}

// nextKnown returns the first line after i holding a tag Folio reads, or
// a line past the end. Calls must come with growing i.
func (e *endIndex) nextKnown(i int) int {
	for e.kpos < len(e.known) && e.known[e.kpos] <= i {
		e.kpos++
	}
	if e.kpos < len(e.known) {
		return e.known[e.kpos]
	}
	return math.MaxInt
}

// fenceTracker follows fenced code blocks line by line, also those opened
// in a block quote or a list item, which end with their container.
type fenceTracker struct {
	fence  string // the open fence, "" for none
	quote  bool   // opened in a block quote: ends at a line without ">"
	indent int    // opened in a list item: ends at a line indented less
}

// code reports whether line (without its line break) is fenced code, an
// opening or a closing fence; false means Markdown outside code.
func (f *fenceTracker) code(line string) bool {
	if f.fence != "" {
		lead := len(line) - len(strings.TrimLeft(line, " "))
		blank := strings.TrimSpace(line) == ""
		switch {
		case f.quote && !blank && !strings.HasPrefix(line[lead:], ">"),
			!f.quote && f.indent > 0 && !blank && lead < f.indent:
			f.fence = "" // the container ended, and its code with it
		default:
			l := stripQuotes(line)
			if !f.quote {
				l = line[min(lead, f.indent):]
			}
			if isFenceClose(l, f.fence) {
				f.fence = ""
			}
			return true
		}
	}
	rest, quote := line, false
	for n := 0; n <= MaxLineNesting; n++ {
		j := 0
		for j < len(rest) && j < 3 && rest[j] == ' ' {
			j++
		}
		k := markerEnd(rest, j)
		if k < 0 || isThematicBreak(rest[j:]) {
			break
		}
		quote = quote || rest[j] == '>'
		rest = rest[k:]
	}
	m := reFence.FindStringSubmatch(rest)
	if m == nil || (m[1][0] == '`' && strings.Contains(m[2], "`")) {
		return false
	}
	f.fence, f.quote, f.indent = m[1], quote, len(line)-len(rest)
	return true
}

// stripQuotes drops the block quote markers a line starts with, so that
// "> ```" closes a fence opened in a quote.
func stripQuotes(line string) string {
	for n := 0; n <= MaxLineNesting; n++ {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || !strings.HasPrefix(t, ">") {
			break
		}
		line = strings.TrimPrefix(t[1:], " ")
	}
	return line
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
