package store

import (
	"context"
	"database/sql"
	"slices"

	"github.com/foliodocs/folio"
)

const commentColumns = `c.id, c.space_id, c.change_request_id, c.parent_id, c.review_id, c.author_id, c.body, c.revision, c.node_id,
	c.page_id, c.page_title, c.page_path, c.table_record, c.table_definition, c.status, c.resolved_at, c.resolved_by,
	c.posted_at, c.edited_at`

func scanComment(rows *sql.Rows, c *folio.Comment) error {
	var (
		cr, parent, review sql.NullString
		resolvedBy         sql.NullString
		resolvedAt, edited sql.NullInt64
		posted             int64
	)
	err := rows.Scan(&c.ID, &c.SpaceID, &cr, &parent, &review, &c.AuthorID, &c.Markdown, &c.Revision, &c.Target.Node,
		&c.Target.Page, &c.Target.PageTitle, &c.Target.PagePath, &c.Target.TableRecord, &c.Target.TableDefinition,
		&c.Status, &resolvedAt, &resolvedBy, &posted, &edited)
	if err != nil {
		return err
	}
	c.ChangeRequest, c.Parent, c.Target.Review, c.ResolvedBy = cr.String, parent.String, review.String, resolvedBy.String
	c.ResolvedAt, c.PostedAt, c.EditedAt = nullMicros(resolvedAt), fromMicros(posted), nullMicros(edited)
	return nil
}

// CreateComment inserts a comment or reply.
func CreateComment(ctx context.Context, t *Tx, c *folio.Comment) error {
	_, err := t.exec(ctx, `INSERT INTO comments (id, space_id, change_request_id, parent_id, review_id, author_id, body,
		revision, node_id, page_id, page_title, page_path, table_record, table_definition, status, posted_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.SpaceID, nullString(c.ChangeRequest), nullString(c.Parent), nullString(c.Target.Review), c.AuthorID, c.Markdown, c.Revision,
		c.Target.Node, c.Target.Page, c.Target.PageTitle, c.Target.PagePath, c.Target.TableRecord,
		c.Target.TableDefinition, c.Status, micros(c.PostedAt))
	return wrap(err, "create comment")
}

// threadCond is the condition that keeps the comments of one thread set:
// a space's main content (changeRequest "") or one of its change requests.
func threadCond(spaceID, changeRequest folio.ID) (string, []any) {
	if changeRequest == "" {
		return `c.space_id = ? AND c.change_request_id IS NULL`, []any{spaceID}
	}
	return `c.space_id = ? AND c.change_request_id = ?`, []any{spaceID, changeRequest}
}

// GetComment returns a comment (parent "") or a reply of parent in the
// thread set of a space or change request, or NotFound.
func GetComment(ctx context.Context, t *Tx, spaceID, changeRequest, parent, id folio.ID) (*folio.Comment, error) {
	cond, args := threadCond(spaceID, changeRequest)
	msg := "comment not found"
	if parent == "" {
		cond += ` AND c.parent_id IS NULL`
	} else {
		cond += ` AND c.parent_id = ?`
		args = append(args, parent)
		msg = "comment reply not found"
	}
	var c folio.Comment
	err := t.one(ctx, `SELECT `+commentColumns+` FROM comments c WHERE c.id = ? AND `+cond, append([]any{id}, args...),
		func(r *sql.Rows) error { return scanComment(r, &c) })
	if err != nil {
		return nil, notFound(err, "get comment", msg)
	}
	return &c, nil
}

// ListComments lists the comments (not the replies) of a space's main
// content or of a change request, filtered, newest first when opts.Desc.
func ListComments(ctx context.Context, t *Tx, spaceID, changeRequest folio.ID, f folio.CommentFilter, opts folio.ListOptions) (folio.List[folio.Comment], error) {
	cond, args := threadCond(spaceID, changeRequest)
	where := ` WHERE ` + cond + ` AND c.parent_id IS NULL`
	if f.Status != "" {
		where += ` AND c.status = ?`
		args = append(args, f.Status)
	}
	if f.TargetPage != "" {
		where += ` AND c.page_id = ?`
		args = append(args, f.TargetPage)
	}
	tx := t
	if len(f.Authors) > 0 {
		var in []any
		tx, in = padIn(t, toAny(f.Authors))
		where += ` AND c.author_id IN (` + placeholders(len(in)) + `)`
		args = append(args, in...)
	}
	q := listQuery{
		Query: `SELECT ` + commentColumns + ` FROM comments c` + where, Args: args,
		Keys: []string{"c.posted_at", "c.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM comments c` + where, CountArgs: args,
	}
	return page(ctx, tx, "list comments", q, opts, scanCommentKeys)
}

