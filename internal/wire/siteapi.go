package wire

// PublishedSiteContent is the reference's PublishedSiteContent: what
// resolvePublishedContentByUrl answers for a URL of published content.
type PublishedSiteContent struct {
	Site         string `json:"site"`
	SiteSection  string `json:"siteSection,omitempty"`
	SiteSpace    string `json:"siteSpace"`
	Space        string `json:"space"`
	Pathname     string `json:"pathname"`
	BasePath     string `json:"basePath"`
	SiteBasePath string `json:"siteBasePath"`
	APIToken     string `json:"apiToken"`
	Organization string `json:"organization"`
	ShareKey     string `json:"shareKey,omitempty"`
	Complete     bool   `json:"complete"`
	CanonicalURL string `json:"canonicalUrl"`
}

// PublishedRedirect is the redirect answer of resolvePublishedContentByUrl.
type PublishedRedirect struct {
	Target   string `json:"target"`
	Redirect string `json:"redirect"`
}
