package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// Site customization (/o/{org}/sites/{site}/customize): a form over the
// parts of the site's customization that the reader honours, saved with
// app.UpdateSiteCustomization, beside a live preview of the reader with
// the unsaved settings (app.PreviewSite rendered by reader.Preview in an
// iframe). Uploaded logos and favicons become URLs of app.AddCustomImage.

// customRoutes are the routes of site customization, organization
// settings and PDF export.
func (h *Handler) customRoutes() {
	h.handle("GET "+app.CustomImagePath+"{name}", anyone, h.customImage)
	h.handle("GET /o/{org}/sites/{site}/customize", signedIn, h.customizePage)
	h.handle("POST /o/{org}/sites/{site}/customize", signedIn, h.saveCustomization)
	h.handle("GET /o/{org}/sites/{site}/customize/preview", anyone, h.customizePreview)
	h.handle("GET /o/{org}/sites/{site}/customize/preview/{rest...}", anyone, h.customizePreview)
	h.handle("GET /o/{org}/settings", signedIn, h.orgSettings)
	h.handle("POST /o/{org}/settings", signedIn, h.saveOrgSettings)
	h.handle("GET /s/{space}/~/pdf", signedIn, h.pdfPage)
	h.handle("POST /s/{space}/~/pdf", signedIn, h.startPDF)
	h.handle("GET /s/{space}/~/pdf/status", signedIn, h.pdfStatus)
	h.handle("GET /s/{space}/~/changes/{number}/pdf", signedIn, h.pdfPage)
	h.handle("POST /s/{space}/~/changes/{number}/pdf", signedIn, h.startPDF)
	h.handle("GET /s/{space}/~/changes/{number}/pdf/status", signedIn, h.pdfStatus)
}

// The reader's page backgrounds (internal/reader's lightBG and darkBG),
// against which a primary colour's contrast is judged.
const (
	readerLightBG = "#ffffff"
	readerDarkBG  = "#0d1117"
)

// readerLocales are the languages of the reader's catalog, which the
// customization's locale chooses.
var readerLocales = []struct{ Code, Name string }{
	{"en", "English"}, {"fr", "Français"}, {"de", "Deutsch"}, {"es", "Español"}, {"ja", "日本語"},
}

// Blank rows the form offers for new links and groups (without JavaScript
// there is no "add" button).
const (
	blankHeaderLinks = 2
	blankFooterLinks = 2
)

// linkRow is a link of the header or of a footer group. Extra is the JSON
// of the rest of the stored item (a link to a page, sub-links, a style),
// kept as it was: the form edits titles and URLs only.
type linkRow struct {
	Title, URL, Extra string
}

// groupRow is a footer group.
type groupRow struct {
	Title string
	Links []linkRow
}

// customForm is what the customization form shows and posts.
type customForm struct {
	Title                     string
	PrimaryLight, PrimaryDark string
	Tint                      bool
	TintLight, TintDark       string
	Theme                     string // light or dark
	Toggle                    bool
	Locale                    string
	Header                    []linkRow
	Footer                    []groupRow
	Copyright                 string
	EditLink                  bool
	// The images are not fields: they change by upload or removal.
	Logo, LogoDark, Favicon, FaviconDark string
}

// customView is the customization page.
type customView struct {
	Frame      *orgFrame
	Site       folio.SiteView
	Action     string
	Preview    string // the preview's URL (saved settings)
	Form       customForm
	Locales    []struct{ Code, Name string }
	Warnings   []string // contrast warnings
	Error      string
	Saved      bool
	MaxImageKB int
	Images     []imageField
}

// imageField is the logo or the favicon: its uploads, what it is now.
type imageField struct {
	Name, Label string
	Light, Dark string // current URLs
	Shown       bool   // on this server: the page may show them
	LightSrc    string // the same as paths of this origin
	DarkSrc     string
}

func docStr(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func docObj(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ = m[k].(map[string]any)
	}
	return m
}

