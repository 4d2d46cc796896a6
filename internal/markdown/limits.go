package markdown

import (
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// MaxLineNesting is the most lists and block quotes one line may open.
// goldmark gives every container a line opens a look at the rest of the
// line, so "- - - ... x" or ">>>... x" cost the square of their length,
// and a Document cannot hold more than content.MaxDepth levels anyway.
const MaxLineNesting = content.MaxDepth

// checkNesting returns an Invalid error when a line outside fenced code
// opens more than MaxLineNesting lists or quotes. Nesting built over many
// lines by indentation needs the square of its depth in bytes, so it stays
// cheap and is flattened by clampDepth instead.
func checkNesting(src string) error {
	fence := ""
	line := 0
	for rest := src; rest != ""; line++ {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		l = strings.TrimRight(l, " \t\r")
		if fence != "" {
			if isFenceClose(l, fence) {
				fence = ""
			}
			continue
		}
		if m := reFence.FindStringSubmatch(l); m != nil && !(m[1][0] == '`' && strings.Contains(m[2], "`")) {
			fence = m[1]
			continue
		}
		if lineNesting(l) > MaxLineNesting {
			return folio.FieldErrorf("markdown", "markdown nests lists or quotes deeper than %d levels (line %d)",
				MaxLineNesting, line+1)
		}
	}
	return nil
}

// lineNesting counts the container markers that open line ("> ", "- ",
// "* ", "+ ", "1. ", "1) "), each after at most three spaces, up to
// MaxLineNesting+1; a thematic break ("- - -") is not a marker.
func lineNesting(line string) int {
	n, i := 0, 0
	var starts []int
	for n <= MaxLineNesting {
		j := i
		for j < len(line) && j-i < 3 && line[j] == ' ' {
			j++
		}
		k := markerEnd(line, j)
		if k < 0 {
			break
		}
		starts = append(starts, j)
		n++
		i = k
	}
	if n <= MaxLineNesting {
		return n
	}
	// Only now is the line worth a second look: from the first marker that
	// starts a thematic break on, nothing more is nested.
	for m, s := range starts {
		if isThematicBreak(line[s:]) {
			return m
		}
	}
	return n
}

// markerEnd returns the end of the container marker at line[i:], after the
// space or tab that follows it, or -1 when there is none.
func markerEnd(line string, i int) int {
	if i >= len(line) {
		return -1
	}
	spaced := func(k int) int {
		if k == len(line) {
			return k
		}
		if line[k] == ' ' || line[k] == '\t' {
			return k + 1
		}
		return -1
	}
	switch c := line[i]; {
	case c == '>':
		if i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
			return i + 2
		}
		return i + 1
	case c == '-' || c == '*' || c == '+':
		return spaced(i + 1)
	case c >= '0' && c <= '9':
		k := i
		for k < len(line) && k-i < 9 && line[k] >= '0' && line[k] <= '9' {
			k++
		}
		if k < len(line) && (line[k] == '.' || line[k] == ')') {
			return spaced(k + 1)
		}
	}
	return -1
}

// isThematicBreak reports whether s is three or more of one of "-", "*"
// or "_", with only spaces and tabs besides.
func isThematicBreak(s string) bool {
	var mark byte
	count := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
		case '-', '*', '_':
			if mark != 0 && c != mark {
				return false
			}
			mark = c
			count++
		default:
			return false
		}
	}
	return count >= 3
}
