package reader

import (
	"bytes"
	"embed"
	"fmt"
	"html"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

//go:embed templates/*.html
var templateFS embed.FS

var pageTemplate = template.Must(template.New("").Funcs(template.FuncMap{"icon": icon}).ParseFS(templateFS, "templates/*.html"))

// ShareCookie holds a share-link key once a reader opened a share-link
// site with ?share= (or ?shareKey=); it is scoped to the site's base path.
const ShareCookie = "folio_share"

// Handler serves the published sites.
type Handler struct {
	app        *app.App
	public     string // the server's public URL, no trailing slash
	publicHost string // its host, lower case, without port
	secure     bool   // the public URL is https: cookies are Secure
	logger     *slog.Logger
	cache      *htmlCache // rendered page parts (cache.go)
}

// New returns the reader of the sites of a, served under publicURL.
func New(a *app.App, publicURL string, logger *slog.Logger) *Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{app: a, public: strings.TrimRight(publicURL, "/"), logger: logger,
		cache: newHTMLCache(DefaultCacheBytes)}
	if u, err := url.Parse(h.public); err == nil {
		h.publicHost = strings.ToLower(u.Hostname())
		h.secure = u.Scheme == "https"
	}
	return h
}

// Match reports whether the reader serves a request: every path under
// /sites/, and any path but the API's on a host that is some site's
// custom hostname.
func (h *Handler) Match(r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, "/sites/") {
		return true
	}
	host := requestHost(r)
	// Site hostnames are domain names: requests by IP address (health
	// probes, the test server) need no lookup.
	if host == "" || host == h.publicHost || net.ParseIP(host) != nil || strings.HasPrefix(r.URL.Path, "/v1/") {
		return false
	}
	found, err := h.app.ReaderHostname(r.Context(), host)
	if err != nil {
		h.logger.Error("reader hostname", "host", host, "error", err)
	}
	return found
}

func requestHost(r *http.Request) string {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.ToLower(host)
}

// request is one request being served: the site, its base path, and the
// rest of the path under it.
type request struct {
	w        http.ResponseWriter
	r        *http.Request
	site     *app.PublishedSite
	base     string // path prefix of the site: /sites/{id} or /{basename}, no trailing slash
	absolute string // absolute URL of the base, for canonical URLs and the sitemap
	rest     string // path under base, without leading or trailing slash
	preview  bool   // the app's preview of unsaved settings (preview.go)
}

// ServeHTTP serves one reader request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		h.status(w, r, nil, http.StatusMethodNotAllowed, "Method not allowed", "The reader only answers GET and HEAD.")
		return
	}
	var id folio.ID
	host := ""
	path := r.URL.Path
	if strings.HasPrefix(path, "/sites/") {
		id, path, _ = strings.Cut(strings.TrimPrefix(path, "/sites/"), "/")
	} else {
		host = requestHost(r)
	}
	key := r.URL.Query().Get("share")
	if key == "" {
		key = r.URL.Query().Get("shareKey")
	}
	fromQuery := key != ""
	if !fromQuery {
		if c, err := r.Cookie(ShareCookie); err == nil {
			key = c.Value
		}
	}
	vis := readVisitor(r)
	ps, err := h.app.ReaderSiteFor(r.Context(), id, host, key, vis.Visitor)
	if err != nil {
		h.visitorFailed(w, r, id, path, vis, err)
		return
	}
	q := &request{w: w, r: r, site: ps}
	if id != "" {
		q.base = "/sites/" + id
		q.absolute = h.public + q.base
	} else {
		if b := ps.Site.Basename; b != "" {
			p := strings.TrimPrefix(path, "/")
			if p != b && !strings.HasPrefix(p, b+"/") {
				h.status(w, r, nil, http.StatusNotFound, "Page not found", "There is no page at this address.")
				return
			}
			path = strings.TrimPrefix(p, b)
			q.base = "/" + b
		}
		q.absolute = "https://" + ps.Site.Hostname + q.base
	}
	q.rest = strings.Trim(path, "/")
	if fromQuery && ps.Site.Visibility == folio.VisibilityShareLink {
		// The key opened the site: keep it for the next pages. It is
		// checked again on every request, so revoking it closes the site.
		http.SetCookie(w, &http.Cookie{Name: ShareCookie, Value: key, Path: q.base + "/", HttpOnly: true,
			Secure: h.secure, SameSite: http.SameSiteLaxMode})
	}
	h.keepVisitor(q, vis)
	h.serveSite(q)
}

