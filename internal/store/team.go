package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/foliodocs/folio"
)

// titleMatch compares a lowercased pattern with the title Folio lowercased
// when writing it, so that case is ignored the same way on both stores
// (SQLite's own case folding covers ASCII letters only).
const titleMatch = `t.title_folded LIKE ? ESCAPE '\'`

// teamColumns select a team with its counts and whether the user bound to
// the first argument owns it; the FROM clause must name teams t.
const teamColumns = `t.id, t.organization_id, t.title, t.created_at,
	(SELECT COUNT(*) FROM team_members c WHERE c.team_id = t.id),
	EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = ? AND o.role = 'owner')`

func scanTeam(rows *sql.Rows, v *folio.TeamView, owns *bool) error {
	var created int64
	if err := rows.Scan(&v.ID, &v.OrganizationID, &v.Title, &created, &v.Members, owns); err != nil {
		return err
	}
	v.CreatedAt = fromMicros(created)
	return nil
}

// teamView applies the team permissions for a caller with access a.
func teamView(v *folio.TeamView, a folio.Access, owns bool) {
	p := a.Permissions()
	v.CanView = p.ListTeams || owns
	v.CanAdmin = p.Admin || owns
}

// grantedSpaceCounts counts, for each principal of seed, the spaces that
// are not deleted and that a grant reaches: a grant on the space itself or
// on any collection above it. seed selects distinct (principal, target id)
// pairs of one organization's grants, whose targets are that
// organization's content (a transfer revokes the grants on what it moves);
// oneOff marks a seed whose text varies with its input. It is one query, whose work grows
// with the collections reached rather than the spaces: a recursive CTE
// walks down from the granted collections (UNION, so each collection is
// reached once per principal, and a cycle would end the walk), each reached
// collection adds its count of spaces, and a space granted directly adds
// one unless its collection was reached.
func grantedSpaceCounts(ctx context.Context, t *Tx, oneOff bool, seed string, seedArgs []any) (map[folio.ID]int, error) {
	q := `WITH RECURSIVE
		seed (principal, target) AS (` + seed + `),
		reach (principal, node) AS (
			SELECT d.principal, c.id FROM seed d JOIN collections c ON c.id = d.target
			UNION
			SELECT r.principal, c.id FROM reach r JOIN collections c ON c.parent_id = r.node),
		counts (parent, n) AS (
			SELECT parent_id, COUNT(*) FROM spaces
			WHERE parent_id IN (SELECT node FROM reach) AND deleted_at IS NULL GROUP BY parent_id)
		SELECT x.principal, CAST(SUM(x.n) AS BIGINT) FROM (
			SELECT r.principal, k.n FROM reach r JOIN counts k ON k.parent = r.node
			UNION ALL
			SELECT d.principal, 1 FROM seed d JOIN spaces s ON s.id = d.target
			WHERE s.deleted_at IS NULL
				AND NOT EXISTS (SELECT 1 FROM reach r WHERE r.principal = d.principal AND r.node = s.parent_id)) x
		GROUP BY x.principal`
	tx := t
	if oneOff {
		tx = t.once()
	}
	out := map[folio.ID]int{}
	err := tx.query(ctx, q, seedArgs, func(r *sql.Rows) error {
		var (
			id folio.ID
			n  int
		)
		err := r.Scan(&id, &n)
		out[id] = n
		return err
	})
	return out, err
}

// fillTeamSpaces sets the Spaces count of teams of an organization: the
// spaces that are not deleted on which the team holds a grant, directly or
// on a collection above them (docs/decisions.md). One grouped query,
// however many teams.
func fillTeamSpaces(ctx context.Context, t *Tx, orgID folio.ID, ts []*folio.TeamView) error {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]folio.ID, len(ts))
	for i, v := range ts {
		ids[i] = v.ID
	}
	in, inArgs := inList(t, ids)
	seed := `SELECT g.principal_id, g.target_id FROM content_grants g
		WHERE g.organization_id = ? AND g.principal_kind = 'team' AND g.principal_id IN ` + in
	n, err := grantedSpaceCounts(ctx, t, len(ids) > 1, seed, append([]any{orgID}, inArgs...))
	if err != nil {
		return wrap(err, "count team spaces")
	}
	for _, v := range ts {
		v.Spaces = n[v.ID]
	}
	return nil
}

