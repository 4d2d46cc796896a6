package app

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/foliodocs/folio/internal/store"
)

// MaxSearchQuery is the longest search query, in characters.
const MaxSearchQuery = 512

// maxSectionsPerHit bounds the sections listed under one page.
const maxSectionsPerHit = 3

// SearchSectionHit is a section of a page that matched.
type SearchSectionHit struct {
	ID    string // anchor, "" for the top of the page
	Title string
	Body  string          // an excerpt around the matched terms
	row   store.SearchHit // the index row, to load the body from
}

// SearchPageHit is a page that matched, with its place in the space.
type SearchPageHit struct {
	SpaceID   string
	PageID    string
	Title     string
	Path      string
	Ancestors []string // titles of the pages above it, top first
	Sections  []SearchSectionHit
	node      content.PageNode // its place, to describe it (describe)
}

// SearchSpaceHits groups the pages that matched in one space.
type SearchSpaceHits struct {
	SpaceID string
	Title   string
	Pages   []SearchPageHit
}

func validateQuery(q string) error {
	if q == "" {
		return folio.FieldErrorf("query", "query is required")
	}
	if utf8.RuneCountInString(q) > MaxSearchQuery {
		return folio.FieldErrorf("query", "query must be at most %d characters", MaxSearchQuery)
	}
	return nil
}

// searchOffset reads the offset kept in a search list's cursor: search
// results are ranked, not keyed, so pages of results are offsets.
func searchOffset(opts folio.ListOptions) (int, error) {
	if opts.After == nil {
		return 0, nil
	}
	if !opts.After.Matches("i") || opts.After[0].(int64) < 0 {
		return 0, folio.ErrBadCursor()
	}
	return int(min(opts.After[0].(int64), 1<<30)), nil
}

func paginate[T any](items []T, opts folio.ListOptions) (folio.List[T], error) {
	off, err := searchOffset(opts)
	if err != nil {
		return folio.List[T]{}, err
	}
	start := min(off, len(items))
	end := min(start+opts.Limit, len(items))
	l := folio.List[T]{Items: items[start:end], Count: len(items)}
	if end < len(items) {
		l.Next = folio.EncodeCursor(end)
	}
	return l, nil
}

// searchQuery converts query text to the store's query syntax.
func (a *App) searchQuery(q string) store.SearchQuery {
	terms := search.Terms(q)
	if len(terms) == 0 {
		return store.SearchQuery{}
	}
	out := store.SearchQuery{Terms: terms}
	if a.db.SearchDialect() == "tsquery" {
		out.All = search.TSQuery(q)
		out.AllExact = strings.TrimSuffix(out.All, ":*")
		return out
	}
	out.All = search.FTS5Match(q)
	out.AllExact = strings.TrimSuffix(out.All, "*")
	return out
}

// rankedSections runs a query over spaces, relaxing the last term when the
// exact query finds nothing, and returns the sections title matches first,
// each group best first, with the terms to excerpt around.
func (a *App) rankedSections(ctx context.Context, tx *store.Tx, spaceIDs []string, query string) ([]store.SearchHit, []string, error) {
	res, err := store.Search(ctx, tx, spaceIDs, a.searchQuery(query))
	if err != nil {
		return nil, nil, err
	}
	terms := search.Terms(query)
	if len(res.Titles)+len(res.All) == 0 {
		relaxed, ok := search.Relaxed(query)
		if !ok {
			return nil, nil, nil
		}
		if res, err = store.Search(ctx, tx, spaceIDs, a.searchQuery(relaxed)); err != nil {
			return nil, nil, err
		}
		terms = search.Terms(relaxed)
	}
	return titlesFirst(res, terms), terms, nil
}

