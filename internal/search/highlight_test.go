package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHighlight(t *testing.T) {
	for _, c := range []struct {
		name, text string
		terms      []string
		want       []Span
	}{
		{"no terms", "Run it.", nil, []Span{{Text: "Run it."}}},
		{"word prefix ignoring case", "Install the INSTALLER, reinstall.", []string{"install"},
			[]Span{{Text: "Install", Match: true}, {Text: " the "}, {Text: "INSTALLER", Match: true}, {Text: ", reinstall."}}},
		{"markup stays text", "<script>alert(1)</script> x", []string{"script"},
			[]Span{{Text: "<"}, {Text: "script", Match: true}, {Text: ">alert(1)</"}, {Text: "script", Match: true}, {Text: "> x"}}},
		{"two terms, whole text", "go tests", []string{"go", "test"},
			[]Span{{Text: "go", Match: true}, {Text: " "}, {Text: "tests", Match: true}}},
		{"empty", "", []string{"x"}, nil},
		{"accents", "Café crème", []string{"crè"}, []Span{{Text: "Café "}, {Text: "crème", Match: true}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Highlight(c.text, c.terms)
			if d := cmp.Diff(c.want, got); d != "" {
				t.Fatalf("Highlight(%q) (-want +got):\n%s", c.text, d)
			}
			var b strings.Builder
			for _, s := range got {
				b.WriteString(s.Text)
			}
			if b.String() != c.text {
				t.Fatalf("spans join to %q", b.String())
			}
		})
	}
}
