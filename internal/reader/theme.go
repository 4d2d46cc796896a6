package reader

import (
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
)

// ThemeCookie holds the theme a visitor chose with the theme switch
// (light, dark or system), scoped to the site's base path. Without it the
// site customization's themes.default applies.
const ThemeCookie = "folio_theme"

// themePath is the theme switch under a site's base:
// {base}/~/theme?theme=dark&return=/path sets ThemeCookie and redirects
// back to return, a path of the same site (else to the site's root).
const themePath = "~/theme"

// themes are the values the switch accepts.
var themes = map[string]bool{"light": true, "dark": true, "system": true}

// theme serves the theme switch: it works as a plain link or form, so
// the switch needs no JavaScript.
func (h *Handler) theme(q *request) {
	query := q.r.URL.Query()
	if t := query.Get("theme"); themes[t] && toggleable(q) {
		http.SetCookie(q.w, &http.Cookie{Name: ThemeCookie, Value: t, Path: q.base + "/",
			MaxAge: int((365 * 24 * time.Hour).Seconds()), Secure: h.secure, SameSite: http.SameSiteLaxMode})
	}
	to := q.base + "/"
	if ret := query.Get("return"); sameSitePath(q.base, ret) {
		to = ret
	}
	q.w.Header().Set("Cache-Control", "no-store")
	http.Redirect(q.w, q.r, to, http.StatusSeeOther)
}

// toggleable reports whether a site lets visitors switch themes
// (themes.toggeable, true unless set to false).
func toggleable(q *request) bool {
	t, ok := obj(q.site.Customization, "themes")["toggeable"].(bool)
	return !ok || t
}

// chosenTheme is the theme of the visitor's cookie, "" when none (or the
// site does not let visitors choose).
func chosenTheme(q *request) string {
	c, err := q.r.Cookie(ThemeCookie)
	if err != nil || !themes[c.Value] || !toggleable(q) {
		return ""
	}
	return c.Value
}

// sameSitePath reports whether p is a path (with an optional query) under
// a site's base on this host, and nothing that a browser could read as
// another origin: no scheme, no host, no "//" or backslash that some
// browsers take for one, no control characters, no dot segments that
// climb out of the base.
func sameSitePath(base, p string) bool {
	if len(p) > 2048 || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") ||
		strings.ContainsAny(p, "\\") || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return false
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || strings.Contains(u.Path, "\\") {
		return false
	}
	clean := path.Clean(u.Path)
	if clean != u.Path && clean+"/" != u.Path {
		return false
	}
	return base == "" || u.Path == base || strings.HasPrefix(u.Path, base+"/")
}

// returnPath is where the theme switch of a page sends the visitor back:
// the page's own path and query.
func returnPath(r *http.Request) string {
	return r.URL.RequestURI()
}