func scanCommentKeys(r *sql.Rows) (folio.Comment, []any, error) {
	var c folio.Comment
	err := scanComment(r, &c)
	return c, []any{micros(c.PostedAt), c.ID}, err
}

// ReviewComments returns the comments posted with the given reviews, by
// review: one query whatever the number of reviews.
func ReviewComments(ctx context.Context, t *Tx, reviewIDs []folio.ID) (map[folio.ID]folio.Comment, error) {
	out := map[folio.ID]folio.Comment{}
	if len(reviewIDs) == 0 {
		return out, nil
	}
	tx, in := padIn(t, toAny(reviewIDs))
	err := tx.query(ctx, `SELECT `+commentColumns+` FROM comments c WHERE c.review_id IN (`+placeholders(len(in))+`)`, in,
		func(r *sql.Rows) error {
			var c folio.Comment
			if err := scanComment(r, &c); err != nil {
				return err
			}
			out[c.Target.Review] = c
			return nil
		})
	return out, wrap(err, "load review comments")
}

// ListReplies lists the replies of a comment, oldest first.
func ListReplies(ctx context.Context, t *Tx, commentID folio.ID, opts folio.ListOptions) (folio.List[folio.Comment], error) {
	where := ` WHERE c.parent_id = ?`
	q := listQuery{
		Query: `SELECT ` + commentColumns + ` FROM comments c` + where, Args: []any{commentID},
		Keys: []string{"c.posted_at", "c.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM comments c` + where, CountArgs: []any{commentID},
	}
	return page(ctx, t, "list comment replies", q, opts, scanCommentKeys)
}

// SetCommentBody replaces the Markdown of a comment or reply and records
// the edit time.
func SetCommentBody(ctx context.Context, t *Tx, id folio.ID, markdown string) error {
	_, err := t.exec(ctx, `UPDATE comments SET body = ?, edited_at = ? WHERE id = ?`, markdown, micros(t.Now), id)
	return wrap(err, "set comment body")
}

// SetCommentResolved resolves a comment (by a user, at t.Now) or opens it
// again (by "", which clears who resolved it and when).
func SetCommentResolved(ctx context.Context, t *Tx, id, by folio.ID) error {
	var err error
	if by == "" {
		_, err = t.exec(ctx, `UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL WHERE id = ?`, id)
	} else {
		_, err = t.exec(ctx, `UPDATE comments SET status = 'resolved', resolved_at = ?, resolved_by = ? WHERE id = ?`,
			micros(t.Now), by, id)
	}
	return wrap(err, "set comment resolved")
}

// DeleteComment removes a comment or reply; a comment's replies and every
// reaction go with it.
func DeleteComment(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM comments WHERE id = ?`, id)
	return wrap(err, "delete comment")
}

// AddReaction records a user's reaction; a reaction the user already
// made is left as it was.
func AddReaction(ctx context.Context, t *Tx, commentID, userID folio.ID, emoji string) error {
	_, err := t.exec(ctx, `INSERT INTO comment_reactions (comment_id, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (comment_id, emoji, user_id) DO NOTHING`, commentID, emoji, userID, micros(t.Now))
	return wrap(err, "add reaction")
}

// RemoveReaction removes a user's reaction, if they made it.
func RemoveReaction(ctx context.Context, t *Tx, commentID, userID folio.ID, emoji string) error {
	_, err := t.exec(ctx, `DELETE FROM comment_reactions WHERE comment_id = ? AND emoji = ? AND user_id = ?`,
		commentID, emoji, userID)
	return wrap(err, "remove reaction")
}

// CommentExtras is what is computed around a page of comments or replies:
// reactions by item, reply counts and repliers by comment, and every user
// they or the items name.
type CommentExtras struct {
	Reactions map[folio.ID][]folio.Reaction
	Replies   map[folio.ID]int
	Repliers  map[folio.ID][]folio.Replier
	Users     map[folio.ID]folio.User
}

// LoadCommentExtras loads the reactions of items and, when withReplies,
// their reply counts and repliers, then every user named (authors,
// resolvers, repliers, reactors): three queries whatever the number of
// items.
func LoadCommentExtras(ctx context.Context, t *Tx, items []folio.Comment, withReplies bool) (*CommentExtras, error) {
	x := &CommentExtras{Reactions: map[folio.ID][]folio.Reaction{}, Replies: map[folio.ID]int{},
		Repliers: map[folio.ID][]folio.Replier{}, Users: map[folio.ID]folio.User{}}
	if len(items) == 0 {
		return x, nil
	}
	ids := make([]folio.ID, len(items))
	users := map[folio.ID]bool{}
	for i, c := range items {
		ids[i] = c.ID
		users[c.AuthorID] = true
		if c.ResolvedBy != "" {
			users[c.ResolvedBy] = true
		}
	}
	tx, in := padIn(t, toAny(ids))
	list := `(` + placeholders(len(in)) + `)`
	// Emojis keep the order of their first reaction, users the order of
	// theirs.
	err := tx.query(ctx, `SELECT comment_id, emoji, user_id, reacted_at FROM comment_reactions
		WHERE comment_id IN `+list+` ORDER BY comment_id, reacted_at, emoji, user_id`, in, func(r *sql.Rows) error {
		var (
			id, emoji, user string
			at              int64
		)
		if err := r.Scan(&id, &emoji, &user, &at); err != nil {
			return err
		}
		users[user] = true
		rs := x.Reactions[id]
		i := slices.IndexFunc(rs, func(r folio.Reaction) bool { return r.Emoji == emoji })
		if i < 0 {
			rs = append(rs, folio.Reaction{Emoji: emoji})
			i = len(rs) - 1
		}
		rs[i].Users = append(rs[i].Users, folio.Reactor{UserID: user, ReactedAt: fromMicros(at)})
		x.Reactions[id] = rs
		return nil
	})
	if err != nil {
		return nil, wrap(err, "load reactions")
	}
	if withReplies {
		err = tx.query(ctx, `SELECT parent_id, author_id, COUNT(*), MAX(posted_at) FROM comments
			WHERE parent_id IN `+list+` GROUP BY parent_id, author_id`, in, func(r *sql.Rows) error {
			var (
				id, user string
				n        int
				at       int64
			)
			if err := r.Scan(&id, &user, &n, &at); err != nil {
				return err
			}
			users[user] = true
			x.Replies[id] += n
			x.Repliers[id] = append(x.Repliers[id], folio.Replier{UserID: user, Count: n, UpdatedAt: fromMicros(at)})
			return nil
		})
		if err != nil {
			return nil, wrap(err, "load repliers")
		}
		// The latest replier first.
		for _, rs := range x.Repliers {
			slices.SortFunc(rs, func(a, b folio.Replier) int {
				if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
					return c
				}
				return compareIDs(a.UserID, b.UserID)
			})
		}
	}
	uids := make([]folio.ID, 0, len(users))
	for u := range users {
		uids = append(uids, u)
	}
	slices.Sort(uids)
	utx, uin := padIn(t, toAny(uids))
	err = utx.query(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id IN (`+placeholders(len(uin))+`)`, uin,
		func(r *sql.Rows) error {
			var u folio.User
			if err := scanUser(r, &u); err != nil {
				return err
			}
			x.Users[u.ID] = u
			return nil
		})
	if err != nil {
		return nil, wrap(err, "load comment users")
	}
	return x, nil
}

func compareIDs(a, b folio.ID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ListCommenters lists the members of an organization who posted a
// comment or reply in a space's main content or in one of its change
// requests, ordered as ListMembers orders them.
func ListCommenters(ctx context.Context, t *Tx, orgID, spaceID, changeRequest folio.ID, opts folio.ListOptions) (folio.List[folio.MemberView], error) {
	cond, cargs := threadCond(spaceID, changeRequest)
	where := ` WHERE m.organization_id = ? AND m.user_id IN (SELECT c.author_id FROM comments c WHERE ` + cond + `)`
	args := append([]any{orgID}, cargs...)
	q := listQuery{
		Query: `SELECT ` + memberColumns + ` FROM members m JOIN users u ON u.id = m.user_id` + where,
		Args:  args, Keys: []string{"m.joined_at", "m.user_id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM members m` + where, CountArgs: args,
	}
	l, err := page(ctx, t, "list commenters", q, opts, func(r *sql.Rows) (folio.MemberView, []any, error) {
		var v folio.MemberView
		err := scanMember(r, &v)
		return v, []any{micros(v.JoinedAt), v.UserID}, err
	})
	if err != nil {
		return l, err
	}
	ms := make([]*folio.MemberView, len(l.Items))
	for i := range l.Items {
		ms[i] = &l.Items[i]
	}
	return l, fillMemberSpaces(ctx, t, orgID, ms)
}
