package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

const samlColumns = `id, organization_id, label, entity_id, sso_url, certificate, default_team, default_role, sp_key, sp_cert, created_at`

func scanSAML(rows *sql.Rows, p *folio.SAMLProvider) error {
	var (
		team, role sql.NullString
		created    int64
	)
	err := rows.Scan(&p.ID, &p.OrganizationID, &p.Label, &p.EntityID, &p.SSOURL, &p.Certificate, &team, &role,
		&p.SPKey, &p.SPCert, &created)
	p.DefaultTeam, p.DefaultRole, p.CreatedAt = team.String, folio.Role(role.String), fromMicros(created)
	return err
}

// CreateSAMLProvider inserts a provider.
func CreateSAMLProvider(ctx context.Context, t *Tx, p *folio.SAMLProvider) error {
	_, err := t.exec(ctx, `INSERT INTO saml_providers (`+samlColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.OrganizationID, p.Label, p.EntityID, p.SSOURL, p.Certificate, nullString(p.DefaultTeam),
		nullString(string(p.DefaultRole)), p.SPKey, p.SPCert, micros(p.CreatedAt))
	return wrap(err, "create saml provider")
}

// UpdateSAMLProvider writes every field of p.
func UpdateSAMLProvider(ctx context.Context, t *Tx, p *folio.SAMLProvider) error {
	_, err := t.exec(ctx, `UPDATE saml_providers SET label = ?, entity_id = ?, sso_url = ?, certificate = ?,
		default_team = ?, default_role = ? WHERE id = ? AND organization_id = ?`,
		p.Label, p.EntityID, p.SSOURL, p.Certificate, nullString(p.DefaultTeam), nullString(string(p.DefaultRole)),
		p.ID, p.OrganizationID)
	return wrap(err, "update saml provider")
}

// GetSAMLProvider returns a provider of an organization, or NotFound.
func GetSAMLProvider(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.SAMLProvider, error) {
	var p folio.SAMLProvider
	err := t.one(ctx, `SELECT `+samlColumns+` FROM saml_providers WHERE id = ? AND organization_id = ?`, []any{id, orgID},
		func(r *sql.Rows) error { return scanSAML(r, &p) })
	if err != nil {
		return nil, notFound(err, "get saml provider", "SAML provider not found")
	}
	return &p, nil
}

// ListSAMLProviders lists an organization's providers, oldest first.
func ListSAMLProviders(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.SAMLProvider], error) {
	q := listQuery{
		Query: `SELECT ` + samlColumns + ` FROM saml_providers WHERE organization_id = ?`,
		Args:  []any{orgID}, Keys: []string{"created_at", "id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM saml_providers WHERE organization_id = ?`, CountArgs: []any{orgID},
	}
	return page(ctx, t, "list saml providers", q, opts, func(r *sql.Rows) (folio.SAMLProvider, []any, error) {
		var p folio.SAMLProvider
		err := scanSAML(r, &p)
		return p, []any{micros(p.CreatedAt), p.ID}, err
	})
}

// DeleteSAMLProvider deletes a provider; absent is not an error.
func DeleteSAMLProvider(ctx context.Context, t *Tx, orgID, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM saml_providers WHERE id = ? AND organization_id = ?`, id, orgID)
	return wrap(err, "delete saml provider")
}

// GetAgentInstructions returns an organization's agent instructions, or NotFound.
func GetAgentInstructions(ctx context.Context, t *Tx, orgID folio.ID) (*folio.AgentInstructions, error) {
	ai := folio.AgentInstructions{OrganizationID: orgID}
	var (
		doc     string
		updated int64
	)
	err := t.get(ctx, `SELECT document, updated_at, updated_by FROM agent_instructions WHERE organization_id = ?`,
		[]any{orgID}, &doc, &updated, &ai.UpdatedBy)
	if err != nil {
		return nil, notFound(err, "get agent instructions", "agent instructions not found")
	}
	ai.Document, ai.UpdatedAt = []byte(doc), fromMicros(updated)
	return &ai, nil
}

// PutAgentInstructions creates or replaces an organization's agent instructions.
func PutAgentInstructions(ctx context.Context, t *Tx, ai *folio.AgentInstructions) error {
	_, err := t.exec(ctx, `INSERT INTO agent_instructions (organization_id, document, updated_at, updated_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (organization_id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at,
		updated_by = excluded.updated_by`, ai.OrganizationID, string(ai.Document), micros(ai.UpdatedAt), ai.UpdatedBy)
	return wrap(err, "put agent instructions")
}

// Secret returns the server-wide secret with a name, storing make() as its
// value first when there is none. Several servers asking at once agree on
// one value.
func Secret(ctx context.Context, t *Tx, name string, make func() string) (string, error) {
	if _, err := t.exec(ctx, `INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		name, make(), micros(t.Now)); err != nil {
		return "", wrap(err, "create secret")
	}
	var v string
	err := t.get(ctx, `SELECT value FROM secrets WHERE name = ?`, []any{name}, &v)
	return v, wrap(err, "get secret")
}

// CreateSAMLLogin records a started login, and deletes logins that expired.
func CreateSAMLLogin(ctx context.Context, t *Tx, state, providerID, requestID string, expires int64) error {
	if _, err := t.exec(ctx, `DELETE FROM saml_logins WHERE expires_at < ?`, micros(t.Now)); err != nil {
		return wrap(err, "expire saml logins")
	}
	_, err := t.exec(ctx, `INSERT INTO saml_logins (state, provider_id, request_id, expires_at) VALUES (?, ?, ?, ?)`,
		state, providerID, requestID, expires)
	return wrap(err, "create saml login")
}

// PendingSAMLLogin returns the request id of a started login of a provider
// that has not expired, or NotFound.
func PendingSAMLLogin(ctx context.Context, t *Tx, state, providerID string) (string, error) {
	var reqID string
	err := t.get(ctx, `SELECT request_id FROM saml_logins WHERE state = ? AND provider_id = ? AND expires_at >= ?`,
		[]any{state, providerID, micros(t.Now)}, &reqID)
	if err != nil {
		return "", notFound(err, "get saml login", "sign-in not found")
	}
	return reqID, nil
}

// TakeSAMLLogin deletes a started login, or returns NotFound when it is gone
// (used already, or expired): a login finishes once.
func TakeSAMLLogin(ctx context.Context, t *Tx, state, providerID string) error {
	n, err := t.exec(ctx, `DELETE FROM saml_logins WHERE state = ? AND provider_id = ? AND expires_at >= ?`,
		state, providerID, micros(t.Now))
	if err != nil {
		return wrap(err, "take saml login")
	}
	if n == 0 {
		return folio.Errorf(folio.NotFound, "sign-in not found")
	}
	return nil
}
