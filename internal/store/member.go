package store

import (
	"context"
	"database/sql"
	"strings"
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
	in, args := inList(t, ids)
	err := t.once().query(ctx, `SELECT user_id FROM members WHERE organization_id = ? AND user_id IN `+in, append([]any{orgID}, args...),
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

// OrgAccess returns what a user is in an organization, or NotFound when
// the organization does not exist or they are not a member.
func OrgAccess(ctx context.Context, t *Tx, orgID, userID folio.ID) (folio.Access, error) {
	a := folio.Access{OrganizationID: orgID, UserID: userID}
	var role sql.NullString
	err := t.get(ctx, `SELECT m.role, m.sso, o.sso, EXISTS (SELECT 1 FROM team_members tm
			WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id AND tm.role = 'owner'), m.disabled
		FROM members m JOIN organizations o ON o.id = m.organization_id
		WHERE m.organization_id = ? AND m.user_id = ?`, []any{orgID, userID}, &role, &a.MemberSSO, &a.OrgSSO, &a.OwnsTeam, &a.Disabled)
	if err != nil {
		return a, notFound(err, "get access", "organization not found")
	}
	a.Role = folio.Role(role.String)
	return a, nil
}

// memberColumns select a member with its user and counts; the FROM clause
// must name members m and users u.
const memberColumns = `m.organization_id, m.user_id, m.role, m.joined_at, m.last_seen_at, m.sso, m.disabled, ` + userColumns + `,
	(SELECT COUNT(*) FROM team_members tm WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id)`

func scanMember(rows *sql.Rows, v *folio.MemberView) error {
	var (
		role        sql.NullString
		joined      int64
		seen        sql.NullInt64
		userCreated int64
	)
	err := rows.Scan(&v.OrganizationID, &v.UserID, &role, &joined, &seen, &v.SSO, &v.Disabled,
		&v.User.ID, &v.User.Email, &v.User.DisplayName, &v.User.PhotoURL, &v.User.EmailVerified, &userCreated, &v.Teams)
	if err != nil {
		return err
	}
	v.Role = folio.Role(role.String)
	v.JoinedAt, v.LastSeenAt, v.User.CreatedAt = fromMicros(joined), nullMicros(seen), fromMicros(userCreated)
	return nil
}

// GetMember returns one member of an organization, or NotFound.
func GetMember(ctx context.Context, t *Tx, orgID, userID folio.ID) (*folio.MemberView, error) {
	var v folio.MemberView
	err := t.one(ctx, `SELECT `+memberColumns+` FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = ? AND m.user_id = ?`, []any{orgID, userID},
		func(r *sql.Rows) error { return scanMember(r, &v) })
	if err != nil {
		return nil, notFound(err, "get member", "member not found")
	}
	if err := fillMemberSpaces(ctx, t, orgID, []*folio.MemberView{&v}); err != nil {
		return nil, err
	}
	return &v, nil
}

// fillMemberSpaces sets the Spaces count of members of an organization: the
// spaces that are not deleted and that each may view, as listed by their
// spaces (docs/decisions.md). A member with a role views every space, their
// role being a floor; a guest views the spaces granted to them or to one of
// their teams, on the space or on a collection above it. It runs one count
// for the members with a role and one grouped query for the guests,
// however many members there are.
func fillMemberSpaces(ctx context.Context, t *Tx, orgID folio.ID, ms []*folio.MemberView) error {
	var guests []folio.ID
	withRole := false
	for _, m := range ms {
		if m.Role == folio.RoleGuest {
			guests = append(guests, m.UserID)
		} else {
			withRole = true
		}
	}
	all := 0
	if withRole {
		err := t.get(ctx, `SELECT COUNT(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL`, []any{orgID}, &all)
		if err != nil {
			return wrap(err, "count spaces")
		}
	}
	var granted map[folio.ID]int
	if len(guests) > 0 {
		in, inArgs := inList(t, guests)
		seed := `SELECT g.principal_id, g.target_id FROM content_grants g
			WHERE g.organization_id = ? AND g.principal_kind = 'user' AND g.principal_id IN ` + in + `
			UNION
			SELECT tm.user_id, g.target_id FROM team_members tm JOIN content_grants g
				ON g.organization_id = tm.organization_id AND g.principal_kind = 'team' AND g.principal_id = tm.team_id
			WHERE tm.organization_id = ? AND tm.user_id IN ` + in
		args := append(append(append([]any{orgID}, inArgs...), orgID), inArgs...)
		var err error
		if granted, err = grantedSpaceCounts(ctx, t, len(guests) > 1, seed, args); err != nil {
			return wrap(err, "count member spaces")
		}
	}
	for _, m := range ms {
		if m.Role == folio.RoleGuest {
			m.Spaces = granted[m.UserID]
		} else {
			m.Spaces = all
		}
	}
	return nil
}

// likeUsers is the plain userSearch: a case-insensitive LIKE over both columns.
func likeUsers(d dialect, idCol, term string) (string, []any) {
	p := likePattern(term)
	return idCol + ` IN (SELECT id FROM users WHERE ` + d.ilike("display_name") + ` OR ` + d.ilike("email") + `)`, []any{p, p}
}

// likePattern makes a LIKE pattern matching s anywhere, for dialect.ilike.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// ListMembers lists an organization's members, newest first unless asked
// otherwise, filtered and sorted as f says, in one query plus a count.
func ListMembers(ctx context.Context, t *Tx, orgID folio.ID, f folio.MemberFilter, opts folio.ListOptions) (folio.List[folio.MemberView], error) {
	where := ` WHERE m.organization_id = ?`
	args := []any{orgID}
	if f.Role != nil {
		if *f.Role == folio.RoleGuest {
			where += ` AND m.role IS NULL`
		} else {
			where += ` AND m.role = ?`
			args = append(args, string(*f.Role))
		}
	}
	if f.Disabled != nil {
		where += ` AND m.disabled = ?`
		args = append(args, *f.Disabled)
	}
	if f.Search != "" {
		cond, sargs := t.db.d.userSearch("m.user_id", f.Search)
		where += ` AND ` + cond
		args = append(args, sargs...)
	}
	key := "m.joined_at"
	if f.ByLastSeen {
		key = "m.last_seen_at"
		where += ` AND m.last_seen_at IS NOT NULL`
	}
	from := ` FROM members m JOIN users u ON u.id = m.user_id`
	countFrom := ` FROM members m` // the filters only name members columns
	q := listQuery{
		Query: `SELECT ` + memberColumns + from + where,
		Args:  args, Keys: []string{key, "m.user_id"}, Shape: "is",
		Count: `SELECT COUNT(*)` + countFrom + where, CountArgs: args,
	}
	l, err := page(ctx, t, "list members", q, opts, func(r *sql.Rows) (folio.MemberView, []any, error) {
		var v folio.MemberView
		err := scanMember(r, &v)
		k := micros(v.JoinedAt)
		if f.ByLastSeen && v.LastSeenAt != nil {
			k = micros(*v.LastSeenAt)
		}
		return v, []any{k, v.UserID}, err
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

// SetMemberRole changes a member's role; RoleGuest makes a guest. NotFound
// when they are not a member.
func SetMemberRole(ctx context.Context, t *Tx, orgID, userID folio.ID, role folio.Role) error {
	n, err := t.exec(ctx, `UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?`,
		nullString(string(role)), orgID, userID)
	if err != nil {
		return wrap(err, "set member role")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "member not found")
	}
	return nil
}

// SetMemberSSO marks a member as an SSO member. NotFound when not a member.
func SetMemberSSO(ctx context.Context, t *Tx, orgID, userID folio.ID) error {
	n, err := t.exec(ctx, `UPDATE members SET sso = TRUE WHERE organization_id = ? AND user_id = ?`, orgID, userID)
	if err != nil {
		return wrap(err, "set member sso")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "member not found")
	}
	return nil
}

// RemoveMember deletes a membership (and so the member's team memberships).
// Removing a non-member is not an error.
func RemoveMember(ctx context.Context, t *Tx, orgID, userID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM members WHERE organization_id = ? AND user_id = ?`, orgID, userID)
	if err != nil {
		return wrap(err, "remove member")
	}
	return DeletePrincipalGrants(ctx, t, orgID, folio.PrincipalUser, userID)
}

// SetMemberDisabled disables or re-enables a membership.
func SetMemberDisabled(ctx context.Context, t *Tx, orgID, userID folio.ID, disabled bool) error {
	n, err := t.exec(ctx, `UPDATE members SET disabled = ? WHERE organization_id = ? AND user_id = ?`, disabled, orgID, userID)
	if err != nil {
		return wrap(err, "set member disabled")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "member not found")
	}
	return nil
}

// CountAdmins counts an organization's admins whose membership is not
// disabled. Inside a write transaction
// on PostgreSQL it locks the admin rows, so two concurrent demotions cannot
// both see a second admin.
func CountAdmins(ctx context.Context, t *Tx, orgID folio.ID) (int, error) {
	n := 0
	err := t.query(ctx, `SELECT user_id FROM members WHERE organization_id = ? AND role = 'admin' AND NOT disabled`+t.db.d.forUpdate(),
		[]any{orgID}, func(r *sql.Rows) error { n++; return nil })
	return n, wrap(err, "count admins")
}

// AddMemberIfAbsent adds a membership unless the user is already a member,
// and reports whether it added one.
func AddMemberIfAbsent(ctx context.Context, t *Tx, m *folio.Member) (bool, error) {
	n, err := t.exec(ctx, `INSERT INTO members (organization_id, user_id, role, joined_at, sso, disabled)
		VALUES (?, ?, ?, ?, ?, FALSE) ON CONFLICT (organization_id, user_id) DO NOTHING`,
		m.OrganizationID, m.UserID, nullString(string(m.Role)), micros(m.JoinedAt), m.SSO)
	return n == 1, wrap(err, "add member")
}

// UserOrganizationIDs returns the organizations a user is a member of.
func UserOrganizationIDs(ctx context.Context, t *Tx, userID folio.ID) ([]folio.ID, error) {
	var out []folio.ID
	err := t.query(ctx, `SELECT organization_id FROM members WHERE user_id = ? ORDER BY organization_id`, []any{userID},
		func(r *sql.Rows) error {
			var id folio.ID
			if err := r.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})
	return out, wrap(err, "list user organizations")
}
