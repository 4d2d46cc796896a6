package importer

import "github.com/foliodocs/folio/internal/content"

// Shared helpers for other importers of page trees (internal/gitsync reads
// git repositories with the same file and ordering rules).

// NewFile returns the content.File of a file named name holding b, its
// bytes recorded in s: a new id, the content type (sniffed, or from the
// extension for text-like types) and, for PNG, JPEG and GIF, the size in
// pixels. Invalid UTF-8 in name becomes U+FFFD.
func NewFile(s *content.Snapshot, name string, b []byte) content.File { return newFile(s, name, b) }

// NaturalCompare orders names case-insensitively with runs of digits
// compared by value, so "2-setup" sorts before "10-deploy".
func NaturalCompare(a, b string) int { return naturalCompare(a, b) }

// Humanize turns a file or folder name into a title: extension dropped,
// dashes and underscores as spaces, first letter upper case.
func Humanize(name string) string { return humanize(name) }

// CleanText replaces invalid UTF-8 and NUL bytes with U+FFFD, so text from
// any source can be stored.
func CleanText(src []byte) []byte { return cleanText(src) }

// WithDefaults returns l with zero or negative fields set to the
// DefaultLimits values and MaxPages capped at content.MaxPages.
func (l Limits) WithDefaults() Limits { return l.withDefaults() }

// ResolvePath turns a link target written in a file of folder dir into a
// cleaned path relative to the root ("" for the root) and its anchor; ok is
// false for a path that leaves the root (still returned, starting with
// "../").
func ResolvePath(dir, target string) (p, anchor string, ok bool) { return resolvePath(dir, target) }

// UniqueSlug returns want, or want with the first free suffix -2, -3… when
// taken has it; next remembers the last suffix tried per slug, so that many
// clashing names stay linear.
func UniqueSlug(taken map[string]bool, next map[string]int, want string) string {
	return uniqueSlug(taken, next, want)
}
