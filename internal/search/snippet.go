package search

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SnippetLength is a good default for Snippet's max: about two lines of a
// search result.
const SnippetLength = 160

// ellipsis marks text cut from an excerpt.
const ellipsis = "…"

// maxSnippetTerms bounds the terms Snippet looks for; later ones are ignored.
const maxSnippetTerms = 64

// Snippet returns an excerpt of body of at most max runes, "…" included,
// around the best cluster of term matches: the window of body holding the
// most distinct terms, then the most matches, earliest first. A term matches
// a word beginning with it, ignoring case. The excerpt starts and ends on
// word boundaries where it can, carries "…" where body was cut, and has its
// whitespace collapsed to single spaces. Without a match it is the beginning
// of body; a body of at most max runes is returned whole. It returns "" when
// max < 1. terms should come from Terms; it is plain text, never markup.
func Snippet(body string, terms []string, max int) string {
	if max < 1 || body == "" {
		return ""
	}
	if fits(body, max) {
		return collapse(body)
	}
	f := finder{terms: normalizeTerms(terms), budget: max - 2}
	if f.budget < 1 {
		f.budget = 1
	}
	f.scan(body)
	if f.best < 0 {
		// No match: the beginning, with room for one ellipsis.
		end, _ := forward(body, 0, max-1)
		end = snapEnd(body, 0, end)
		return collapse(body[:end]) + ellipsis
	}
	first, last := f.matches[f.bestL], f.matches[f.best]
	span := last.rend - first.rstart
	if max < 3 {
		end, _ := forward(body, first.start, max)
		return collapse(body[first.start:end])
	}
	var start, end int
	if span > f.budget {
		// The cluster does not fit: show its first budget runes.
		start = first.start
		end, _ = forward(body, start, f.budget)
		end = snapEnd(body, start, end)
	} else {
		slack := f.budget - span
		lead := min(slack/2, f.budget/4)
		var back, ahead int
		start, back = backward(body, first.start, lead)
		rest := slack - back
		end, ahead = forward(body, last.end, rest)
		if ahead < rest {
			// The body ends first: spend what is left before the cluster.
			start, _ = backward(body, start, rest-ahead)
		}
		start = snapStart(body, start, first.start)
		end = snapEnd(body, last.end, end)
	}
	var b strings.Builder
	b.Grow(end - start + 2*len(ellipsis))
	if start > 0 {
		b.WriteString(ellipsis)
	}
	b.WriteString(collapse(body[start:end]))
	if end < len(body) {
		b.WriteString(ellipsis)
	}
	return b.String()
}

// match is a word of body beginning with one or more terms: byte offsets
// start and end, rune offsets rstart and rend, and a bit per matched term.
type match struct {
	start, end   int
	rstart, rend int
	mask         uint64
}

// finder scans a body for term matches and keeps the best window of them
// spanning at most budget runes.
type finder struct {
	terms   []string
	budget  int
	matches []match

	first    [256]bool              // first bytes of words that may match a term
	counts   [maxSnippetTerms]int32 // matches per term in the window
	distinct int                    // terms with a match in the window
	want     int                    // distinct terms to find
	l        int                    // first match of the window

	best, bestL           int // last and first match of the best window; best < 0 for none
	bestDistinct, bestLen int
}

