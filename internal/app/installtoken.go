package app

import (
	"context"
	"fmt"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/golang-jwt/jwt/v5"
)

// installationTokenClaims are the claims of an installation token: a JWT
// signed with the same server secret as site tokens, told apart by kind.
type installationTokenClaims struct {
	jwt.RegisteredClaims
	Kind         string   `json:"kind"`
	Organization string   `json:"organization"`
	Installation string   `json:"installation"`
	Integration  string   `json:"integration"`
	Scopes       []string `json:"scopes"`
}

// installationToken signs a token for an installation, valid one hour,
// with the integration's scopes as they are now.
func (a *App) installationToken(ctx context.Context, inst *folio.Installation, i *folio.Integration) (string, error) {
	secret, err := a.secret(ctx, siteTokenSecret)
	if err != nil {
		return "", err
	}
	now := a.clock.Now()
	c := installationTokenClaims{Kind: "installation", Organization: inst.OrganizationID, Installation: inst.ID,
		Integration: i.Name, Scopes: i.Scopes,
		RegisteredClaims: jwt.RegisteredClaims{IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(SiteTokenTTL))}}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(secret))
	if err != nil {
		return "", fmt.Errorf("sign installation token: %w", err)
	}
	return s, nil
}

// CreateInstallationToken issues a token for an installation
// (createIntegrationInstallationToken): for admins of the integration's
// organization, and for the installation's own token.
func (a *App) CreateInstallationToken(ctx context.Context, caller folio.Caller, name string, id folio.ID) (string, error) {
	var (
		inst *folio.Installation
		iv   *folio.IntegrationView
	)
	// An admin issuing a token is recorded; an installation renewing its
	// own token changes no one's access and is not (nor written at all).
	run := a.db.Read
	if caller.Installation == nil {
		run = a.db.Write
	}
	err := run(ctx, func(tx *store.Tx) (err error) {
		if iv, inst, err = installation(ctx, tx, caller, name, id); err != nil {
			return err
		}
		if caller.Installation != nil {
			return nil
		}
		if !iv.Admin {
			return folio.Errorf(folio.Forbidden, "only admins of the organization that owns the integration create installation tokens")
		}
		return audit(ctx, tx, caller, inst.OrganizationID, "installation.token_created", "installation", inst.ID,
			map[string]any{"integration": name})
	})
	if err != nil {
		return "", err
	}
	return a.installationToken(ctx, inst, &iv.Integration)
}

// authenticateInstallationToken verifies an installation token's claims;
// whether the installation still exists is checked where it is used.
func (a *App) authenticateInstallationToken(tok, secret string) (folio.Caller, bool) {
	var c installationTokenClaims
	_, err := jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return []byte(secret), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(a.clock.Now))
	if err != nil || c.Kind != "installation" || c.Installation == "" || c.Organization == "" || c.Integration == "" {
		return folio.Caller{}, false
	}
	return folio.Caller{Installation: &folio.InstallationGrant{Org: c.Organization, Installation: c.Installation,
		Integration: c.Integration, Scopes: c.Scopes}}, true
}

// installedSpace loads a space for an installation token: a space of the
// installation's organization that the installation covers (every space,
// or this one selected), with read access when its scopes include
// space:content:read or space:metadata:read. Anything else is NotFound.
func installedSpace(ctx context.Context, tx *store.Tx, caller folio.Caller, id folio.ID) (*folio.SpaceView, *contentAccess, error) {
	g := caller.Installation
	if !g.Allows("space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write") {
		return nil, nil, errSpaceNotFound
	}
	inst, err := store.GetInstallation(ctx, tx, g.Integration, g.Installation)
	if folio.IsNotFound(err) || (err == nil && (inst.OrganizationID != g.Org || inst.Status != folio.InstallationActive)) {
		return nil, nil, errSpaceNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	s, err := store.GetSpace(ctx, tx, id)
	if folio.IsNotFound(err) || (err == nil && s.OrganizationID != g.Org) {
		return nil, nil, errSpaceNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if inst.SpaceSelection != "all" {
		if _, err := store.GetTargetInstallation(ctx, tx, inst.ID, folio.InstallOnSpace, id); folio.IsNotFound(err) {
			return nil, nil, errSpaceNotFound
		} else if err != nil {
			return nil, nil, err
		}
	}
	role := folio.RoleRead
	if g.Allows("space:content:write") {
		// Edits of the content; the space's settings stay an admin's.
		role = folio.RoleEdit
	}
	return &folio.SpaceView{Space: *s, CallerRole: role}, &contentAccess{}, nil
}
