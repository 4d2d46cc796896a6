package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/sso"
	"github.com/foliodocs/folio/internal/store"
)

// SAMLProviderView is a provider with its default team, for the wire.
type SAMLProviderView struct {
	folio.SAMLProvider
	Team *folio.TeamView // nil when there is no default team
}

// SAMLEndpoints are the service-provider URLs Folio serves for a provider.
type SAMLEndpoints struct {
	EntityID, ACSURL, StartURL string
}

// SAMLEndpoints returns the URLs of a provider's service-provider side.
func (a *App) SAMLEndpoints(p *folio.SAMLProvider) SAMLEndpoints {
	base := a.publicURL + "/v1/orgs/" + p.OrganizationID + "/saml/" + p.ID
	return SAMLEndpoints{EntityID: base + "/metadata", ACSURL: base + "/acs", StartURL: base + "/start"}
}

func (a *App) spProvider(p *folio.SAMLProvider) *sso.Provider {
	e := a.SAMLEndpoints(p)
	return &sso.Provider{IDPEntityID: p.EntityID, IDPSSOURL: p.SSOURL, IDPCertificate: p.Certificate,
		SPEntityID: e.EntityID, ACSURL: e.ACSURL, SPKeyPEM: p.SPKey, SPCertPEM: p.SPCert}
}

const errSAMLAdmin = "only organization admins can manage SAML providers"

// samlViews attaches default teams to providers in one query.
func samlViews(ctx context.Context, tx *store.Tx, acc folio.Access, ps []folio.SAMLProvider) ([]SAMLProviderView, error) {
	var ids []folio.ID
	for _, p := range ps {
		if p.DefaultTeam != "" {
			ids = append(ids, p.DefaultTeam)
		}
	}
	teams, err := store.GetTeams(ctx, tx, acc, ids)
	if err != nil {
		return nil, err
	}
	out := make([]SAMLProviderView, len(ps))
	for i, p := range ps {
		out[i] = SAMLProviderView{SAMLProvider: p, Team: teams[p.DefaultTeam]}
	}
	return out, nil
}

// ListSAMLProviders lists an organization's SAML providers. Admins only.
func (a *App) ListSAMLProviders(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[SAMLProviderView], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errSAMLAdmin); err != nil {
			return err
		}
		ps, err := store.ListSAMLProviders(ctx, tx, orgID, opts)
		if err != nil {
			return err
		}
		items, err := samlViews(ctx, tx, acc, ps.Items)
		l = folio.List[SAMLProviderView]{Items: items, Count: ps.Count, Next: ps.Next}
		return err
	})
	return l, err
}

// GetSAMLProvider returns a provider. Admins only.
func (a *App) GetSAMLProvider(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (v *SAMLProviderView, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errSAMLAdmin); err != nil {
			return err
		}
		v, err = samlView(ctx, tx, acc, orgID, id)
		return err
	})
	return v, err
}

func samlView(ctx context.Context, tx *store.Tx, acc folio.Access, orgID, id folio.ID) (*SAMLProviderView, error) {
	p, err := store.GetSAMLProvider(ctx, tx, orgID, id)
	if err != nil {
		return nil, err
	}
	vs, err := samlViews(ctx, tx, acc, []folio.SAMLProvider{*p})
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// applySAMLInput validates in and writes its fields into p.
func applySAMLInput(ctx context.Context, tx *store.Tx, acc folio.Access, p *folio.SAMLProvider, in *folio.SAMLProviderInput, create bool) error {
	if err := in.Validate(create); err != nil {
		return err
	}
	if in.Certificate.Present() && in.Certificate.Value != "" {
		if _, err := sso.ParseCertificate(in.Certificate.Value); err != nil {
			return err
		}
	}
	if in.DefaultTeam.Present() {
		teams, err := store.GetTeams(ctx, tx, acc, []folio.ID{in.DefaultTeam.Value})
		if err != nil {
			return err
		}
		if teams[in.DefaultTeam.Value] == nil {
			return folio.FieldErrorf("defaultTeam", "defaultTeam %s is not a team of the organization", in.DefaultTeam.Value)
		}
	}
	if in.Label.Set {
		p.Label = in.Label.Value
	}
	if in.EntityID.Set {
		p.EntityID = in.EntityID.Value
	}
	if in.Certificate.Set {
		p.Certificate = strings.TrimSpace(in.Certificate.Value)
	}
	if in.SSOURL.Set {
		p.SSOURL = in.SSOURL.Value
	}
	if in.DefaultTeam.Set {
		p.DefaultTeam = in.DefaultTeam.Value
	}
	if in.DefaultRole.Set {
		p.DefaultRole = folio.Role(in.DefaultRole.Value) // null: guests
	}
	return nil
}

// CreateSAMLProvider adds a SAML provider with a new service-provider key
// pair. Admins only. A provider lacking entityID, ssoURL or certificate is
// pending until they are set.
func (a *App) CreateSAMLProvider(ctx context.Context, caller folio.Caller, orgID folio.ID, in *folio.SAMLProviderInput) (v *SAMLProviderView, err error) {
	// The key pair takes a moment to make: only for admins, and outside the
	// transaction (which checks again).
	err = a.read(ctx, caller, orgID, func(_ *store.Tx, acc folio.Access) error {
		return require(acc.Permissions().Admin, errSAMLAdmin)
	})
	if err != nil {
		return nil, err
	}
	key, cert, err := sso.NewKeyPair("folio " + orgID)
	if err != nil {
		return nil, err
	}
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errSAMLAdmin); err != nil {
			return err
		}
		p := folio.SAMLProvider{ID: folio.NewID(), OrganizationID: orgID, DefaultRole: folio.RoleRead,
			SPKey: key, SPCert: cert, CreatedAt: tx.Now}
		if err := applySAMLInput(ctx, tx, acc, &p, in, true); err != nil {
			return err
		}
		if err := store.CreateSAMLProvider(ctx, tx, &p); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "saml.created", "saml-provider", p.ID, map[string]any{"label": p.Label}); err != nil {
			return err
		}
		v, err = samlView(ctx, tx, acc, orgID, p.ID)
		return err
	})
	return v, err
}

