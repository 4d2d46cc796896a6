package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/foliodocs/folio"
)

// listQuery describes one keyset-paginated list. Query is a SELECT with a
// WHERE clause (use "WHERE TRUE" when there is no filter) and no ORDER BY;
// Keys are the sort columns, unique together (end with the id), whose values
// form the cursor, with Shape giving their types for folio.Cursor.Matches.
// Count is the SELECT COUNT(*) over the same filter, with CountArgs.
type listQuery struct {
	Query     string
	Args      []any
	Keys      []string
	Shape     string
	Count     string
	CountArgs []any
}

// page runs a listQuery: it fetches Limit+1 rows after the cursor to learn
// whether a next page exists, and the total count. scan returns the item and
// its key values, in the order of Keys. New rows inserted while a client
// pages never shift the pages: the cursor names a position, not an offset.
func page[T any](ctx context.Context, t *Tx, op string, q listQuery, opts folio.ListOptions,
	scan func(*sql.Rows) (T, []any, error)) (folio.List[T], error) {
	var out folio.List[T]
	query, args := q.Query, q.Args
	dir, cmp := " ASC", ">"
	if opts.Desc {
		dir, cmp = " DESC", "<"
	}
	if opts.After != nil {
		if !opts.After.Matches(q.Shape) {
			return out, folio.ErrBadCursor()
		}
		query += " AND (" + strings.Join(q.Keys, ", ") + ") " + cmp + " (" + placeholders(len(q.Keys)) + ")"
		args = append(append([]any(nil), args...), opts.After...)
	}
	query += " ORDER BY " + strings.Join(q.Keys, dir+", ") + dir + " LIMIT ?"
	args = append(args, opts.Limit+1)

	var lastKeys []any
	err := t.query(ctx, query, args, func(rows *sql.Rows) error {
		item, keys, err := scan(rows)
		if err != nil {
			return err
		}
		if len(out.Items) < opts.Limit {
			out.Items = append(out.Items, item)
			lastKeys = keys
		} else {
			out.Next = folio.EncodeCursor(lastKeys...)
		}
		return nil
	})
	if err != nil {
		return out, wrap(err, op)
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	// The total is only worth a second query when the page is not the whole list.
	if opts.After == nil && out.Next == "" {
		out.Count = len(out.Items)
		return out, nil
	}
	if err := t.get(ctx, q.Count, q.CountArgs, &out.Count); err != nil {
		return out, wrap(err, op+" count")
	}
	return out, nil
}
