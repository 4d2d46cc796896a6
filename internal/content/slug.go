package content

import (
	"strconv"
	"strings"
	"unicode"
)

// MaxSlugLength is the longest slug Slugify returns.
const MaxSlugLength = 100

// transliterations maps common Latin letters with accents or ligatures to ASCII.
var transliterations = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'ā': "a", 'ă': "a", 'ą': "a",
	'æ': "ae", 'ç': "c", 'ć': "c", 'č': "c", 'ď': "d", 'đ': "d", 'ð': "d",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ē': "e", 'ė': "e", 'ę': "e", 'ě': "e",
	'ğ': "g", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ī': "i", 'į': "i", 'ı': "i",
	'ł': "l", 'ľ': "l", 'ñ': "n", 'ń': "n", 'ň': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'ō': "o", 'ő': "o", 'œ': "oe",
	'ŕ': "r", 'ř': "r", 'ß': "ss", 'ś': "s", 'š': "s", 'ş': "s", 'ș': "s",
	'ť': "t", 'ţ': "t", 'ț': "t", 'þ': "th",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ū': "u", 'ů': "u", 'ű': "u", 'ų': "u",
	'ý': "y", 'ÿ': "y", 'ź': "z", 'ż': "z", 'ž': "z",
}

// Slugify derives a URL slug from a title: lowercase ASCII letters and
// digits, accented Latin letters transliterated, every other run of
// characters turned into one '-', trimmed, at most MaxSlugLength bytes, and
// "page" when nothing is left.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		var s string
		switch {
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			s = string(r)
		default:
			s = transliterations[r]
		}
		if s == "" {
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteString(s)
	}
	out := b.String()
	if len(out) > MaxSlugLength {
		out = strings.TrimRight(out[:MaxSlugLength], "-")
	}
	if out == "" {
		return "page"
	}
	return out
}

// UniqueSlug returns want if no existing slug equals it, or else want with
// the first free suffix -2, -3…, shortened so the result stays within
// MaxSlugLength.
func UniqueSlug(existing []string, want string) string {
	taken := make(map[string]bool, len(existing))
	for _, s := range existing {
		taken[s] = true
	}
	return uniqueIn(taken, want)
}

func uniqueIn(taken map[string]bool, want string) string {
	if !taken[want] {
		return want
	}
	for n := 2; ; n++ {
		suffix := "-" + strconv.Itoa(n)
		base := want
		if len(base)+len(suffix) > MaxSlugLength {
			base = strings.TrimRight(base[:MaxSlugLength-len(suffix)], "-")
		}
		if s := base + suffix; !taken[s] {
			return s
		}
	}
}

// slugFix records a slug FillSlugs set or changed.
type slugFix struct {
	pageID   string
	old, new string
}

// FillSlugs gives every document and group page without a slug one derived
// from its title, and renames later siblings whose slug clashes with an
// earlier one (-2, -3…). It edits pages in place: call it before hashing, or
// on a tree whose pages are not shared (Merge builds fresh pages).
func (t *Tree) FillSlugs() { fillSlugs(t.Pages) }

func fillSlugs(pages []*Page) []slugFix {
	var fixes []slugFix
	taken := map[string]bool{}
	// Slugs already set keep priority over derived ones, in sibling order.
	for _, p := range pages {
		if p.Type == PageLink || p.Slug == "" {
			continue
		}
		if taken[p.Slug] {
			continue
		}
		taken[p.Slug] = true
	}
	seen := map[string]bool{}
	for _, p := range pages {
		if p.Type != PageLink {
			switch {
			case p.Slug == "":
				s := uniqueIn(taken, Slugify(p.Title))
				fixes = append(fixes, slugFix{p.ID, "", s})
				p.Slug = s
				taken[s] = true
			case seen[p.Slug]:
				s := uniqueIn(taken, p.Slug)
				fixes = append(fixes, slugFix{p.ID, p.Slug, s})
				p.Slug = s
				taken[s] = true
			}
			seen[p.Slug] = true
		}
		fixes = append(fixes, fillSlugs(p.Pages)...)
	}
	return fixes
}

// Paths returns the path of every document and group page by id: its
// ancestors' slugs and its own joined by '/'. Link pages have no path.
func Paths(t *Tree) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, pages []*Page)
	walk = func(prefix string, pages []*Page) {
		for _, p := range pages {
			if p.Type == PageLink {
				continue
			}
			path := p.Slug
			if prefix != "" {
				path = prefix + "/" + p.Slug
			}
			out[p.ID] = path
			walk(path, p.Pages)
		}
	}
	walk("", t.Pages)
	return out
}