// formFromDoc reads the form's fields out of a customization document.
func formFromDoc(doc map[string]any) customForm {
	f := customForm{
		Title:        docStr(doc, "title"),
		PrimaryLight: docStr(docObj(doc, "styling", "primaryColor"), "light"),
		PrimaryDark:  docStr(docObj(doc, "styling", "primaryColor"), "dark"),
		TintLight:    docStr(docObj(doc, "styling", "tint", "color"), "light"),
		TintDark:     docStr(docObj(doc, "styling", "tint", "color"), "dark"),
		Theme:        docStr(docObj(doc, "themes"), "default"),
		Locale:       docStr(docObj(doc, "internationalization"), "locale"),
		Copyright:    docStr(docObj(doc, "footer"), "copyright"),
		Logo:         docStr(docObj(doc, "header", "logo"), "light"),
		LogoDark:     docStr(docObj(doc, "header", "logo"), "dark"),
		Favicon:      docStr(docObj(doc, "favicon", "icon"), "light"),
		FaviconDark:  docStr(docObj(doc, "favicon", "icon"), "dark"),
	}
	f.Tint = f.TintLight != ""
	// A colour input shows #rrggbb only.
	for _, c := range []*string{&f.PrimaryLight, &f.PrimaryDark, &f.TintLight, &f.TintDark} {
		if v, ok := hexRGB(*c); ok {
			*c = fmt.Sprintf("#%02x%02x%02x", int(v[0]), int(v[1]), int(v[2]))
		}
	}
	if f.TintLight == "" {
		f.TintLight, f.TintDark = "#f4f6fb", "#161b22"
	}
	if t, ok := docObj(doc, "themes")["toggeable"].(bool); !ok || t {
		f.Toggle = true
	}
	f.EditLink, _ = docObj(doc, "git")["showEditLink"].(bool)
	rows := func(list any) []linkRow {
		var out []linkRow
		items, _ := list.([]any)
		for _, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				continue
			}
			row := linkRow{Title: docStr(m, "title")}
			rest := map[string]any{}
			for k, v := range m {
				rest[k] = v
			}
			delete(rest, "title")
			if to, _ := m["to"].(map[string]any); docStr(to, "kind") == "url" {
				row.URL = docStr(to, "url")
				delete(rest, "to")
			}
			if len(rest) > 0 {
				b, _ := json.Marshal(rest)
				row.Extra = string(b)
			}
			out = append(out, row)
		}
		return out
	}
	f.Header = rows(docObj(doc, "header")["links"])
	groups, _ := docObj(doc, "footer")["groups"].([]any)
	for _, g := range groups {
		m, _ := g.(map[string]any)
		f.Footer = append(f.Footer, groupRow{Title: docStr(m, "title"), Links: rows(m["links"])})
	}
	return f
}

// formFromValues reads the posted form (or the preview's query).
func formFromValues(v url.Values) customForm {
	get := func(k string) string { return strings.TrimSpace(v.Get(k)) }
	f := customForm{Title: get("title"), PrimaryLight: get("primary_light"), PrimaryDark: get("primary_dark"),
		Tint: v.Get("tint") == "on", TintLight: get("tint_light"), TintDark: get("tint_dark"),
		Theme: get("theme"), Toggle: v.Get("toggle") == "on", Locale: get("locale"), Copyright: get("copyright"),
		EditLink: v.Get("edit_link") == "on"}
	rows := func(prefix string) []linkRow {
		titles, urls, extras := v[prefix+"_title"], v[prefix+"_url"], v[prefix+"_extra"]
		var out []linkRow
		for i, t := range titles {
			row := linkRow{Title: strings.TrimSpace(t)}
			if i < len(urls) {
				row.URL = strings.TrimSpace(urls[i])
			}
			if i < len(extras) {
				row.Extra = extras[i]
			}
			out = append(out, row)
		}
		return out
	}
	f.Header = rows("header")
	for i, t := range v["group_title"] {
		f.Footer = append(f.Footer, groupRow{Title: strings.TrimSpace(t), Links: rows("group" + strconv.Itoa(i))})
	}
	return f
}

// withBlanks adds the blank rows the page offers for new links and a new
// footer group, within the reader's limits.
func (f customForm) withBlanks() customForm {
	f.Header = append([]linkRow(nil), f.Header...)
	for i := 0; i < blankHeaderLinks && len(f.Header) < folio.MaxHeaderLinks; i++ {
		f.Header = append(f.Header, linkRow{})
	}
	groups := make([]groupRow, 0, len(f.Footer)+1)
	for _, g := range f.Footer {
		g.Links = append([]linkRow(nil), g.Links...)
		for i := 0; i < blankFooterLinks && len(g.Links) < folio.MaxFooterLinks; i++ {
			g.Links = append(g.Links, linkRow{})
		}
		groups = append(groups, g)
	}
	if len(groups) < folio.MaxFooterGroups {
		groups = append(groups, groupRow{Links: make([]linkRow, blankFooterLinks)})
	}
	f.Footer = groups
	return f
}