// CreateTeam inserts a team.
func CreateTeam(ctx context.Context, t *Tx, team *folio.Team) error {
	_, err := t.exec(ctx, `INSERT INTO teams (id, organization_id, title, title_folded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		team.ID, team.OrganizationID, team.Title, strings.ToLower(team.Title), micros(team.CreatedAt), micros(team.CreatedAt))
	return wrap(err, "create team")
}

// GetTeam returns a team of an organization as seen with access a, or NotFound.
func GetTeam(ctx context.Context, t *Tx, a folio.Access, teamID folio.ID) (*folio.TeamView, error) {
	var (
		v    folio.TeamView
		owns bool
	)
	err := t.one(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.id = ? AND t.organization_id = ?`,
		[]any{a.UserID, teamID, a.OrganizationID}, func(r *sql.Rows) error { return scanTeam(r, &v, &owns) })
	if err != nil {
		return nil, notFound(err, "get team", "team not found")
	}
	teamView(&v, a, owns)
	if err := fillTeamSpaces(ctx, t, a.OrganizationID, []*folio.TeamView{&v}); err != nil {
		return nil, err
	}
	return &v, nil
}

// ListTeams lists an organization's teams, oldest first. With f.Owner only
// the teams that member can manage are listed: all of them for an admin,
// the teams they own otherwise.
func ListTeams(ctx context.Context, t *Tx, a folio.Access, f folio.TeamFilter, ownerIsAdmin bool, opts folio.ListOptions) (folio.List[folio.TeamView], error) {
	where := ` WHERE t.organization_id = ?`
	args := []any{a.OrganizationID}
	if f.Owner != "" && !ownerIsAdmin {
		where += ` AND EXISTS (SELECT 1 FROM team_members f WHERE f.team_id = t.id AND f.user_id = ? AND f.role = 'owner')`
		args = append(args, f.Owner)
	}
	if f.Title != "" {
		where += ` AND ` + titleMatch
		args = append(args, likePattern(strings.ToLower(f.Title)))
	}
	q := listQuery{
		Query: `SELECT ` + teamColumns + ` FROM teams t` + where,
		Args:  append([]any{a.UserID}, args...), Keys: []string{"t.created_at", "t.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM teams t` + where, CountArgs: args,
	}
	l, err := page(ctx, t, "list teams", q, opts, func(r *sql.Rows) (folio.TeamView, []any, error) {
		var (
			v    folio.TeamView
			owns bool
		)
		err := scanTeam(r, &v, &owns)
		teamView(&v, a, owns)
		return v, []any{micros(v.CreatedAt), v.ID}, err
	})
	if err != nil {
		return l, err
	}
	ts := make([]*folio.TeamView, len(l.Items))
	for i := range l.Items {
		ts[i] = &l.Items[i]
	}
	return l, fillTeamSpaces(ctx, t, a.OrganizationID, ts)
}

// ListMemberTeams lists the teams a member belongs to, with their role.
func ListMemberTeams(ctx context.Context, t *Tx, a folio.Access, userID folio.ID, title string, opts folio.ListOptions) (folio.List[folio.MemberTeam], error) {
	where := ` WHERE t.organization_id = ? AND m.user_id = ?`
	args := []any{a.OrganizationID, userID}
	if title != "" {
		where += ` AND ` + titleMatch
		args = append(args, likePattern(strings.ToLower(title)))
	}
	from := ` FROM team_members m JOIN teams t ON t.id = m.team_id`
	q := listQuery{
		Query: `SELECT ` + teamColumns + `, m.role` + from + where,
		Args:  append([]any{a.UserID}, args...), Keys: []string{"t.created_at", "t.id"}, Shape: "is",
		Count: `SELECT COUNT(*)` + from + where, CountArgs: args,
	}
	l, err := page(ctx, t, "list member teams", q, opts, func(r *sql.Rows) (folio.MemberTeam, []any, error) {
		var (
			tw      folio.MemberTeam
			owns    bool
			created int64
		)
		err := r.Scan(&tw.Team.ID, &tw.Team.OrganizationID, &tw.Team.Title, &created, &tw.Team.Members, &owns, &tw.Role)
		tw.Team.CreatedAt = fromMicros(created)
		teamView(&tw.Team, a, owns)
		return tw, []any{created, tw.Team.ID}, err
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

// RenameTeam changes a team's title.
func RenameTeam(ctx context.Context, t *Tx, teamID folio.ID, title string) error {
	_, err := t.exec(ctx, `UPDATE teams SET title = ?, title_folded = ?, updated_at = ? WHERE id = ?`,
		title, strings.ToLower(title), micros(t.Now), teamID)
	return wrap(err, "rename team")
}

// DeleteTeam deletes a team of an organization; an absent team is not an error.
func DeleteTeam(ctx context.Context, t *Tx, orgID, teamID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM teams WHERE id = ? AND organization_id = ?`, teamID, orgID)
	if err != nil {
		return wrap(err, "delete team")
	}
	return DeletePrincipalGrants(ctx, t, orgID, folio.PrincipalTeam, teamID)
}

// SetTeamMember adds a member to a team with a role, or changes their role.
func SetTeamMember(ctx context.Context, t *Tx, orgID, teamID, userID folio.ID, role folio.TeamRole) error {
	_, err := t.exec(ctx, `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`, teamID, orgID, userID, string(role), micros(t.Now))
	if folio.KindOf(err) == folio.Invalid {
		return &folio.Error{Kind: folio.Invalid, Message: "user " + userID + " is not a member of the organization", Err: err}
	}
	return wrap(err, "set team member")
}

// AddTeamMemberIfAbsent adds a member to a team unless they are in it.
func AddTeamMemberIfAbsent(ctx context.Context, t *Tx, orgID, teamID, userID folio.ID, role folio.TeamRole) error {
	_, err := t.exec(ctx, `INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (team_id, user_id) DO NOTHING`, teamID, orgID, userID, string(role), micros(t.Now))
	return wrap(err, "add team member")
}

// RemoveTeamMember removes a member from a team; absent is not an error.
func RemoveTeamMember(ctx context.Context, t *Tx, teamID, userID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM team_members WHERE team_id = ? AND user_id = ?`, teamID, userID)
	return wrap(err, "remove team member")
}

// ListTeamMembers lists a team's members, in the order they were added.
func ListTeamMembers(ctx context.Context, t *Tx, teamID folio.ID, opts folio.ListOptions) (folio.List[folio.TeamMemberView], error) {
	from := ` FROM team_members tmm JOIN members m ON m.organization_id = tmm.organization_id AND m.user_id = tmm.user_id
		JOIN users u ON u.id = m.user_id WHERE tmm.team_id = ?`
	q := listQuery{
		Query: `SELECT ` + memberColumns + `, tmm.role, tmm.added_at` + from,
		Args:  []any{teamID}, Keys: []string{"tmm.added_at", "tmm.user_id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM team_members tmm WHERE tmm.team_id = ?`, CountArgs: []any{teamID},
	}
	l, err := page(ctx, t, "list team members", q, opts, func(r *sql.Rows) (folio.TeamMemberView, []any, error) {
		var (
			v           folio.TeamMemberView
			role        sql.NullString
			joined      int64
			seen        sql.NullInt64
			userCreated int64
			added       int64
		)
		m := &v.Member
		err := r.Scan(&m.OrganizationID, &m.UserID, &role, &joined, &seen, &m.SSO, &m.Disabled,
			&m.User.ID, &m.User.Email, &m.User.DisplayName, &m.User.PhotoURL, &m.User.EmailVerified, &userCreated, &m.Teams,
			&v.Role, &added)
		m.Role = folio.Role(role.String)
		m.JoinedAt, m.LastSeenAt, m.User.CreatedAt = fromMicros(joined), nullMicros(seen), fromMicros(userCreated)
		return v, []any{added, m.UserID}, err
	})
	if err != nil || len(l.Items) == 0 {
		return l, err
	}
	ms := make([]*folio.MemberView, len(l.Items))
	for i := range l.Items {
		ms[i] = &l.Items[i].Member
	}
	return l, fillMemberSpaces(ctx, t, l.Items[0].Member.OrganizationID, ms)
}

// ResolveUsers maps user ids or emails to ids of members of an organization,
// in one query. It returns the ids by reference and the references that
// match no member.
func ResolveUsers(ctx context.Context, t *Tx, orgID folio.ID, refs []string) (map[string]folio.ID, []string, error) {
	found := make(map[string]folio.ID, len(refs))
	if len(refs) == 0 {
		return found, nil, nil
	}
	lower := make([]string, len(refs))
	for i, r := range refs {
		lower[i] = strings.ToLower(r)
	}
	ids, idArgs := inList(t, refs)
	emails, emailArgs := inList(t, lower)
	err := t.once().query(ctx, `SELECT u.id, u.email FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = ? AND (u.id IN `+ids+` OR u.email IN `+emails+`)`,
		append(append([]any{orgID}, idArgs...), emailArgs...), func(r *sql.Rows) error {
			var id, email string
			if err := r.Scan(&id, &email); err != nil {
				return err
			}
			found[id], found[email] = id, id
			return nil
		})
	if err != nil {
		return nil, nil, wrap(err, "resolve users")
	}
	out := make(map[string]folio.ID, len(refs))
	var missing []string
	for _, ref := range refs {
		if id, ok := found[ref]; ok {
			out[ref] = id
		} else if id, ok := found[strings.ToLower(ref)]; ok {
			out[ref] = id
		} else {
			missing = append(missing, ref)
		}
	}
	return out, missing, nil
}

// MemberTeamIDs returns the ids of the teams a member belongs to.
func MemberTeamIDs(ctx context.Context, t *Tx, orgID, userID folio.ID) ([]folio.ID, error) {
	var ids []folio.ID
	err := t.query(ctx, `SELECT team_id FROM team_members WHERE organization_id = ? AND user_id = ? ORDER BY team_id`,
		[]any{orgID, userID}, func(r *sql.Rows) error {
			var id folio.ID
			err := r.Scan(&id)
			ids = append(ids, id)
			return err
		})
	return ids, wrap(err, "list member teams")
}

// GetTeams returns the teams of an organization with the given ids, as seen
// with access a, by id, in one query. Unknown ids are left out.
func GetTeams(ctx context.Context, t *Tx, a folio.Access, ids []folio.ID) (map[folio.ID]*folio.TeamView, error) {
	out := make(map[folio.ID]*folio.TeamView, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	in, inArgs := inList(t, ids)
	args := append([]any{a.UserID, a.OrganizationID}, inArgs...)
	err := t.once().query(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.organization_id = ? AND t.id IN `+in,
		args, func(r *sql.Rows) error {
			var (
				v    folio.TeamView
				owns bool
			)
			if err := scanTeam(r, &v, &owns); err != nil {
				return err
			}
			teamView(&v, a, owns)
			out[v.ID] = &v
			return nil
		})
	if err != nil {
		return nil, wrap(err, "get teams")
	}
	ts := make([]*folio.TeamView, 0, len(out))
	for _, v := range out {
		ts = append(ts, v)
	}
	return out, fillTeamSpaces(ctx, t, a.OrganizationID, ts)
}
