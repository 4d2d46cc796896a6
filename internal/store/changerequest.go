package store

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/foliodocs/folio"
)

const changeRequestColumns = `cr.id, cr.space_id, cr.number, cr.status, cr.subject, cr.description, cr.created_by,
	cr.created_at, cr.updated_at, cr.revision_initial, cr.revision, cr.revision_merged_ancestor, cr.revision_merged, cr.merged_at,
	(SELECT COUNT(*) FROM comments c WHERE c.change_request_id = cr.id AND c.status = 'open' AND c.parent_id IS NULL)`

func scanChangeRequest(rows *sql.Rows, c *folio.ChangeRequest) error {
	var (
		desc             sql.NullString
		created, updated int64
		merged           sql.NullInt64
	)
	err := rows.Scan(&c.ID, &c.SpaceID, &c.Number, &c.Status, &c.Subject, &desc, &c.CreatedBy, &created, &updated,
		&c.RevisionInitial, &c.Revision, &c.RevisionMergedAncestor, &c.RevisionMerged, &merged, &c.Comments)
	if err != nil {
		return err
	}
	if desc.Valid {
		c.Description = []byte(desc.String)
	}
	c.CreatedAt, c.UpdatedAt, c.MergedAt = fromMicros(created), fromMicros(updated), nullMicros(merged)
	return nil
}