// serveSite serves the path under the base of a resolved site.
func (h *Handler) serveSite(q *request) {
	switch q.rest {
	case "robots.txt":
		h.robots(q)
		return
	case "sitemap.xml":
		h.sitemap(q)
		return
	case searchPath:
		h.search(q)
		return
	case themePath:
		h.theme(q)
		return
	case scriptPath:
		h.asset(q, readerJS, "text/javascript; charset=utf-8")
		return
	case stylePath:
		h.asset(q, readerCSS, "text/css; charset=utf-8")
		return
	case searchJSONPath:
		h.searchJSON(q)
		return
	case llmsPath, llmsFullPath:
		h.llms(q, q.rest == llmsFullPath)
		return
	}
	h.page(q)
}

// fail answers an error of the app as an HTML page.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, q *request, err error) {
	switch {
	case folio.KindOf(err) == folio.Unauthenticated:
		h.status(w, r, q, http.StatusUnauthorized, "Authentication required",
			"This site is only open to authenticated visitors: open it through the link your sign-in gave you.")
	case folio.IsNotFound(err):
		h.status(w, r, q, http.StatusNotFound, "Page not found", "There is no page at this address.")
	case folio.KindOf(err) == folio.Unavailable:
		h.logger.Warn("reader", "path", r.URL.Path, "error", err)
		h.status(w, r, q, http.StatusServiceUnavailable, "Unavailable", "This site cannot be shown right now.")
	default:
		h.logger.Error("reader", "path", r.URL.Path, "error", err)
		h.status(w, r, q, http.StatusInternalServerError, "Something went wrong", "The page could not be shown.")
	}
}

// statusStrings are the catalog keys of the title and text of the
// error pages the reader shows in the site's language.
var statusStrings = map[int][2]string{
	http.StatusNotFound:            {"notFound", "notFoundText"},
	http.StatusServiceUnavailable:  {"unavailable", "unavailableText"},
	http.StatusInternalServerError: {"error", "errorText"},
	http.StatusUnauthorized:        {"authRequired", ""},
}

// status answers an HTML error page, in the site's chrome and language
// when the site is known.
func (h *Handler) status(w http.ResponseWriter, r *http.Request, q *request, code int, title, msg string) {
	v := &pageView{SiteTitle: "Folio", PageTitle: title, Message: msg, Status: code, Theme: "light", NoIndex: true}
	v.setDefaults()
	if q != nil {
		h.chrome(q, v, nil)
		v.NoIndex = true
		v.Canonical = ""
		if k, ok := statusStrings[code]; ok {
			v.PageTitle = v.T[k[0]]
			if k[1] != "" {
				v.Message = v.T[k[1]]
			}
		}
	}
	h.write(w, r, code, v)
}

func (h *Handler) write(w http.ResponseWriter, r *http.Request, code int, v *pageView) {
	if b := h.render(w, r, v); b != nil {
		h.send(w, r, code, b)
	}
}

// render executes the page template; on failure it answers 500 itself
// and returns nil.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, v *pageView) []byte {
	var buf bytes.Buffer
	if err := pageTemplate.ExecuteTemplate(&buf, "page", v); err != nil {
		h.logger.Error("reader template", "path", r.URL.Path, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return nil
	}
	return buf.Bytes()
}

// send answers a rendered page with the reader's headers.
func (h *Handler) send(w http.ResponseWriter, r *http.Request, code int, b []byte) {
	h.sendCSP(w, r, code, b, readerCSP)
}