func (f *finder) scan(body string) {
	f.best = -1
	var all uint64
	for i, t := range f.terms {
		if t != "" {
			all |= 1 << i
		}
	}
	f.want = bits.OnesCount64(all)
	if f.want == 0 {
		return
	}
	for _, t := range f.terms {
		if t == "" {
			continue
		}
		if c := t[0]; c < utf8.RuneSelf {
			f.first[c] = true
			f.first[unicode.ToUpper(rune(c))] = true
			// İ (U+0130) and the Kelvin sign (U+212A) lower to ASCII i and k.
			switch c {
			case 'i':
				f.first[0xC4] = true
			case 'k':
				f.first[0xE2] = true
			}
			continue
		}
		// Upper and lower case of a non-ASCII letter may differ in their
		// first byte.
		for c := utf8.RuneSelf; c < len(f.first); c++ {
			f.first[c] = true
		}
	}
	inWord, open := false, false
	var cur match
	// extra counts the bytes beyond the first of multi-byte runes so far,
	// turning byte offsets into rune offsets without a second pass.
	extra := 0
	for i := 0; i < len(body); {
		c := body[i]
		size := 1
		if c < utf8.RuneSelf {
			if asciiWord[c] == inWord {
				i++
				continue
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(body[i:])
			if isWordRune(r, inWord) == inWord {
				i += size
				extra += size - 1
				continue
			}
		}
		inWord = !inWord
		switch {
		case inWord:
			if !f.first[c] {
				break
			}
			if m := f.matchAt(body[i:]); m != 0 {
				cur, open = match{start: i, rstart: i - extra, mask: m}, true
			}
		case open:
			cur.end, cur.rend, open = i, i-extra, false
			if f.add(cur) {
				return
			}
		}
		i += size
		extra += size - 1
	}
	if open {
		cur.end, cur.rend = len(body), len(body)-extra
		f.add(cur)
	}
}

// matchAt returns the terms s begins with, one bit each.
func (f *finder) matchAt(s string) uint64 {
	var m uint64
	for i, t := range f.terms {
		if t != "" && hasFoldPrefix(s, t) {
			m |= 1 << i
		}
	}
	return m
}

// add appends a match, slides the window so it spans at most budget runes,
// and records it if best; it reports whether every term is in the window,
// past which no window can be better by the first criterion.
func (f *finder) add(m match) bool {
	f.matches = append(f.matches, m)
	r := len(f.matches) - 1
	f.count(m.mask, 1)
	for f.l < r && m.rend-f.matches[f.l].rstart > f.budget {
		f.count(f.matches[f.l].mask, -1)
		f.l++
	}
	if n := r - f.l + 1; f.distinct > f.bestDistinct || f.distinct == f.bestDistinct && n > f.bestLen {
		f.best, f.bestL, f.bestDistinct, f.bestLen = r, f.l, f.distinct, n
	}
	return f.distinct == f.want
}

func (f *finder) count(mask uint64, delta int32) {
	for mask != 0 {
		b := bits.TrailingZeros64(mask)
		mask &^= 1 << b
		switch f.counts[b] += delta; {
		case delta > 0 && f.counts[b] == 1:
			f.distinct++
		case delta < 0 && f.counts[b] == 0:
			f.distinct--
		}
	}
}

// normalizeTerms lowercases terms (without allocating when they already
// are) and drops duplicates, which would count twice as distinct terms.
func normalizeTerms(terms []string) []string {
	if len(terms) > maxSnippetTerms {
		terms = terms[:maxSnippetTerms]
	}
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		t = strings.ToLower(t)
		if t == "" || containsString(out, t) {
			out = append(out, "")
			continue
		}
		out = append(out, t)
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// hasFoldPrefix reports whether s begins with the lowercase term t, ignoring
// the case of s.
func hasFoldPrefix(s, t string) bool {
	i, j := 0, 0
	for j < len(t) {
		if i >= len(s) {
			return false
		}
		c, d := s[i], t[j]
		if c < utf8.RuneSelf && d < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != d {
				return false
			}
			i++
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		q, m := utf8.DecodeRuneInString(t[j:])
		if r != q && unicode.ToLower(r) != q {
			return false
		}
		i += n
		j += m
	}
	return true
}

// fits reports whether s has at most n runes, reading at most n of them.
func fits(s string, n int) bool {
	if len(s) <= n {
		return true
	}
	end, walked := forward(s, 0, n)
	return walked <= n && end == len(s)
}

// forward returns the offset n runes after pos (or len(s)) and how many
// runes it moved.
func forward(s string, pos, n int) (int, int) {
	k := 0
	for ; k < n && pos < len(s); k++ {
		if s[pos] < utf8.RuneSelf {
			pos++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[pos:])
		pos += size
	}
	return pos, k
}

// backward returns the offset n runes before pos (or 0) and how many runes
// it moved.
func backward(s string, pos, n int) (int, int) {
	k := 0
	for ; k < n && pos > 0; k++ {
		if s[pos-1] < utf8.RuneSelf {
			pos--
			continue
		}
		_, size := utf8.DecodeLastRuneInString(s[:pos])
		pos -= size
	}
	return pos, k
}

// maxSnap is how far, in runes, a cut moves to reach a word boundary. Text
// in scripts written without spaces has none nearby, and is cut mid-run
// rather than dropped.
const maxSnap = 20

// snapStart moves a cut at start forward out of the word it splits, then
// past spaces and closing punctuation, never past limit.
func snapStart(s string, start, limit int) int {
	if start == 0 {
		return start
	}
	if wordBefore(s, start) {
		p := start
		for k := 0; p < limit; k++ {
			r, size := utf8.DecodeRuneInString(s[p:])
			if !isWordRune(r, true) {
				start = p
				break
			}
			if k == maxSnap {
				return start
			}
			p += size
		}
	}
	for start < limit {
		r, size := utf8.DecodeRuneInString(s[start:])
		if !unicode.IsSpace(r) && !strings.ContainsRune(",.;:!?)]}»”’…", r) {
			break
		}
		start += size
	}
	return start
}

// snapEnd moves a cut at end back out of the word it splits, never before
// limit.
func snapEnd(s string, limit, end int) int {
	if end >= len(s) || !wordBefore(s, end) {
		return end
	}
	if r, _ := utf8.DecodeRuneInString(s[end:]); !isWordRune(r, true) {
		return end
	}
	e := end
	for k := 0; e > limit && k <= maxSnap; k++ {
		if !wordBefore(s, e) {
			return e
		}
		_, size := utf8.DecodeLastRuneInString(s[:e])
		e -= size
	}
	return end
}

// wordBefore reports whether the rune before offset i is part of a word.
func wordBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(r, true)
}

// collapse turns every run of whitespace into one space and trims both ends.
func collapse(s string) string {
	var t textBuffer
	t.b = make([]byte, 0, len(s))
	t.write(s)
	return t.String()
}
