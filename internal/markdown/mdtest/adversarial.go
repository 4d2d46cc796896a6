// Package mdtest holds Markdown inputs shared by the tests and benchmarks
// of internal/markdown and internal/importer: adversarial shapes that make
// a naive Markdown parser super-linear.
package mdtest

import (
	"fmt"
	"strings"
)

// Kinds lists the adversarial shapes, in the order benchmarks report them.
var Kinds = []string{
	"brackets", "brackets-nested", "bracket-lines", "links", "images", "image-links", "link-titles",
	"nested-lists", "nested-quotes", "nested-mixed",
	"emphasis-star", "emphasis-under", "emphasis-double", "emphasis-mixed", "emphasis-nested",
	"table-rows", "table-columns",
	"refdefs", "backticks", "html", "autolinks", "entities", "plain",
}

// Sizes are the input sizes the benchmarks run at.
var Sizes = []struct {
	Name  string
	Bytes int
}{{"10KB", 10_000}, {"100KB", 100_000}, {"1MB", 1_000_000}}

// Adversarial returns about size bytes of Markdown of the given kind (one
// of Kinds); it panics on an unknown kind.
func Adversarial(kind string, size int) []byte {
	var b strings.Builder
	fill := func(unit string) {
		for b.Len()+len(unit) <= size {
			b.WriteString(unit)
		}
	}
	switch kind {
	case "brackets":
		fill("[")
	case "brackets-nested":
		b.WriteString(strings.Repeat("[", size/2))
		fill("]")
	case "bracket-lines":
		// One paragraph of many lines, each with a label to look up.
		fill("[a]\n")
	case "links":
		fill("[a](")
	case "images":
		fill("![")
	case "image-links":
		fill("![a](")
	case "link-titles":
		// Destinations that parse, titles that never close.
		fill(`[a](b (`)
	case "nested-lists":
		// Deep nesting on one line, then lines that each visit every
		// open list.
		b.WriteString(strings.Repeat("- ", size/4) + "x\n")
		fill("y\n")
	case "nested-quotes":
		b.WriteString(strings.Repeat(">", size/4) + " x\n")
		fill("y\n")
	case "nested-mixed":
		b.WriteString(strings.Repeat("> 1. - ", size/28) + "x\n")
		fill("y\n")
	case "emphasis-star":
		fill("*a")
	case "emphasis-under":
		fill("_a")
	case "emphasis-double":
		fill("**")
	case "emphasis-mixed":
		fill("*a_b**c__d~~e")
	case "emphasis-nested":
		b.WriteString(strings.Repeat("*a ", size/6))
		fill("a* ")
	case "table-rows":
		b.WriteString("| a | b | c |\n|---|---|---|\n")
		fill("| x | *y* | [z](u) |\n")
	case "table-columns":
		cols := max(1, size/8)
		b.WriteString(strings.Repeat("| a ", cols) + "|\n")
		b.WriteString(strings.Repeat("|---", cols) + "|\n")
		fill(strings.Repeat("| x ", 64) + "|\n")
	case "refdefs":
		n := size / 40
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "[r%d]: /u%d\n", i, i)
		}
		b.WriteString("\n")
		for i := 0; b.Len() < size-16; i++ {
			fmt.Fprintf(&b, "[r%d] [x][r%d] ", i%n, i%(n+1))
		}
	case "backticks":
		// Runs of every length, none closed by a run of the same length.
		for i := 1; b.Len() < size; i++ {
			b.WriteString(strings.Repeat("`", i%64+1) + "a")
		}
	case "html":
		fill("<a")
	case "autolinks":
		fill("<http://a")
	case "entities":
		fill("&#")
	case "plain":
		fill("Plain words, *some emphasis*, a [link](https://example.com) and `code`.\n\n")
	default:
		panic("mdtest: unknown kind " + kind)
	}
	out := b.String()
	if len(out) > size {
		out = out[:size]
	}
	return []byte(out)
}
