package app

import (
	"context"
	"log/slog"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/sso"
	"github.com/foliodocs/folio/internal/store"
)

// OIDCProviderView is a provider with the redirect URL to register at it.
type OIDCProviderView struct {
	folio.OIDCProvider
	RedirectURL string
}

const errOIDCAdmin = "only organization admins can manage OpenID Connect providers"

func oidcSealContext(id folio.ID) string { return "oidc-provider:" + id }

// OIDCRedirectURL is the callback of a provider, which an admin registers
// at the provider as the client's redirect URI.
func (a *App) OIDCRedirectURL(orgID, id folio.ID) string {
	return a.publicURL + "/signin/oidc/" + orgID + "/" + id + "/callback"
}

func (a *App) oidcView(p folio.OIDCProvider) OIDCProviderView {
	return OIDCProviderView{OIDCProvider: p, RedirectURL: a.OIDCRedirectURL(p.OrganizationID, p.ID)}
}

// ListOIDCProviders lists an organization's OpenID Connect providers,
// oldest first. Admins only (Forbidden).
func (a *App) ListOIDCProviders(ctx context.Context, caller folio.Caller, orgID folio.ID) (out []OIDCProviderView, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errOIDCAdmin); err != nil {
			return err
		}
		ps, err := store.ListOIDCProviders(ctx, tx, orgID)
		for _, p := range ps {
			out = append(out, a.oidcView(p))
		}
		return err
	})
	return out, err
}

// applyOIDCInput validates in and writes its fields into p; it returns the
// sealed secret to store (sealed unchanged when in keeps it).
func (a *App) applyOIDCInput(p *folio.OIDCProvider, sealed string, in *folio.OIDCProviderInput, create bool) (string, error) {
	if err := in.Validate(create); err != nil {
		return "", err
	}
	if in.Label.Set {
		p.Label = strings.TrimSpace(in.Label.Value)
	}
	if in.Issuer.Set {
		p.Issuer = strings.TrimRight(strings.TrimSpace(in.Issuer.Value), "/")
	}
	if in.ClientID.Set {
		p.ClientID = strings.TrimSpace(in.ClientID.Value)
	}
	if in.Scopes.Set {
		p.Scopes = nil
		for _, s := range strings.Fields(in.Scopes.Value) {
			if s != "openid" && !slices.Contains(p.Scopes, s) {
				p.Scopes = append(p.Scopes, s)
			}
		}
	}
	if in.DefaultRole.Set {
		p.DefaultRole = folio.Role(in.DefaultRole.Value) // null: guests
	}
	if in.ClientSecret.Present() && in.ClientSecret.Value != "" {
		if a.sealer == nil {
			return "", folio.Errorf(folio.Unavailable, "this server has no secret key to keep a client secret with: its operator must set one")
		}
		var err error
		if sealed, err = a.sealer.Seal([]byte(in.ClientSecret.Value), oidcSealContext(p.ID)); err != nil {
			return "", err
		}
	}
	p.HasSecret = sealed != ""
	return sealed, nil
}

// CreateOIDCProvider adds an OpenID Connect provider; its client secret is
// stored sealed with the server key. Admins only (Forbidden); Invalid
// input; Unavailable for a secret on a server without a key.
func (a *App) CreateOIDCProvider(ctx context.Context, caller folio.Caller, orgID folio.ID, in *folio.OIDCProviderInput) (v *OIDCProviderView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errOIDCAdmin); err != nil {
			return err
		}
		p := folio.OIDCProvider{ID: folio.NewID(), OrganizationID: orgID, DefaultRole: folio.RoleRead, CreatedAt: tx.Now}
		sealed, err := a.applyOIDCInput(&p, "", in, true)
		if err != nil {
			return err
		}
		if err := store.CreateOIDCProvider(ctx, tx, &p, sealed); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "oidc.created", "oidc-provider", p.ID,
			map[string]any{"label": p.Label, "issuer": p.Issuer}); err != nil {
			return err
		}
		pv := a.oidcView(p)
		v = &pv
		return nil
	})
	return v, err
}

// UpdateOIDCProvider changes the fields present in in; an empty client
// secret keeps the stored one. Admins only (Forbidden); NotFound; Invalid.
func (a *App) UpdateOIDCProvider(ctx context.Context, caller folio.Caller, orgID, id folio.ID, in *folio.OIDCProviderInput) (v *OIDCProviderView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errOIDCAdmin); err != nil {
			return err
		}
		p, sealed, err := store.GetOIDCProvider(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		if sealed, err = a.applyOIDCInput(p, sealed, in, false); err != nil {
			return err
		}
		if err := store.UpdateOIDCProvider(ctx, tx, p, sealed); err != nil {
			return err
		}
		fields := map[string]any{"label": p.Label, "issuer": p.Issuer}
		if in.ClientSecret.Present() && in.ClientSecret.Value != "" {
			fields["clientSecret"] = "replaced"
		}
		if err := audit(ctx, tx, caller, orgID, "oidc.updated", "oidc-provider", p.ID, fields); err != nil {
			return err
		}
		pv := a.oidcView(*p)
		v = &pv
		return nil
	})
	return v, err
}

// DeleteOIDCProvider removes a provider. Admins only; absent is not an error.
func (a *App) DeleteOIDCProvider(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errOIDCAdmin); err != nil {
			return err
		}
		if err := store.DeleteOIDCProvider(ctx, tx, orgID, id); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "oidc.deleted", "oidc-provider", id, nil)
	})
}