// titlesFirst puts the sections whose page or section title holds every
// term before the others, keeping each group's order.
func titlesFirst(res *store.SearchResult, terms []string) []store.SearchHit {
	out := make([]store.SearchHit, 0, len(res.Titles)+len(res.All))
	seen := make(map[int64]bool, len(res.Titles))
	for _, h := range res.Titles {
		seen[h.ID] = true
		out = append(out, h)
	}
	rest := make([]store.SearchHit, 0, len(res.All))
	for _, h := range res.All {
		switch {
		case seen[h.ID]:
		case res.Ranked && search.ContainsTerms(h.PageTitle+"\n"+h.Title, terms, res.Prefix):
			out = append(out, h)
		default:
			rest = append(rest, h)
		}
	}
	return append(out, rest...)
}

// groupHits groups ranked sections by page, best page first; pages no
// longer in their space's current tree are dropped. Titles, paths and
// bodies are filled once paginated: see describe and excerpt.
func (a *App) groupHits(hits []store.SearchHit, trees map[string]*revTree) []SearchPageHit {
	type pageKey struct{ space, page string }
	var (
		out   []SearchPageHit
		index = make(map[pageKey]int, len(hits))
	)
	for _, h := range hits {
		key := pageKey{h.SpaceID, h.PageID}
		i, seen := index[key]
		if !seen {
			rt := trees[h.SpaceID]
			if rt == nil {
				continue
			}
			n, ok := rt.index().nodes.Node(h.PageID)
			if !ok {
				continue
			}
			i = len(out)
			index[key] = i
			out = append(out, SearchPageHit{SpaceID: h.SpaceID, PageID: h.PageID, node: n,
				Sections: make([]SearchSectionHit, 0, maxSectionsPerHit)})
		}
		if len(out[i].Sections) < maxSectionsPerHit {
			out[i].Sections = append(out[i].Sections, SearchSectionHit{ID: h.SectionID, Title: h.Title, row: h})
		}
	}
	return out
}

// describe sets the title, path and ancestors of pages grouped by
// groupHits from the same trees.
func describe(pages []SearchPageHit, trees map[string]*revTree) {
	for i := range pages {
		p := &pages[i]
		rt := trees[p.SpaceID]
		p.Title, p.Path = p.node.Page.Title, rt.pathIndex()[p.PageID]
		for parent := p.node.Parent; parent != ""; {
			pn, _ := rt.nodes.Node(parent)
			p.Ancestors = append(p.Ancestors, pn.Page.Title)
			parent = pn.Parent
		}
		slices.Reverse(p.Ancestors)
	}
}

// excerpt loads the bodies of the sections of pages and sets each to an
// excerpt around the terms.
func excerpt(ctx context.Context, tx *store.Tx, pages []SearchPageHit, terms []string) error {
	var rows []store.SearchHit
	for _, p := range pages {
		for _, s := range p.Sections {
			rows = append(rows, s.row)
		}
	}
	bodies, err := store.SectionBodies(ctx, tx, rows)
	if err != nil {
		return err
	}
	for i := range pages {
		for j := range pages[i].Sections {
			s := &pages[i].Sections[j]
			s.Body = search.Snippet(bodies[s.row.ID], terms, search.SnippetLength)
		}
	}
	return nil
}

// SearchSpace searches the current content of a space.
func (a *App) SearchSpace(ctx context.Context, caller folio.Caller, spaceID folio.ID, query string, opts folio.ListOptions) (sv *folio.SpaceView, l folio.List[SearchPageHit], err error) {
	if err := validateQuery(query); err != nil {
		return nil, l, err
	}
	if _, err := searchOffset(opts); err != nil {
		return nil, l, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, "")
		if err != nil {
			return err
		}
		sv = c.Space
		hits, terms, err := a.rankedSections(ctx, tx, []string{spaceID}, query)
		if err != nil {
			return err
		}
		trees := map[string]*revTree{spaceID: c.rt}
		if l, err = paginate(a.groupHits(hits, trees), opts); err != nil {
			return err
		}
		describe(l.Items, trees)
		return excerpt(ctx, tx, l.Items, terms)
	})
	if err != nil {
		return nil, l, err
	}
	return sv, l, nil
}

