package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/foliodocs/folio"
)

const oidcColumns = `id, organization_id, label, issuer, client_id, client_secret, scopes, default_role, created_at`

func scanOIDC(rows *sql.Rows, p *folio.OIDCProvider, secret *string) error {
	var (
		scopes  string
		role    sql.NullString
		created int64
	)
	err := rows.Scan(&p.ID, &p.OrganizationID, &p.Label, &p.Issuer, &p.ClientID, secret, &scopes, &role, &created)
	p.Scopes, p.DefaultRole, p.CreatedAt = strings.Fields(scopes), folio.Role(role.String), fromMicros(created)
	p.HasSecret = *secret != ""
	return err
}

// CreateOIDCProvider inserts a provider with its sealed client secret.
func CreateOIDCProvider(ctx context.Context, t *Tx, p *folio.OIDCProvider, sealedSecret string) error {
	_, err := t.exec(ctx, `INSERT INTO oidc_providers (`+oidcColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.OrganizationID, p.Label, p.Issuer, p.ClientID, sealedSecret, strings.Join(p.Scopes, " "),
		nullString(string(p.DefaultRole)), micros(p.CreatedAt))
	return wrap(err, "create oidc provider")
}

// UpdateOIDCProvider writes every field of p and the sealed client secret.
func UpdateOIDCProvider(ctx context.Context, t *Tx, p *folio.OIDCProvider, sealedSecret string) error {
	_, err := t.exec(ctx, `UPDATE oidc_providers SET label = ?, issuer = ?, client_id = ?, client_secret = ?, scopes = ?,
		default_role = ? WHERE id = ? AND organization_id = ?`,
		p.Label, p.Issuer, p.ClientID, sealedSecret, strings.Join(p.Scopes, " "), nullString(string(p.DefaultRole)),
		p.ID, p.OrganizationID)
	return wrap(err, "update oidc provider")
}

// GetOIDCProvider returns a provider of an organization and its sealed
// client secret ("" when none), or NotFound.
func GetOIDCProvider(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.OIDCProvider, string, error) {
	var (
		p      folio.OIDCProvider
		secret string
	)
	err := t.one(ctx, `SELECT `+oidcColumns+` FROM oidc_providers WHERE id = ? AND organization_id = ?`, []any{id, orgID},
		func(r *sql.Rows) error { return scanOIDC(r, &p, &secret) })
	if err != nil {
		return nil, "", notFound(err, "get oidc provider", "OIDC provider not found")
	}
	return &p, secret, nil
}

// ListOIDCProviders lists an organization's providers, oldest first (an
// organization has a handful: the list is not paged).
func ListOIDCProviders(ctx context.Context, t *Tx, orgID folio.ID) ([]folio.OIDCProvider, error) {
	var out []folio.OIDCProvider
	err := t.query(ctx, `SELECT `+oidcColumns+` FROM oidc_providers WHERE organization_id = ? ORDER BY created_at, id`,
		[]any{orgID}, func(r *sql.Rows) error {
			var (
				p      folio.OIDCProvider
				secret string
			)
			err := scanOIDC(r, &p, &secret)
			out = append(out, p)
			return err
		})
	return out, wrap(err, "list oidc providers")
}

// DeleteOIDCProvider deletes a provider; absent is not an error.
func DeleteOIDCProvider(ctx context.Context, t *Tx, orgID, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM oidc_providers WHERE id = ? AND organization_id = ?`, id, orgID)
	return wrap(err, "delete oidc provider")
}

// OIDCLogin is a sign-in started at an OIDC provider.
type OIDCLogin struct {
	ProviderID      folio.ID
	Nonce, Verifier string
}

// CreateOIDCLogin records a started sign-in under the hash of its state,
// and deletes sign-ins that expired.
func CreateOIDCLogin(ctx context.Context, t *Tx, stateHash string, l *OIDCLogin, expires int64) error {
	if _, err := t.exec(ctx, `DELETE FROM oidc_logins WHERE expires_at < ?`, micros(t.Now)); err != nil {
		return wrap(err, "expire oidc logins")
	}
	_, err := t.exec(ctx, `INSERT INTO oidc_logins (state_hash, provider_id, nonce, verifier, expires_at) VALUES (?, ?, ?, ?, ?)`,
		stateHash, l.ProviderID, l.Nonce, l.Verifier, expires)
	return wrap(err, "create oidc login")
}

// TakeOIDCLogin deletes and returns a started sign-in of a provider that has
// not expired, or NotFound when there is none (never started, used
// already, expired, or started at another provider): a sign-in finishes once.
func TakeOIDCLogin(ctx context.Context, t *Tx, stateHash string, providerID folio.ID) (*OIDCLogin, error) {
	l := OIDCLogin{ProviderID: providerID}
	err := t.get(ctx, `DELETE FROM oidc_logins WHERE state_hash = ? AND provider_id = ? AND expires_at >= ? RETURNING nonce, verifier`,
		[]any{stateHash, providerID, micros(t.Now)}, &l.Nonce, &l.Verifier)
	if err != nil {
		return nil, notFound(err, "take oidc login", "sign-in not found")
	}
	return &l, nil
}
