package store

import (
	"context"
	"database/sql"
	"strings"
	"unicode/utf8"
)

// SearchSection is one indexed section of a page of a space's current
// revision. PageTitle is set on the page's first section only.
type SearchSection struct {
	SpaceID   string
	PageID    string
	SectionID string
	Ord       int
	PageTitle string
	Title     string
	Body      string
	// Terms holds the page title, title and body as search.IndexText
	// normalizes them, for the engines that index terms the caller
	// tokenizes (PostgreSQL); see DB.SearchDialect.
	Terms [3]string
}

// SearchHit is a section that matched a query, with its relevance: higher
// is better, comparable only within one query. Body is not loaded: see
// SectionBodies.
type SearchHit struct {
	SearchSection
	ID   int64
	Rank float64
}

// SearchQuery is a query in the dialect's syntax (search.FTS5Match or
// search.TSQuery).
type SearchQuery struct {
	All      string   // every term, the last as a prefix
	AllExact string   // every term as a whole word
	Terms    []string // the normalized terms (search.Terms)
}

// Search returns at most SearchCandidates sections, the best by rank; a
// query too common to rank (see the dialects' searchCandidates) returns at
// most TitleCandidates sections matching in titles apart, so that body
// matches cannot crowd them out.
const (
	TitleCandidates  = 60
	SearchCandidates = 150
)

// maxRowsPerInsert bounds the rows of one multi-row INSERT.
const maxRowsPerInsert = 100

// DeletePageIndex removes the search sections and links of pages of a space.
func DeletePageIndex(ctx context.Context, t *Tx, spaceID string, pageIDs []string) error {
	for start := 0; start < len(pageIDs); start += maxObjectsPerInsert {
		tx, batch := padIn(t, pageIDs[start:min(start+maxObjectsPerInsert, len(pageIDs))])
		args := append([]any{spaceID}, toAny(batch)...)
		in := placeholders(len(batch))
		if _, err := tx.exec(ctx, `DELETE FROM search_sections WHERE space_id = ? AND page_id IN (`+in+`)`, args...); err != nil {
			return wrap(err, "delete search sections")
		}
		if _, err := tx.exec(ctx, `DELETE FROM content_links WHERE space_id = ? AND page_id IN (`+in+`)`, args...); err != nil {
			return wrap(err, "delete links")
		}
	}
	return nil
}

// PutSearchSections indexes sections.
func PutSearchSections(ctx context.Context, t *Tx, rows []SearchSection) error {
	for start := 0; start < len(rows); start += maxRowsPerInsert {
		batch := rows[start:min(start+maxRowsPerInsert, len(rows))]
		var q strings.Builder
		q.WriteString(`INSERT INTO search_sections (space_id, page_id, section_id, ord, page_title, title, body` +
			t.db.d.searchColumns() + `) VALUES `)
		args := make([]any, 0, 10*len(batch))
		for i, s := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			row, a := t.db.d.searchRow(s)
			q.WriteString(row)
			args = append(args, a...)
		}
		if _, err := t.once().exec(ctx, q.String(), args...); err != nil {
			return wrap(err, "index search sections")
		}
	}
	return nil
}

type candidate = SearchHit

