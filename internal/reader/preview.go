package reader

import (
	"net/http"
	"strings"

	"github.com/foliodocs/folio/internal/app"
)

// Preview serves one request of the web app's preview of a site: the
// site's pages, assets, search and theme switch as the reader serves
// them, but for the profile ps (app.PreviewSite: the site with unsaved
// customization settings) and under base, the path the app serves the
// preview at (no trailing slash); rest is the path under base. A preview
// runs no integration script. The caller sets the framing headers.
func (h *Handler) Preview(w http.ResponseWriter, r *http.Request, ps *app.PublishedSite, base, rest string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		h.status(w, r, nil, http.StatusMethodNotAllowed, "Method not allowed", "The reader only answers GET and HEAD.")
		return
	}
	q := &request{w: w, r: r, site: ps, base: base, absolute: h.public + base, rest: strings.Trim(rest, "/"), preview: true}
	h.serveSite(q)
}