// CreateChangeRequest inserts a change request, numbered after the space's
// last one. The number comes from the space's counter, incremented in this
// transaction: on PostgreSQL the UPDATE locks the space's row until commit,
// so concurrent creations on several servers get distinct numbers.
func CreateChangeRequest(ctx context.Context, t *Tx, c *folio.ChangeRequest) error {
	err := t.get(ctx, `UPDATE spaces SET change_request_counter = change_request_counter + 1 WHERE id = ?
		RETURNING change_request_counter`, []any{c.SpaceID}, &c.Number)
	if err != nil {
		return notFound(err, "number change request", "space not found")
	}
	c.CreatedAt, c.UpdatedAt = t.Now, t.Now
	_, err = t.exec(ctx, `INSERT INTO change_requests (id, space_id, number, subject, description, status, created_by,
		created_at, updated_at, revision_initial, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.SpaceID, c.Number, c.Subject, nullBytes(c.Description), c.Status, c.CreatedBy,
		micros(t.Now), micros(t.Now), c.RevisionInitial, c.Revision)
	return wrap(err, "create change request")
}

func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// GetChangeRequest returns a change request of a space by id or, when ref
// is a positive integer, by number; NotFound otherwise.
func GetChangeRequest(ctx context.Context, t *Tx, spaceID folio.ID, ref string) (*folio.ChangeRequest, error) {
	var c folio.ChangeRequest
	cond, arg := `cr.id = ?`, any(ref)
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		cond, arg = `cr.number = ?`, n
	}
	err := t.one(ctx, `SELECT `+changeRequestColumns+` FROM change_requests cr WHERE cr.space_id = ? AND `+cond,
		[]any{spaceID, arg}, func(r *sql.Rows) error { return scanChangeRequest(r, &c) })
	if err != nil {
		return nil, notFound(err, "get change request", "change request not found")
	}
	return &c, nil
}

// GetMergedChangeRequest returns the change request whose merge made a
// revision of a space; NotFound when none did.
func GetMergedChangeRequest(ctx context.Context, t *Tx, spaceID, revisionID folio.ID) (*folio.ChangeRequest, error) {
	var c folio.ChangeRequest
	err := t.one(ctx, `SELECT `+changeRequestColumns+` FROM change_requests cr WHERE cr.space_id = ? AND cr.revision_merged = ?`,
		[]any{spaceID, revisionID}, func(r *sql.Rows) error { return scanChangeRequest(r, &c) })
	if err != nil {
		return nil, notFound(err, "get merged change request", "change request not found")
	}
	return &c, nil
}

// ChangeRequestScope is where a change request list looks: one space, or
// the spaces of an organization that are not deleted (only Spaces when not
// nil).
type ChangeRequestScope struct {
	Space  folio.ID
	Org    folio.ID
	Spaces []folio.ID
}

// ListChangeRequests lists change requests, newest first.
func ListChangeRequests(ctx context.Context, t *Tx, scope ChangeRequestScope, f folio.ChangeRequestFilter, opts folio.ListOptions) (folio.List[folio.ChangeRequest], error) {
	from, where, args := ` FROM change_requests cr`, ` WHERE cr.status = ?`, []any{f.Status}
	tx := t
	if scope.Space != "" {
		where += ` AND cr.space_id = ?`
		args = append(args, scope.Space)
	} else {
		from += ` JOIN spaces s ON s.id = cr.space_id`
		where += ` AND s.organization_id = ? AND s.deleted_at IS NULL`
		args = append(args, scope.Org)
		if scope.Spaces != nil {
			if len(scope.Spaces) == 0 {
				return folio.List[folio.ChangeRequest]{Items: []folio.ChangeRequest{}}, nil
			}
			in, inArgs := inList(t, scope.Spaces)
			where += ` AND cr.space_id IN ` + in
			args = append(args, inArgs...)
			tx = t.once()
		}
	}
	if f.Creator != "" {
		where += ` AND cr.created_by = ?`
		args = append(args, f.Creator)
	}
	if f.Contributor != "" {
		where += ` AND EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = cr.id AND c.user_id = ?)`
		args = append(args, f.Contributor)
	}
	if f.RequestedReviewer != "" {
		where += ` AND EXISTS (SELECT 1 FROM change_request_reviewers v WHERE v.change_request_id = cr.id AND v.user_id = ?)`
		args = append(args, f.RequestedReviewer)
	}
	// Newest first: by number in a space, by creation time across spaces.
	opts.Desc = true
	q := listQuery{
		Query: `SELECT ` + changeRequestColumns + from + where, Args: args, Keys: []string{"cr.created_at", "cr.id"}, Shape: "is",
		Count: `SELECT COUNT(*)` + from + where, CountArgs: args,
	}
	if scope.Space != "" {
		q.Keys, q.Shape = []string{"cr.number"}, "i"
	}
	return page(ctx, tx, "list change requests", q, opts, func(r *sql.Rows) (folio.ChangeRequest, []any, error) {
		var c folio.ChangeRequest
		err := scanChangeRequest(r, &c)
		if scope.Space != "" {
			return c, []any{c.Number}, err
		}
		return c, []any{micros(c.CreatedAt), c.ID}, err
	})
}

// UpdateChangeRequest writes a change request's subject, description and
// status, and the update time.
func UpdateChangeRequest(ctx context.Context, t *Tx, c *folio.ChangeRequest) error {
	c.UpdatedAt = t.Now
	_, err := t.exec(ctx, `UPDATE change_requests SET subject = ?, description = ?, status = ?, updated_at = ? WHERE id = ?`,
		c.Subject, nullBytes(c.Description), c.Status, micros(t.Now), c.ID)
	return wrap(err, "update change request")
}

// ErrChangeRequestMoved is the Conflict of a change request write that lost
// a race: its head moved, or it was merged or archived, meanwhile.
var ErrChangeRequestMoved = folio.Errorf(folio.Conflict, "the change request changed meanwhile; try again")

// SetChangeRequestHead moves a change request's head from one revision to
// another, and its merged ancestor to ancestor when not empty. It fails with
// Conflict when the head is no longer from or the change request cannot
// change any more: another writer came first.
func SetChangeRequestHead(ctx context.Context, t *Tx, id, from, to, ancestor folio.ID) error {
	n, err := t.exec(ctx, `UPDATE change_requests SET revision = ?, updated_at = ?,
		revision_merged_ancestor = CASE WHEN ? = '' THEN revision_merged_ancestor ELSE ? END
		WHERE id = ? AND revision = ? AND status IN ('draft', 'open')`, to, micros(t.Now), ancestor, ancestor, id, from)
	if err != nil {
		return wrap(err, "set change request head")
	}
	if n == 0 {
		return ErrChangeRequestMoved
	}
	return nil
}

// SetChangeRequestMerged records the merge of a change request whose head
// is still head. It fails with Conflict otherwise.
func SetChangeRequestMerged(ctx context.Context, t *Tx, id, head, merged folio.ID) error {
	n, err := t.exec(ctx, `UPDATE change_requests SET status = 'merged', revision_merged = ?, merged_at = ?, updated_at = ?
		WHERE id = ? AND revision = ? AND status IN ('draft', 'open')`, merged, micros(t.Now), micros(t.Now), id, head)
	if err != nil {
		return wrap(err, "set change request merged")
	}
	if n == 0 {
		return ErrChangeRequestMoved
	}
	return nil
}

// AddContributor records that a user wrote a revision in a change request.
func AddContributor(ctx context.Context, t *Tx, changeRequestID, userID folio.ID) error {
	_, err := t.exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id, first_at, last_at, revisions)
		VALUES (?, ?, ?, ?, 1) ON CONFLICT (change_request_id, user_id)
		DO UPDATE SET last_at = excluded.last_at, revisions = change_request_contributors.revisions + 1`,
		changeRequestID, userID, micros(t.Now), micros(t.Now))
	return wrap(err, "add contributor")
}

