package reader

import (
	"testing"
	"time"
)

// TestCatalog: every language of the catalog has every English string,
// with the same formatting verbs; dates read as each language writes
// them.
func TestCatalog(t *testing.T) {
	t.Parallel()
	verbs := func(s string) (n int) {
		for i := 0; i+1 < len(s); i++ {
			if s[i] == '%' {
				n++
			}
		}
		return n
	}
	for lang, m := range catalog {
		for k, en := range catalog["en"] {
			v, ok := m[k]
			if !ok {
				t.Errorf("%s lacks %q", lang, k)
				continue
			}
			if verbs(v) != verbs(en) {
				t.Errorf("%s %q: %q has other verbs than %q", lang, k, v, en)
			}
		}
	}
	d := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	for lang, want := range map[string]string{"en": "March 5, 2026", "fr": "5 mars 2026", "de": "5. März 2026",
		"es": "5 de marzo de 2026", "ja": "2026年3月5日", "xx": "March 5, 2026"} {
		if got := longDate(lang, d); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	for in, want := range map[string]string{"fr": "fr", "pt-br": "en", "de-AT": "de", "": "en", "JA": "ja"} {
		if got := localeOf(map[string]any{"internationalization": map[string]any{"locale": in}}); got != want {
			t.Errorf("locale %q: %q, want %q", in, got, want)
		}
	}
}
