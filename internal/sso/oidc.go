package sso

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/foliodocs/folio"
	"golang.org/x/oauth2"
)

// OIDCClient is Folio's relying-party side of one organization's OpenID
// Connect provider: the authorization code flow with PKCE (S256), state
// and nonce, on github.com/coreos/go-oidc and golang.org/x/oauth2.
//
// Every request to the provider (discovery, its keys, the token request)
// goes through HTTP, which must be the client that guards tenant URLs
// (package netguard): the issuer is whatever an organization's admin typed.
type OIDCClient struct {
	Issuer, ClientID, ClientSecret string
	// RedirectURL is Folio's callback, which the provider must have
	// registered for the client.
	RedirectURL string
	// Scopes are asked for besides openid, email and profile.
	Scopes []string
	HTTP   *http.Client
	// Now is the time ID tokens are checked against.
	Now func() time.Time
}

// OIDCIdentity is who an ID token says signed in.
type OIDCIdentity struct {
	Subject       string
	Email         string
	EmailVerified bool
	DisplayName   string
}

// discover fetches the provider's discovery document. Invalid when it
// cannot be had, as the issuer URL is an admin's setting to mend (the
// message never carries the provider's answer; the cause is wrapped).
func (c *OIDCClient) discover(ctx context.Context) (*oidc.Provider, *oauth2.Config, error) {
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, c.HTTP), strings.TrimRight(c.Issuer, "/"))
	if err != nil {
		return nil, nil, &folio.Error{Kind: folio.Invalid, Err: err,
			Message: "the OpenID Connect provider's discovery document could not be read: an admin of the organization should check its issuer URL"}
	}
	scopes := []string{oidc.ScopeOpenID, "email", "profile"}
	for _, s := range c.Scopes {
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return p, &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, RedirectURL: c.RedirectURL,
		Endpoint: p.Endpoint(), Scopes: scopes}, nil
}

// AuthURL returns the provider's authorization URL for a new sign-in,
// carrying state, nonce and the S256 challenge of verifier.
func (c *OIDCClient) AuthURL(ctx context.Context, state, nonce, verifier string) (string, error) {
	_, conf, err := c.discover(ctx)
	if err != nil {
		return "", err
	}
	return conf.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), nil
}

// NewOIDCVerifier returns a new PKCE code verifier (32 random bytes).
func NewOIDCVerifier() string { return oauth2.GenerateVerifier() }

func invalidOIDC(reason string, cause error) error {
	return &folio.Error{Kind: folio.Invalid, Message: "the OpenID Connect sign-in failed: " + reason, Err: cause}
}

// Exchange finishes a sign-in: it redeems code with the PKCE verifier at
// the token endpoint, verifies the ID token (signature by the provider's
// published keys, issuer, audience, expiry) and that it carries nonce, and
// returns its identity. Invalid when any of it fails.
func (c *OIDCClient) Exchange(ctx context.Context, code, verifier, nonce string) (*OIDCIdentity, error) {
	p, conf, err := c.discover(ctx)
	if err != nil {
		return nil, err
	}
	ctx = oidc.ClientContext(ctx, c.HTTP)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, invalidOIDC("the provider refused the authorization code", err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return nil, invalidOIDC("the provider sent no ID token", nil)
	}
	now := c.Now
	if now == nil {
		now = time.Now
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: c.ClientID, Now: now}).Verify(ctx, raw)
	if err != nil {
		return nil, invalidOIDC("the ID token is not valid", err)
	}
	if nonce == "" || idt.Nonce != nonce {
		return nil, invalidOIDC("the ID token does not answer this sign-in", errors.New("nonce mismatch"))
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"`
		Name          string `json:"name"`
		GivenName     string `json:"given_name"`
		FamilyName    string `json:"family_name"`
	}
	if err := idt.Claims(&claims); err != nil {
		return nil, invalidOIDC("the ID token's claims could not be read", err)
	}
	id := &OIDCIdentity{Subject: idt.Subject, Email: claims.Email, DisplayName: strings.TrimSpace(claims.Name)}
	// Some providers send email_verified as a string.
	switch v := claims.EmailVerified.(type) {
	case bool:
		id.EmailVerified = v
	case string:
		id.EmailVerified = v == "true"
	}
	if id.DisplayName == "" {
		id.DisplayName = strings.TrimSpace(claims.GivenName + " " + claims.FamilyName)
	}
	return id, nil
}
