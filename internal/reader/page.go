package reader

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

var errNoPage = errors.New("no page")

// firstPage is the page a site space's root shows: its first visible
// document page.
func firstPage(c *app.Content) (content.PageNode, error) {
	if p, ok := firstDocument(c.Tree.Pages); ok {
		if n, ok := c.Node(p.ID); ok {
			return n, nil
		}
	}
	return content.PageNode{}, errNoPage
}

func firstDocument(pages []*content.Page) (*content.Page, bool) {
	for _, p := range pages {
		if p.Hidden {
			continue
		}
		if p.Type == content.PageDocument {
			return p, true
		}
		if p.Type == content.PageGroup {
			if d, ok := firstDocument(p.Pages); ok {
				return d, true
			}
		}
	}
	return nil, false
}

// renderPage renders a document page: the parts of its revision (see
// cache.go) in the site's chrome. It returns nil after answering 500 when
// the template fails.
func (h *Handler) renderPage(q *request, c *app.Content, sp *placed, all []placed, sections []*folio.SiteSectionView, node content.PageNode, parts *pageParts) []byte {
	v := &pageView{PageTitle: parts.Title, Description: parts.Description}
	h.chrome(q, v, &sp.ss)
	v.Canonical = q.absolute + sp.prefix + "/" + escapePath(c.Paths()[node.Page.ID])
	v.Markdown = markdownURL(q.base + sp.prefix + "/" + escapePath(c.Paths()[node.Page.ID]))
	if parts.NoIndex {
		v.NoIndex = true
	}
	v.Body, v.Nav, v.TOC = parts.Body, parts.Nav, parts.TOC
	v.Breadcrumbs, v.Prev, v.Next, v.Cover = parts.Breadcrumbs, parts.Prev, parts.Next, parts.Cover
	v.HasDrawer = v.Nav != "" || len(v.TOC) > 0
	if show, _ := obj(q.customization(&sp.ss), "git")["showEditLink"].(bool); show && node.Page.Git != nil {
		v.EditURL = editURL(c.Space.GitSync, node.Page.Git.Path)
	}
	v.Emoji, v.Icon = emoji(node.Page.Emoji), pageIcon(node.Page.Icon)
	if c.Revision != nil && !c.Revision.CreatedAt.IsZero() {
		v.Updated = c.Revision.CreatedAt.UTC().Format("2006-01-02")
		v.UpdatedText = longDate(v.Lang, c.Revision.CreatedAt.UTC())
	}
	for _, s := range sections {
		v.Sections = append(v.Sections, link{Title: s.Title, Href: q.base + "/" + escapePath(s.Path),
			Current: sp.section != nil && sp.section.ID == s.ID})
	}
	for i := range all {
		o := &all[i]
		if o.ss.Hidden || o.section != sp.section && (o.section == nil || sp.section == nil || o.section.ID != sp.section.ID) {
			continue
		}
		v.Spaces = append(v.Spaces, link{Title: o.ss.Space.Title, Href: q.base + o.prefix + "/", Current: o.ss.ID == sp.ss.ID})
	}
	if len(v.Spaces) < 2 {
		v.Spaces = nil
	}
	return h.render(q.w, q.r, v)
}

// editURL is where a page of a git-synced space is edited on its
// provider: the repository's tree URL with "tree" turned into "edit"
// (GitHub, GitLab), then the page's file; "" when the space does not sync
// or the URL is not http(s).
func editURL(g *folio.GitSyncState, file string) string {
	if g == nil || file == "" || g.URL == "" {
		return ""
	}
	u := strings.TrimRight(g.URL, "/")
	switch {
	case strings.Contains(u, "/-/tree/"):
		u = strings.Replace(u, "/-/tree/", "/-/edit/", 1)
	case strings.Contains(u, "/tree/"):
		u = strings.Replace(u, "/tree/", "/edit/", 1)
	}
	u = safeURL(u + "/" + escapePath(strings.TrimLeft(file, "/")))
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return ""
	}
	return u
}

// robots answers robots.txt: public sites invite crawlers and name their
// sitemap; others ask them to stay away.
func (h *Handler) robots(q *request) {
	q.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if q.site.Site.Visibility == "public" {
		_, _ = q.w.Write([]byte("User-agent: *\nAllow: /\nSitemap: " + q.absolute + "/sitemap.xml\n"))
		return
	}
	_, _ = q.w.Write([]byte("User-agent: *\nDisallow: /\n"))
}

type sitemapURLs struct {
	XMLName xml.Name `xml:"urlset"`
	NS      string   `xml:"xmlns,attr"`
	URLs    []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

// sitemap answers sitemap.xml for a public site: every visible document
// page of every visible site space, except those marked noindex.
func (h *Handler) sitemap(q *request) {
	if q.site.Site.Visibility != "public" {
		h.status(q.w, q.r, q, http.StatusNotFound, "Page not found", "There is no page at this address.")
		return
	}
	all, _, _ := visible(q.site)
	out := sitemapURLs{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for i := range all {
		sp := &all[i]
		c, err := h.app.ReaderContent(q.r.Context(), q.site, sp.ss.ID)
		if err != nil {
			h.fail(q.w, q.r, q, err)
			return
		}
		paths := c.Paths()
		content.Walk(c.Tree, func(n content.PageNode) bool {
			if n.Page.Hidden {
				return false
			}
			if n.Page.Type == content.PageDocument && !n.Page.NoIndex && !n.Page.NoRobotsIndex {
				out.URLs = append(out.URLs, struct {
					Loc string `xml:"loc"`
				}{q.absolute + sp.prefix + "/" + escapePath(paths[n.Page.ID])})
			}
			return true
		})
	}
	b, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		h.fail(q.w, q.r, q, err)
		return
	}
	q.w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	_, _ = q.w.Write([]byte(xml.Header + string(b) + "\n"))
}
