package reader

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/search"
)

// searchPath is the search page under a site's base: {base}/~/search?q=.
// The "~" segment cannot be a page, section or site-space path (those are
// slugs), so it never hides content.
const searchPath = "~/search"

// maxSearchResults bounds the pages one search page lists.
const maxSearchResults = 50

// searchView is what the search page shows.
type searchView struct {
	Query     string
	Results   []searchResult
	More      bool // more pages matched than are listed
	Searched  bool // a query was run (Results may still be empty)
	TooLong   bool
	MaxLength int
}

// searchResult is a page that matched.
type searchResult struct {
	Title, Href string
	Space       string // the space's title, when the site shows several
	Trail       string // titles of the pages above it
	Sections    []searchSnippet
}

// searchSnippet is a section of a page that matched, with its excerpt
// split into highlighted and plain spans (escaped by the template).
type searchSnippet struct {
	Title, Href string
	Spans       []search.Span
}

// search serves the search page: the pages of the site spaces the visitor
// may see (the same visible() list the navigation uses, so adaptive
// content scopes the search too) that match the q parameter.
func (h *Handler) search(q *request) {
	all, _, sections := visible(q.site)
	query := strings.TrimSpace(q.r.URL.Query().Get("q"))
	sv := &searchView{Query: query, MaxLength: app.MaxSearchQuery}
	v := &pageView{PageTitle: "Search", Search: sv}
	h.chrome(q, v, nil)
	v.NoIndex = true
	for _, s := range sections {
		v.Sections = append(v.Sections, link{Title: s.Title, Href: q.base + "/" + escapePath(s.Path)})
	}
	code := http.StatusOK
	switch {
	case query == "":
	case utf8.RuneCountInString(query) > app.MaxSearchQuery:
		sv.TooLong = true
		code = http.StatusBadRequest
	default:
		ids := make([]folio.ID, len(all))
		bySpace := map[folio.ID]*placed{}
		for i := range all {
			ids[i] = all[i].ss.ID
			if bySpace[all[i].ss.SpaceID] == nil {
				bySpace[all[i].ss.SpaceID] = &all[i]
			}
		}
		l, terms, err := h.app.ReaderSearch(q.r.Context(), q.site, ids, query, folio.ListOptions{Limit: app.MaxSearchSiteSpaces})
		if err != nil {
			h.fail(q.w, q.r, q, err)
			return
		}
		sv.Searched = true
		for _, g := range l.Items {
			sp := bySpace[g.SpaceID]
			if sp == nil {
				continue
			}
			for _, p := range g.Pages {
				if len(sv.Results) == maxSearchResults {
					sv.More = true
					break
				}
				sv.Results = append(sv.Results, h.searchResult(q, sp, &p, terms, len(bySpace) > 1))
			}
		}
	}
	h.write(q.w, q.r, code, v)
}

// searchResult converts a page hit in a site space to what the page shows.
func (h *Handler) searchResult(q *request, sp *placed, p *app.SearchPageHit, terms []string, spaces bool) searchResult {
	href := q.base + sp.prefix + "/" + escapePath(p.Path)
	r := searchResult{Title: p.Title, Href: href, Trail: strings.Join(p.Ancestors, " › ")}
	if spaces {
		r.Space = sp.ss.Space.Title
	}
	for _, s := range p.Sections {
		sn := searchSnippet{Title: s.Title, Href: href, Spans: search.Highlight(s.Body, terms)}
		if s.ID != "" {
			sn.Href += "#" + url.PathEscape(s.ID)
		}
		r.Sections = append(r.Sections, sn)
	}
	return r
}
