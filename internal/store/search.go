package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"
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
// search.TSQuery and their title-only forms).
type SearchQuery struct {
	Titles string   // matches in page and section titles only
	All    string   // matches anywhere
	Terms  []string // the normalized terms (search.Terms)
	// TitlesExact and AllExact are Titles and All with the last term as a
	// whole word rather than a prefix.
	TitlesExact, AllExact string
}

// Search ranks at most TitleCandidates sections matching in titles and
// SearchCandidates sections matching anywhere. A query matching more
// sections than that (a very common word) is ranked among its first matches
// in index order: ranking costs a few microseconds per section, and this
// keeps a search's cost bounded whatever the size of the index. Title
// matches are ranked apart, so they are not crowded out.
const (
	TitleCandidates  = 200
	SearchCandidates = 500
)

// maxRowsPerInsert bounds the rows of one multi-row INSERT.
const maxRowsPerInsert = 100

// DeletePageIndex removes the search sections and links of pages of a space.
func DeletePageIndex(ctx context.Context, t *Tx, spaceID string, pageIDs []string) error {
	for start := 0; start < len(pageIDs); start += maxObjectsPerInsert {
		batch := pageIDs[start:min(start+maxObjectsPerInsert, len(pageIDs))]
		args := append([]any{spaceID}, toAny(batch)...)
		in := placeholders(len(batch))
		if _, err := t.once().exec(ctx, `DELETE FROM search_sections WHERE space_id = ? AND page_id IN (`+in+`)`, args...); err != nil {
			return wrap(err, "delete search sections")
		}
		if _, err := t.once().exec(ctx, `DELETE FROM content_links WHERE space_id = ? AND page_id IN (`+in+`)`, args...); err != nil {
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
func candidates(ctx context.Context, t *Tx, spaceIDs []string, match string, limit int, ranked bool) ([]candidate, error) {
	if match == "" {
		return nil, nil
	}
	q, args := t.db.d.searchCandidates(spaceIDs, match, limit, ranked)
	var out []candidate
	err := t.once().query(ctx, q, args, func(r *sql.Rows) error {
		var c candidate
		if err := r.Scan(&c.ID, &c.Rank, &c.SpaceID, &c.PageID, &c.SectionID, &c.Ord, &c.PageTitle, &c.Title); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(b.Rank, a.Rank) })
	return out, err
}

// Search returns the best sections matching a query in the given spaces:
// title matches first, then the others, each by rank.
func Search(ctx context.Context, t *Tx, spaceIDs []string, q SearchQuery, limit int) ([]SearchHit, error) {
	if len(spaceIDs) == 0 || q.All == "" {
		return nil, nil
	}
	ranked, prefix, err := t.db.d.searchPlan(ctx, t, q.Terms)
	if err != nil {
		return nil, err
	}
	if !prefix {
		q.Titles, q.All = q.TitlesExact, q.AllExact
	}
	titles, err := candidates(ctx, t, spaceIDs, q.Titles, TitleCandidates, ranked)
	if err != nil {
		return nil, wrap(err, "search titles")
	}
	all, err := candidates(ctx, t, spaceIDs, q.All, SearchCandidates, ranked)
	if err != nil {
		return nil, wrap(err, "search")
	}
	out := make([]SearchHit, 0, min(limit, len(titles)+len(all)))
	seen := make(map[int64]bool, len(titles))
	for _, list := range [][]candidate{titles, all} {
		for _, c := range list {
			if len(out) == limit {
				break
			}
			if !seen[c.ID] {
				seen[c.ID] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// SectionBodies loads the bodies of search sections by id.
func SectionBodies(ctx context.Context, t *Tx, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += maxObjectsPerInsert {
		batch := ids[start:min(start+maxObjectsPerInsert, len(ids))]
		err := t.once().query(ctx, `SELECT id, body FROM search_sections WHERE id IN (`+placeholders(len(batch))+`)`,
			toAny(batch), func(r *sql.Rows) error {
				var (
					id   int64
					body string
				)
				if err := r.Scan(&id, &body); err != nil {
					return err
				}
				out[id] = body
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
