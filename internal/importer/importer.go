package importer

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// MiB is one mebibyte, the unit of the byte limits.
const MiB = 1 << 20

// Limits bounds what an import may hold. A zero or negative field means the
// DefaultLimits value; MaxPages is never more than content.MaxPages.
type Limits struct {
	MaxPages      int   // pages, including folder and group pages
	MaxFileBytes  int64 // decompressed bytes of one archive entry
	MaxTotalBytes int64 // decompressed bytes of every entry read
	MaxFiles      int   // entries that become files (not pages)
}

// DefaultLimits returns content.MaxPages pages, 100 MiB per file, 500 MiB in
// total and 10,000 files.
func DefaultLimits() Limits {
	return Limits{MaxPages: content.MaxPages, MaxFileBytes: 100 * MiB, MaxTotalBytes: 500 * MiB, MaxFiles: 10000}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxPages <= 0 || l.MaxPages > d.MaxPages {
		l.MaxPages = d.MaxPages
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = d.MaxFileBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = d.MaxFiles
	}
	return l
}

// Markdown imports one Markdown page on its own: MarkdownInto with no
// space, so relative links stay URLs.
func Markdown(src []byte, title string) (*content.Snapshot, error) {
	return MarkdownInto(src, title, Into{})
}

// MarkdownInto imports one Markdown page that goes into a space as into
// says. Its title is a leading "# H1" (removed from the body), else front
// matter "title:", else title, else "Untitled"; front matter
// "description:" gives the description. Relative links to the space's
// pages become page references (see Into); other relative links stay URLs.
// Images given as data: URLs become files of the snapshot. NUL bytes and
// invalid UTF-8 become U+FFFD. Errors are Invalid (a document over the
// limits of markdown.ToDocument or of content.Document.Validate, a data:
// URL that is not a valid image) or TooLarge (a data: URL over
// MaxDataURLBytes).
func MarkdownInto(src []byte, title string, into Into) (*content.Snapshot, error) {
	s := content.NewSnapshot()
	p, err := convertMarkdown(src, newSpaceResolver(into, newDataFiles(s, DefaultLimits().MaxFiles)))
	if err != nil {
		return nil, err
	}
	return single(s, p, title)
}

// HTML imports one HTML page: its title is the first top-level <h1>
// (removed from the body), else <title>, else title, else "Untitled"; <meta
// name="description"> gives the description. Invalid UTF-8 is replaced by
// U+FFFD. The only error is Invalid, for a document over the limits of
// content.Document.Validate. NUL bytes become U+FFFD too.
func HTML(src []byte, title string) (*content.Snapshot, error) {
	p, err := convertHTML(src, nil)
	if err != nil {
		return nil, err
	}
	return single(content.NewSnapshot(), p, title)
}

