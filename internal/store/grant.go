package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// SetGrant grants a role on a space or collection to a user or team,
// replacing an earlier grant.
func SetGrant(ctx context.Context, t *Tx, orgID folio.ID, targetKind string, target folio.ID, principalKind string, principal folio.ID, role folio.Role) error {
	_, err := t.exec(ctx, `INSERT INTO content_grants (target_id, target_kind, organization_id, principal_kind, principal_id, role, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (target_id, principal_kind, principal_id) DO UPDATE SET role = excluded.role`,
		target, targetKind, orgID, principalKind, principal, string(role), micros(t.Now))
	return wrap(err, "set grant")
}

// DeleteGrant removes a grant and reports whether there was one.
func DeleteGrant(ctx context.Context, t *Tx, target folio.ID, principalKind string, principal folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM content_grants WHERE target_id = ? AND principal_kind = ? AND principal_id = ?`,
		target, principalKind, principal)
	return n > 0, wrap(err, "delete grant")
}

// DeletePrincipalGrants removes every grant of an organization to a user
// or team, when they leave it or it is deleted.
func DeletePrincipalGrants(ctx context.Context, t *Tx, orgID folio.ID, principalKind string, principal folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM content_grants WHERE organization_id = ? AND principal_kind = ? AND principal_id = ?`,
		orgID, principalKind, principal)
	return wrap(err, "delete principal grants")
}

// ListUserGrants lists the users granted a role on a target, in the order
// they were granted.
func ListUserGrants(ctx context.Context, t *Tx, target folio.ID, opts folio.ListOptions) (folio.List[folio.UserGrant], error) {
	from := ` FROM content_grants g JOIN users u ON u.id = g.principal_id WHERE g.target_id = ? AND g.principal_kind = 'user'`
	q := listQuery{
		Query: `SELECT ` + userColumns + `, g.role, g.created_at` + from, Args: []any{target},
		Keys: []string{"g.created_at", "g.principal_id"}, Shape: "is",
		Count: `SELECT COUNT(*)` + from, CountArgs: []any{target},
	}
	return page(ctx, t, "list user grants", q, opts, func(r *sql.Rows) (folio.UserGrant, []any, error) {
		var (
			g                folio.UserGrant
			created, granted int64
			role             string
		)
		err := r.Scan(&g.User.ID, &g.User.Email, &g.User.DisplayName, &g.User.PhotoURL, &g.User.EmailVerified, &created, &role, &granted)
		g.User.CreatedAt, g.Role = fromMicros(created), folio.Role(role)
		return g, []any{granted, g.User.ID}, err
	})
}

// ListTeamGrants lists the teams granted a role on a target, as seen with
// access a, in the order they were granted, with the spaces each team
// holds a grant on counted as ListTeams counts them.
func ListTeamGrants(ctx context.Context, t *Tx, a folio.Access, target folio.ID, opts folio.ListOptions) (folio.List[folio.TeamGrant], error) {
	from := ` FROM content_grants g JOIN teams t ON t.id = g.principal_id WHERE g.target_id = ? AND g.principal_kind = 'team'`
	q := listQuery{
		Query: `SELECT ` + teamColumns + `, g.role, g.created_at` + from, Args: []any{a.UserID, target},
		Keys: []string{"g.created_at", "g.principal_id"}, Shape: "is",
		Count: `SELECT COUNT(*)` + from, CountArgs: []any{target},
	}
	l, err := page(ctx, t, "list team grants", q, opts, func(r *sql.Rows) (folio.TeamGrant, []any, error) {
		var (
			g                folio.TeamGrant
			owns             bool
			created, granted int64
			role             string
		)
		err := r.Scan(&g.Team.ID, &g.Team.OrganizationID, &g.Team.Title, &created, &g.Team.Members, &owns, &role, &granted)
		g.Team.CreatedAt, g.Role = fromMicros(created), folio.Role(role)
		teamView(&g.Team, a, owns)
		return g, []any{granted, g.Team.ID}, err
	})
	if err != nil {
		return l, err
	}
	ts := make([]*folio.TeamView, len(l.Items))
	for i := range l.Items {
		ts[i] = &l.Items[i].Team
	}
	return l, fillTeamSpaces(ctx, t, a.OrganizationID, ts)
}