// fieldError is a mistake in the form, said for its reader.
func customFieldError(field, format string, args ...any) error {
	return folio.FieldErrorf(field, format, args...)
}

// items turns rows into the customization's link items: empty rows are
// left out, a title needs a link (an http or https URL, or the link the
// item already had).
func linkItems(rows []linkRow, what string) ([]any, error) {
	out := []any{}
	for i, r := range rows {
		if r.Title == "" && r.URL == "" {
			continue
		}
		item := map[string]any{}
		if r.Extra != "" {
			if err := json.Unmarshal([]byte(r.Extra), &item); err != nil || item == nil {
				return nil, customFieldError(what, "%s %d could not be read: reload the page and try again", what, i+1)
			}
		}
		if r.Title == "" {
			return nil, customFieldError(what, "%s %d needs a title", what, i+1)
		}
		if utf8.RuneCountInString(r.Title) > folio.MaxLinkTitle {
			return nil, customFieldError(what, "%s %d: the title must be at most %d characters", what, i+1, folio.MaxLinkTitle)
		}
		item["title"] = r.Title
		switch {
		case r.URL != "":
			u, err := url.Parse(r.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(r.URL) > folio.MaxURL {
				return nil, customFieldError(what, "%s %d: %q is not a web address; write it as https://example.com/page", what, i+1, r.URL)
			}
			item["to"] = map[string]any{"kind": "url", "url": r.URL}
		case item["to"] == nil:
			return nil, customFieldError(what, "%s %d (%s) needs a URL", what, i+1, r.Title)
		}
		out = append(out, item)
	}
	return out, nil
}

// doc applies the form to a copy of the site's customization: the parts
// the form does not show are kept as they are.
func (f customForm) doc(saved map[string]any) (map[string]any, error) {
	var doc map[string]any
	b, _ := json.Marshal(saved)
	_ = json.Unmarshal(b, &doc)
	if doc == nil {
		doc = map[string]any{}
	}
	section := func(k string) map[string]any {
		m, ok := doc[k].(map[string]any)
		if !ok {
			m = map[string]any{}
			doc[k] = m
		}
		return m
	}
	if f.Title == "" {
		delete(doc, "title")
	} else {
		if n := utf8.RuneCountInString(f.Title); n < folio.MinSiteTitle || n > folio.MaxSiteTitle {
			return nil, customFieldError("title", "The title must be %d to %d characters, or empty to use the site's name", folio.MinSiteTitle, folio.MaxSiteTitle)
		}
		doc["title"] = f.Title
	}
	for _, c := range []struct{ name, v string }{{"primary colour (light)", f.PrimaryLight}, {"primary colour (dark)", f.PrimaryDark},
		{"tint (light)", f.TintLight}, {"tint (dark)", f.TintDark}} {
		if _, ok := hexRGB(c.v); !ok && (f.Tint || !strings.HasPrefix(c.name, "tint")) {
			return nil, customFieldError("styling", "The %s must be a hex colour such as #346DDB, not %q", c.name, c.v)
		}
	}
	st := section("styling")
	st["primaryColor"] = map[string]any{"light": f.PrimaryLight, "dark": f.PrimaryDark}
	if f.Tint {
		st["tint"] = map[string]any{"color": map[string]any{"light": f.TintLight, "dark": f.TintDark}}
	} else {
		delete(st, "tint")
	}
	if f.Theme != "light" && f.Theme != "dark" {
		return nil, customFieldError("themes.default", "The default theme must be light or dark")
	}
	section("themes")["default"] = f.Theme
	section("themes")["toggeable"] = f.Toggle
	known := false
	for _, l := range readerLocales {
		known = known || l.Code == f.Locale
	}
	if !known {
		return nil, customFieldError("locale", "Choose one of the languages offered")
	}
	section("internationalization")["locale"] = f.Locale
	header, err := linkItems(f.Header, "Header link")
	if err != nil {
		return nil, err
	}
	if len(header) > folio.MaxHeaderLinks {
		return nil, customFieldError("header", "At most %d header links", folio.MaxHeaderLinks)
	}
	section("header")["links"] = header
	groups := []any{}
	for i, g := range f.Footer {
		links, err := linkItems(g.Links, fmt.Sprintf("Footer group %d, link", i+1))
		if err != nil {
			return nil, err
		}
		if g.Title == "" && len(links) == 0 {
			continue
		}
		if g.Title == "" {
			return nil, customFieldError("footer", "Footer group %d needs a title", i+1)
		}
		if utf8.RuneCountInString(g.Title) > folio.MaxLinkTitle {
			return nil, customFieldError("footer", "Footer group %d: the title must be at most %d characters", i+1, folio.MaxLinkTitle)
		}
		groups = append(groups, map[string]any{"title": g.Title, "links": links})
	}
	footer := section("footer")
	footer["groups"] = groups
	if f.Copyright == "" {
		delete(footer, "copyright")
	} else {
		footer["copyright"] = f.Copyright
	}
	section("git")["showEditLink"] = f.EditLink
	themed := func(light, dark string) map[string]any {
		if dark == "" {
			dark = light
		}
		return map[string]any{"light": light, "dark": dark}
	}
	if f.Logo == "" {
		delete(section("header"), "logo")
	} else {
		section("header")["logo"] = themed(f.Logo, f.LogoDark)
	}
	if f.Favicon == "" {
		doc["favicon"] = map[string]any{}
	} else {
		doc["favicon"] = map[string]any{"icon": themed(f.Favicon, f.FaviconDark)}
	}
	return doc, nil
}

// rgb parses a #rgb or #rrggbb colour.
func hexRGB(s string) ([3]float64, bool) {
	var c [3]float64
	if len(s) == 4 && s[0] == '#' {
		s = "#" + string([]byte{s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	if len(s) != 7 || s[0] != '#' {
		return c, false
	}
	for i := range 3 {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, false
		}
		c[i] = float64(v)
	}
	return c, true
}

// contrast is the WCAG contrast ratio of two colours.
func wcagContrast(a, b [3]float64) float64 {
	lum := func(c [3]float64) float64 {
		var l [3]float64
		for i, v := range c {
			v /= 255
			if v <= 0.03928 {
				l[i] = v / 12.92
			} else {
				l[i] = math.Pow((v+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// contrastWarnings says which primary colours fail WCAG AA (4.5:1 for
// text) against the reader's background of their theme.
func contrastWarnings(f customForm) []string {
	var out []string
	for _, c := range []struct{ name, v, bg, theme string }{
		{"light", f.PrimaryLight, readerLightBG, "light"}, {"dark", f.PrimaryDark, readerDarkBG, "dark"},
	} {
		fg, ok1 := hexRGB(c.v)
		bg, _ := hexRGB(c.bg)
		if !ok1 {
			continue
		}
		if r := wcagContrast(fg, bg); r < 4.5 {
			out = append(out, fmt.Sprintf("The primary colour for the %s theme (%s) has a contrast of %.1f:1 with the %s background (%s): "+
				"WCAG AA asks 4.5:1 for text. The reader will adjust it for links and text.", c.name, c.v, math.Floor(r*10)/10, c.theme, c.bg))
		}
	}
	return out
}

var errCannotCustomize = folio.Errorf(folio.Forbidden, "only members with the create role or higher can customize sites")

// customSite loads what the customization page needs, refusing those who
// may not change it (the page is not offered to them either).
func (h *Handler) customSite(r *http.Request, q *req) (*orgFrame, *folio.SiteView, map[string]any, error) {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "sites")
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := h.app.GetSite(ctx, q.caller, f.Org.ID, r.PathValue("site"))
	if err != nil {
		return nil, nil, nil, err
	}
	if !s.Manage {
		return nil, nil, nil, errCannotCustomize
	}
	doc, err := h.app.GetSiteCustomization(ctx, q.caller, f.Org.ID, s.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	return f, s, doc, nil
}

// customizePage shows the customization form and the preview.
func (h *Handler) customizePage(w http.ResponseWriter, r *http.Request, q *req) error {
	f, s, doc, err := h.customSite(r, q)
	if err != nil {
		return err
	}
	h.renderCustomize(w, q, http.StatusOK, f, s, formFromDoc(doc), "", r.URL.Query().Get("saved") == "1")
	return nil
}

func (h *Handler) renderCustomize(w http.ResponseWriter, q *req, status int, f *orgFrame, s *folio.SiteView, form customForm, msg string, saved bool) {
	base := "/o/" + f.Org.ID + "/sites/" + s.ID + "/customize"
	v := customView{Frame: f, Site: *s, Action: base, Preview: base + "/preview", Form: form.withBlanks(), Locales: readerLocales,
		Warnings: contrastWarnings(form), Error: msg, Saved: saved, MaxImageKB: app.MaxCustomImageBytes >> 10}
	local := func(u string) bool { return strings.HasPrefix(u, h.public+app.CustomImagePath) }
	v.Images = []imageField{
		{Name: "logo", Label: "Logo", Light: form.Logo, Dark: form.LogoDark, Shown: local(form.Logo) && (form.LogoDark == "" || local(form.LogoDark))},
		{Name: "favicon", Label: "Favicon", Light: form.Favicon, Dark: form.FaviconDark, Shown: local(form.Favicon) && (form.FaviconDark == "" || local(form.FaviconDark))},
	}
	for i := range v.Images {
		im := &v.Images[i]
		im.LightSrc, im.DarkSrc = strings.TrimPrefix(im.Light, h.public), strings.TrimPrefix(im.Dark, h.public)
	}
	// The preview is a frame of this origin.
	w.Header().Set("Content-Security-Policy", h.csp()+"; frame-src 'self'")
	h.renderPage(w, status, "custom", q, "Customize "+s.Title, v, pageAssets{Scripts: []string{assetsByKey["custom.js"].url}})
}

// customImages are the upload fields of the form: field, and where the
// URL goes.
var customImages = []struct {
	field, label string
	set          func(f *customForm, url string)
}{
	{"logo", "Logo", func(f *customForm, u string) { f.Logo = u }},
	{"logo_dark", "Logo for the dark theme", func(f *customForm, u string) { f.LogoDark = u }},
	{"favicon", "Favicon", func(f *customForm, u string) { f.Favicon = u }},
	{"favicon_dark", "Favicon for the dark theme", func(f *customForm, u string) { f.FaviconDark = u }},
}

// saveCustomization saves the form: uploads first (each checked and
// stored by the app), then the whole customization in one update. A
// mistake shows the form again, as posted, with what to fix; nothing is
// saved then.
func (h *Handler) saveCustomization(w http.ResponseWriter, r *http.Request, q *req) error {
	f, s, saved, err := h.customSite(r, q)
	if err != nil {
		return err
	}
	form := formFromValues(r.PostForm)
	cur := formFromDoc(saved)
	form.Logo, form.LogoDark, form.Favicon, form.FaviconDark = cur.Logo, cur.LogoDark, cur.Favicon, cur.FaviconDark
	if r.PostForm.Get("logo_remove") == "on" {
		form.Logo, form.LogoDark = "", ""
	}
	if r.PostForm.Get("favicon_remove") == "on" {
		form.Favicon, form.FaviconDark = "", ""
	}
	fail := func(err error) error {
		k := folio.KindOf(err)
		if k != folio.Invalid && k != folio.TooLarge {
			return err
		}
		h.renderCustomize(w, q, statusOf(k), f, s, form, folio.MessageOf(err), false)
		return nil
	}
	for _, im := range customImages {
		data, ok, err := formUpload(r, im.field, im.label)
		if err != nil {
			return fail(err)
		}
		if !ok {
			continue
		}
		u, err := h.app.AddCustomImage(r.Context(), q.caller, f.Org.ID, s.ID, im.label, data)
		if err != nil {
			return fail(err)
		}
		im.set(&form, u)
	}
	if form.Logo == "" && form.LogoDark != "" {
		form.Logo = form.LogoDark
	}
	if form.Favicon == "" && form.FaviconDark != "" {
		form.Favicon = form.FaviconDark
	}
	doc, err := form.doc(saved)
	if err != nil {
		return fail(err)
	}
	if _, err := h.app.UpdateSiteCustomization(r.Context(), q.caller, f.Org.ID, s.ID, doc); err != nil {
		return fail(err)
	}
	http.Redirect(w, r, "/o/"+f.Org.ID+"/sites/"+s.ID+"/customize?saved=1", http.StatusSeeOther)
	return nil
}

// upload reads the file of an upload field; ok is false when none was
// chosen.
func formUpload(r *http.Request, field, label string) (data []byte, ok bool, err error) {
	if r.MultipartForm == nil {
		return nil, false, nil
	}
	fhs := r.MultipartForm.File[field]
	if len(fhs) == 0 || fhs[0].Size == 0 && fhs[0].Filename == "" {
		return nil, false, nil
	}
	fh := fhs[0]
	if fh.Size > app.MaxCustomImageBytes {
		return nil, false, folio.Errorf(folio.TooLarge, "%s: the image is larger than %d KiB", label, app.MaxCustomImageBytes>>10)
	}
	var file multipart.File
	if file, err = fh.Open(); err != nil {
		return nil, false, folio.Errorf(folio.Invalid, "%s could not be read", label)
	}
	defer file.Close()
	data, err = io.ReadAll(io.LimitReader(file, app.MaxCustomImageBytes+1))
	if err != nil {
		return nil, false, folio.Errorf(folio.Invalid, "%s could not be read", label)
	}
	return data, true, nil
}

// customizePreview serves the preview frame: the site's reader with the
// settings of the query (the form's fields, sent by custom.js as they
// change), or the saved ones without. The reader's stylesheet and script
// are the same for every site and need no session: the frame is
// sandboxed, so its own requests carry no cookie.
func (h *Handler) customizePreview(w http.ResponseWriter, r *http.Request, q *req) error {
	// This response, and only this one, may be framed, by the app's pages.
	w.Header().Set("X-Frame-Options", "SAMEORIGIN")
	w.Header().Set("Content-Security-Policy", strings.Replace(h.csp(), "frame-ancestors 'none'", "frame-ancestors 'self'", 1))
	fw := &frameWriter{ResponseWriter: w}
	base := "/o/" + r.PathValue("org") + "/sites/" + r.PathValue("site") + "/customize/preview"
	rest := r.PathValue("rest")
	if rest == "~/reader.css" || rest == "~/reader.js" {
		h.preview.Preview(fw, r, nil, base, rest)
		return nil
	}
	if q.secret == "" {
		return errSignInFirst
	}
	ctx := r.Context()
	orgID, siteID := r.PathValue("org"), r.PathValue("site")
	// Who may not change the settings is refused before they are read
	// (PreviewSite checks it again).
	if s, err := h.app.GetSite(ctx, q.caller, orgID, siteID); err != nil {
		return err
	} else if !s.Manage {
		return errCannotCustomize
	}
	saved, err := h.app.GetSiteCustomization(ctx, q.caller, orgID, siteID)
	if err != nil {
		return err
	}
	doc := saved
	if query := r.URL.Query(); query.Get("v") == "1" {
		form := formFromValues(query)
		cur := formFromDoc(saved)
		form.Logo, form.LogoDark, form.Favicon, form.FaviconDark = cur.Logo, cur.LogoDark, cur.Favicon, cur.FaviconDark
		if query.Get("logo_remove") == "on" {
			form.Logo, form.LogoDark = "", ""
		}
		if query.Get("favicon_remove") == "on" {
			form.Favicon, form.FaviconDark = "", ""
		}
		if doc, err = form.doc(saved); err != nil {
			return err
		}
	}
	ps, err := h.app.PreviewSite(ctx, q.caller, orgID, siteID, doc)
	if err != nil {
		return err
	}
	h.preview.Preview(fw, r, ps, base, rest)
	return nil
}

// frameWriter lets the reader's page of a preview be framed by the app's
// own pages: its policy gets frame-ancestors 'self'.
type frameWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *frameWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		hd := w.Header()
		csp := hd.Get("Content-Security-Policy")
		if strings.Contains(csp, "frame-ancestors") {
			csp = strings.Replace(csp, "frame-ancestors 'none'", "frame-ancestors 'self'", 1)
		} else {
			csp += "; frame-ancestors 'self'"
		}
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Frame-Options", "SAMEORIGIN")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *frameWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// customImage serves an uploaded logo or favicon to anyone (the published
// sites show them), cached for ever: its name is its content's hash.
func (h *Handler) customImage(w http.ResponseWriter, r *http.Request, q *req) error {
	rd, typ, err := h.app.OpenCustomImage(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	defer rd.Close()
	hd := w.Header()
	hd.Set("Content-Type", typ)
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	hd.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hd.Set("Cross-Origin-Resource-Policy", "cross-origin")
	hd.Set("Content-Length", strconv.FormatInt(rd.Size(), 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		if _, err := io.Copy(w, rd); err != nil && !errors.Is(err, http.ErrAbortHandler) {
			h.logger.Warn("image", "name", r.PathValue("name"), "error", err.Error())
		}
	}
	return nil
}
