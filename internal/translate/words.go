package translate

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// CountWords counts the words of s as the run statistics report them: a
// word is a run of letters, digits and combining marks, which an apostrophe
// or hyphen between two letters does not break ("don't", "e-mail" are one
// word), and every Han, Hiragana or Katakana character is a word of its own,
// since those scripts put no spaces between words.
func CountWords(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			n++
			in = false
		case isWordRune(r):
			if !in {
				n++
				in = true
			}
		case in && (r == '\'' || r == '’' || r == '-'):
			next, _ := utf8.DecodeRuneInString(s[i:])
			in = isWordRune(next) && !unicode.In(next, unicode.Han, unicode.Hiragana, unicode.Katakana)
		default:
			in = false
		}
	}
	return n
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// glossary finds source terms, case-insensitively and as whole words.
type glossary struct {
	re      *regexp.Regexp
	targets map[string]string // lower-cased source term -> target term
	terms   []string
}

// newGlossary compiles the entries of g; it returns nil for an empty one.
func newGlossary(g map[string]string) (*glossary, error) {
	terms := make([]string, 0, len(g))
	targets := make(map[string]string, len(g))
	for src, dst := range g {
		src = strings.TrimSpace(src)
		if src == "" {
			continue
		}
		terms = append(terms, src)
		targets[strings.ToLower(src)] = dst
	}
	if len(terms) == 0 {
		return nil, nil
	}
	// Longest first, so that leftmost-first alternation prefers "pull
	// request" to "pull".
	slices.SortFunc(terms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = regexp.QuoteMeta(t)
	}
	re, err := regexp.Compile("(?i)(?:" + strings.Join(quoted, "|") + ")")
	if err != nil {
		return nil, &folio.Error{Kind: folio.Invalid, Message: "the glossary is too large to apply", Err: err}
	}
	return &glossary{re: re, targets: targets, terms: terms}, nil
}

// match is one glossary term found in a text: s[start:end] becomes target.
type match struct {
	start, end int
	target     string
}

// find returns the whole-word matches in s, left to right.
func (g *glossary) find(s string) []match {
	if g == nil {
		return nil
	}
	var out []match
	for pos := 0; pos < len(s); {
		loc := g.re.FindStringIndex(s[pos:])
		if loc == nil {
			break
		}
		a, b := pos+loc[0], pos+loc[1]
		if a == b {
			break
		}
		if wholeWord(s, a, b) {
			out = append(out, match{a, b, g.target(s[a:b])})
			pos = b
			continue
		}
		_, size := utf8.DecodeRuneInString(s[a:])
		pos = a + size
	}
	return out
}

func (g *glossary) target(found string) string {
	if t, ok := g.targets[strings.ToLower(found)]; ok {
		return t
	}
	// Case folding and lower-casing disagree for a few letters.
	for _, t := range g.terms {
		if strings.EqualFold(t, found) {
			return g.targets[strings.ToLower(t)]
		}
	}
	return found
}

// wholeWord reports whether s[a:b] is not part of a longer word.
func wholeWord(s string, a, b int) bool {
	first, _ := utf8.DecodeRuneInString(s[a:b])
	last, _ := utf8.DecodeLastRuneInString(s[a:b])
	if before, _ := utf8.DecodeLastRuneInString(s[:a]); a > 0 && isWordRune(first) && isWordRune(before) {
		return false
	}
	if after, _ := utf8.DecodeRuneInString(s[b:]); b < len(s) && isWordRune(last) && isWordRune(after) {
		return false
	}
	return true
}