// candidates returns up to SearchCandidates matching sections of some
// spaces, best first.
func candidates(ctx context.Context, t *Tx, spaceIDs []string, match string, limit int, ranked, titles bool) ([]candidate, error) {
	if match == "" {
		return nil, nil
	}
	tx, spaceIDs := padIn(t, spaceIDs)
	in, inArgs := inList(tx, spaceIDs)
	q, args := t.db.d.searchCandidates(in, inArgs, match, limit, ranked, titles)
	out := make([]candidate, 0, limit)
	err := tx.query(ctx, q, args, func(r *sql.Rows) error {
		var c candidate
		if err := r.Scan(&c.ID, &c.Rank, &c.SpaceID, &c.PageID, &c.SectionID, &c.Ord, &c.PageTitle, &c.Title); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// SearchResult holds the sections a query matched. Ranked results are in
// All, best first; a query too common to rank has its title matches in
// Titles and its other matches in All, both in index order. Prefix reports
// whether the last term was taken as a prefix.
type SearchResult struct {
	Titles, All    []SearchHit
	Ranked, Prefix bool
}

// Search finds the sections matching a query in the given spaces.
func Search(ctx context.Context, t *Tx, spaceIDs []string, q SearchQuery) (*SearchResult, error) {
	res := &SearchResult{}
	if len(spaceIDs) == 0 || q.All == "" {
		return res, nil
	}
	var err error
	if res.Ranked, res.Prefix, err = searchPlan(ctx, t, q.Terms); err != nil {
		return nil, err
	}
	match := q.All
	if !res.Prefix {
		match = q.AllExact
	}
	if !res.Ranked {
		if res.Titles, err = candidates(ctx, t, spaceIDs, match, TitleCandidates, false, true); err != nil {
			return nil, wrap(err, "search titles")
		}
	}
	if res.All, err = candidates(ctx, t, spaceIDs, match, SearchCandidates, res.Ranked, false); err != nil {
		return nil, wrap(err, "search")
	}
	return res, nil
}

// unrankedAbove is the number of sections holding a term past which a
// search is not ranked: ranking reads every match (and on SQLite, BM25
// first reads the list of every term), so the cost of ranking grows with
// how common the terms are.
const unrankedAbove = 1000

// searchPlan decides how a query of these normalized terms runs: ranked
// unless a term is held by more than unrankedAbove sections, and with the
// last term as a prefix unless the word itself is that common (a finished
// word: expanding it would merge long lists for little). Each count stops
// at the bound (SQLite) or is estimated from statistics (PostgreSQL).
func searchPlan(ctx context.Context, t *Tx, terms []string) (ranked, prefix bool, err error) {
	count := func(term string, prefix bool) (int, error) {
		return t.db.d.termFrequency(ctx, t, term, prefix, unrankedAbove+1)
	}
	ranked, prefix = true, true
	for i, term := range terms {
		last := i == len(terms)-1
		n, err := count(term, false)
		if err != nil {
			return false, false, err
		}
		if n > unrankedAbove {
			ranked = false
			if last {
				prefix = false
			}
			continue
		}
		if last && utf8.RuneCountInString(term) <= 4 {
			if n, err = count(term, true); err != nil {
				return false, false, err
			}
			ranked = ranked && n <= unrankedAbove
		}
	}
	return ranked, prefix, nil
}

// SectionBodies loads the bodies of search sections by id, for the hits
// given: a row whose space or page is no longer the hit's (rows are
// replaced as revisions become current, and SQLite reuses ids) is left out.
func SectionBodies(ctx context.Context, t *Tx, hits []SearchHit) (map[int64]string, error) {
	want := make(map[int64]SearchHit, len(hits))
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		want[h.ID] = h
		ids = append(ids, h.ID)
	}
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += maxObjectsPerInsert {
		tx, batch := padIn(t, ids[start:min(start+maxObjectsPerInsert, len(ids))])
		err := tx.query(ctx, `SELECT id, space_id, page_id, body FROM search_sections WHERE id IN (`+placeholders(len(batch))+`)`,
			toAny(batch), func(r *sql.Rows) error {
				var (
					id                    int64
					spaceID, pageID, body string
				)
				if err := r.Scan(&id, &spaceID, &pageID, &body); err != nil {
					return err
				}
				if h := want[id]; h.SpaceID == spaceID && h.PageID == pageID {
					out[id] = body
				}
				return nil
			})
		if err != nil {
			return nil, wrap(err, "load search section bodies")
		}
	}
	return out, nil
}

// SearchDialect names the query syntax Search expects: "fts5" or "tsquery".
func (db *DB) SearchDialect() string { return db.d.searchSyntax() }

// AnalyzeContentIndex refreshes the query planner's statistics of the
// content indexes after a large change (a big import) and merges their
// pending entries, so that searches are planned for the new data and do
// not scan a long pending list until the next automatic vacuum
// (PostgreSQL; SQLite plans these queries without statistics).
func (db *DB) AnalyzeContentIndex(ctx context.Context) error {
	for _, q := range db.d.analyzeContent() {
		if _, err := db.read.db.ExecContext(ctx, q); err != nil {
			return wrap(err, "analyze content indexes")
		}
	}
	return nil
}

// MergeContentIndex merges the full-text index segments a large change
// left (SQLite), in short write transactions that let other writes
// through, and returns the merge steps that did work (0 on PostgreSQL).
func (db *DB) MergeContentIndex(ctx context.Context) (int, error) {
	steps, err := db.d.mergeContent(ctx, db)
	return steps, wrap(err, "merge content index segments")
}
