package wire

import (
	"encoding/json"
	"net/url"

	"github.com/foliodocs/folio"
)

// Integration is the GitBook Integration object. Secrets and the script
// are never part of it.
type Integration struct {
	Object         string                  `json:"object"`
	Name           string                  `json:"name"`
	Version        int                     `json:"version"`
	Title          string                  `json:"title"`
	Description    string                  `json:"description"`
	Summary        string                  `json:"summary,omitempty"`
	PreviewImages  []string                `json:"previewImages"`
	Target         string                  `json:"target"`
	Verified       bool                    `json:"verified"`
	Visibility     string                  `json:"visibility"`
	Scopes         []string                `json:"scopes"`
	Categories     []string                `json:"categories"`
	Blocks         json.RawMessage         `json:"blocks"`
	ContentSources json.RawMessage         `json:"contentSources"`
	Configurations json.RawMessage         `json:"configurations"`
	ExternalLinks  []folio.IntegrationLink `json:"externalLinks"`
	Owner          Organization            `json:"owner"`
	URLs           IntegrationURLs         `json:"urls"`
	Permissions    struct {
		Admin bool `json:"admin"`
	} `json:"permissions"`
	CSP json.RawMessage `json:"contentSecurityPolicy,omitempty"`
}

// IntegrationURLs are an integration's URLs.
type IntegrationURLs struct {
	Location       string `json:"location"`
	Icon           string `json:"icon,omitempty"`
	App            string `json:"app"`
	Assets         string `json:"assets"`
	PublicEndpoint string `json:"publicEndpoint"`
}

// NewIntegration converts an integration as a caller sees it.
func (u URLs) NewIntegration(v *folio.IntegrationView) Integration {
	base := "/integrations/" + url.PathEscape(v.Name)
	out := Integration{Object: "integration", Name: v.Name, Version: v.Version, Title: v.Title, Description: v.Description,
		Summary: v.Summary, Target: v.Target, Visibility: v.Visibility, Scopes: v.Scopes, Categories: v.Categories,
		Blocks: v.Blocks, ContentSources: v.ContentSources, Configurations: v.Configurations, ExternalLinks: v.ExternalLinks,
		Owner: u.NewOrganization(v.Owner), CSP: v.CSP, PreviewImages: make([]string, len(v.PreviewImages)),
		URLs: IntegrationURLs{Location: u.API(base), App: u.App(base), Assets: u.API(base + "/assets/"),
			PublicEndpoint: u.API(base + "/public")}}
	out.Permissions.Admin = v.Admin
	if v.Icon != "" {
		out.URLs.Icon = out.URLs.Assets + v.Icon
	}
	for i, p := range v.PreviewImages {
		out.PreviewImages[i] = out.URLs.Assets + p
	}
	if out.ExternalLinks == nil {
		out.ExternalLinks = []folio.IntegrationLink{}
	}
	return out
}
