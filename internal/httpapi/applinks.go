package httpapi

import (
	"context"
	"html/template"
	"net/http"
	"net/url"
)

// publishedSpace is where a signed-out visitor of a space's urls.app link
// reads it: the same page on a public site that publishes the space
// (internal/web sends other visitors to sign in).
func (s *Server) publishedSpace(ctx context.Context, spaceID, rest string) (string, bool) {
	p, err := s.app.FindPublicSpace(ctx, spaceID)
	if err != nil {
		return "", false
	}
	target := s.urls.SiteSpacePublished(p.Site, p.SiteSpace)
	if rest != "" {
		target += "/" + (&url.URL{Path: rest}).EscapedPath()
	}
	return target, true
}

// appLinkPage is what an urls.app link shows when it has nowhere better to
// lead: Folio has no web application (docs/renderer.md, "urls.app").
var appLinkPage = template.Must(template.New("applink").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Folio</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>This link has no page in Folio</h1>
<p>Folio serves its API and published sites, but no web application. This address names {{.What}}
<code>{{.ID}}</code>.</p>
<p>API clients read it at <a href="{{.API}}">{{.API}}</a> with an API token. When a public site
publishes a space, its links lead to the published page instead.</p>
</body></html>
`))

// appLink serves the urls.app links of integrations, which the web
// application does not show yet: appLinkPage. (Organizations',
// collections' and spaces' links are the web application's pages.)
func (s *Server) appLink(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("integrationName")
	api := s.urls.API("/integrations/" + url.PathEscape(id))
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return appLinkPage.Execute(w, map[string]string{"What": "the integration", "ID": id, "API": api})
}