// ListContributors returns a change request's contributors, earliest first.
func ListContributors(ctx context.Context, t *Tx, changeRequestID folio.ID) ([]folio.Contributor, error) {
	out := []folio.Contributor{}
	err := t.query(ctx, `SELECT user_id, first_at, last_at, revisions FROM change_request_contributors
		WHERE change_request_id = ? ORDER BY first_at, user_id`, []any{changeRequestID}, func(r *sql.Rows) error {
		var (
			c           folio.Contributor
			first, last int64
		)
		if err := r.Scan(&c.UserID, &first, &last, &c.Revisions); err != nil {
			return err
		}
		c.FirstAt, c.LastAt = fromMicros(first), fromMicros(last)
		out = append(out, c)
		return nil
	})
	return out, wrap(err, "list contributors")
}

// CreateReview inserts a review.
func CreateReview(ctx context.Context, t *Tx, r *folio.Review) error {
	r.CreatedAt, r.UpdatedAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, requested_by, status, revision,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.ChangeRequestID, r.ReviewerID, r.RequestedBy,
		r.Status, r.Revision, micros(t.Now), micros(t.Now))
	return wrap(err, "create review")
}

// ListReviews returns a change request's reviews, oldest first.
func ListReviews(ctx context.Context, t *Tx, changeRequestID folio.ID) ([]folio.Review, error) {
	out := []folio.Review{}
	err := t.query(ctx, `SELECT id, reviewer_id, requested_by, status, revision, created_at, updated_at
		FROM change_request_reviews WHERE change_request_id = ? ORDER BY created_at, id`, []any{changeRequestID}, func(rows *sql.Rows) error {
		r := folio.Review{ChangeRequestID: changeRequestID}
		var created, updated int64
		if err := rows.Scan(&r.ID, &r.ReviewerID, &r.RequestedBy, &r.Status, &r.Revision, &created, &updated); err != nil {
			return err
		}
		r.CreatedAt, r.UpdatedAt = fromMicros(created), fromMicros(updated)
		out = append(out, r)
		return nil
	})
	return out, wrap(err, "list reviews")
}

// PutRequestedReviewer asks a user to review a change request, or asks
// again (a new request time and head) when already asked.
func PutRequestedReviewer(ctx context.Context, t *Tx, r *folio.RequestedReviewer) error {
	r.CreatedAt = t.Now
	_, err := t.exec(ctx, `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by, revision, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (change_request_id, user_id)
		DO UPDATE SET requested_by = excluded.requested_by, revision = excluded.revision, created_at = excluded.created_at`,
		r.ChangeRequestID, r.UserID, r.RequestedBy, r.Revision, micros(t.Now))
	return wrap(err, "request reviewer")
}

// ListRequestedReviewers returns the users asked to review a change
// request, earliest request first.
func ListRequestedReviewers(ctx context.Context, t *Tx, changeRequestID folio.ID) ([]folio.RequestedReviewer, error) {
	out := []folio.RequestedReviewer{}
	err := t.query(ctx, `SELECT user_id, requested_by, revision, created_at FROM change_request_reviewers
		WHERE change_request_id = ? ORDER BY created_at, user_id`, []any{changeRequestID}, func(rows *sql.Rows) error {
		r := folio.RequestedReviewer{ChangeRequestID: changeRequestID}
		var created int64
		if err := rows.Scan(&r.UserID, &r.RequestedBy, &r.Revision, &created); err != nil {
			return err
		}
		r.CreatedAt = fromMicros(created)
		out = append(out, r)
		return nil
	})
	return out, wrap(err, "list requested reviewers")
}

// DeleteRequestedReviewer withdraws a review request and reports whether
// there was one.
func DeleteRequestedReviewer(ctx context.Context, t *Tx, changeRequestID, userID folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?`, changeRequestID, userID)
	return n > 0, wrap(err, "remove requested reviewer")
}
