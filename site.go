package folio

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Site publishes spaces to readers. Empty Hostname, Basename and
// ProxyOrigin mean none is set.
type Site struct {
	ID                 ID
	OrganizationID     ID
	Type               string
	Title              string
	Visibility         string
	Hostname           string
	Basename           string
	ProxyOrigin        string
	Published          bool
	AgentsContext      string
	AdaptiveContent    bool
	DefaultSiteSection ID
	SiteSpaces         int // counted when the site is read
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// SiteView is a site as seen by one caller. Manage is true for the callers
// who may change it.
type SiteView struct {
	Site
	Manage bool
}

// SiteSpace places a space in a site, at its root (Section empty) or in a
// section. Condition is empty when none is set.
type SiteSpace struct {
	ID        ID
	SiteID    ID
	SpaceID   ID
	SectionID ID
	Path      string
	Position  int64
	Default   bool
	Hidden    bool
	Condition string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// SiteSpaceView is a site space with the space it publishes.
type SiteSpaceView struct {
	SiteSpace
	Space SpaceView
}

// ShareLink opens a share-link site to whoever holds its key.
type ShareLink struct {
	ID        ID
	SiteID    ID
	Name      string
	Key       string
	Active    bool
	CreatedAt time.Time
}

// SiteRedirect sends a site's old path to a destination in the site.
type SiteRedirect struct {
	ID          ID
	SiteID      ID
	Source      string
	Destination RedirectDestination
	CreatedAt   time.Time
}

// RedirectDestination is the reference's SiteRedirectDestination: a
// site-section, a site-space or a site-page.
type RedirectDestination struct {
	Kind          string `json:"kind"`
	SiteSectionID string `json:"siteSectionId,omitempty"`
	SiteSpaceID   string `json:"siteSpaceId,omitempty"`
	PageID        string `json:"pageId,omitempty"`
}

// Site types, visibilities and agent contexts, as in the reference.
var (
	SiteTypes         = []string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}
	SiteVisibilities  = []string{"public", "unlisted", "share-link", "visitor-auth"}
	SiteAgentContexts = []string{"included", "excluded"}
)

// The visibility of share-link sites.
const VisibilityShareLink = "share-link"

// Limits of sites, as in the service description, and Folio's own bounds
// on what the reference leaves open (see docs/decisions.md).
const (
	MinSiteTitle       = 2
	MaxSiteTitle       = 128
	MaxSiteBasename    = 100
	MaxSiteHostname    = 512
	MaxSiteProxy       = 512
	MaxShareLinkName   = 50
	MaxShareLinks      = 100  // per site
	MaxRedirectSource  = 512  // as in the reference
	MaxRedirects       = 1000 // per site
	MaxRedirectID      = 64   // ids named by a redirect destination
	MaxSiteSpacesAdded = 100  // spaces of one createSite request
	MaxSiteSpacePath   = 100
)

var (
	siteHostnamePattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)
	proxyPattern        = regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(/[\w-]+)+$`)
	redirectPattern     = regexp.MustCompile(`^/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$`)
)

// ValidateSiteTitle checks a site title: 2 to 128 characters, not blank.
func ValidateSiteTitle(title string) error {
	if n := utf8.RuneCountInString(title); n < MinSiteTitle || n > MaxSiteTitle || strings.TrimSpace(title) == "" {
		return FieldErrorf("title", "title must be %d to %d characters and not blank", MinSiteTitle, MaxSiteTitle)
	}
	return nil
}

// NewSite is the body of POST /orgs/{organizationId}/sites.
type NewSite struct {
	Type       string `json:"type"`
	Title      string `json:"title"`
	Visibility string `json:"visibility"`
	Spaces     []ID   `json:"spaces"`
}

// Validate checks a new site and fills defaults: type basic, visibility
// public, title "Untitled site" when none is sent.
func (n *NewSite) Validate() error {
	if n.Type == "" {
		n.Type = "basic"
	}
	if n.Visibility == "" {
		n.Visibility = "public"
	}
	if n.Title == "" {
		n.Title = "Untitled site"
	}
	if err := oneOf("type", n.Type, SiteTypes); err != nil {
		return err
	}
	if err := ValidateSiteTitle(n.Title); err != nil {
		return err
	}
	if err := oneOf("visibility", n.Visibility, SiteVisibilities); err != nil {
		return err
	}
	if len(n.Spaces) > MaxSiteSpacesAdded {
		return FieldErrorf("spaces", "spaces must list at most %d spaces", MaxSiteSpacesAdded)
	}
	return nil
}

// AdaptiveContent is the adaptiveContent object of a site.
type AdaptiveContent struct {
	Enabled *bool `json:"enabled"`
}

// SiteUpdate is the body of PATCH /orgs/{organizationId}/sites/{siteId}.
// Omitted fields stay unchanged; null removes the hostname and the proxy.
type SiteUpdate struct {
	Title              Optional[string]          `json:"title"`
	Visibility         Optional[string]          `json:"visibility"`
	Basename           Optional[string]          `json:"basename"`
	Hostname           Optional[string]          `json:"hostname"`
	Proxy              Optional[string]          `json:"proxy"`
	AgentsContext      Optional[string]          `json:"agentsContext"`
	AdaptiveContent    Optional[AdaptiveContent] `json:"adaptiveContent"`
	DefaultSiteSpace   Optional[ID]              `json:"defaultSiteSpace"`
	DefaultSiteSection Optional[ID]              `json:"defaultSiteSection"`
}

// Validate checks every field that is set. It returns Invalid errors
// naming the field.
func (u *SiteUpdate) Validate() error {
	notNull := func(field string, set, null bool) error {
		if set && null {
			return FieldErrorf(field, "%s cannot be null", field)
		}
		return nil
	}
	for _, f := range []struct {
		name      string
		set, null bool
	}{{"title", u.Title.Set, u.Title.Null}, {"basename", u.Basename.Set, u.Basename.Null}, {"visibility", u.Visibility.Set, u.Visibility.Null},
		{"agentsContext", u.AgentsContext.Set, u.AgentsContext.Null},
		{"adaptiveContent", u.AdaptiveContent.Set, u.AdaptiveContent.Null},
		{"defaultSiteSpace", u.DefaultSiteSpace.Set, u.DefaultSiteSpace.Null},
		{"defaultSiteSection", u.DefaultSiteSection.Set, u.DefaultSiteSection.Null}} {
		if err := notNull(f.name, f.set, f.null); err != nil {
			return err
		}
	}
	if u.Title.Present() {
		if err := ValidateSiteTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.Visibility.Present() {
		if err := oneOf("visibility", u.Visibility.Value, SiteVisibilities); err != nil {
			return err
		}
	}
	if u.AgentsContext.Present() {
		if err := oneOf("agentsContext", u.AgentsContext.Value, SiteAgentContexts); err != nil {
			return err
		}
	}
	if u.AdaptiveContent.Present() && u.AdaptiveContent.Value.Enabled == nil {
		return FieldErrorf("adaptiveContent", "adaptiveContent.enabled is required")
	}
	if u.Basename.Present() {
		if n := utf8.RuneCountInString(u.Basename.Value); n < 1 || n > MaxSiteBasename {
			return FieldErrorf("basename", "basename must be 1 to %d characters", MaxSiteBasename)
		}
	}
	if u.Hostname.Present() {
		if err := ValidateHostname(u.Hostname.Value); err != nil {
			return err
		}
	}
	if u.Proxy.Present() {
		if len(u.Proxy.Value) > MaxSiteProxy || !proxyPattern.MatchString(u.Proxy.Value) {
			return FieldErrorf("proxy", "proxy must be at most %d characters: a host name and one or more path segments, such as example.com/docs", MaxSiteProxy)
		}
	}
	return nil
}

// ValidateHostname checks a site's custom hostname: at most 512
// characters, lower case, at least three labels.
func ValidateHostname(h string) error {
	if len(h) > MaxSiteHostname || !siteHostnamePattern.MatchString(h) {
		return FieldErrorf("hostname", "hostname must be at most %d characters, lower-case labels of letters, digits and hyphens, at least three of them (docs.example.com)", MaxSiteHostname)
	}
	return nil
}

// SiteFilter narrows a site listing. Published is nil for every site.
type SiteFilter struct {
	Space     ID
	Title     string
	Published *bool
}

// ValidateShareLinkName checks a share link's name: at most 50 characters.
func ValidateShareLinkName(name string) error {
	if utf8.RuneCountInString(name) > MaxShareLinkName {
		return FieldErrorf("name", "name must be at most %d characters", MaxShareLinkName)
	}
	return nil
}

// ValidateRedirectSource checks a redirect's source path: at most 512
// characters, a slash-separated path of unreserved or percent-encoded
// characters, as in the reference.
func ValidateRedirectSource(field, s string) error {
	if len(s) > MaxRedirectSource || !redirectPattern.MatchString(s) {
		return FieldErrorf(field, "%s must be a path of at most %d characters such as /old/page, of letters, digits, -._~ and %%XX escapes", field, MaxRedirectSource)
	}
	return nil
}

// Validate checks the shape of a destination; the app checks that what it
// names exists in the site.
func (d *RedirectDestination) Validate() error {
	bad := func(id string) bool { return id == "" || len(id) > MaxRedirectID }
	switch d.Kind {
	case "site-section":
		if bad(d.SiteSectionID) || d.SiteSpaceID != "" || d.PageID != "" {
			return FieldErrorf("destination", "a site-section destination names one siteSectionId")
		}
	case "site-space":
		if bad(d.SiteSpaceID) || d.SiteSectionID != "" || d.PageID != "" {
			return FieldErrorf("destination", "a site-space destination names one siteSpaceId")
		}
	case "site-page":
		if bad(d.SiteSpaceID) || bad(d.PageID) || d.SiteSectionID != "" {
			return FieldErrorf("destination", "a site-page destination names a siteSpaceId and a pageId")
		}
	default:
		return FieldErrorf("destination", "destination.kind must be one of site-section, site-space, site-page")
	}
	return nil
}

// Customization limits: Folio's bounds on the lists the reader renders.
const (
	MaxHeaderLinks       = 20
	MaxHeaderSubLinks    = 20
	MaxFooterGroups      = 10
	MaxFooterLinks       = 20
	MaxLinkTitle         = 64
	MaxFooterCopyright   = 300
	MaxCustomizationSize = 64 << 10 // bytes of the stored document
	MaxURL               = 2048
)

// DefaultCustomization is the SiteCustomizationSettings document of a site
// that was never customized. Every object the reference requires is there,
// so that a document merged onto it is always complete.
const DefaultCustomization = `{
  "styling": {"theme": "clean", "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
    "infoColor": {"light": "#787878", "dark": "#787878"}, "successColor": {"light": "#02B40F", "dark": "#02B40F"},
    "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"}, "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
    "corners": "rounded", "depth": "subtle", "links": "default", "font": "Inter", "monospaceFont": "IBMPlexMono",
    "background": "plain", "icons": "regular", "sidebar": {"background": "default", "list": "default"}, "search": "subtle"},
  "internationalization": {"locale": "en"},
  "favicon": {},
  "header": {"preset": "default", "links": []},
  "footer": {"groups": []},
  "themes": {"default": "light", "toggeable": true},
  "pdf": {"enabled": true},
  "feedback": {"enabled": false},
  "ai": {"mode": "none"},
  "advancedCustomization": {"enabled": true},
  "trademark": {"enabled": true},
  "externalLinks": {"target": "self"},
  "pagination": {"enabled": true},
  "pageActions": {"externalAI": true, "markdown": true, "mcp": true},
  "git": {"showEditLink": false},
  "privacyPolicy": {},
  "socialPreview": {},
  "insights": {"trackingCookie": true}
}`

// MergePatch applies an RFC 7396 JSON merge patch to doc and returns the
// result: objects merge key by key, null removes a key, anything else
// replaces. doc is not modified.
func MergePatch(doc, patch map[string]any) map[string]any {
	out := make(map[string]any, len(doc)+len(patch))
	for k, v := range doc {
		out[k] = v
	}
	for k, v := range patch {
		if v == nil {
			delete(out, k)
			continue
		}
		if pv, ok := v.(map[string]any); ok {
			dv, _ := out[k].(map[string]any)
			out[k] = MergePatch(dv, pv)
			continue
		}
		out[k] = v
	}
	return out
}

var hexColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// customizationCheck reads a customization document and reports the
// first rule it breaks, naming the field by its path in the document.
type customizationCheck struct{ err error }

func (c *customizationCheck) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = FieldErrorf(field, format, args...)
	}
}

// object returns doc[key] as an object; absent is nil, anything else fails.
func (c *customizationCheck) object(doc map[string]any, key, field string) map[string]any {
	v, ok := doc[key]
	if !ok {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(field, "%s must be an object", field)
	}
	return m
}

func (c *customizationCheck) enum(doc map[string]any, key, field string, set ...string) {
	v, ok := doc[key]
	if !ok {
		return
	}
	if s, ok := v.(string); !ok || !slices.Contains(set, s) {
		c.fail(field, "%s must be one of %s", field, strings.Join(set, ", "))
	}
}

func (c *customizationCheck) text(doc map[string]any, key, field string, min, max int) {
	v, ok := doc[key]
	if !ok {
		return
	}
	if s, ok := v.(string); !ok || utf8.RuneCountInString(s) < min || utf8.RuneCountInString(s) > max {
		c.fail(field, "%s must be a string of %d to %d characters", field, min, max)
	}
}

func (c *customizationCheck) url(s any, field string) {
	u, ok := s.(string)
	if !ok || len(u) > MaxURL || !(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) {
		c.fail(field, "%s must be an http or https URL of at most %d characters", field, MaxURL)
	}
}

// themed checks a {light, dark} pair with check applied to both.
func (c *customizationCheck) themed(doc map[string]any, key, field string, check func(v any, field string)) {
	m := c.object(doc, key, field)
	if m == nil {
		return
	}
	for _, mode := range []string{"light", "dark"} {
		v, ok := m[mode]
		if !ok {
			c.fail(field+"."+mode, "%s.%s is required", field, mode)
			continue
		}
		check(v, field+"."+mode)
	}
}

func (c *customizationCheck) color(v any, field string) {
	if s, ok := v.(string); !ok || !hexColor.MatchString(s) {
		c.fail(field, "%s must be a hex color such as #346DDB or #fff", field)
	}
}

// links checks a list of {title, ...} items of at most max entries.
func (c *customizationCheck) links(doc map[string]any, key, field string, max int, each func(m map[string]any, field string)) {
	v, ok := doc[key]
	if !ok {
		return
	}
	list, ok := v.([]any)
	if !ok || len(list) > max {
		c.fail(field, "%s must be a list of at most %d items", field, max)
		return
	}
	for i, item := range list {
		f := field + "[" + itoa(i) + "]"
		m, ok := item.(map[string]any)
		if !ok {
			c.fail(f, "%s must be an object", f)
			continue
		}
		if _, ok := m["title"].(string); !ok {
			c.fail(f+".title", "%s.title is required", f)
		}
		c.text(m, "title", f+".title", 0, MaxLinkTitle)
		if each != nil {
			each(m, f)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// ValidateCustomization checks the parts of a SiteCustomizationSettings
// document that Folio's reader uses: title, styling (theme, colors, tint),
// favicon, header (logo, links), footer (logo, groups, copyright) and
// themes. Other parts are kept as sent. It returns Invalid errors naming
// the field by its path.
func ValidateCustomization(doc map[string]any) error {
	var c customizationCheck
	c.text(doc, "title", "title", MinSiteTitle, MaxSiteTitle)
	if st := c.object(doc, "styling", "styling"); st != nil {
		c.enum(st, "theme", "styling.theme", "clean", "muted", "bold", "gradient")
		for _, k := range []string{"primaryColor", "infoColor", "successColor", "warningColor", "dangerColor"} {
			c.themed(st, k, "styling."+k, c.color)
		}
		if tint := c.object(st, "tint", "styling.tint"); tint != nil {
			c.themed(tint, "color", "styling.tint.color", c.color)
		}
	}
	if fav := c.object(doc, "favicon", "favicon"); fav != nil {
		_, icon := fav["icon"]
		_, emoji := fav["emoji"]
		switch {
		case icon && emoji, len(fav) > 1:
			c.fail("favicon", "favicon is {icon: {light, dark}}, {emoji} or {}")
		case icon:
			c.themed(fav, "icon", "favicon.icon", c.url)
		case emoji:
			c.text(fav, "emoji", "favicon.emoji", 1, MaxEmoji)
		}
	}
	if h := c.object(doc, "header", "header"); h != nil {
		c.themed(h, "logo", "header.logo", c.url)
		c.links(h, "links", "header.links", MaxHeaderLinks, func(m map[string]any, f string) {
			c.enum(m, "style", f+".style", "link", "button-primary", "button-secondary")
			c.links(m, "links", f+".links", MaxHeaderSubLinks, nil)
			c.text(m, "condition", f+".condition", 0, MaxCondition)
		})
	}
	if ft := c.object(doc, "footer", "footer"); ft != nil {
		c.themed(ft, "logo", "footer.logo", c.url)
		c.text(ft, "copyright", "footer.copyright", 0, MaxFooterCopyright)
		c.links(ft, "groups", "footer.groups", MaxFooterGroups, func(m map[string]any, f string) {
			c.links(m, "links", f+".links", MaxFooterLinks, nil)
		})
	}
	if th := c.object(doc, "themes", "themes"); th != nil {
		c.enum(th, "default", "themes.default", "light", "dark")
		if v, ok := th["toggeable"]; ok {
			if _, ok := v.(bool); !ok {
				c.fail("themes.toggeable", "themes.toggeable must be a boolean")
			}
		}
	}
	return c.err
}

// MaxCondition bounds the condition expressions of site spaces, sections
// and header links, as in the reference.
const MaxCondition = 1024
