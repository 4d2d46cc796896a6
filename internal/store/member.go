package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// AddMember inserts a membership. It returns Conflict when the user is
// already a member.
func AddMember(ctx context.Context, t *Tx, m *folio.Member) error {
	var seen sql.NullInt64
	if m.LastSeenAt != nil {
		seen = sql.NullInt64{Int64: micros(*m.LastSeenAt), Valid: true}
	}
	_, err := t.exec(ctx, `INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at, sso, disabled)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		m.OrganizationID, m.UserID, nullString(string(m.Role)), micros(m.JoinedAt), seen, m.SSO, m.Disabled)
	if folio.KindOf(err) == folio.Conflict {
		return &folio.Error{Kind: folio.Conflict, Message: "the user is already a member of the organization", Err: err}
	}
	return wrap(err, "add member")
}

// MemberRole returns a user's role in an organization (RoleGuest for
// guests), or NotFound when they are not a member.
func MemberRole(ctx context.Context, t *Tx, orgID, userID folio.ID) (folio.Role, error) {
	var role sql.NullString
	err := t.get(ctx, `SELECT role FROM members WHERE organization_id = ? AND user_id = ?`, []any{orgID, userID}, &role)
	if err != nil {
		return "", notFound(err, "get member role", "organization not found")
	}
	return folio.Role(role.String), nil
}

// ClaimBootstrap records that the first admin is being created and reports
// whether this call won: of several servers starting together on one empty
// database, exactly one gets true.
func ClaimBootstrap(ctx context.Context, t *Tx) (bool, error) {
	n, err := t.exec(ctx, `INSERT INTO instance (id, bootstrapped_at) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`, micros(t.Now))
	return n == 1, wrap(err, "claim bootstrap")
}

// TouchMember records that a member was seen now and returns the time, or
// NotFound when the user is not a member.
func TouchMember(ctx context.Context, t *Tx, orgID, userID folio.ID) (time.Time, error) {
	var seen int64
	err := t.get(ctx, `UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ? RETURNING last_seen_at`,
		[]any{micros(t.Now), orgID, userID}, &seen)
	if err != nil {
		return time.Time{}, notFound(err, "touch member", "organization not found")
	}
	return fromMicros(seen), nil
}

// NonMembers returns the ids among ids that are not members of the
// organization, in the order given, in one query.
func NonMembers(ctx context.Context, t *Tx, orgID folio.ID, ids []folio.ID) ([]folio.ID, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	found := make(map[folio.ID]bool, len(ids))
	args := append([]any{orgID}, toAny(ids)...)
	err := t.query(ctx, `SELECT user_id FROM members WHERE organization_id = ? AND user_id IN (`+placeholders(len(ids))+`)`, args,
		func(r *sql.Rows) error {
			var id folio.ID
			err := r.Scan(&id)
			found[id] = true
			return err
		})
	if err != nil {
		return nil, wrap(err, "find members")
	}
	var missing []folio.ID
	for _, id := range ids {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	return missing, nil
}

func toAny[T any](in []T) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = v
	}
	return out
}
