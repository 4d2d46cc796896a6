package markdown

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

func TestNestingLimit(t *testing.T) {
	deepIndent := func(levels int) string {
		var b strings.Builder
		for i := range levels {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String()
	}
	tests := []struct {
		name string
		src  string
		ok   bool
	}{
		{"32 lists", strings.Repeat("- ", 32) + "x", true},
		{"33 lists", strings.Repeat("- ", 33) + "x", false},
		{"32 quotes", strings.Repeat(">", 32) + " x", true},
		{"33 quotes", strings.Repeat(">", 33) + " x", false},
		{"33 spaced quotes", strings.Repeat("> ", 33) + "x", false},
		{"33 ordered", strings.Repeat("1. ", 33) + "x", false},
		{"33 mixed after text", "text\n\n" + strings.Repeat("> 1) * ", 11) + "x", false},
		{"32 mixed", strings.Repeat("> 1) + ", 10) + "> - x", true},
		{"thematic break", strings.Repeat("- ", 40), true},
		{"quoted thematic break", "> " + strings.Repeat("* ", 40), true},
		{"in fenced code", "```\n" + strings.Repeat("> ", 40) + "x\n```\n", true},
		{"after fenced code", "```\ncode\n```\n" + strings.Repeat("> ", 40) + "x\n", false},
		{"indented 40 levels", deepIndent(40), true},
		{"dashes without spaces", strings.Repeat("-", 100) + "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ToDocument([]byte(tt.src), nil)
			if tt.ok {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if folio.KindOf(err) != folio.Invalid || !strings.Contains(folio.MessageOf(err), "deeper than 32 levels") {
				t.Fatalf("got %v, want the nesting limit", err)
			}
		})
	}
}
