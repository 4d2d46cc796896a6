package web

import "net/http"

// flowRoutes are the routes of issue 27's first part added here: the "New
// space" form, and the icon browsers ask every page for.
func (h *Handler) flowRoutes() {
	h.handle("POST /o/{org}/spaces", signedIn, h.createSpace)
	h.handle("GET /favicon.ico", anyone, h.favicon)
}

// faviconSVG is the app's icon: a page with a folded corner, in the
// accent colour. Browsers ask for /favicon.ico whatever the page says; a
// 404 there is an error in every page's console.
const faviconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<path d="M7 3h13l7 7v19H7z" fill="#2257c4"/><path d="M20 3v7h7" fill="#9db8ef"/>` +
	`<path d="M11 15h12M11 20h12M11 25h8" stroke="#fff" stroke-width="2"/></svg>`

// favicon serves faviconSVG, cacheable for a day.
func (h *Handler) favicon(w http.ResponseWriter, r *http.Request, q *req) error {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, err := w.Write([]byte(faviconSVG))
	return err
}
