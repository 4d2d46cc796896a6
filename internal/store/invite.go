package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

func scanInvite(rows *sql.Rows, inv *folio.InviteLink) error {
	var (
		role    sql.NullString
		created int64
	)
	if err := rows.Scan(&inv.ID, &inv.OrganizationID, &role, &inv.CreatedBy, &created); err != nil {
		return err
	}
	inv.Role, inv.CreatedAt = folio.Role(role.String), fromMicros(created)
	return nil
}

const inviteColumns = `id, organization_id, role, created_by, created_at`

// CreateInviteLink inserts a link invite.
func CreateInviteLink(ctx context.Context, t *Tx, inv *folio.InviteLink) error {
	_, err := t.exec(ctx, `INSERT INTO invite_links (`+inviteColumns+`) VALUES (?, ?, ?, ?, ?)`,
		inv.ID, inv.OrganizationID, nullString(string(inv.Role)), inv.CreatedBy, micros(inv.CreatedAt))
	return wrap(err, "create invite link")
}

// GetInviteLink returns a link invite of an organization, or NotFound.
func GetInviteLink(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.InviteLink, error) {
	var inv folio.InviteLink
	err := t.one(ctx, `SELECT `+inviteColumns+` FROM invite_links WHERE id = ? AND organization_id = ?`, []any{id, orgID},
		func(r *sql.Rows) error { return scanInvite(r, &inv) })
	if err != nil {
		return nil, notFound(err, "get invite link", "invite not found")
	}
	return &inv, nil
}

// ListInviteLinks lists an organization's link invites, oldest first.
func ListInviteLinks(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.InviteLink], error) {
	q := listQuery{
		Query: `SELECT ` + inviteColumns + ` FROM invite_links WHERE organization_id = ?`,
		Args:  []any{orgID}, Keys: []string{"created_at", "id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM invite_links WHERE organization_id = ?`, CountArgs: []any{orgID},
	}
	return page(ctx, t, "list invite links", q, opts, func(r *sql.Rows) (folio.InviteLink, []any, error) {
		var inv folio.InviteLink
		err := scanInvite(r, &inv)
		return inv, []any{micros(inv.CreatedAt), inv.ID}, err
	})
}

// SetInviteLinkRole changes the role a link invite grants.
func SetInviteLinkRole(ctx context.Context, t *Tx, orgID, id folio.ID, role folio.Role) error {
	n, err := t.exec(ctx, `UPDATE invite_links SET role = ? WHERE id = ? AND organization_id = ?`, nullString(string(role)), id, orgID)
	if err != nil {
		return wrap(err, "update invite link")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "invite not found")
	}
	return nil
}

// DeleteInviteLink deletes a link invite; absent is not an error.
func DeleteInviteLink(ctx context.Context, t *Tx, orgID, id folio.ID) (existed bool, err error) {
	n, err := t.exec(ctx, `DELETE FROM invite_links WHERE id = ? AND organization_id = ?`, id, orgID)
	return n > 0, wrap(err, "delete invite link")
}

// GetUserByEmail returns the user with an email (already lowercased), or NotFound.
func GetUserByEmail(ctx context.Context, t *Tx, email string) (*folio.User, error) {
	var u folio.User
	err := t.one(ctx, `SELECT `+userColumns+` FROM users u WHERE u.email = ?`, []any{email},
		func(r *sql.Rows) error { return scanUser(r, &u) })
	if err != nil {
		return nil, notFound(err, "get user by email", "user not found")
	}
	return &u, nil
}

// GetOrCreateUserByEmail returns the user with an email, creating an
// unverified user with displayName when there is none.
func GetOrCreateUserByEmail(ctx context.Context, t *Tx, email, displayName string) (*folio.User, error) {
	_, err := t.exec(ctx, `INSERT INTO users (id, email, display_name, email_verified, created_at) VALUES (?, ?, ?, FALSE, ?)
		ON CONFLICT (email) DO NOTHING`, folio.NewID(), email, displayName, micros(t.Now))
	if err != nil {
		return nil, wrap(err, "create user")
	}
	return GetUserByEmail(ctx, t, email)
}