func (h *Handler) sendCSP(w http.ResponseWriter, r *http.Request, code int, b []byte, csp string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", csp)
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// link is a titled URL of the chrome.
type link struct {
	Title, Href string
	Current     bool
}

// navItem is a page of the navigation tree: a group (a heading over its
// pages), or a page, which is a branch when it has pages under it, open
// when they are shown (Children) under a disclosure named Label.
type navItem struct {
	Title, Href, Emoji, Label string
	Icon                      template.HTML // a page icon Folio draws (pageIcon), shown when there is no emoji
	Class                     string        // of its list item: branch, closed, current
	Current, Group            bool
	Branch, Open              bool
	Children                  []navItem
}

// footerGroup is a titled group of footer links.
type footerGroup struct {
	Title string
	Links []link
}

// pageView is what the page template shows.
type pageView struct {
	SiteTitle, PageTitle, Description, Canonical, Favicon, Logo, Home string
	Theme, Lang                                                       string
	T                                                                 strs // interface strings (i18n.go)
	// Primary and PrimaryDark are the site's colours; the Text variants
	// are the same made readable as text on each theme's background.
	Primary, PrimaryDark, PrimaryText, PrimaryDarkText template.CSS
	NoIndex                                            bool
	Status                                             int
	Message                                            string
	Sections, Spaces, HeaderLinks, Breadcrumbs         []link
	FooterGroups                                       []footerGroup
	Copyright                                          string
	Nav                                                template.HTML // rendered "tree"
	Body                                               template.HTML // rendered "blocks"
	TOC                                                []heading
	Prev, Next                                         *link
	Emoji                                              string
	Icon                                               template.HTML // pageIcon, shown when there is no emoji
	Cover                                              *block        // the page's cover image
	Updated, UpdatedText                               string        // date of the revision shown: YYYY-MM-DD, and in words
	Markdown, EditURL                                  string        // the page as Markdown (PAGE.md), its source on git
	HasDrawer                                          bool          // navigation or outline: the phone menu has something to show
	// The search box, the theme switch and the assets (search.go, theme.go, assets.go).
	Search                                                *searchView
	SearchAction, SearchJSON, ThemeAction, Return, Script string
	Stylesheet, CookiePath, ThemeChoice                   string
	Toggle                                                bool
}

// setDefaults fills what a page shows before (or without) a site.
func (v *pageView) setDefaults() {
	v.Lang, v.T = "en", tr("en")
	v.Primary, v.PrimaryDark = defaultPrimary, defaultPrimary
	v.PrimaryText, v.PrimaryDarkText = readableCSS(defaultPrimary, lightBG), readableCSS(defaultPrimary, darkBG)
}

// readableCSS is a colour made readable on a background (assets.go).
func readableCSS(c template.CSS, bg string) template.CSS {
	return template.CSS(readableAt(string(c), bg, 5.6)) //nolint:gosec // a hex colour validated by hexColor, or ours
}

const defaultPrimary = template.CSS("#346DDB")

var hexColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

func obj(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ = m[k].(map[string]any)
	}
	return m
}

// chrome fills the site-wide parts of a page from the customization of
// the site (or of the site space being read).
func (h *Handler) chrome(q *request, v *pageView, ss *folio.SiteSpaceView) {
	if ss == nil {
		// Pages of no site space (search, errors) wear the default's.
		if _, def, _ := visible(q.site); def != nil {
			ss = &def.ss
		}
	}
	c := q.customization(ss)
	v.SiteTitle = q.site.Site.Title
	if t := str(c, "title"); t != "" {
		v.SiteTitle = t
	}
	v.Home = q.base + "/"
	v.NoIndex = q.site.Site.Visibility != "public"
	mode := "light"
	if str(obj(c, "themes"), "default") == "dark" {
		mode = "dark"
	}
	v.Theme = mode
	// A visitor's choice of theme (theme.go) wins over the default.
	if t := chosenTheme(q); t != "" {
		v.Theme, v.ThemeChoice = t, t
		if t != "system" {
			mode = t
		}
	}
	v.Toggle = toggleable(q)
	v.Lang = localeOf(c)
	v.T = tr(v.Lang)
	v.SearchAction, v.ThemeAction = q.base+"/"+searchPath, q.base+"/"+themePath
	v.SearchJSON = q.base + "/" + searchJSONPath
	v.Script = q.base + "/" + scriptPath + "?v=" + jsVersion
	v.Stylesheet = q.base + "/" + stylePath + "?v=" + cssVersion
	v.Return, v.CookiePath = returnPath(q.r), q.base+"/"
	v.Primary, v.PrimaryDark = defaultPrimary, defaultPrimary
	if col := str(obj(c, "styling", "primaryColor"), "light"); hexColor.MatchString(col) {
		v.Primary = template.CSS(col) //nolint:gosec // validated as a hex color just above
	}
	if col := str(obj(c, "styling", "primaryColor"), "dark"); hexColor.MatchString(col) {
		v.PrimaryDark = template.CSS(col) //nolint:gosec // validated as a hex color just above
	}
	v.PrimaryText, v.PrimaryDarkText = readableCSS(v.Primary, lightBG), readableCSS(v.PrimaryDark, darkBG)
	v.Favicon = safeURL(str(obj(c, "favicon", "icon"), mode))
	v.Logo = safeURL(str(obj(c, "header", "logo"), mode))
	r := q.renderer(nil, nil)
	links := func(list any) []link {
		var out []link
		items, _ := list.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			out = append(out, link{Title: str(m, "title"), Href: r.ref(m["to"])})
		}
		return out
	}
	v.HeaderLinks = links(obj(c, "header")["links"])
	groups, _ := obj(c, "footer")["groups"].([]any)
	for _, g := range groups {
		m, _ := g.(map[string]any)
		v.FooterGroups = append(v.FooterGroups, footerGroup{Title: str(m, "title"), Links: links(m["links"])})
	}
	v.Copyright = str(obj(c, "footer"), "copyright")
}

