package reader

import (
	"bytes"
	"embed"
	"html/template"
	"strconv"
	"sync"

	"github.com/foliodocs/folio/internal/app"
)

//go:embed templates/print/*.html
var printFS embed.FS

// printTemplate is the print page: the reader's block templates (from
// page.html) and print.html's own layout.
var printTemplate = template.Must(template.Must(pageTemplate.Clone()).Funcs(template.FuncMap{
	"depths":   func() []int { return []int{1, 2, 3, 4, 5} },
	"maxPages": func() int { return app.MaxPrintPages },
}).ParseFS(printFS, "templates/print/*.html"))

// PrintCSP is the Content-Security-Policy of the print page: no scripts,
// nothing loaded from elsewhere but images (the space's files, by signed
// URL on this server, and images the content links to).
const PrintCSP = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"

var printCodeCSS = sync.OnceValue(func() template.CSS {
	return template.CSS(codeCSS()) //nolint:gosec // chroma's static stylesheet, no content in it
})

// printView is what print.html shows.
type printView struct {
	Title    string
	Subtitle string
	CodeCSS  template.CSS
	TOC      []printSection
	Sections []printSection
	Omitted  int
}

// printSection is a page of the print: its title, level in the tree, and
// rendered document.
type printSection struct {
	ID          string
	Title       string
	Description string
	Depth       int
	Group       bool
	Blocks      []block
}

// RenderPrint renders the print page of a book: a cover with the title, a
// table of contents, then each page as a section starting on a new sheet.
// Content is escaped as in the reader; links to printed pages point inside
// the document, links to other pages are dropped.
func RenderPrint(b *app.PrintBook) ([]byte, error) {
	c := b.Content
	included := make(map[string]bool, len(b.Pages))
	for _, p := range b.Pages {
		included[p.Page.ID] = true
	}
	r := &renderer{
		file: func(id string) string {
			if f, ok := c.File(id); ok {
				return c.FileURL(f)
			}
			return ""
		},
		page: func(id, anchor string) string {
			if included[id] {
				return "#page-" + id
			}
			return ""
		},
	}
	v := &printView{Title: b.Title(), CodeCSS: printCodeCSS(), Omitted: b.Omitted}
	if b.Target.PageID != "" {
		v.Subtitle = b.Space.Title
	}
	if cr := b.ChangeRequest; cr != nil {
		v.Subtitle = "Change request #" + strconv.FormatInt(cr.Number, 10)
		if cr.Subject != "" {
			v.Subtitle += ": " + cr.Subject
		}
		v.Subtitle += " in " + b.Space.Title
	}
	for _, p := range b.Pages {
		s := printSection{ID: "page-" + p.Page.ID, Title: p.Page.Title, Description: p.Page.Description,
			Depth: min(p.Depth, 5), Group: p.Document == nil}
		s.Blocks = r.document(p.Document)
		v.Sections = append(v.Sections, s)
	}
	v.TOC = v.Sections
	var buf bytes.Buffer
	if err := printTemplate.ExecuteTemplate(&buf, "print", v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
