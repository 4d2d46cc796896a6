package httpapi

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

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

// appLink serves the urls.app links of the API: /s/{spaceId}[/{path}]
// redirects (302) to the space's page on a public site that publishes it
// (the same page path); anything else, and /o/ and /c/ links, show
// appLinkPage.
func (s *Server) appLink(w http.ResponseWriter, r *http.Request) error {
	var what, id, api string
	switch {
	case r.PathValue("spaceId") != "":
		what, id = "the space", r.PathValue("spaceId")
		api = s.urls.API("/spaces/" + id)
		rest := r.PathValue("rest")
		if !strings.HasPrefix(rest, "~") {
			p, err := s.app.FindPublicSpace(r.Context(), id)
			if err == nil {
				target := s.urls.SiteSpacePublished(p.Site, p.SiteSpace)
				if rest != "" {
					target += "/" + (&url.URL{Path: rest}).EscapedPath()
				}
				http.Redirect(w, r, target, http.StatusFound)
				return nil
			}
			if !folio.IsNotFound(err) {
				return err
			}
		}
	case r.PathValue("integrationName") != "":
		what, id = "the integration", r.PathValue("integrationName")
		api = s.urls.API("/integrations/" + url.PathEscape(id))
	case r.PathValue("collectionId") != "":
		what, id = "the collection", r.PathValue("collectionId")
		api = s.urls.API("/collections/" + id)
	default:
		what, id = "the organization", r.PathValue("organizationId")
		api = s.urls.API("/orgs/" + id)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return appLinkPage.Execute(w, map[string]string{"What": what, "ID": id, "API": api})
}