// customization is the customization of the site, or of the site space
// being read when it has its own.
func (q *request) customization(ss *folio.SiteSpaceView) map[string]any {
	if ss != nil {
		if over, ok := q.site.Customizations[ss.ID]; ok {
			return over
		}
	}
	return q.site.Customization
}

// renderer returns a document renderer for content of a site space.
func (q *request) renderer(c *app.Content, sp *placed) *renderer {
	var ss *folio.SiteSpaceView
	if sp != nil {
		ss = &sp.ss
	}
	return &renderer{
		t: tr(localeOf(q.customization(ss))),
		title: func(id string) string {
			if c == nil {
				return ""
			}
			n, _ := c.Node(id)
			if n.Page == nil {
				return ""
			}
			return n.Page.Title
		},
		size: func(id string) (int, int) {
			if c == nil {
				return 0, 0
			}
			if f, ok := c.File(id); ok && f.Width > 0 && f.Height > 0 && f.Width < 1e5 && f.Height < 1e5 {
				return int(f.Width), int(f.Height)
			}
			return 0, 0
		},
		file: func(id string) string {
			if c == nil {
				return ""
			}
			if f, ok := c.File(id); ok {
				return c.FileURL(f)
			}
			return ""
		},
		page: func(id, anchor string) string {
			if c == nil || sp == nil {
				return ""
			}
			p, ok := c.Paths()[id]
			if !ok {
				return ""
			}
			u := q.base + sp.prefix + "/" + escapePath(p)
			if anchor != "" {
				u += "#" + url.PathEscape(anchor)
			}
			return u
		},
	}
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return strings.Join(parts, "/")
}

// placed is a site space the reader may show, with its URL prefix under
// the site's base ("" for the site's default, "/{path}" otherwise).
type placed struct {
	ss      folio.SiteSpaceView
	section *folio.SiteSectionView
	prefix  string
}

// visible lists the site spaces the visitor sees (app.VisibleSiteSpaces
// decides), with their URL prefixes, the default one, and the sections.
func visible(ps *app.PublishedSite) (all []placed, def *placed, sections []*folio.SiteSectionView) {
	v := ps.Visible()
	for _, ss := range v.SiteSpaces {
		all = append(all, placed{ss: ss.SiteSpaceView, section: ss.Section, prefix: "/" + url.PathEscape(ss.Path)})
	}
	for i := range all {
		p := &all[i]
		if v.Default == nil || p.ss.ID != v.Default.ID {
			continue
		}
		// The site's own default is at the root of a site without
		// sections; a stand-in for a hidden one keeps its path.
		if p.section == nil && p.ss.Default {
			p.prefix = ""
		}
		def = p
	}
	return all, def, v.Sections
}

