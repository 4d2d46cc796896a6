package web

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/foliodocs/folio"
)

// extendRoutes are the pages of issue 28's second part: a space's git
// sync, and the organization's OpenAPI specifications, translations,
// integrations, webhooks and audit log. Long work (git syncs, spec
// processing, translation runs) has a JSON status route that
// static/progress.js polls.
func (h *Handler) extendRoutes() {
	h.handle("GET /s/{space}/~/git", signedIn, h.gitPage)
	h.handle("GET /s/{space}/~/git/status", signedIn, h.gitStatus)
	h.handle("POST /s/{space}/~/git", signedIn, h.gitSync)
	h.handle("POST /s/{space}/~/git/disconnect", signedIn, h.gitDisconnect)
	h.handle("POST /s/{space}/~/git/forget", signedIn, h.gitForget)

	h.handle("GET /o/{org}/openapi", signedIn, h.openAPIList)
	h.handle("POST /o/{org}/openapi", signedIn, h.openAPICreate)
	h.handle("GET /o/{org}/openapi/{slug}", signedIn, h.openAPISpec)
	h.handle("GET /o/{org}/openapi/{slug}/status", signedIn, h.openAPIStatus)
	h.handle("POST /o/{org}/openapi/{slug}/{action}", signedIn, h.openAPIAction)
	h.handle("GET /openapi/{slug}", signedIn, h.openAPILink)

	h.handle("GET /o/{org}/translations", signedIn, h.translationList)
	h.handle("POST /o/{org}/translations", signedIn, h.translationCreate)
	h.handle("GET /o/{org}/translations/{id}", signedIn, h.translationPage)
	h.handle("GET /o/{org}/translations/{id}/status", signedIn, h.translationStatus)
	h.handle("POST /o/{org}/translations/{id}/{action}", signedIn, h.translationAction)

	h.handle("GET /o/{org}/integrations", signedIn, h.integrationList)
	h.handle("GET /o/{org}/integrations/{name}", signedIn, h.integrationPage)
	h.handle("POST /o/{org}/integrations/{name}/{action}", signedIn, h.integrationAction)
	h.handle("GET /integrations/{name}", signedIn, h.integrationLink)
	h.handle("GET /integrations/{name}/{rest...}", signedIn, h.integrationLink)

	h.handle("GET /o/{org}/webhooks", signedIn, h.webhookList)
	h.handle("POST /o/{org}/webhooks", signedIn, h.webhookCreate)
	h.handle("GET /o/{org}/webhooks/{id}", signedIn, h.webhookPage)
	h.handle("POST /o/{org}/webhooks/{id}/{action}", signedIn, h.webhookAction)
	h.handle("POST /o/{org}/webhooks/{id}/deliveries/{delivery}/redeliver", signedIn, h.webhookRedeliver)

	h.handle("GET /o/{org}/audit", signedIn, h.auditLog)
}

// listPage is how many rows a page of these lists shows.
const listPage = 25

// pageOptions reads the ?page= cursor of a bounded list.
func pageOptions(r *http.Request) (folio.ListOptions, error) {
	opts, err := folio.ParseListOptions(r.URL.Query().Get("page"), "")
	if err != nil {
		return opts, folio.Errorf(folio.Invalid, "the page link is not valid: go back to the first page")
	}
	opts.Limit = listPage
	return opts, nil
}

// nextHref is the link to a list's next page ("" on the last), keeping
// the other query parameters.
func nextHref(r *http.Request, next string) string {
	if next == "" {
		return ""
	}
	q := r.URL.Query()
	q.Set("page", next)
	return r.URL.Path + "?" + q.Encode()
}

// progress is what a status route answers and static/progress.js shows:
// the state, a sentence saying it, the counts of a progress bar (0 of 0
// when unknown), whether the work ended, and the error it ended with.
type progress struct {
	State string `json:"state"`
	Text  string `json:"text"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Ended bool   `json:"ended"`
	Error string `json:"error"`
	// Href is the status route the page polls (not part of the JSON).
	Href string `json:"-"`
}

func writeProgress(w http.ResponseWriter, p progress) error {
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(p)
}

// renderLive renders a page showing live progress: with
// static/progress.js, and a policy that lets it fetch the status routes
// (same origin only).
func (h *Handler) renderLive(w http.ResponseWriter, name string, q *req, title string, data any) {
	w.Header().Set("Content-Security-Policy", h.csp()+"; connect-src 'self'")
	h.renderPage(w, http.StatusOK, name, q, title, data, pageAssets{Scripts: []string{assetsByKey["progress.js"].url}})
}

// seeOther redirects after a form, with a notice key in the query.
func seeOther(w http.ResponseWriter, r *http.Request, path, notice string) {
	if notice != "" {
		path += "?done=" + url.QueryEscape(notice)
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

// extendNotices are the messages a page of this area shows after a form
// redirected to it.
var extendNotices = map[string]string{
	"queued":        "The git sync is queued; its progress shows below.",
	"disconnected":  "The space is no longer connected to a repository.",
	"forgotten":     "The saved credentials are forgotten: the next syncs send none until you give them again.",
	"created":       "Created.",
	"updated":       "Saved.",
	"deleted":       "Deleted.",
	"processing":    "The specification is being processed; its state shows below.",
	"running":       "The translation run is queued; its progress shows below.",
	"installed":     "Installed.",
	"uninstalled":   "Uninstalled.",
	"target-added":  "Installed there.",
	"target-remove": "Removed from there.",
	"tested":        "A test event is on its way; its delivery shows below.",
	"redelivered":   "The delivery is queued again.",
}

func noticeOf(r *http.Request) string { return extendNotices[r.URL.Query().Get("done")] }
