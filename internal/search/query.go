package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on queries. Terms keeps the first MaxTerms terms and cuts longer
// terms to MaxTermRunes, so no query grows without bound and no term reaches
// PostgreSQL's 2047-byte word limit (past which it silently drops the word,
// widening the query instead of failing it). IndexText cuts words the same
// way, so a long word still finds itself.
const (
	MaxTerms     = 32
	MaxTermRunes = 64
)

// TitleBoost is how many times more a term in a section title counts than
// one in its body. On FTS5, pass it as the title column's weight:
// bm25(t, TitleBoost, 1.0) with title declared first. On PostgreSQL, give
// the title weight A and the body weight B (setweight) and rank with
// ts_rank('{0.1, 0.2, 0.25, 1.0}', ...): the array lists D, C, B, A, so
// A/B is TitleBoost.
const TitleBoost = 4.0

// minRelaxed is the shortest prefix Relaxed leaves: shorter ones match too
// much to be useful.
const minRelaxed = 3

// Terms returns the normalized terms of a search query: maximal runs of
// Unicode letters and digits (with the combining marks that follow them, so
// scripts such as Devanagari keep whole words), lowercased, in order. Every
// other character separates terms. At most MaxTerms terms are returned, each
// at most MaxTermRunes runes long; duplicates are kept.
func Terms(query string) []string {
	var terms []string
	eachTerm(query, func(term []byte) bool {
		terms = append(terms, string(term))
		return len(terms) < MaxTerms
	})
	return terms
}

// IndexText returns text as the space-separated terms Terms would find in it,
// without the MaxTerms limit. Index it with to_tsvector('simple', ...) so
// that PostgreSQL tokenizes documents exactly as queries are tokenized.
func IndexText(text string) string {
	out := make([]byte, 0, len(text))
	eachTerm(text, func(term []byte) bool {
		if len(out) > 0 {
			out = append(out, ' ')
		}
		out = append(out, term...)
		return true
	})
	return string(out)
}

// FTS5Match returns an SQLite FTS5 MATCH expression requiring every term of
// query, the last one as a prefix: `"install" AND "guid"*`. Every term is a
// double-quoted string, so operators, column filters and NEAR typed by the
// user are searched as words, never parsed. It returns "" when the query has
// no terms; the caller must then skip the search (an empty MATCH is an error).
func FTS5Match(query string) string {
	terms := Terms(query)
	if len(terms) == 0 {
		return ""
	}
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteByte('"')
		// Terms holds only letters, digits and marks; the escape is a second
		// line of defence should that ever change.
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	b.WriteByte('*')
	return b.String()
}

// TSQuery returns the argument of PostgreSQL's to_tsquery('simple', ...)
// requiring every term of query, the last one as a prefix: "install & guid:*".
// Terms hold only letters, digits and marks, none of which to_tsquery reads
// as syntax, so the result never fails to parse. It returns "" when the query
// has no terms; the caller must then skip the search.
func TSQuery(query string) string {
	terms := Terms(query)
	if len(terms) == 0 {
		return ""
	}
	return strings.Join(terms, " & ") + ":*"
}

// Relaxed returns query with its last term cut to its first max(3, ⌈n/2⌉)
// runes, as normalized query text for FTS5Match or TSQuery, and true; or ""
// and false when there is nothing to relax: no terms, a last term of at most
// 3 runes, or one holding a digit (a number or version with a typo is better
// reported as not found than matched by its first digits). Callers retry
// with it only when the exact query found nothing.
func Relaxed(query string) (string, bool) {
	terms := Terms(query)
	if len(terms) == 0 {
		return "", false
	}
	last := terms[len(terms)-1]
	n := utf8.RuneCountInString(last)
	keep := max(minRelaxed, (n+1)/2)
	if n <= keep || strings.IndexFunc(last, unicode.IsDigit) >= 0 {
		return "", false
	}
	cut := 0
	for range keep {
		_, size := utf8.DecodeRuneInString(last[cut:])
		cut += size
	}
	terms[len(terms)-1] = last[:cut]
	return strings.Join(terms, " "), true
}

// eachTerm calls fn with every term of s, lowercased and cut to MaxTermRunes
// runes, until fn returns false. The slice passed to fn is reused.
func eachTerm(s string, fn func(term []byte) bool) {
	var buf [4 * MaxTermRunes]byte
	term := buf[:0]
	runes := 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if isWordRune(r, runes > 0) {
			if runes < MaxTermRunes {
				term = utf8.AppendRune(term, unicode.ToLower(r))
			}
			runes++
			continue
		}
		if runes > 0 {
			if !fn(term) {
				return
			}
			term, runes = term[:0], 0
		}
	}
	if runes > 0 {
		fn(term)
	}
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// isWordRune reports whether r belongs to a term: a letter or digit, or a
// combining mark continuing a word already started.
func isWordRune(r rune, inWord bool) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || inWord && unicode.IsMark(r)
}

// ContainsTerms reports whether text holds every term as Terms splits it:
// each term as a whole word, the last one as a word prefix when prefix is
// true. It tells title matches from body matches among search results.
func ContainsTerms(text string, terms []string, prefix bool) bool {
	if len(terms) == 0 {
		return false
	}
	words := map[string]bool{}
	var list []string
	eachTerm(text, func(term []byte) bool {
		w := string(term)
		if !words[w] {
			words[w] = true
			list = append(list, w)
		}
		return true
	})
	for i, t := range terms {
		if words[t] {
			continue
		}
		if !prefix || i != len(terms)-1 {
			return false
		}
		found := false
		for _, w := range list {
			if strings.HasPrefix(w, t) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
