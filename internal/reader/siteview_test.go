package reader_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestSiteViewEvents checks that a page view reaches the integrations
// installed on the site as site_view, without the share key or cookies.
func TestSiteViewEvents(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		var (
			mu     sync.Mutex
			events []map[string]any
		)
		tunnel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var e map[string]any
			json.Unmarshal([]byte(r.FormValue("event")), &e)
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		}))
		defer tunnel.Close()
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		manifest := map[string]any{"title": "Analytics", "description": "", "scopes": []string{"site:views:read"},
			"organization": f.org, "script": "export default { async fetch() { return new Response(\"OK\"); } };"}
		s.Do(t, f.admin, "POST", "/v1/integrations/views", manifest).WantStatus(t, 200)
		s.Do(t, f.admin, "PUT", "/v1/integrations/views/dev", map[string]any{"tunnelUrl": tunnel.URL}).WantStatus(t, 204)
		s.Do(t, f.admin, "POST", "/v1/integrations/views/installations", map[string]any{"organization": f.org}).WantStatus(t, 201)

		req, _ := http.NewRequest("GET", s.URL+"/sites/"+f.site+"/welcome?share=secret-key", nil)
		req.Header.Set("Referer", "https://search.example/")
		req.Header.Set("User-Agent", "folio-test")
		req.Header.Set("Accept-Language", "fr-FR,fr;q=0.9")
		req.AddCookie(&http.Cookie{Name: "session", Value: "private"})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("page answered %d", res.StatusCode)
		}
		// The view is recorded in the background; its delivery is a job.
		var view map[string]any
		for range 100 {
			if _, err := s.Jobs.RunDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			for _, e := range events {
				if e["type"] == "site_view" {
					view = e
				}
			}
			mu.Unlock()
			if view != nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if view == nil {
			t.Fatal("no site_view event reached the tunnel")
		}
		visitor, _ := view["visitor"].(map[string]any)
		cookies, _ := visitor["cookies"].(map[string]any)
		if view["siteId"] != f.site || view["spaceId"] != f.space || view["pageId"] == "" ||
			view["url"] != apitest.PublicURL+"/sites/"+f.site+"/welcome" || view["referrer"] != "https://search.example/" ||
			visitor["userAgent"] != "folio-test" || visitor["language"] != "fr-FR" || len(cookies) != 0 || visitor["anonymousId"] == "" {
			t.Fatalf("site_view %v", view)
		}
	})
}

// TestIntegrationScriptsInPages checks that pages of a site embed the
// scripts of integrations installed with site:script:inject, and that the
// page's policy lets them load and no more.
func TestIntegrationScriptsInPages(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		before := get(t, s, nil, "", "/sites/"+f.site+"/welcome").want(t, 200)
		if strings.Contains(before.body, "script.js") {
			t.Fatal("a page embeds a script before any integration is installed")
		}
		manifest := map[string]any{"title": "Widget", "description": "", "organization": f.org,
			"scopes":                []string{"site:script:inject"},
			"contentSecurityPolicy": "script-src https://cdn.example 'unsafe-inline'; connect-src https://api.example",
			"script":                "export default { async fetch() { return new Response('void 0', { headers: { 'content-type': 'application/javascript' } }); } }"}
		s.Do(t, f.admin, "POST", "/v1/integrations/widget", manifest).WantStatus(t, 200)
		var inst struct{ ID string }
		s.Do(t, f.admin, "POST", "/v1/integrations/widget/installations", map[string]any{"organization": f.org}).WantStatus(t, 201).JSON(t, &inst)
		s.Clock.Advance(time.Minute) // past the server's 30-second memory of the site's scripts
		p := get(t, s, nil, "", "/sites/"+f.site+"/welcome").want(t, 200,
			`<script async src="`+apitest.PublicURL+`/v1/integrations/widget/installations/`+inst.ID+`/sites/`+f.site+`/script.js"></script></body>`)
		csp := p.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' "+apitest.PublicURL+" https://cdn.example; connect-src 'self' https://api.example") ||
			strings.Contains(csp, "unsafe-inline'; connect") || strings.Contains(csp, "script-src 'self';") {
			t.Fatalf("policy %q", csp)
		}
	})
}
