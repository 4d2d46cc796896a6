package reader

import "testing"

// TestSameSitePath: the theme switch returns only to paths of the site,
// whatever its base (a path prefix, or the root of its own hostname).
func TestSameSitePath(t *testing.T) {
	for _, c := range []struct {
		base, path string
		want       bool
	}{
		{"", "/", true},
		{"", "/guide/install?x=1#top", true},
		{"", "/guide/", true},
		{"/docs", "/docs", true},
		{"/docs", "/docs/", true},
		{"/docs", "/docs/guide?q=a", true},
		{"", "", false},
		{"", "guide", false},
		{"", "//evil.example/", false},
		{"", "///evil.example/", false},
		{"", "/\\evil.example", false},
		{"", "/%5Cevil.example", false},
		{"", "https://evil.example/", false},
		{"", "javascript:alert(1)", false},
		{"", "/a\r\nLocation: //evil.example", false},
		{"", "/a\tb", false},
		{"", "/../evil", false},
		{"", "/a/./b", false},
		{"/docs", "/docsx", false},
		{"/docs", "/other/", false},
		{"/docs", "/docs/../other", false},
		{"/docs", "/docs/%2e%2e/other", false},
		{"/docs", "/", false},
	} {
		if got := sameSitePath(c.base, c.path); got != c.want {
			t.Errorf("sameSitePath(%q, %q) = %v, want %v", c.base, c.path, got, c.want)
		}
	}
}
