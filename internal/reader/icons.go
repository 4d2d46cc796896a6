package reader

import "html/template"

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
