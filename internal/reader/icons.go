package reader

import (
	"html/template"
	"strings"
)

// The reader's icons: inline SVG drawn with the text's colour, hidden from
// assistive technology (every control that shows one has its own
// accessible name). The templates call {{icon "name"}}; a map lookup
// costs less than a template of conditions on every heading and hint.

const (
	svgOpen  = `<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">`
	svgClose = `</svg>`
	glass    = `<circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/>`
)

var icons = map[string]template.HTML{
	"search":        template.HTML(`<svg class="search-icon"` + svgOpen[4:] + glass + svgClose),        //nolint:gosec // constants
	"search-submit": template.HTML(`<svg class="search-submit-icon"` + svgOpen[4:] + glass + svgClose), //nolint:gosec // constants
	"sun":           svgOpen + `<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>` + svgClose,
	"moon":          svgOpen + `<path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z"/>` + svgClose,
	"monitor":       svgOpen + `<rect x="3" y="4" width="18" height="12" rx="2"/><path d="M8 20h8M12 16v4"/>` + svgClose,
	"menu":          svgOpen + `<path d="M4 6h16M4 12h16M4 18h16"/>` + svgClose,
	"close":         svgOpen + `<path d="M6 6l12 12M18 6 6 18"/>` + svgClose,
	"chevron":       svgOpen + `<path d="m9 6 6 6-6 6"/>` + svgClose,
	"link":          svgOpen + `<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>` + svgClose,
	"info":          svgOpen + `<circle cx="12" cy="12" r="9"/><path d="M12 11v5M12 8h.01"/>` + svgClose,
	"success":       svgOpen + `<circle cx="12" cy="12" r="9"/><path d="m8 12 3 3 5-6"/>` + svgClose,
	"warning":       svgOpen + `<path d="M12 3 2 20h20z"/><path d="M12 10v4M12 17h.01"/>` + svgClose,
	"danger":        svgOpen + `<path d="M8 3h8l5 5v8l-5 5H8l-5-5V8z"/><path d="M12 8v5M12 16h.01"/>` + svgClose,
	"copy":          svgOpen + `<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>` + svgClose,
	"file":          svgOpen + `<path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z"/><path d="M14 3v5h5"/>` + svgClose,
}

// icon returns an icon's SVG, nothing for an unknown name.
func icon(name string) template.HTML { return icons[name] }

// pageIcons are the icons a page may carry (its "icon", a Font Awesome
// name in GitBook) that Folio draws itself: a small set of common docs
// icons in the same stroke style. Folio ships no icon font and makes no
// third-party request, so a name outside this set shows nothing
// (docs/decisions.md).
var pageIcons = map[string]string{
	"book":            `<path d="M12 6C10 4.5 7 4 4 4v14c3 0 6 .5 8 2 2-1.5 5-2 8-2V4c-3 0-6 .5-8 2z"/><path d="M12 6v14"/>`,
	"rocket":          `<path d="M12 3c3 2 5 6 4 11H8C7 9 9 5 12 3z"/><circle cx="12" cy="9" r="1.5"/><path d="m8 14-3 3v2h3m8-5 3 3v2h-3m-6 0 2 3 2-3"/>`,
	"gear":            `<circle cx="12" cy="12" r="3"/><circle cx="12" cy="12" r="7"/><path d="M12 2v3m0 14v3M2 12h3m14 0h3M4.9 4.9 7 7m10 10 2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"/>`,
	"code":            `<path d="m8 7-5 5 5 5m8-10 5 5-5 5M14 4l-4 16"/>`,
	"terminal":        `<rect x="2" y="4" width="20" height="16" rx="2"/><path d="m6 9 3 3-3 3m6 0h5"/>`,
	"lightbulb":       `<path d="M9 18h6m-5 3h4"/><path d="M12 3a6 6 0 0 0-3.5 10.9c.4.3.5.7.5 1.1v1h5v-1c0-.4.2-.8.5-1.1A6 6 0 0 0 12 3z"/>`,
	"shield":          `<path d="M12 3 4 6v6c0 4.5 3.4 8 8 9 4.6-1 8-4.5 8-9V6z"/>`,
	"key":             `<circle cx="8" cy="15" r="4"/><path d="m11 12 9-9m-3 3 3 3m-6 0 2 2"/>`,
	"globe":           `<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z"/>`,
	"database":        `<ellipse cx="12" cy="5" rx="8" ry="3"/><path d="M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3"/>`,
	"cloud":           `<path d="M7 19h10a4 4 0 0 0 .6-8 6 6 0 0 0-11.4-1.5A4.8 4.8 0 0 0 7 19z"/>`,
	"circle-info":     `<circle cx="12" cy="12" r="9"/><path d="M12 11v5m0-8h.01"/>`,
	"circle-question": `<circle cx="12" cy="12" r="9"/><path d="M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6m0 3.5h.01"/>`,
	"house":           `<path d="M3 11 12 4l9 7M5 10v10h5v-6h4v6h5V10"/>`,
	"bolt":            `<path d="M13 2 4 14h7l-1 8 9-12h-7z"/>`,
}

// pageIcon returns a page's icon as inline SVG, nothing when Folio does
// not draw that name.
func pageIcon(name string) template.HTML {
	d, ok := pageIcons[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return ""
	}
	return template.HTML(`<svg class="page-icon"` + svgOpen[4:] + d + svgClose) //nolint:gosec // constants
}