// UpdateSAMLProvider changes the fields present in in. Admins only.
func (a *App) UpdateSAMLProvider(ctx context.Context, caller folio.Caller, orgID, id folio.ID, in *folio.SAMLProviderInput) (v *SAMLProviderView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errSAMLAdmin); err != nil {
			return err
		}
		p, err := store.GetSAMLProvider(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		if err := applySAMLInput(ctx, tx, acc, p, in, false); err != nil {
			return err
		}
		if err := store.UpdateSAMLProvider(ctx, tx, p); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "saml.updated", "saml-provider", p.ID, map[string]any{"label": p.Label}); err != nil {
			return err
		}
		v, err = samlView(ctx, tx, acc, orgID, id)
		return err
	})
	return v, err
}

// DeleteSAMLProvider removes a provider. Admins only; absent is not an error.
func (a *App) DeleteSAMLProvider(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, errSAMLAdmin); err != nil {
			return err
		}
		if err := store.DeleteSAMLProvider(ctx, tx, orgID, id); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "saml.deleted", "saml-provider", id, nil)
	})
}

// ListSSOLogins lists the active providers of an organization for a login
// page. It needs no authentication and shows only labels and start URLs.
func (a *App) ListSSOLogins(ctx context.Context, orgID folio.ID) (out []folio.SAMLProvider, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := store.GetOrganization(ctx, tx, orgID); err != nil {
			return err
		}
		opts := folio.ListOptions{Limit: folio.MaxLimit}
		for {
			l, err := store.ListSAMLProviders(ctx, tx, orgID, opts)
			if err != nil {
				return err
			}
			for _, p := range l.Items {
				if p.Active() {
					out = append(out, p)
				}
			}
			if l.Next == "" {
				return nil
			}
			if opts.After, err = folio.DecodeCursor(l.Next); err != nil {
				return err
			}
		}
	})
	return out, err
}

// activeProvider loads a provider that can sign people in.
func activeProvider(ctx context.Context, tx *store.Tx, orgID, id folio.ID) (*folio.SAMLProvider, error) {
	p, err := store.GetSAMLProvider(ctx, tx, orgID, id)
	if err != nil {
		return nil, err
	}
	if !p.Active() {
		return nil, folio.Errorf(folio.Invalid, "this SAML provider is not fully configured (entityID, ssoURL and certificate are needed)")
	}
	return p, nil
}

// SAMLMetadata returns the service-provider metadata XML of a provider.
func (a *App) SAMLMetadata(ctx context.Context, orgID, id folio.ID) ([]byte, error) {
	var p *folio.SAMLProvider
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		p, err = store.GetSAMLProvider(ctx, tx, orgID, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.spProvider(p).Metadata()
}

// samlLoginTTL bounds how long a started login may take.
const samlLoginTTL = 10 * time.Minute

// SAMLStart begins a login through a provider: it records the AuthnRequest
// under a random state and returns the identity provider URL to redirect
// the browser to, with the state as RelayState, and the state (for the
// browser's cookie that binds the login to it).
func (a *App) SAMLStart(ctx context.Context, orgID, id folio.ID) (redirect, state string, err error) {
	var p *folio.SAMLProvider
	err = a.db.Read(ctx, func(tx *store.Tx) (err error) {
		p, err = activeProvider(ctx, tx, orgID, id)
		return err
	})
	if err != nil {
		return "", "", err
	}
	state = randomState()
	redirect, reqID, err := a.spProvider(p).AuthnRedirect(state)
	if err != nil {
		return "", "", err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		return store.CreateSAMLLogin(ctx, tx, state, p.ID, reqID, tx.Now.Add(samlLoginTTL).UnixMicro())
	})
	return redirect, state, err
}

func randomState() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// SSOLogin is the outcome of a SAML sign-in: the user and a new API token.
type SSOLogin struct {
	User         *folio.User
	Organization folio.ID
	Token        string
	ExpiresAt    time.Time
	// Session is the secret of the web session SAMLSignIn started.
	Session string
}

// SSOTokenTTL is how long a token issued by a SAML sign-in works.
const SSOTokenTTL = 24 * time.Hour

