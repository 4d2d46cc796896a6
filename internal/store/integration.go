package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
)

const integrationColumns = `i.name, i.organization_id, i.version, i.runtime, i.title, i.description, i.summary, i.visibility,
	i.target, i.scopes, i.categories, i.blocks, i.content_sources, i.configurations, i.external_links, i.csp, i.script,
	i.icon, i.preview_images, i.dev_tunnel_url, i.dev_all, i.created_at, i.updated_at`

func scanIntegration(rows *sql.Rows, in *folio.Integration) error {
	var (
		scopes, categories, blocks, sources, configs, links, previews string
		csp                                                           sql.NullString
		created, updated                                              int64
	)
	if err := rows.Scan(&in.Name, &in.OrganizationID, &in.Version, &in.Runtime, &in.Title, &in.Description, &in.Summary,
		&in.Visibility, &in.Target, &scopes, &categories, &blocks, &sources, &configs, &links, &csp, &in.Script,
		&in.Icon, &previews, &in.DevTunnelURL, &in.DevAll, &created, &updated); err != nil {
		return err
	}
	for _, f := range []struct {
		text string
		dst  any
	}{{scopes, &in.Scopes}, {categories, &in.Categories}, {links, &in.ExternalLinks}, {previews, &in.PreviewImages}} {
		if err := json.Unmarshal([]byte(f.text), f.dst); err != nil {
			return fmt.Errorf("decode integration %s: %w", in.Name, err)
		}
	}
	in.Blocks, in.ContentSources, in.Configurations = json.RawMessage(blocks), json.RawMessage(sources), json.RawMessage(configs)
	if csp.Valid {
		in.CSP = json.RawMessage(csp.String)
	}
	in.CreatedAt, in.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// SaveIntegration creates an integration or replaces its manifest (the
// caller sets Version); sealedSecrets replaces the stored secrets.
func SaveIntegration(ctx context.Context, t *Tx, in *folio.Integration, sealedSecrets string) error {
	in.UpdatedAt = t.Now
	if in.CreatedAt.IsZero() {
		in.CreatedAt = t.Now
	}
	var csp any
	if in.CSP != nil {
		csp = string(in.CSP)
	}
	args := []any{in.OrganizationID, in.Version, in.Runtime, in.Title, in.Description, in.Summary, in.Visibility, in.Target,
		mustJSON(in.Scopes), mustJSON(in.Categories), string(in.Blocks), string(in.ContentSources), string(in.Configurations),
		mustJSON(in.ExternalLinks), csp, in.Script, in.Icon, mustJSON(in.PreviewImages), sealedSecrets, micros(t.Now)}
	n, err := t.exec(ctx, `UPDATE integrations SET organization_id = ?, version = ?, runtime = ?, title = ?, description = ?,
		summary = ?, visibility = ?, target = ?, scopes = ?, categories = ?, blocks = ?, content_sources = ?, configurations = ?,
		external_links = ?, csp = ?, script = ?, icon = ?, preview_images = ?, secrets = ?, updated_at = ? WHERE name = ?`,
		append(args, in.Name)...)
	if err != nil || n > 0 {
		return wrap(err, "update integration")
	}
	_, err = t.exec(ctx, `INSERT INTO integrations (organization_id, version, runtime, title, description, summary, visibility,
		target, scopes, categories, blocks, content_sources, configurations, external_links, csp, script, icon, preview_images,
		secrets, updated_at, name, created_at) VALUES (`+placeholders(22)+`)`, append(args, in.Name, micros(in.CreatedAt))...)
	return wrap(err, "create integration")
}

// GetIntegration returns an integration by name, or NotFound.
func GetIntegration(ctx context.Context, t *Tx, name string) (*folio.Integration, error) {
	in := new(folio.Integration)
	err := t.one(ctx, `SELECT `+integrationColumns+` FROM integrations i WHERE i.name = ?`, []any{name},
		func(rows *sql.Rows) error { return scanIntegration(rows, in) })
	if err != nil {
		return nil, notFound(err, "get integration", "No integration matches the name")
	}
	return in, nil
}

// IntegrationSecrets returns an integration's sealed secrets ("" when none).
func IntegrationSecrets(ctx context.Context, t *Tx, name string) (sealed string, err error) {
	if err = t.get(ctx, `SELECT secrets FROM integrations WHERE name = ?`, []any{name}, &sealed); err != nil {
		return "", notFound(err, "get integration secrets", "No integration matches the name")
	}
	return sealed, nil
}

// DeleteIntegration removes an integration, its installations and events.
func DeleteIntegration(ctx context.Context, t *Tx, name string) error {
	_, err := t.exec(ctx, `DELETE FROM integrations WHERE name = ?`, name)
	return wrap(err, "delete integration")
}

// SetIntegrationDev sets (or, with an empty URL, clears) an integration's
// development tunnel.
func SetIntegrationDev(ctx context.Context, t *Tx, name, tunnelURL string, all bool) error {
	_, err := t.exec(ctx, `UPDATE integrations SET dev_tunnel_url = ?, dev_all = ?, updated_at = ? WHERE name = ?`,
		tunnelURL, all, micros(t.Now), name)
	return wrap(err, "set integration dev mode")
}

// ListIntegrations lists the integrations a user may list, by name: the
// public ones, and every one owned by an organization they belong to.
// inOrg, when set, keeps only those installed in that organization.
func ListIntegrations(ctx context.Context, t *Tx, userID, inOrg folio.ID, f folio.IntegrationFilter, opts folio.ListOptions) (folio.List[folio.Integration], error) {
	var (
		conds = []string{`(i.visibility = 'public' OR i.organization_id IN (SELECT organization_id FROM members WHERE user_id = ? AND NOT disabled))`}
		args  = []any{userID}
	)
	add := func(cond string, a ...any) { conds, args = append(conds, cond), append(args, a...) }
	switch {
	case inOrg != "" && f.InstalledOn != "":
		sel := "space_selection"
		if f.InstalledKind == folio.InstallOnSite {
			sel = "site_selection"
		}
		add(`i.name IN (SELECT ii.integration_name FROM integration_installations ii WHERE ii.organization_id = ?
			AND (ii.`+sel+` = 'all' OR EXISTS (SELECT 1 FROM integration_target_installations ti
				WHERE ti.installation_id = ii.id AND ti.kind = ? AND ti.target_id = ?)))`, inOrg, f.InstalledKind, f.InstalledOn)
	case inOrg != "":
		add(`i.name IN (SELECT integration_name FROM integration_installations WHERE organization_id = ?)`, inOrg)
	}
	if f.Search != "" {
		like := "%" + escapeLike(f.Search) + "%"
		add(`(LOWER(i.title) LIKE ? ESCAPE '\' OR LOWER(i.name) LIKE ? ESCAPE '\')`, like, like)
	}
	if f.Category != "" {
		add(`i.categories LIKE ?`, `%"`+f.Category+`"%`)
	}
	if f.Scope != "" {
		add(`i.scopes LIKE ?`, `%"`+f.Scope+`"%`)
	}
	if f.Target != "" {
		add(`i.target = ?`, f.Target)
	}
	if f.Owner != "" {
		add(`i.organization_id = ?`, f.Owner)
	}
	if f.BlockDomain != "" {
		add(`LOWER(i.blocks) LIKE ? ESCAPE '\'`, "%"+escapeLike(f.BlockDomain)+"%")
	}
	if f.Blocks != nil {
		add(map[bool]string{true: `i.blocks <> '[]'`, false: `i.blocks = '[]'`}[*f.Blocks])
	}
	if f.ContentSources != nil {
		add(map[bool]string{true: `i.content_sources <> '[]'`, false: `i.content_sources = '[]'`}[*f.ContentSources])
	}
	where := ` WHERE ` + strings.Join(conds, " AND ")
	q := listQuery{
		Query: `SELECT ` + integrationColumns + ` FROM integrations i` + where, Args: args,
		Keys: []string{"i.name"}, Shape: "s",
		Count: `SELECT COUNT(*) FROM integrations i` + where, CountArgs: args,
	}
	return page(ctx, t, "list integrations", q, opts, func(r *sql.Rows) (folio.Integration, []any, error) {
		var in folio.Integration
		err := scanIntegration(r, &in)
		return in, []any{in.Name}, err
	})
}

// GetOrganizationByHostname returns the organization with a hostname
// (its subdomain), or NotFound.
func GetOrganizationByHostname(ctx context.Context, t *Tx, hostname string) (*folio.Organization, error) {
	var v folio.OrganizationView
	err := t.one(ctx, `SELECT `+orgColumns+`, NULL, FALSE, FALSE FROM organizations o WHERE o.hostname = ?`, []any{hostname},
		func(r *sql.Rows) error { return scanOrgView(r, &v) })
	if err != nil {
		return nil, notFound(err, "get organization by hostname", "organization not found")
	}
	return &v.Organization, nil
}

// GetIntegrations returns integrations by name, in one query; names with
// no integration are left out.
func GetIntegrations(ctx context.Context, t *Tx, names []string) (map[string]*folio.Integration, error) {
	out := make(map[string]*folio.Integration, len(names))
	if len(names) == 0 {
		return out, nil
	}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = n
	}
	err := t.query(ctx, `SELECT `+integrationColumns+` FROM integrations i WHERE i.name IN (`+placeholders(len(names))+`)`, args,
		func(rows *sql.Rows) error {
			in := new(folio.Integration)
			if err := scanIntegration(rows, in); err != nil {
				return err
			}
			out[in.Name] = in
			return nil
		})
	return out, wrap(err, "get integrations")
}