// page serves a page of a site space.
func (h *Handler) page(q *request) {
	ctx := q.r.Context()
	all, def, sections := visible(q.site)
	// {page}.md is the page as Markdown (markdown.go).
	rest, asMarkdown := strings.CutSuffix(q.rest, ".md")
	if rest == "" {
		asMarkdown = false
		rest = q.rest
	}
	segs := strings.SplitN(rest, "/", 2)
	var sp *placed
	pagePath := rest
	if rest != "" {
		// r.URL.Path is already decoded.
		first := segs[0]
		for i := range all {
			if all[i].prefix != "" && all[i].ss.Path == first {
				sp = &all[i]
				break
			}
		}
		if sp == nil {
			// A section's path leads to its default site space.
			for _, s := range sections {
				if s.Path != first {
					continue
				}
				for i := range all {
					if all[i].section != nil && all[i].section.ID == s.ID && (sp == nil || all[i].ss.Default) {
						sp = &all[i]
					}
				}
			}
		}
		if sp != nil {
			pagePath = ""
			if len(segs) == 2 {
				pagePath = segs[1]
			}
		}
	}
	if sp == nil {
		sp = def
	}
	if sp == nil {
		h.notFound(q)
		return
	}
	c, err := h.app.ReaderContent(ctx, q.site, sp.ss.ID)
	if err != nil {
		h.fail(q.w, q.r, q, err)
		return
	}
	var node content.PageNode
	if pagePath == "" {
		node, err = firstPage(c)
	} else {
		node, err = content.FindByPath(c.Tree, pagePath)
	}
	if err != nil {
		h.notFound(q)
		return
	}
	if node.Page.Type == content.PageGroup {
		// A group has no body: show its first document.
		if n, ok := firstDocument(node.Page.Pages); ok {
			node, _ = c.Node(n.ID)
		}
	}
	if asMarkdown {
		// Only a page's own address (its path, not a site space's
		// root) has a Markdown twin.
		if pagePath == "" || node.Page.Type != content.PageDocument {
			h.notFound(q)
			return
		}
		h.servePageMarkdown(q, c, sp, node)
		return
	}
	if node.Page.Type == content.PageLink {
		r := q.renderer(c, sp)
		var target any
		_ = decodeJSON(node.Page.Target, &target)
		if href := r.ref(target); href != "" {
			http.Redirect(q.w, q.r, href, http.StatusFound)
			return
		}
		h.notFound(q)
		return
	}
	// The parts come first: they tell whether the page shows OpenAPI
	// versions, which its key must carry (cache.go).
	pk := partsKey(c, node.Page.ID, q.base+sp.prefix, localeOf(q.customization(&sp.ss)))
	parts, versions, err := h.cachedParts(ctx, c, pk)
	if err != nil {
		h.fail(q.w, q.r, q, err)
		return
	}
	key := pageKey(q, c, sp, all, sections, node, versions)
	if gz, n, ok := h.cache.getPage(key); ok {
		h.sendCachedPage(q, gz, n)
		h.viewed(q, sp, node.Page.ID)
		return
	}
	if parts != nil && !parts.stub {
		h.cache.hit()
	} else {
		h.cache.miss()
		if parts, err = h.pageParts(ctx, q, c, sp, node); err != nil {
			h.fail(q.w, q.r, q, err)
			return
		}
		key = pageKey(q, c, sp, all, sections, node, versionsKey(parts.Specs, parts.Versions))
	}
	if b := h.renderPage(q, c, sp, all, sections, node, parts); b != nil {
		if key != "" && !parts.transient {
			h.cache.putPage(key, b, pk, parts)
		}
		h.sendPage(q, b)
		h.viewed(q, sp, node.Page.ID)
	}
}

// readerCSP is the reader's content security policy: scripts only from
// this server (the reader's own script, scriptPath), never inline, and
// styles from this server (stylePath) or the page's own colours: the
// reader works without JavaScript, and this stops any script that
// escaping would have missed.
const readerCSP = "default-src 'self'; img-src * data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'"

// sendCachedPage answers a page of the site held compressed by the cache:
// as it is to a browser that accepts gzip, when no integration script is
// added to it, else inflated and sent as sendPage does.
func (h *Handler) sendCachedPage(q *request, gz []byte, n int) {
	scripts := h.siteScripts(q)
	if acceptsGzip(q.r) && len(scripts) == 0 {
		q.w.Header().Set("Content-Encoding", "gzip")
		q.w.Header().Set("Vary", "Accept-Encoding")
		h.send(q.w, q.r, http.StatusOK, gz)
		return
	}
	b, err := inflatePage(gz, n)
	if err != nil {
		h.fail(q.w, q.r, q, fmt.Errorf("reader: a cached page does not inflate: %w", err))
		return
	}
	h.sendPageWith(q, b, scripts)
}

// sendPage answers a page of the site, with the scripts of the
// integrations installed on it (site:script:inject) added before </body>
// and their origins, and the script-src and connect-src sources of their
// policies, allowed by the page's policy. Pages are cached without them.
func (h *Handler) sendPage(q *request, b []byte) { h.sendPageWith(q, b, h.siteScripts(q)) }

// siteScripts are the integration scripts a page of the site gets (none
// in a customization preview).
func (h *Handler) siteScripts(q *request) []app.SiteScript {
	if q.preview {
		return nil
	}
	return h.app.ReaderSiteScripts(q.r.Context(), q.site.Site.OrganizationID, q.site.Site.ID)
}