// SAMLLogin finishes a login. It verifies the identity provider's response
// against the request recorded under state (Invalid otherwise; logins
// started elsewhere, IdP-initiated ones included, are refused, and each
// login is used once). The response is verified before any write, so a
// flood of bad responses never holds the writer.
//
// An organization's identity provider speaks only for that organization:
// an email that belongs to an existing account is accepted only when the
// account is already a member (an admin invited it), and the API token
// issued works only inside the organization and expires after SSOTokenTTL.
// A new account is created for an unknown email; its email counts as
// verified only when its domain is one of the organization's emailDomains.
// New members get the provider's defaultRole and defaultTeam.
func (a *App) SAMLLogin(ctx context.Context, orgID, id folio.ID, samlResponse, state string) (*SSOLogin, error) {
	return a.samlLogin(ctx, orgID, id, samlResponse, state, false)
}

// SAMLSignIn is SAMLLogin for the web application: instead of an API token
// it starts a session confined to the organization, for SSOTokenTTL, whose
// secret is in the result's Session.
func (a *App) SAMLSignIn(ctx context.Context, orgID, id folio.ID, samlResponse, state string) (*SSOLogin, error) {
	return a.samlLogin(ctx, orgID, id, samlResponse, state, true)
}

func (a *App) samlLogin(ctx context.Context, orgID, id folio.ID, samlResponse, state string, session bool) (*SSOLogin, error) {
	var (
		p     *folio.SAMLProvider
		org   *folio.Organization
		reqID string
	)
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if p, err = activeProvider(ctx, tx, orgID, id); err != nil {
			return err
		}
		if org, err = store.GetOrganization(ctx, tx, orgID); err != nil {
			return err
		}
		reqID, err = store.PendingSAMLLogin(ctx, tx, state, p.ID)
		return err
	})
	if folio.IsNotFound(err) && p != nil {
		return nil, folio.Errorf(folio.Invalid, "this sign-in was not started here or has expired: start again")
	}
	if err != nil {
		return nil, err
	}
	ident, err := a.spProvider(p).ParseResponse(samlResponse, []string{reqID}, a.clock.Now())
	if err != nil {
		return nil, err
	}
	nu := folio.NewUser{Email: ident.Email, DisplayName: ident.DisplayName}
	if err := nu.Normalize(); err != nil {
		return nil, folio.Errorf(folio.Invalid, "the identity provider did not send a usable email address")
	}
	nu.EmailVerified = slices.Contains(org.EmailDomains, folio.EmailDomain(nu.Email))

	out := &SSOLogin{Organization: orgID}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := store.TakeSAMLLogin(ctx, tx, state, p.ID); err != nil {
			return folio.Errorf(folio.Invalid, "this sign-in was not started here or has expired: start again")
		}
		u, err := joinBySSO(ctx, tx, orgID, nu, p.DefaultRole, p.DefaultTeam)
		if err != nil {
			return err
		}
		out.User = u
		out.ExpiresAt = tx.Now.Add(SSOTokenTTL)
		if session {
			out.Session, err = createSession(ctx, tx, u.ID, orgID, SSOTokenTTL)
			return err
		}
		out.Token, err = createToken(ctx, tx, &folio.Token{UserID: u.ID, Label: "SAML sign-in through " + p.Label,
			Org: orgID, ExpiresAt: &out.ExpiresAt})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// joinBySSO finds or makes the user an organization's identity provider
// vouched for (SAML or OpenID Connect), in tx. An existing account is
// accepted only when it is already a member (an admin invited it), and is
// marked an SSO member; a disabled member is refused. An unknown email
// gets a new account, which joins with role and team (none when "").
func joinBySSO(ctx context.Context, tx *store.Tx, orgID folio.ID, nu folio.NewUser, role folio.Role, team folio.ID) (*folio.User, error) {
	u, err := store.GetUserByEmail(ctx, tx, nu.Email)
	switch {
	case err == nil:
		if m, err := store.GetMember(ctx, tx, orgID, u.ID); err == nil && m.Disabled {
			return nil, errMemberDisabled
		} else if err != nil {
			if folio.IsNotFound(err) {
				return nil, folio.Errorf(folio.Invalid, "the account %s exists but is not a member of this organization: "+
					"an admin must invite it before it can sign in through the organization's SSO", nu.Email)
			}
			return nil, err
		}
		if err := store.SetMemberSSO(ctx, tx, orgID, u.ID); err != nil {
			return nil, err
		}
	case folio.IsNotFound(err):
		if u, err = store.CreateUser(ctx, tx, nu); err != nil {
			return nil, err
		}
		m := folio.Member{OrganizationID: orgID, UserID: u.ID, Role: role, JoinedAt: tx.Now, SSO: true}
		if _, err := addMember(ctx, tx, folio.Caller{UserID: u.ID}, &m); err != nil {
			return nil, err
		}
		if team != "" {
			if err := store.AddTeamMemberIfAbsent(ctx, tx, orgID, team, u.ID, folio.TeamMember); err != nil {
				return nil, err
			}
		}
	default:
		return nil, err
	}
	return u, nil
}
