package wire

import "github.com/foliodocs/folio"

// SitePublishingAuth is the reference's SitePublishingAuth: a site's
// visitor authentication with its private key.
type SitePublishingAuth struct {
	Object      string `json:"object"`
	Backend     string `json:"backend"`
	PrivateKey  string `json:"privateKey"`
	FallbackURL string `json:"fallbackURL,omitempty"`
}

// NewSitePublishingAuth converts a site's visitor authentication.
func NewSitePublishingAuth(a *folio.SitePublishingAuth) SitePublishingAuth {
	return SitePublishingAuth{Object: "publishing-auth", Backend: a.Backend, PrivateKey: a.PrivateKey, FallbackURL: a.FallbackURL}
}