// SearchOrganization searches the current content of every space of an
// organization that the caller may view, grouping pages by space (best
// space first).
func (a *App) SearchOrganization(ctx context.Context, caller folio.Caller, orgID folio.ID, query string, opts folio.ListOptions) (l folio.List[SearchSpaceHits], err error) {
	if err := validateQuery(query); err != nil {
		return l, err
	}
	if _, err := searchOffset(opts); err != nil {
		return l, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		ca, err := loadContentAccess(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		all, err := store.SpaceParents(ctx, tx, orgID)
		if err != nil {
			return err
		}
		var visible []string
		for _, s := range all {
			if folio.SpacePerms(ca.spaceRole(&s), s.EditMode).View {
				visible = append(visible, s.ID)
			}
		}
		l, _, err = a.searchSpaces(ctx, tx, visible, query, opts, false)
		return err
	})
	return l, err
}

// searchSpaces searches the current content of spaces, grouping pages by
// space (best space first) and paginating the groups. With listedOnly,
// hidden pages and the pages under them are left out. It also returns the
// terms the excerpts were cut around (those of a relaxed query when the
// query found nothing as typed).
func (a *App) searchSpaces(ctx context.Context, tx *store.Tx, spaceIDs []string, query string, opts folio.ListOptions, listedOnly bool) (l folio.List[SearchSpaceHits], terms []string, err error) {
	hits, terms, err := a.rankedSections(ctx, tx, spaceIDs, query)
	if err != nil {
		return l, nil, err
	}
	trees := map[string]*revTree{}
	titles := map[string]string{}
	for _, h := range hits {
		if _, ok := trees[h.SpaceID]; ok {
			continue
		}
		s, err := store.GetSpace(ctx, tx, h.SpaceID)
		if folio.IsNotFound(err) {
			trees[h.SpaceID] = nil // purged meanwhile: groupHits drops its hits
			continue
		}
		if err != nil {
			return l, nil, err
		}
		rev, err := store.GetRevision(ctx, tx, s.ID, s.Revision)
		if folio.IsNotFound(err) {
			trees[h.SpaceID] = nil
			continue
		}
		if err != nil {
			return l, nil, err
		}
		if trees[h.SpaceID], err = a.loadTree(ctx, tx, rev.TreeHash); err != nil {
			return l, nil, err
		}
		titles[h.SpaceID] = s.Title
	}
	pages := a.groupHits(hits, trees)
	if listedOnly {
		pages = slices.DeleteFunc(pages, func(p SearchPageHit) bool { return unlisted(trees[p.SpaceID], p.node) })
	}
	var groups []SearchSpaceHits
	bySpace := map[string]int{}
	for _, p := range pages {
		i, ok := bySpace[p.SpaceID]
		if !ok {
			i = len(groups)
			bySpace[p.SpaceID] = i
			groups = append(groups, SearchSpaceHits{SpaceID: p.SpaceID, Title: titles[p.SpaceID]})
		}
		groups[i].Pages = append(groups[i].Pages, p)
	}
	if l, err = paginate(groups, opts); err != nil {
		return l, nil, err
	}
	for _, g := range l.Items {
		describe(g.Pages, trees)
		if err := excerpt(ctx, tx, g.Pages, terms); err != nil {
			return l, nil, err
		}
	}
	return l, terms, nil
}

// unlisted reports whether a page is hidden or under a hidden page: such
// pages stay reachable by their URL but are not listed by a site.
func unlisted(rt *revTree, n content.PageNode) bool {
	for {
		if n.Page.Hidden {
			return true
		}
		if n.Parent == "" {
			return false
		}
		var ok bool
		if n, ok = rt.index().nodes.Node(n.Parent); !ok {
			return false
		}
	}
}
