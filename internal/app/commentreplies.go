package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// Bounds of ListRepliesOf.
const (
	// MaxRepliesPerThread bounds the replies of one comment it returns, as
	// ListReplies' page size does.
	MaxRepliesPerThread = 100
	// MaxRepliesOf bounds the replies it returns in all.
	MaxRepliesOf = 5000
)

// ListRepliesOf lists the replies of many comments of a thread set at once
// (for views that show threads): for each comment, its first perThread
// replies (at most MaxRepliesPerThread), oldest first, and MaxRepliesOf in
// all, each thread keeping its first replies when that bound cuts. The
// caller must be able to view the space, as for ListReplies (NotFound
// otherwise); ids that are not comments of the thread set have no
// replies. Its cost does not grow with the number of comments: one query
// for the replies and those of their views.
func (a *App) ListRepliesOf(ctx context.Context, caller folio.Caller, scope CommentScope, commentIDs []folio.ID, format string, perThread int) (out map[folio.ID][]folio.CommentView, err error) {
	if perThread <= 0 || perThread > MaxRepliesPerThread {
		perThread = MaxRepliesPerThread
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		byComment, err := store.ListRepliesOf(ctx, tx, scope.Space, scope.ChangeRequest, commentIDs, perThread, MaxRepliesOf)
		if err != nil {
			return err
		}
		var items []folio.Comment
		for _, id := range commentIDs {
			items = append(items, byComment[id]...)
			delete(byComment, id) // an id listed twice gives its replies once
		}
		vs, err := a.views(ctx, tx, caller, th, items, format)
		if err != nil {
			return err
		}
		out = make(map[folio.ID][]folio.CommentView, len(commentIDs))
		for _, v := range vs {
			out[v.Parent] = append(out[v.Parent], v)
		}
		return nil
	})
	return out, err
}
