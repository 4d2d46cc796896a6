package folio

import "time"

// The visibility of sites that only authenticated visitors read.
const VisibilityVisitorAuth = "visitor-auth"

// The backends of a site's visitor authentication: "custom" (the site's
// owner signs visitor JWTs with the site's private key) and "integration"
// (an authentication integration installed on the site signs them).
var VisitorAuthBackends = []string{"custom", "integration"}

// SitePublishingAuth is the visitor authentication of a site. PrivateKey
// signs the visitors' JWTs (HS256); the store keeps it sealed with the
// server key (SealedKey) and the app opens it. KeyID names the current key
// and changes with it. FallbackURL is empty when none is set.
type SitePublishingAuth struct {
	SiteID      ID
	Backend     string
	PrivateKey  string
	SealedKey   string
	KeyID       string
	FallbackURL string
	UpdatedAt   time.Time
}

// SitePublishingAuthUpdate is the body of PATCH .../publishing/auth: the
// backend (required) and the fallback URL (absent: unchanged, null:
// removed).
type SitePublishingAuthUpdate struct {
	Backend     string           `json:"backend"`
	FallbackURL Optional[string] `json:"fallbackURL"`
}

// Validate checks the update: a known backend, and an absolute http(s)
// fallback URL (ValidateURL).
func (u *SitePublishingAuthUpdate) Validate() error {
	if u.Backend == "" {
		return FieldErrorf("backend", "backend is required")
	}
	if err := oneOf("backend", u.Backend, VisitorAuthBackends); err != nil {
		return err
	}
	if u.FallbackURL.Present() {
		return ValidateURL("fallbackURL", u.FallbackURL.Value)
	}
	return nil
}
