package wire

import (
	"net/url"

	"github.com/foliodocs/folio"
)

// Site is the GitBook Site object.
type Site struct {
	Object          string          `json:"object"`
	ID              string          `json:"id"`
	Type            string          `json:"type"`
	Title           string          `json:"title"`
	Hostname        string          `json:"hostname,omitempty"`
	Basename        string          `json:"basename,omitempty"`
	Proxy           *SiteProxy      `json:"proxy,omitempty"`
	Visibility      string          `json:"visibility"`
	Published       bool            `json:"published"`
	SiteSpaces      int             `json:"siteSpaces"`
	CreatedAt       string          `json:"createdAt"`
	AdaptiveContent AdaptiveContent `json:"adaptiveContent"`
	AgentsContext   string          `json:"agentsContext"`
	Features        []any           `json:"features"`
	URLs            SiteURLs        `json:"urls"`
}

// SiteProxy is where a proxied site is served and what it proxies to.
type SiteProxy struct {
	Origin string `json:"origin"`
	Target string `json:"target"`
}

// AdaptiveContent is the adaptiveContent object of a site.
type AdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

// SiteURLs are the urls of a site; Published only when it is published.
type SiteURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
}

// SiteBase is where Folio serves a site without a hostname or a proxy:
// under /sites/{siteId} of the server's public URL (see docs/decisions.md).
func (u URLs) SiteBase(s *folio.Site) string { return u.Public + "/sites/" + s.ID }

// SitePublished is the published URL of a site, whether or not it is
// published: https://{proxy origin} when a proxy is set, else
// https://{hostname}[/{basename}] when a hostname is set, else SiteBase.
func (u URLs) SitePublished(s *folio.Site) string {
	switch {
	case s.ProxyOrigin != "":
		return "https://" + s.ProxyOrigin
	case s.Hostname != "" && s.Basename != "":
		return "https://" + s.Hostname + "/" + url.PathEscape(s.Basename)
	case s.Hostname != "":
		return "https://" + s.Hostname
	}
	return u.SiteBase(s)
}

// NewSite converts a site.
func (u URLs) NewSite(v *folio.SiteView) Site {
	s := &v.Site
	out := Site{Object: "site", ID: s.ID, Type: s.Type, Title: s.Title, Hostname: s.Hostname, Basename: s.Basename,
		Visibility: s.Visibility, Published: s.Published, SiteSpaces: s.SiteSpaces, CreatedAt: Time(s.CreatedAt),
		AdaptiveContent: AdaptiveContent{Enabled: s.AdaptiveContent}, AgentsContext: s.AgentsContext,
		Features: []any{},
		URLs: SiteURLs{Location: u.API("/orgs/" + s.OrganizationID + "/sites/" + s.ID),
			App: u.App("/o/" + s.OrganizationID + "/sites/" + s.ID)}}
	if s.ProxyOrigin != "" {
		out.Proxy = &SiteProxy{Origin: s.ProxyOrigin, Target: u.SiteBase(s)}
	}
	if s.Published {
		out.URLs.Published = u.SitePublished(s)
	}
	return out
}

// SiteSpace is the GitBook SiteSpace object.
type SiteSpace struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	Path      string        `json:"path"`
	Section   string        `json:"section,omitempty"`
	Space     Space         `json:"space"`
	Title     string        `json:"title"`
	Default   bool          `json:"default"`
	Condition string        `json:"condition,omitempty"`
	Hidden    bool          `json:"hidden"`
	URLs      SiteSpaceURLs `json:"urls"`
}

// SiteSpaceURLs are the urls of a site space.
type SiteSpaceURLs struct {
	Published string `json:"published,omitempty"`
}

// SiteSpacePublished is the published URL of a site space: the site's
// own for the default site space at the root, the site's plus its path
// otherwise.
func (u URLs) SiteSpacePublished(s *folio.Site, ss *folio.SiteSpace) string {
	if ss.Default && ss.SectionID == "" {
		return u.SitePublished(s)
	}
	return u.SitePublished(s) + "/" + url.PathEscape(ss.Path)
}

// NewSiteSpace converts a site space of a site.
func (u URLs) NewSiteSpace(s *folio.Site, v *folio.SiteSpaceView) SiteSpace {
	out := SiteSpace{Object: "site-space", ID: v.ID, Path: v.Path, Section: v.SectionID, Space: u.NewSpace(&v.Space),
		Title: v.Space.Title, Default: v.Default, Condition: v.Condition, Hidden: v.Hidden}
	if s.Published {
		out.URLs.Published = u.SiteSpacePublished(s, &v.SiteSpace)
	}
	return out
}

// ShareLink is the GitBook ShareLink object; its published URL carries
// the key.
type ShareLink struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	CreatedAt string        `json:"createdAt"`
	Name      string        `json:"name"`
	Active    bool          `json:"active"`
	URLs      SiteSpaceURLs `json:"urls"`
}

// NewShareLink converts a share link of a site.
func (u URLs) NewShareLink(s *folio.Site, l *folio.ShareLink) ShareLink {
	return ShareLink{Object: "share-link", ID: l.ID, CreatedAt: Time(l.CreatedAt), Name: l.Name, Active: l.Active,
		URLs: SiteSpaceURLs{Published: u.SitePublished(s) + "?shareKey=" + url.QueryEscape(l.Key)}}
}

// SiteRedirect is the GitBook SiteRedirect object.
type SiteRedirect struct {
	Object      string                    `json:"object"`
	ID          string                    `json:"id"`
	Source      string                    `json:"source"`
	Destination folio.RedirectDestination `json:"destination"`
}

// NewSiteRedirect converts a redirect.
func NewSiteRedirect(r *folio.SiteRedirect) SiteRedirect {
	return SiteRedirect{Object: "site-redirect", ID: r.ID, Source: r.Source, Destination: r.Destination}
}

// PublishedSite is the GitBook PublishedContentSite object with the
// site-spaces structure.
type PublishedSite struct {
	Object         string                  `json:"object"`
	Site           Site                    `json:"site"`
	Structure      SiteStructure           `json:"structure"`
	Customizations PublishedCustomizations `json:"customizations"`
	Scripts        []SiteIntegrationScript `json:"scripts"`
}

// SiteStructure is a site's structure: "siteSpaces" (the reference's
// spelling) when the site has no sections.
type SiteStructure struct {
	Type      string `json:"type"`
	Structure any    `json:"structure"`
}

// PublishedCustomizations are the customization settings of a site and of
// its site spaces that override them.
type PublishedCustomizations struct {
	Site       map[string]any            `json:"site"`
	SiteSpaces map[string]map[string]any `json:"siteSpaces"`
}

// SiteIntegrationScript is a script an integration injects in a site's
// pages (the site:script:inject scope).
type SiteIntegrationScript struct {
	Script                string `json:"script"`
	ContentSecurityPolicy string `json:"contentSecurityPolicy,omitempty"`
	Cookies               bool   `json:"cookies"`
}
