package search_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/search"
	"github.com/google/go-cmp/cmp"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"empty", "", nil},
		{"only separators", ` "*:&|!()-_ ..  `, nil},
		{"lowercased", "Install GUIDE", []string{"install", "guide"}},
		{"punctuation splits", "foo_bar-baz.qux/v1.2,x@y", []string{"foo", "bar", "baz", "qux", "v1", "2", "x", "y"}},
		{"sql and fts syntax are separators", `"); DROP TABLE x; -- NEAR(a b) col:term*`,
			[]string{"drop", "table", "x", "near", "a", "b", "col", "term"}},
		{"unicode letters", "Café ÉCOLE straße 東京 Привет", []string{"café", "école", "straße", "東京", "привет"}},
		{"combining marks stay in words", "हिन्दी e\u0301t\u0301", []string{"हिन्दी", "e\u0301t\u0301"}},
		{"leading mark is dropped", "\u0301abc", []string{"abc"}},
		{"digits", "404 ٣٤ x²", []string{"404", "٣٤", "x"}},
		{"duplicates kept", "a a", []string{"a", "a"}},
		{"invalid utf-8 separates", "ab\xffcd", []string{"ab", "cd"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, search.Terms(tt.query)); diff != "" {
				t.Errorf("Terms(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

func TestTermsLimits(t *testing.T) {
	many := strings.Repeat("w ", 40)
	if got := len(search.Terms(many)); got != search.MaxTerms {
		t.Errorf("terms of 40 words = %d, want %d", got, search.MaxTerms)
	}
	long := strings.Repeat("é", 100) + " z"
	got := search.Terms(long)
	if want := []string{strings.Repeat("é", search.MaxTermRunes), "z"}; !cmp.Equal(got, want) {
		t.Errorf("long term not cut to %d runes: %q", search.MaxTermRunes, got)
	}
}

func TestFTS5Match(t *testing.T) {
	tests := []struct{ name, query, want string }{
		{"empty", "", ""},
		{"only syntax", `"*"():^+-`, ""},
		{"one term is a prefix", "instal", `"instal"*`},
		{"all terms required, last a prefix", "install Guide", `"install" AND "guide"*`},
		{"quotes and injection", `"); DROP TABLE pages; --`, `"drop" AND "table" AND "pages"*`},
		{"star", "*", ""},
		{"operators are words", "a OR b NOT c AND d", `"a" AND "or" AND "b" AND "not" AND "c" AND "and" AND "d"*`},
		{"near", "NEAR(a b, 3)", `"near" AND "a" AND "b" AND "3"*`},
		{"column filter and caret", "title:foo ^bar {title body}: x", `"title" AND "foo" AND "bar" AND "title" AND "body" AND "x"*`},
		{"tsquery syntax", ":*&|!", ""},
		{"unicode", "Ünïcödé 東京", `"ünïcödé" AND "東京"*`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := search.FTS5Match(tt.query); got != tt.want {
				t.Errorf("FTS5Match(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestTSQuery(t *testing.T) {
	tests := []struct{ name, query, want string }{
		{"empty", "", ""},
		{"only syntax", ":*&|!()<->'\\", ""},
		{"one term is a prefix", "instal", "instal:*"},
		{"all terms required, last a prefix", "install Guide", "install & guide:*"},
		{"operators are separators", "a&b|c !d <-> e:*", "a & b & c & d & e:*"},
		{"quotes and injection", `'); DROP TABLE pages; --`, "drop & table & pages:*"},
		{"weights and prefix syntax", "foo:AB* bar", "foo & ab & bar:*"},
		{"unicode", "Straße हिन्दी", "straße & हिन्दी:*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := search.TSQuery(tt.query); got != tt.want {
				t.Errorf("TSQuery(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

// TestQueriesHoldOnlyTermCharacters checks, over hostile inputs, that the
// engine expressions contain nothing but terms and the syntax we add.
func TestQueriesHoldOnlyTermCharacters(t *testing.T) {
	inputs := []string{`"`, `""`, `"a"*`, `a" OR "b`, "\x00a\x00", "a\nb\tc", "'", `\`, "NEAR/2", "a -b +c", "(a", "a)", "é\u0301*"}
	for _, in := range inputs {
		for _, term := range search.Terms(in) {
			if strings.ContainsAny(term, "\"'*:&|!()\\ \x00^+-") {
				t.Errorf("Terms(%q) holds syntax: %q", in, term)
			}
		}
		if m := search.FTS5Match(in); strings.Count(m, `"`)%2 != 0 {
			t.Errorf("FTS5Match(%q) = %q has unbalanced quotes", in, m)
		}
	}
}

func TestRelaxed(t *testing.T) {
	tests := []struct {
		name, query, want string
		ok                bool
	}{
		{"empty", "", "", false},
		{"short term kept", "abc", "", false},
		{"four runes lose one", "inst", "ins", true},
		{"half of the word, at least three runes", "instalation", "instal", true},
		{"odd length rounds up", "configuraton", "config", true},
		{"only the last term", "Quick instalation", "quick instal", true},
		{"normalized like Terms", "  INSTALATION!! ", "instal", true},
		{"runes, not bytes", "éééééé", "ééé", true},
		{"numbers are not relaxed", "error 40404", "", false},
		{"versions are not relaxed", "release v2024", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := search.Relaxed(tt.query)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Relaxed(%q) = %q, %v; want %q, %v", tt.query, got, ok, tt.want, tt.ok)
			}
		})
	}
	// The relaxed text feeds the same builders.
	r, _ := search.Relaxed("install instalation")
	if got, want := search.FTS5Match(r), `"install" AND "instal"*`; got != want {
		t.Errorf("FTS5Match(Relaxed) = %q, want %q", got, want)
	}
	if got, want := search.TSQuery(r), "install & instal:*"; got != want {
		t.Errorf("TSQuery(Relaxed) = %q, want %q", got, want)
	}
}

func TestIndexText(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", ""},
		{"hosts, versions and emails split", "See example.com/docs, v1.2.3 and user@mail.org",
			"see example com docs v1 2 3 and user mail org"},
		{"no term limit", strings.Repeat("w ", 40), strings.TrimSpace(strings.Repeat("w ", 40))},
		{"lowercase unicode", "Café\nÉCOLE", "café école"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := search.IndexText(tt.text); got != tt.want {
				t.Errorf("IndexText(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestContainsTerms(t *testing.T) {
	for _, tt := range []struct {
		text   string
		terms  []string
		prefix bool
		want   bool
	}{
		{"Install the Server", []string{"install", "server"}, false, true},
		{"Install the Server", []string{"server", "inst"}, true, true},
		{"Install the Server", []string{"inst", "server"}, true, false},
		{"Install the Server", []string{"inst"}, false, false},
		{"Install the Server", []string{"backup"}, true, false},
		{"", []string{"x"}, true, false},
		{"anything", nil, true, false},
	} {
		if got := search.ContainsTerms(tt.text, tt.terms, tt.prefix); got != tt.want {
			t.Errorf("ContainsTerms(%q, %q, %v) = %v", tt.text, tt.terms, tt.prefix, got)
		}
	}
}
