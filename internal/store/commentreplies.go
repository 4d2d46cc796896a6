package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// ListRepliesOf lists, in one query, the replies of many comments of a
// thread set (a space's main content, or changeRequest): each comment's
// first perComment replies, oldest first, and at most total in all. When
// total cuts, every comment keeps its first replies before any has more
// (replies are taken by rank in their thread, then by time). Ids that are
// not comments of the thread set have no replies.
func ListRepliesOf(ctx context.Context, t *Tx, spaceID, changeRequest folio.ID, commentIDs []folio.ID, perComment, total int) (map[folio.ID][]folio.Comment, error) {
	out := map[folio.ID][]folio.Comment{}
	if len(commentIDs) == 0 || perComment <= 0 || total <= 0 {
		return out, nil
	}
	tx, list, ids := userIDList(t, commentIDs)
	cond, args := threadCond(spaceID, changeRequest)
	// A reply carries its comment's space and change request; the parent
	// join checks that the comment is a top-level one of the thread set.
	q := `SELECT ` + commentColumns + ` FROM (
		SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.parent_id ORDER BY r.posted_at, r.id) AS thread_rank
		FROM comments r JOIN comments c ON c.id = r.parent_id
		WHERE r.parent_id IN ` + list + ` AND ` + cond + ` AND c.parent_id IS NULL
	) c WHERE c.thread_rank <= ? ORDER BY c.thread_rank, c.posted_at, c.id LIMIT ?`
	args = append(append(ids, args...), perComment, total)
	var items []folio.Comment
	err := tx.query(ctx, q, args, func(r *sql.Rows) error {
		var c folio.Comment
		if err := scanComment(r, &c); err != nil {
			return err
		}
		items = append(items, c)
		return nil
	})
	if err != nil {
		return nil, wrap(err, "list replies of comments")
	}
	// Each thread's replies come in rank order, which is their time order.
	for _, c := range items {
		out[c.Parent] = append(out[c.Parent], c)
	}
	return out, nil
}
