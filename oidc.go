package folio

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// OIDCProvider is an OpenID Connect identity provider configured for an
// organization, through which its members sign in to the web app. The
// client secret is never part of it: it is kept sealed with the server key
// and only opened to talk to the provider.
type OIDCProvider struct {
	ID             ID
	OrganizationID ID
	Label          string
	Issuer         string // the issuer URL; discovery is at Issuer + /.well-known/openid-configuration
	ClientID       string
	HasSecret      bool
	Scopes         []string // asked for besides openid, email and profile
	DefaultRole    Role     // role given to members who sign in the first time
	CreatedAt      time.Time
}

// OIDCProviderInput is a form that creates or changes an OIDC provider:
// every field is optional on change, label, issuer and clientID are
// required on create. An absent or empty client secret keeps the stored one.
type OIDCProviderInput struct {
	Label        Optional[string]
	Issuer       Optional[string]
	ClientID     Optional[string]
	ClientSecret Optional[string]
	Scopes       Optional[string] // space-separated
	DefaultRole  Optional[string]
}

// OIDC provider limits.
const (
	maxOIDCScopes     = 20
	maxOIDCScopeBytes = 100
)

// Validate checks the documented limits. It returns Invalid errors.
func (in *OIDCProviderInput) Validate(create bool) error {
	if create {
		for _, f := range []struct {
			name string
			v    Optional[string]
		}{{"label", in.Label}, {"issuer", in.Issuer}, {"clientID", in.ClientID}} {
			if !f.v.Present() || strings.TrimSpace(f.v.Value) == "" {
				return FieldErrorf(f.name, "%s is required", f.name)
			}
		}
	}
	if in.Label.Set {
		if n := utf8.RuneCountInString(in.Label.Value); in.Label.Null || n < 1 || n > 30 {
			return FieldErrorf("label", "label must be 1 to 30 characters")
		}
	}
	if in.Issuer.Set {
		if in.Issuer.Null {
			return FieldErrorf("issuer", "issuer cannot be empty")
		}
		if err := ValidateURL("issuer", in.Issuer.Value); err != nil {
			return err
		}
		if u, _ := url.Parse(in.Issuer.Value); u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return FieldErrorf("issuer", "issuer must be a URL without query, fragment or credentials")
		}
	}
	if in.ClientID.Set {
		if n := len(in.ClientID.Value); in.ClientID.Null || n < 1 || n > 255 {
			return FieldErrorf("clientID", "clientID must be 1 to 255 characters")
		}
	}
	if in.ClientSecret.Set && len(in.ClientSecret.Value) > 1024 {
		return FieldErrorf("clientSecret", "clientSecret must be at most 1024 characters")
	}
	if in.Scopes.Set {
		scopes := strings.Fields(in.Scopes.Value)
		if len(scopes) > maxOIDCScopes {
			return FieldErrorf("scopes", "at most %d scopes", maxOIDCScopes)
		}
		for _, s := range scopes {
			if len(s) > maxOIDCScopeBytes || strings.ContainsAny(s, `"\`) {
				return FieldErrorf("scopes", "scope %q is not valid", s)
			}
		}
	}
	if in.DefaultRole.Present() {
		if _, err := ParseRole("defaultRole", in.DefaultRole.Value); err != nil {
			return err
		}
	}
	return nil
}