// single returns s with one page added.
func single(s *content.Snapshot, p page, fallback string) (*content.Snapshot, error) {
	title := firstTitle(p.title, fallback, "Untitled")
	pg := &content.Page{ID: folio.NewID(), Type: content.PageDocument, Title: title,
		Slug: content.Slugify(title), Description: cleanDescription(p.description), Icon: cleanIcon(p.icon)}
	pg.Document = s.AddDocument(p.doc)
	s.Tree.Pages = append(s.Tree.Pages, pg)
	if err := s.Tree.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// firstTitle returns the first candidate that makes a valid title, cleaned.
func firstTitle(candidates ...string) string {
	for _, c := range candidates {
		if t := truncate(collapse(cleanString(c)), content.MaxTitleLength); t != "" {
			return t
		}
	}
	return "Untitled"
}

func cleanDescription(s string) string {
	return truncate(collapse(cleanString(s)), content.MaxDescriptionLength)
}

// cleanText returns src with invalid UTF-8 and NUL bytes replaced by
// U+FFFD, as CommonMark prescribes for NUL: neither may reach the store
// (PostgreSQL refuses NUL in text), whatever the source.
func cleanText(src []byte) []byte {
	if utf8.Valid(src) && bytes.IndexByte(src, 0) < 0 {
		return src
	}
	return bytes.ReplaceAll(bytes.ToValidUTF8(src, []byte("\uFFFD")), []byte{0}, []byte("\uFFFD"))
}

// cleanIcon is a page icon name from front matter: one short token, else
// none (the reader draws the names it knows, docs/decisions.md).
func cleanIcon(s string) string {
	s = strings.TrimSpace(cleanString(s))
	if s == "" || utf8.RuneCountInString(s) > content.MaxEmojiLength || strings.ContainsAny(s, " \t<>\"'&") {
		return ""
	}
	return s
}

// cleanString is cleanText for strings: names, titles, descriptions.
func cleanString(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// convertMarkdown reads one Markdown page: front matter gives the title,
// description and icon (GitBook's page icon name) and is dropped, and a leading heading-1 becomes the title.
func convertMarkdown(src []byte, res markdown.Resolver) (page, error) {
	src = cleanText(src)
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	var p page
	if fm, rest, ok := frontMatter(string(src)); ok {
		p.title = fm["title"]
		p.description = fm["description"]
		p.icon = fm["icon"]
		src = []byte(rest)
	}
	doc, err := markdown.ToDocument(src, res)
	if err != nil {
		return page{}, err
	}
	if err := failedData(res); err != nil {
		return page{}, err
	}
	if len(doc.Nodes) > 0 && doc.Nodes[0].Type == content.BlockHeading1 {
		if t := collapse(plainText(doc.Nodes[0])); t != "" {
			p.title = t
			doc.Nodes = doc.Nodes[1:]
		}
	}
	p.doc = doc
	return p, nil
}

// failer is a resolver that may have failed to store a data: URL.
type failer interface{ failed() error }

// failedData returns the failure of res's data: URLs, if any.
func failedData(res markdown.Resolver) error {
	if f, ok := res.(failer); ok {
		return f.failed()
	}
	return nil
}

// frontMatter splits YAML front matter ("---" lines around it at the very
// start) from the rest and reads its top-level "key: value" pairs: plain or
// quoted scalars and folded or literal blocks (> and |), joined into one
// line. Anything fancier is skipped: only title, description and icon are used.
func frontMatter(src string) (map[string]string, string, bool) {
	if !strings.HasPrefix(src, "---\n") && !strings.HasPrefix(src, "---\r\n") {
		return nil, "", false
	}
	lines := strings.SplitAfter(src, "\n")
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r\n") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, "", false
	}
	out := map[string]string{}
	body := lines[1:end]
	for i := 0; i < len(body); i++ {
		line := strings.TrimRight(body[i], "\r\n")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if strings.HasPrefix(value, ">") || strings.HasPrefix(value, "|") {
			var parts []string
			for i+1 < len(body) {
				next := strings.TrimRight(body[i+1], "\r\n")
				if next != "" && next[0] != ' ' && next[0] != '\t' {
					break
				}
				parts = append(parts, strings.TrimSpace(next))
				i++
			}
			value = strings.Join(parts, " ")
		} else {
			value = unquote(value)
		}
		if _, dup := out[key]; !dup {
			out[key] = collapse(value)
		}
	}
	return out, strings.Join(lines[end+1:], ""), true
}

// unquote reads a YAML scalar: "double" (common escapes), 'single' (” for
// a quote) or plain (a trailing " # comment" removed).
func unquote(v string) string {
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		r := strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, " ", `\t`, " ")
		return r.Replace(v[1 : len(v)-1])
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// humanize turns a file or folder name into a title: extension dropped,
// dashes and underscores as spaces, first letter upper case.
func humanize(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	name = collapse(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	r, size := utf8.DecodeRuneInString(name)
	if size == 0 {
		return ""
	}
	return string(unicode.ToUpper(r)) + name[size:]
}
