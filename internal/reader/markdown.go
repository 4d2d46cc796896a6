package reader

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// Pages as Markdown, for readers who copy a page and for language models:
//
//   - {page URL}.md (PAGE.md) is a document page as Markdown: its title as
//     a heading, its description, and its document as the Markdown writer
//     writes it, with links to the site's pages and signed file URLs;
//   - llms.txt (https://llmstxt.org) lists the site's pages, by site
//     space, with links to their Markdown and their descriptions;
//   - llms-full.txt is every page's Markdown, one after the other, up to
//     maxFullPages pages (a note says when some are left out).
//
// All three show what the visitor may see, as the pages do: the site
// spaces of visible(), without hidden pages.

const (
	llmsPath     = "llms.txt"
	llmsFullPath = "llms-full.txt"
	// maxFullPages bounds the pages of llms-full.txt: each costs a
	// document read.
	maxFullPages = 500
)

// pageLinks writes the links of a page's Markdown: reader URLs for pages,
// signed URLs for files.
type pageLinks struct {
	q  *request
	c  *app.Content
	sp *placed
}

func (l pageLinks) PagePath(pageID, anchor string) string {
	if u := l.q.renderer(l.c, l.sp).page(pageID, anchor); u != "" {
		return l.q.absoluteURL(u)
	}
	return ""
}

func (l pageLinks) FilePath(fileID string) string {
	if f, ok := l.c.File(fileID); ok {
		return l.c.FileURL(f)
	}
	return ""
}

// absoluteURL makes a path of the site (under q.base) absolute.
func (q *request) absoluteURL(p string) string {
	return q.absolute + strings.TrimPrefix(p, q.base)
}

// pageMarkdown is a document page as Markdown.
func (h *Handler) pageMarkdown(ctx context.Context, q *request, c *app.Content, sp *placed, p *content.Page) ([]byte, error) {
	doc, err := h.app.ReaderDocument(ctx, c, p)
	if err != nil {
		return nil, err
	}
	body, err := markdown.FromDocument(doc, pageLinks{q: q, c: c, sp: sp})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("# " + oneLine(p.Title) + "\n\n")
	if p.Description != "" {
		b.WriteString(oneLine(p.Description) + "\n\n")
	}
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}

// oneLine keeps a title or description on one line of Markdown.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// sendMarkdown answers Markdown text, never cached by shared caches: the
// site's visibility decides who reads it.
func sendMarkdown(q *request, ct string, b []byte) {
	q.w.Header().Set("Content-Type", ct)
	q.w.Header().Set("X-Content-Type-Options", "nosniff")
	q.w.Header().Set("Cache-Control", "private, no-cache")
	if q.site.Site.Visibility != "public" {
		q.w.Header().Set("X-Robots-Tag", "noindex")
	}
	if q.r.Method != http.MethodHead {
		_, _ = q.w.Write(b)
	}
}

// servePageMarkdown answers PAGE.md for a document page.
func (h *Handler) servePageMarkdown(q *request, c *app.Content, sp *placed, node content.PageNode) {
	b, err := h.pageMarkdown(q.r.Context(), q, c, sp, node.Page)
	if err != nil {
		h.fail(q.w, q.r, q, err)
		return
	}
	sendMarkdown(q, "text/markdown; charset=utf-8", b)
}

// markdownURL is the address of a page's Markdown.
func markdownURL(pageURL string) string {
	return pageURL + ".md"
}

// llms answers llms.txt or, with full, llms-full.txt.
func (h *Handler) llms(q *request, full bool) {
	ctx := q.r.Context()
	all, _, _ := visible(q.site)
	var b strings.Builder
	title := q.site.Site.Title
	if t := str(q.customization(nil), "title"); t != "" {
		title = t
	}
	b.WriteString("# " + oneLine(title) + "\n\n")
	pages := 0
	omitted := 0
	for i := range all {
		sp := &all[i]
		if sp.ss.Hidden {
			continue
		}
		c, err := h.app.ReaderContent(ctx, q.site, sp.ss.ID)
		if err != nil {
			h.fail(q.w, q.r, q, err)
			return
		}
		paths := c.Paths()
		if !full {
			b.WriteString("## " + oneLine(sp.ss.Space.Title) + "\n\n")
		}
		var failed error
		content.Walk(c.Tree, func(n content.PageNode) bool {
			if n.Page.Hidden || failed != nil {
				return false
			}
			if n.Page.Type != content.PageDocument {
				return true
			}
			u := q.absolute + sp.prefix + "/" + escapePath(paths[n.Page.ID])
			if !full {
				b.WriteString("- [" + strings.NewReplacer("[", "\\[", "]", "\\]").Replace(oneLine(n.Page.Title)) + "](" + markdownURL(u) + ")")
				if d := oneLine(n.Page.Description); d != "" {
					b.WriteString(": " + d)
				}
				b.WriteByte('\n')
				return true
			}
			if pages == maxFullPages {
				omitted++
				return true
			}
			pages++
			md, err := h.pageMarkdown(ctx, q, c, sp, n.Page)
			if err != nil {
				failed = err
				return false
			}
			b.WriteString("Source: " + u + "\n\n")
			b.Write(md)
			b.WriteString("\n---\n\n")
			return true
		})
		if failed != nil {
			h.fail(q.w, q.r, q, failed)
			return
		}
		if !full {
			b.WriteByte('\n')
		}
	}
	if omitted > 0 {
		b.WriteString("(" + strconv.Itoa(omitted) + " more pages are not included; their Markdown is listed in " + q.absolute + "/" + llmsPath + ")\n")
	}
	sendMarkdown(q, "text/plain; charset=utf-8", []byte(b.String()))
}