// sendPageWith is sendPage with the site's scripts already looked up.
func (h *Handler) sendPageWith(q *request, b []byte, scripts []app.SiteScript) {
	q.w.Header().Set("Vary", "Accept-Encoding") // the cached copy may be sent compressed
	if len(scripts) == 0 {
		h.send(q.w, q.r, http.StatusOK, b)
		return
	}
	var tags strings.Builder
	scriptSrc, connectSrc := []string{"'self'"}, []string{"'self'"}
	for _, s := range scripts {
		tags.WriteString(`<script async src="` + html.EscapeString(s.URL) + `"></script>`)
		if u, err := url.Parse(s.URL); err == nil {
			scriptSrc = append(scriptSrc, u.Scheme+"://"+u.Host)
		}
		for _, d := range strings.Split(s.CSP, ";") {
			f := strings.Fields(d)
			if len(f) < 2 {
				continue
			}
			for _, src := range f[1:] {
				if !cspSource(src) {
					continue
				}
				switch f[0] {
				case "script-src":
					scriptSrc = append(scriptSrc, src)
				case "connect-src":
					connectSrc = append(connectSrc, src)
				}
			}
		}
	}
	page := bytes.Replace(b, []byte("</body>"), []byte(tags.String()+"</body>"), 1)
	csp := strings.Replace(readerCSP, "script-src 'self'", "script-src "+strings.Join(slices.Compact(scriptSrc), " ")+
		"; connect-src "+strings.Join(slices.Compact(connectSrc), " "), 1)
	h.sendCSP(q.w, q.r, http.StatusOK, page, csp)
}

// cspSource reports whether a source from an integration's policy may
// join the reader's: hosts and schemes, never 'unsafe-inline', 'unsafe-eval'
// or anything that would reopen inline script.
func cspSource(src string) bool {
	if strings.HasPrefix(src, "'") {
		return src == "'self'"
	}
	return !strings.ContainsAny(src, ";,\"") && len(src) < 200
}

// viewed tells the integrations installed on the site about a page view
// (site_view), without waiting. The URL goes without its query, which can
// hold a share key or a visitor token; no cookie is passed on.
func (h *Handler) viewed(q *request, sp *placed, page string) {
	if q.r.Method != http.MethodGet {
		return
	}
	// The server puts the client address in the context (behind trusted
	// proxies, the forwarded one); the peer's stands in without it.
	ip := folio.ClientAddress(q.r.Context())
	if ip == "" {
		ip = q.r.RemoteAddr
		if host, _, err := net.SplitHostPort(ip); err == nil {
			ip = host
		}
	}
	lang, _, _ := strings.Cut(q.r.Header.Get("Accept-Language"), ",")
	lang, _, _ = strings.Cut(lang, ";")
	u := q.absolute
	if q.rest != "" {
		u += "/" + q.rest
	}
	h.app.SiteViewed(app.SiteView{OrgID: q.site.Site.OrganizationID, SiteID: q.site.Site.ID, SiteSpaceID: sp.ss.ID,
		SpaceID: sp.ss.SpaceID, PageID: page, URL: u, Referrer: folio.Clip(q.r.Referer(), 2048), IP: ip,
		UserAgent: folio.Clip(q.r.UserAgent(), 512), Language: folio.Clip(strings.TrimSpace(lang), 35)})
}

// notFound answers a path that leads nowhere: a redirect of the site when
// one has it as source, else 404.
func (h *Handler) notFound(q *request) {
	r, err := h.app.ReaderRedirect(q.r.Context(), q.site, "/"+q.rest)
	if err == nil {
		if to := h.redirectTarget(q, r); to != "" {
			http.Redirect(q.w, q.r, to, http.StatusFound)
			return
		}
	}
	h.status(q.w, q.r, q, http.StatusNotFound, "Page not found", "There is no page at this address.")
}

// redirectTarget is the reader URL of a redirect's destination, "" when
// the destination is not visible any more.
func (h *Handler) redirectTarget(q *request, r *folio.SiteRedirect) string {
	all, _, sections := visible(q.site)
	d := r.Destination
	switch {
	case d.SiteSpaceID != "":
		for i := range all {
			sp := &all[i]
			if sp.ss.ID != d.SiteSpaceID {
				continue
			}
			if d.PageID == "" {
				return q.base + sp.prefix + "/"
			}
			c, err := h.app.ReaderContent(q.r.Context(), q.site, sp.ss.ID)
			if err != nil {
				return ""
			}
			return q.renderer(c, sp).page(d.PageID, "")
		}
	case d.SiteSectionID != "":
		for _, s := range sections {
			if s.ID == d.SiteSectionID {
				return q.base + "/" + url.PathEscape(s.Path)
			}
		}
	}
	return ""
}

func decodeJSON(b []byte, v any) error {
	if len(b) == 0 {
		return nil
	}
	return jsonUnmarshal(b, v)
}