// ListOIDCLogins lists the OpenID Connect providers of an organization for
// the sign-in page. It needs no authentication and is only used for
// labels and ids.
func (a *App) ListOIDCLogins(ctx context.Context, orgID folio.ID) (out []folio.OIDCProvider, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		out, err = store.ListOIDCProviders(ctx, tx, orgID)
		return err
	})
	return out, err
}

// oidcClient loads a provider with its secret opened, ready to talk to.
func (a *App) oidcClient(ctx context.Context, orgID, id folio.ID) (*folio.OIDCProvider, *sso.OIDCClient, error) {
	var (
		p      *folio.OIDCProvider
		sealed string
	)
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		p, sealed, err = store.GetOIDCProvider(ctx, tx, orgID, id)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var secret []byte
	if sealed != "" {
		if secret, err = a.sealer.Open(sealed, oidcSealContext(p.ID)); err != nil {
			if err == seal.ErrNoKey {
				return nil, nil, folio.Errorf(folio.Unavailable, "this server has no secret key to open the provider's client secret with")
			}
			return nil, nil, err
		}
	}
	return p, &sso.OIDCClient{Issuer: p.Issuer, ClientID: p.ClientID, ClientSecret: string(secret),
		RedirectURL: a.OIDCRedirectURL(orgID, id), Scopes: p.Scopes, HTTP: a.http, Now: a.clock.Now}, nil
}

// OIDCStart begins a sign-in through an organization's OpenID Connect
// provider: it records a new state with its nonce and PKCE verifier and
// returns the provider's authorization URL and the state, which the
// browser must bring back (the web layer keeps it in a cookie, so a
// sign-in finishes only in the browser that began it). NotFound for an
// unknown provider, Invalid when its discovery fails.
func (a *App) OIDCStart(ctx context.Context, orgID, id folio.ID) (authURL, state string, err error) {
	p, c, err := a.oidcClient(ctx, orgID, id)
	if err != nil {
		return "", "", err
	}
	state, nonce, verifier := randomState(), randomState(), sso.NewOIDCVerifier()
	if authURL, err = c.AuthURL(ctx, state, nonce, verifier); err != nil {
		a.logOIDC(ctx, p, err)
		return "", "", err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		return store.CreateOIDCLogin(ctx, tx, hashSecret(state), &store.OIDCLogin{ProviderID: p.ID, Nonce: nonce, Verifier: verifier},
			tx.Now.Add(samlLoginTTL).UnixMicro())
	})
	return authURL, state, err
}

// logOIDC records why a provider failed a sign-in (the user sees a
// message without the provider's answer), for the operator.
func (a *App) logOIDC(ctx context.Context, p *folio.OIDCProvider, err error) {
	a.logger.LogAttrs(ctx, slog.LevelWarn, "oidc sign-in failed", slog.String("organization", p.OrganizationID),
		slog.String("provider", p.ID), slog.String("issuer", p.Issuer), slog.String("error", err.Error()))
}

var errOIDCStale = folio.Errorf(folio.Invalid, "this sign-in was not started here or has expired: start again")

// OIDCSignIn finishes a sign-in with the state and code the provider sent
// back: the state must be one OIDCStart recorded for this provider and not
// used yet; the code is redeemed with its PKCE verifier and the ID token
// must carry its nonce; the email must be verified by the provider
// (email_verified). Who signs in is then decided as for SAML (joinBySSO),
// and a web session confined to the organization starts, for SSOTokenTTL;
// its secret is in the result's Session. Invalid for every refusal.
func (a *App) OIDCSignIn(ctx context.Context, orgID, id folio.ID, state, code string) (*SSOLogin, error) {
	if state == "" || len(state) > 128 || code == "" || len(code) > 4096 {
		return nil, errOIDCStale
	}
	p, c, err := a.oidcClient(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	// The state is used up first, whatever follows: a code is tried once.
	var login *store.OIDCLogin
	err = a.db.Write(ctx, func(tx *store.Tx) (err error) {
		login, err = store.TakeOIDCLogin(ctx, tx, hashSecret(state), p.ID)
		return err
	})
	if folio.IsNotFound(err) {
		return nil, errOIDCStale
	}
	if err != nil {
		return nil, err
	}
	ident, err := c.Exchange(ctx, code, login.Verifier, login.Nonce)
	if err != nil {
		a.logOIDC(ctx, p, err)
		return nil, err
	}
	if !ident.EmailVerified {
		return nil, folio.Errorf(folio.Invalid, "the identity provider did not say the email address is verified (email_verified): it cannot sign in here")
	}
	nu := folio.NewUser{Email: ident.Email, DisplayName: ident.DisplayName}
	if err := nu.Normalize(); err != nil {
		return nil, folio.Errorf(folio.Invalid, "the identity provider did not send a usable email address")
	}
	out := &SSOLogin{Organization: orgID}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		org, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		// As for SAML, the account's email counts as verified for Folio
		// only in the organization's own email domains.
		nu.EmailVerified = slices.Contains(org.EmailDomains, folio.EmailDomain(nu.Email))
		if out.User, err = joinBySSO(ctx, tx, orgID, nu, p.DefaultRole, ""); err != nil {
			return err
		}
		out.ExpiresAt = tx.Now.Add(SSOTokenTTL)
		out.Session, err = createSession(ctx, tx, out.User.ID, orgID, SSOTokenTTL)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
