package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

const userColumns = "u.id, u.email, u.display_name, u.photo_url, u.email_verified, u.created_at"

func scanUser(rows *sql.Rows, u *folio.User) error {
	var created int64
	if err := rows.Scan(&u.ID, &u.Email, &u.DisplayName, &u.PhotoURL, &u.EmailVerified, &created); err != nil {
		return err
	}
	u.CreatedAt = fromMicros(created)
	return nil
}

// CreateUser inserts a user. It returns Conflict when the email is taken.
func CreateUser(ctx context.Context, t *Tx, in folio.NewUser) (*folio.User, error) {
	u := &folio.User{ID: folio.NewID(), Email: in.Email, DisplayName: in.DisplayName,
		EmailVerified: in.EmailVerified, CreatedAt: t.Now}
	_, err := t.exec(ctx, `INSERT INTO users (id, email, display_name, email_verified, created_at) VALUES (?, ?, ?, ?, ?)`,
		u.ID, u.Email, u.DisplayName, u.EmailVerified, micros(u.CreatedAt))
	if folio.KindOf(err) == folio.Conflict {
		return nil, &folio.Error{Kind: folio.Conflict, Field: "email", Message: "a user with the email " + in.Email + " already exists", Err: err}
	}
	if err != nil {
		return nil, wrap(err, "create user")
	}
	return u, nil
}

// GetUser returns a user by id, or NotFound.
func GetUser(ctx context.Context, t *Tx, id folio.ID) (*folio.User, error) {
	var u folio.User
	err := t.one(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = ?`, []any{id},
		func(r *sql.Rows) error { return scanUser(r, &u) })
	if err != nil {
		return nil, notFound(err, "get user", "user not found")
	}
	return &u, nil
}

// GetUsers returns the users with the given ids, by id, in one query;
// ids that match no user are left out.
func GetUsers(ctx context.Context, t *Tx, ids []folio.ID) (map[folio.ID]*folio.User, error) {
	out := make(map[folio.ID]*folio.User, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	in, args := inList(t, ids)
	err := t.once().query(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id IN `+in, args,
		func(r *sql.Rows) error {
			var u folio.User
			if err := scanUser(r, &u); err != nil {
				return err
			}
			out[u.ID] = &u
			return nil
		})
	return out, wrap(err, "get users")
}

// GetUserVisibleTo returns a user that viewer may see: viewer themself, or a
// member of an organization where viewer may list members (not a guest),
// within org when viewer is confined to one. Any other user is NotFound.
func GetUserVisibleTo(ctx context.Context, t *Tx, id, viewer, org folio.ID) (*folio.User, error) {
	var u folio.User
	err := t.one(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = ? AND (u.id = ? OR EXISTS (
		SELECT 1 FROM members a JOIN members b ON a.organization_id = b.organization_id
		WHERE a.user_id = u.id AND b.user_id = ? AND b.role IS NOT NULL AND (? = '' OR b.organization_id = ?)))`,
		[]any{id, viewer, viewer, org, org},
		func(r *sql.Rows) error { return scanUser(r, &u) })
	if err != nil {
		return nil, notFound(err, "get user", "user not found")
	}
	return &u, nil
}

// CountUsers returns the number of users, to tell an empty store.
func CountUsers(ctx context.Context, t *Tx) (int, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM users`, nil, &n)
	return n, wrap(err, "count users")
}
