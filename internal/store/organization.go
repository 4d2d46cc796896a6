package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
)

const orgColumns = `o.id, o.title, o.created_at, o.updated_at, o.email_domains, o.hostname, o.type, o.use_case,
	o.community_type, o.default_role, o.default_content, o.logo, o.sso, o.ai, o.invite_links, o.merge_rules`

// callerColumns follow orgColumns in a view: the caller's role, whether they
// are an SSO member and whether they own a team. The FROM clause must name
// organizations o and the caller's members m.
const callerColumns = `m.role, m.sso, EXISTS (SELECT 1 FROM team_members tm
	WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id AND tm.role = 'owner')`

// scanOrgView scans orgColumns followed by callerColumns.
func scanOrgView(rows *sql.Rows, v *folio.OrganizationView) error {
	var (
		o                = &v.Organization
		created, updated int64
		domains, rules   string
		hostname         sql.NullString
		defRole          sql.NullString
		defContent       sql.NullString
		callerRole       sql.NullString
	)
	err := rows.Scan(&o.ID, &o.Title, &created, &updated, &domains, &hostname, &o.Type, &o.UseCase,
		&o.CommunityType, &defRole, &defContent, &o.Logo, &o.SSO, &o.AI, &o.InviteLinks, &rules,
		&callerRole, &v.CallerSSO, &v.CallerOwnsTeam)
	if err != nil {
		return err
	}
	o.CreatedAt, o.UpdatedAt = fromMicros(created), fromMicros(updated)
	o.Hostname = hostname.String
	o.DefaultRole = folio.Role(defRole.String)
	v.CallerRole = folio.Role(callerRole.String)
	o.DefaultContent = nil
	if defContent.Valid {
		o.DefaultContent = new(folio.SitePointer)
		if err := json.Unmarshal([]byte(defContent.String), o.DefaultContent); err != nil {
			return fmt.Errorf("decode default content of %s: %w", o.ID, err)
		}
	}
	// Most organizations keep the defaults; skipping the JSON decoder for
	// them makes long lists markedly cheaper.
	if domains == "[]" {
		o.EmailDomains = []string{}
	} else if err := json.Unmarshal([]byte(domains), &o.EmailDomains); err != nil {
		return fmt.Errorf("decode email domains of %s: %w", o.ID, err)
	}
	if rules == noMergeRules {
		o.MergeRules = folio.MergeRules{Type: "none"}
	} else if err := json.Unmarshal([]byte(rules), &o.MergeRules); err != nil {
		return fmt.Errorf("decode merge rules of %s: %w", o.ID, err)
	}
	return nil
}

// noMergeRules is how the default merge rules are stored.
var noMergeRules = mustJSON(folio.MergeRules{Type: "none"})

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with plain data types
	}
	return string(b)
}

