package reader

import (
	"encoding/json"
	"fmt"
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

// searchJSONPath answers the same search as JSON for the search dialog of
// the reader's script: {base}/~/search.json?q=.
const searchJSONPath = "~/search.json"

// maxDialogResults bounds the pages the dialog lists; the search page
// shows more.
const maxDialogResults = 12

// searchView is what the search page shows.
type searchView struct {
	Query   string
	Summary string // the sentence above the results, in the site's language
	Results []searchResult
	More    bool // more pages matched than are listed
}

// searchResult is a page that matched.
type searchResult struct {
	Title    string          `json:"title"`
	Href     string          `json:"href"`
	Space    string          `json:"space,omitempty"` // the space's title, when the site shows several
	Trail    string          `json:"trail,omitempty"` // titles of the pages above it
	Sections []searchSnippet `json:"sections"`
}

// searchSnippet is a section of a page that matched, with its excerpt
// split into highlighted and plain spans (escaped by the template).
type searchSnippet struct {
	Title string        `json:"title,omitempty"`
	Href  string        `json:"href"`
	Spans []search.Span `json:"spans"`
}

// search serves the search page: the pages of the site spaces the visitor
// may see (the same visible() list the navigation uses, so adaptive
// content scopes the search too) that match the q parameter.
func (h *Handler) search(q *request) {
	_, _, sections := visible(q.site)
	query := strings.TrimSpace(q.r.URL.Query().Get("q"))
	sv := &searchView{Query: query}
	v := &pageView{Search: sv}
	h.chrome(q, v, nil)
	v.PageTitle = v.T["search"]
	v.NoIndex = true
	for _, s := range sections {
		v.Sections = append(v.Sections, link{Title: s.Title, Href: q.base + "/" + escapePath(s.Path)})
	}
	code := http.StatusOK
	switch {
	case query == "":
		sv.Summary = v.T["searchPrompt"]
	case utf8.RuneCountInString(query) > app.MaxSearchQuery:
		sv.Summary = fmt.Sprintf(v.T["searchTooLong"], app.MaxSearchQuery)
		code = http.StatusBadRequest
	default:
		var err error
		sv.Results, sv.More, err = h.runSearch(q, query, maxSearchResults)
		if err != nil {
			h.fail(q.w, q.r, q, err)
			return
		}
		switch n := len(sv.Results); {
		case n == 0:
			sv.Summary = fmt.Sprintf(v.T["searchNone"], query)
		case n == 1 && !sv.More:
			sv.Summary = fmt.Sprintf(v.T["searchOne"], query)
		case sv.More:
			sv.Summary = fmt.Sprintf(v.T["searchManyMore"], n, query)
		default:
			sv.Summary = fmt.Sprintf(v.T["searchMany"], n, query)
		}
	}
	h.write(q.w, q.r, code, v)
}

// runSearch searches the site spaces the visitor may see for query, and
// returns at most limit pages, and whether more matched.
func (h *Handler) runSearch(q *request, query string, limit int) (out []searchResult, more bool, err error) {
	all, _, _ := visible(q.site)
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
		return nil, false, err
	}
	for _, g := range l.Items {
		sp := bySpace[g.SpaceID]
		if sp == nil {
			continue
		}
		for _, p := range g.Pages {
			if len(out) == limit {
				return out, true, nil
			}
			out = append(out, h.searchResult(q, sp, &p, terms, len(bySpace) > 1))
		}
	}
	return out, false, nil
}

// searchJSON answers the search dialog: the first pages that match, as
// the search page would list them, for this visitor only (never cached).
// A query that is too long gets the API's error body with 400.
func (h *Handler) searchJSON(q *request) {
	query := strings.TrimSpace(q.r.URL.Query().Get("q"))
	q.w.Header().Set("Content-Type", "application/json; charset=utf-8")
	q.w.Header().Set("Cache-Control", "private, no-store")
	q.w.Header().Set("X-Content-Type-Options", "nosniff")
	if utf8.RuneCountInString(query) > app.MaxSearchQuery {
		q.w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(q.w).Encode(map[string]any{"error": map[string]any{"code": http.StatusBadRequest,
			"message": fmt.Sprintf("The search is too long: at most %d characters.", app.MaxSearchQuery)}})
		return
	}
	out := struct {
		Query   string         `json:"query"`
		Results []searchResult `json:"results"`
		More    bool           `json:"more"`
	}{Query: query, Results: []searchResult{}}
	if query != "" {
		res, more, err := h.runSearch(q, query, maxDialogResults)
		if err != nil {
			h.logger.Error("reader search", "path", q.r.URL.Path, "error", err)
			q.w.WriteHeader(http.StatusInternalServerError)
			_ = json.NewEncoder(q.w).Encode(map[string]any{"error": map[string]any{"code": 500, "message": "Internal server error"}})
			return
		}
		if res != nil {
			out.Results = res
		}
		out.More = more
	}
	if q.r.Method == http.MethodHead {
		return
	}
	_ = json.NewEncoder(q.w).Encode(out)
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
