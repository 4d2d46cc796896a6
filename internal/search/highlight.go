package search

import (
	"strings"
	"unicode/utf8"
)

// Span is a run of text, Match set when it is a word that a term matched.
type Span struct {
	Text  string
	Match bool
}

// Highlight splits text (an excerpt from Snippet) into spans, marking
// each word that begins with one of terms, ignoring case, as Snippet
// matches them. The spans are plain text in order; joined they give text
// back. terms should come from Terms.
func Highlight(text string, terms []string) []Span {
	terms = normalizeTerms(terms)
	var out []Span
	plain := 0 // start of the text not yet in a span
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r, false) {
			i += n
			continue
		}
		start := i
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r, true) {
				break
			}
			i += n
		}
		if !matchesAny(strings.ToLower(text[start:i]), terms) {
			continue
		}
		if start > plain {
			out = append(out, Span{Text: text[plain:start]})
		}
		out = append(out, Span{Text: text[start:i], Match: true})
		plain = i
	}
	if plain < len(text) {
		out = append(out, Span{Text: text[plain:]})
	}
	return out
}

func matchesAny(word string, terms []string) bool {
	for _, t := range terms {
		if t != "" && strings.HasPrefix(word, t) {
			return true
		}
	}
	return false
}