// CreateOrganization inserts an organization. It returns Conflict when the
// hostname is taken.
func CreateOrganization(ctx context.Context, t *Tx, o *folio.Organization) error {
	var defContent sql.NullString
	if o.DefaultContent != nil {
		defContent = nullString(mustJSON(o.DefaultContent))
	}
	if o.EmailDomains == nil {
		o.EmailDomains = []string{}
	}
	_, err := t.exec(ctx, `INSERT INTO organizations (id, title, created_at, updated_at, email_domains, hostname, type,
		use_case, community_type, default_role, default_content, logo, sso, ai, invite_links, merge_rules)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.Title, micros(o.CreatedAt), micros(o.UpdatedAt), mustJSON(o.EmailDomains), nullString(o.Hostname), o.Type,
		o.UseCase, o.CommunityType, nullString(string(o.DefaultRole)), defContent, o.Logo, o.SSO, o.AI, o.InviteLinks,
		mustJSON(o.MergeRules))
	if folio.KindOf(err) == folio.Conflict {
		return hostnameTaken(err)
	}
	return wrap(err, "create organization")
}

func hostnameTaken(err error) error {
	return &folio.Error{Kind: folio.Conflict, Field: "hostname", Message: "hostname is already used by another organization", Err: err}
}

// GetOrganizationView returns an organization as seen by one of its members.
// It returns NotFound when the organization does not exist or the user is
// not a member: both look the same to the caller.
func GetOrganizationView(ctx context.Context, t *Tx, orgID, userID folio.ID) (*folio.OrganizationView, error) {
	var v folio.OrganizationView
	err := t.one(ctx, `SELECT `+orgColumns+`, `+callerColumns+` FROM organizations o
		JOIN members m ON m.organization_id = o.id AND m.user_id = ?
		WHERE o.id = ?`, []any{userID, orgID}, func(r *sql.Rows) error { return scanOrgView(r, &v) })
	if err != nil {
		return nil, notFound(err, "get organization", "organization not found")
	}
	return &v, nil
}

// ListOrganizationsForUser lists the organizations a user is a member of,
// oldest first, in one query (plus a count when there are several pages).
func ListOrganizationsForUser(ctx context.Context, t *Tx, userID folio.ID, opts folio.ListOptions) (folio.List[folio.OrganizationView], error) {
	q := listQuery{
		Query: `SELECT ` + orgColumns + `, ` + callerColumns + ` FROM members m
			JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = ? AND NOT m.disabled`,
		Args:      []any{userID},
		Keys:      []string{"o.created_at", "o.id"},
		Shape:     "is",
		Count:     `SELECT COUNT(*) FROM members WHERE user_id = ? AND NOT disabled`,
		CountArgs: []any{userID},
	}
	return page(ctx, t, "list organizations", q, opts, func(r *sql.Rows) (folio.OrganizationView, []any, error) {
		var v folio.OrganizationView
		err := scanOrgView(r, &v)
		return v, []any{micros(v.CreatedAt), v.ID}, err
	})
}

// UpdateOrganization writes the fields present in u (already validated).
// Only those columns are written, so concurrent updates of different
// fields never undo each other. It returns NotFound or Conflict (hostname).
func UpdateOrganization(ctx context.Context, t *Tx, id folio.ID, u *folio.OrganizationUpdate) error {
	var (
		sets []string
		args []any
	)
	set := func(col string, v any) {
		sets = append(sets, col+" = ?")
		args = append(args, v)
	}
	if u.Title.Set {
		set("title", u.Title.Value)
	}
	if u.EmailDomains.Set {
		set("email_domains", mustJSON(u.EmailDomains.Value))
	}
	if u.Hostname.Set {
		set("hostname", nullString(u.Hostname.Value))
	}
	if u.DefaultRole.Set {
		set("default_role", nullString(u.DefaultRole.Value))
	}
	if u.DefaultContent.Set {
		var v sql.NullString
		if u.DefaultContent.Present() {
			v = nullString(mustJSON(u.DefaultContent.Value))
		}
		set("default_content", v)
	}
	if u.Logo.Set {
		set("logo", u.Logo.Value)
	}
	if u.SSO.Set {
		set("sso", u.SSO.Value)
	}
	if u.AI.Set {
		set("ai", u.AI.Value)
	}
	if u.InviteLinks.Set {
		set("invite_links", u.InviteLinks.Value)
	}
	if u.MergeRules.Set {
		set("merge_rules", mustJSON(u.MergeRules.Value))
	}
	set("updated_at", micros(t.Now))
	args = append(args, id)
	n, err := t.exec(ctx, `UPDATE organizations SET `+strings.Join(sets, ", ")+` WHERE id = ?`, args...)
	if folio.KindOf(err) == folio.Conflict {
		return hostnameTaken(err)
	}
	if err != nil {
		return wrap(err, "update organization")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "organization not found")
	}
	return nil
}

// GetOrganization returns an organization regardless of membership, for
// operations that are not made on behalf of a member (the command line).
func GetOrganization(ctx context.Context, t *Tx, id folio.ID) (*folio.Organization, error) {
	var v folio.OrganizationView
	err := t.one(ctx, `SELECT `+orgColumns+`, NULL, FALSE, FALSE FROM organizations o WHERE o.id = ?`, []any{id},
		func(r *sql.Rows) error { return scanOrgView(r, &v) })
	if err != nil {
		return nil, notFound(err, "get organization", "organization not found")
	}
	return &v.Organization, nil
}
