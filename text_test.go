package folio

import "testing"

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short/kept", "abc", 3, "abc"},
		{"long/cut with an ellipsis", "abcdef", 4, "abc…"},
		{"runes/counted as characters", "ééééé", 3, "éé…"},
		{"spaces/trimmed before the ellipsis", "ab   cdef", 4, "ab…"},
		{"invalid UTF-8/replaced", "a\xffb", 5, "a\uFFFDb"},
		{"zero/empty", "abc", 0, ""},
		{"one/just the ellipsis", "abc", 1, "…"},
	} {
		if got := Clip(tc.in, tc.n); got != tc.want {
			t.Errorf("%s: Clip(%q, %d) = %q, want %q", tc.name, tc.in, tc.n, got, tc.want)
		}
	}
}
