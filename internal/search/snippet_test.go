package search_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/search"
)

const lorem = "Folio stores every page as a document. Editors write text, and the server keeps revisions. " +
	"To upgrade, read the installation guide first, then restart each node. Backups are taken nightly " +
	"and kept for thirty days. Search covers titles and bodies of every section in every space."

func TestSnippet(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		terms []string
		max   int
		want  string
	}{
		{"max below one", lorem, []string{"folio"}, 0, ""},
		{"empty body", "", []string{"folio"}, 50, ""},
		{"short body whole, whitespace collapsed", "  Short\n\tbody  ", []string{"x"}, 50, "Short body"},
		{"body of exactly max runes", "ééééé", nil, 5, "ééééé"},
		{"no match: the beginning, cut at a word", lorem, []string{"zebra"}, 30, "Folio stores every page as a…"},
		{"no terms: the beginning", lorem, nil, 30, "Folio stores every page as a…"},
		{"prefix match inside the body", lorem, []string{"instal"}, 60,
			"…read the installation guide first, then restart each…"}, // no leading ", "
		{"case-insensitive", lorem, []string{"BACKUPS"}, 40, "…node. Backups are taken nightly and…"},
		{"match near the end shifts the window back", lorem, []string{"space"}, 40,
			"…of every section in every space."},
		{"match at the start has no leading ellipsis", lorem, []string{"folio"}, 40, "Folio stores every page as a document.…"},
		{"terms match at word starts only", "unfold the fold", []string{"fold"}, 12, "…the fold"},
		{"best cluster has the most distinct terms",
			"alpha one two three four five six seven eight nine ten eleven twelve alpha beta thirteen",
			[]string{"alpha", "beta"}, 30, "…twelve alpha beta thirteen"},
		{"unicode words and case", "Der Bäcker öffnet um sieben. Danach ÖFFNET auch die Straße.", []string{"straße"}, 30,
			"…ÖFFNET auch die Straße."},
		{"cluster longer than max: its start", "word " + strings.Repeat("x", 40) + " end", []string{"xxx"}, 12,
			"…xxxxxxxxxx…"},
		{"text without spaces is cut hard", "大阪 " + strings.Repeat("東京", 40), []string{"大阪"}, 40,
			"大阪 " + strings.Repeat("東京", 17) + "東…"},
		{"text without spaces is cut hard without match", strings.Repeat("東京", 40), nil, 10, "東京東京東京東京東…"},
		{"tiny max", lorem, []string{"backups"}, 2, "Ba"},
		{"tiny max without match", lorem, []string{"zebra"}, 1, "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := search.Snippet(tt.body, tt.terms, tt.max)
			if got != tt.want {
				t.Errorf("Snippet(max %d) = %q, want %q", tt.max, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > tt.max {
				t.Errorf("Snippet has %d runes, more than max %d", n, tt.max)
			}
		})
	}
}

// TestSnippetBounds checks over many bodies, terms and lengths that the
// excerpt stays within max, is a piece of the body between word boundaries,
// and shows a match whenever one fits.
func TestSnippetBounds(t *testing.T) {
	body := lorem + " Ünïcödé text: 東京は大きい. " + lorem
	words := strings.Fields(strings.ToLower(body))
	flat := strings.Join(strings.Fields(body), " ")
	for max := 1; max <= 120; max += 7 {
		for i := 0; i < len(words); i += 5 {
			terms := search.Terms(words[i])
			got := search.Snippet(body, terms, max)
			if n := utf8.RuneCountInString(got); n > max {
				t.Fatalf("max %d terms %q: %d runes: %q", max, terms, n, got)
			}
			inner := strings.TrimSuffix(strings.TrimPrefix(got, "…"), "…")
			if !strings.Contains(flat, inner) {
				t.Fatalf("max %d terms %q: %q is not a piece of the body", max, terms, inner)
			}
			if max >= 40 && len(terms) > 0 && !strings.Contains(strings.ToLower(inner), terms[0]) {
				t.Errorf("max %d: %q does not show term %q", max, got, terms[0])
			}
		}
	}
}

// words500Body is a 500-word section body with two query terms near its end.
func words500Body() string {
	vocab := strings.Fields("configure the server with a token and restart every node of the cluster before upgrading documents")
	var b strings.Builder
	for i := range 500 {
		if i == 430 {
			b.WriteString("installation guide ")
			continue
		}
		b.WriteString(vocab[(i*7)%len(vocab)])
		b.WriteByte(' ')
	}
	return b.String()
}

func BenchmarkSnippet(b *testing.B) {
	body := words500Body()
	terms := search.Terms("Install guide")
	b.ReportAllocs()
	for b.Loop() {
		search.Snippet(body, terms, search.SnippetLength)
	}
}

func BenchmarkSnippetNoMatch(b *testing.B) {
	body := words500Body()
	terms := search.Terms("zebra quartz")
	b.ReportAllocs()
	for b.Loop() {
		search.Snippet(body, terms, search.SnippetLength)
	}
}
