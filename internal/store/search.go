package store

import (
	"context"
	"database/sql"
	"strings"
)

// SearchSection is one indexed section of a page of a space's current
// revision.
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
// is better, comparable only within one query.
type SearchHit struct {
	SearchSection
	Rank float64
}

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

// Search returns the best sections matching a query in the given spaces,
// best first. match is the dialect's query text: search.FTS5Match on SQLite,
// search.TSQuery on PostgreSQL.
func Search(ctx context.Context, t *Tx, spaceIDs []string, match string, limit int) ([]SearchHit, error) {
	if len(spaceIDs) == 0 || match == "" {
		return nil, nil
	}
	q, args := t.db.d.searchQuery(len(spaceIDs), match)
	args = append(args, toAny(spaceIDs)...)
	args = append(args, limit)
	var out []SearchHit
	err := t.once().query(ctx, q, args, func(r *sql.Rows) error {
		var h SearchHit
		if err := r.Scan(&h.SpaceID, &h.PageID, &h.SectionID, &h.Ord, &h.PageTitle, &h.Title, &h.Body, &h.Rank); err != nil {
			return err
		}
		out = append(out, h)
		return nil
	})
	return out, wrap(err, "search")
}

// SearchDialect names the query syntax Search expects: "fts5" or "tsquery".
func (db *DB) SearchDialect() string { return db.d.searchSyntax() }
