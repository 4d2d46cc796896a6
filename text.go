package folio

import (
	"strings"
	"unicode/utf8"
)

// Clip shortens s to at most n characters for a message, a log line or a
// bounded field: invalid UTF-8 becomes U+FFFD, and a cut string ends with
// "…" (one of the n), after trailing spaces are dropped.
func Clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	cut, count := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
			break
		}
		count++
	}
	return strings.TrimRight(s[:cut], " \t\r\n") + "…"
}
