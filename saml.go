package folio

import (
	"time"
	"unicode/utf8"
)

// SAMLProvider is a SAML identity provider configured for an organization.
type SAMLProvider struct {
	ID             ID
	OrganizationID ID
	Label          string
	EntityID       string
	SSOURL         string
	Certificate    string
	DefaultTeam    ID   // empty when none
	DefaultRole    Role // role given to members who sign in the first time
	SPKey, SPCert  string
	CreatedAt      time.Time
}

// Active reports whether the provider is configured well enough to sign in.
func (p *SAMLProvider) Active() bool {
	return p.EntityID != "" && p.SSOURL != "" && p.Certificate != ""
}

// SAMLProviderInput is the body of POST and PATCH on SAML providers; every
// field is optional on PATCH, label is required on POST.
type SAMLProviderInput struct {
	Label       Optional[string] `json:"label"`
	EntityID    Optional[string] `json:"entityID"`
	Certificate Optional[string] `json:"certificate"`
	SSOURL      Optional[string] `json:"ssoURL"`
	DefaultTeam Optional[string] `json:"defaultTeam"`
	DefaultRole Optional[string] `json:"defaultRole"`
}

// Validate checks the documented limits; create requires a label. The
// certificate is parsed by the caller (package sso). It returns Invalid errors.
func (in *SAMLProviderInput) Validate(create bool) error {
	if create && !in.Label.Present() {
		return FieldErrorf("label", "label is required")
	}
	if in.Label.Set {
		if n := utf8.RuneCountInString(in.Label.Value); in.Label.Null || n < 1 || n > 30 {
			return FieldErrorf("label", "label must be 1 to 30 characters")
		}
	}
	if in.EntityID.Set && (in.EntityID.Null || utf8.RuneCountInString(in.EntityID.Value) > 1024) {
		return FieldErrorf("entityID", "entityID must be a string of at most 1024 characters")
	}
	if in.Certificate.Set && (in.Certificate.Null || len(in.Certificate.Value) > 10000) {
		return FieldErrorf("certificate", "certificate must be a PEM certificate of at most 10000 characters")
	}
	if in.SSOURL.Set {
		if in.SSOURL.Null {
			return FieldErrorf("ssoURL", "ssoURL cannot be null")
		}
		if err := ValidateURL("ssoURL", in.SSOURL.Value); err != nil {
			return err
		}
	}
	if in.DefaultRole.Present() {
		if _, err := ParseRole("defaultRole", in.DefaultRole.Value); err != nil {
			return err
		}
	}
	return nil
}
