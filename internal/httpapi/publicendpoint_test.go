package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/httpapi"
)

// endpointScript answers a fetch event the way @gitbook/runtime hands it
// to an integration: it reads the event, the environment and the
// forwarded body from the multipart request, and answers what it saw.
const endpointScript = `export default { async fetch(request) {
  const form = await request.formData();
  const event = JSON.parse(form.get('event'));
  const env = JSON.parse(form.get('environment'));
  if (event.type !== 'fetch') return new Response('not handled', { status: 406 });
  const body = form.get('fetch-body');
  if (new URL(event.request.url).pathname.endsWith('/fail')) throw new Error('the webhook signature does not match');
  console.log('request', event.request.method, event.request.url);
  return new Response(JSON.stringify({
    event,
    body: body ? await body.text() : null,
    integrationEndpoint: env.integration.urls.publicEndpoint,
    installation: env.installation ? env.installation.id : null,
    installationEndpoint: env.installation ? env.installation.urls.publicEndpoint : null,
    space: env.spaceInstallation ? env.spaceInstallation.space : null,
    spaceEndpoint: env.spaceInstallation ? env.spaceInstallation.urls.publicEndpoint : null,
  }), { status: 202, headers: { 'content-type': 'application/json', 'set-cookie': 'session=stolen', 'location': '/next',
    'access-control-allow-origin': '*', 'x-powered-by': 'script', 'cache-control': 'no-store' } });
} };`

type endpointAnswer struct {
	Event struct {
		EventID, Type, InstallationID, SpaceID string
		Request                                struct {
			Method, URL string
			Headers     map[string]string
		}
	}
	Body                                                                          *string
	IntegrationEndpoint, Installation, InstallationEndpoint, Space, SpaceEndpoint string
}

// TestIntegrationPublicEndpoint sends requests to an integration's, an
// installation's and a space installation's urls.publicEndpoint without a
// token: each runs the script's fetch handler with the request (method,
// URL below the endpoint, headers, body) and the installation's
// environment, answers what the script answered (headers filtered), and is
// recorded as an event with its trace.
func TestIntegrationPublicEndpoint(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		in := publish(t, s, admin, "hooks", manifest(org, map[string]any{"script": endpointScript}))
		if in.URLs.PublicEndpoint != apitest.PublicURL+"/v1/integrations/hooks/public" {
			t.Fatalf("publicEndpoint %q", in.URLs.PublicEndpoint)
		}
		var inst installationBody
		s.Do(t, admin, "POST", "/v1/integrations/hooks/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &inst)
		space := newSpace(t, s, admin, org, "Docs")
		base := "/v1/integrations/hooks/installations/" + inst.ID
		s.Do(t, admin, "POST", base+"/spaces", map[string]any{"space": space}).WantStatus(t, 201)
		runJobs(t, s)
		before := len(eventTypes(t, s, admin, "hooks"))

		// The integration's endpoint: an OAuth callback, with a query.
		r := s.DoRaw(t, "", "GET", "/v1/integrations/hooks/public/oauth?code=abc&state=x%20y", http.Header{"Cookie": {"visitor=secret"}}, nil)
		r.WantStatus(t, 202)
		h := r.Header
		if h.Get("Content-Type") != "application/json" || h.Get("Location") != "/next" || h.Get("Cache-Control") != "no-store" ||
			h.Get("Set-Cookie") != "" || h.Get("Access-Control-Allow-Origin") != "" || h.Get("X-Powered-By") != "" ||
			!strings.HasPrefix(h.Get("Content-Security-Policy"), "sandbox") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("answer headers %v", h)
		}
		var got endpointAnswer
		r.JSON(t, &got)
		if got.Event.Type != "fetch" || got.Event.EventID == "" || got.Event.InstallationID != "" || got.Event.Request.Method != "get" ||
			got.Event.Request.URL != apitest.PublicURL+"/v1/integrations/hooks/public/oauth?code=abc&state=x%20y" ||
			got.Body != nil || got.Installation != "" || got.IntegrationEndpoint != in.URLs.PublicEndpoint {
			t.Fatalf("the script saw %+v", got)
		}
		if _, ok := got.Event.Request.Headers["cookie"]; ok {
			t.Fatalf("the browser's cookies reached the script: %v", got.Event.Request.Headers)
		}

		// The installation's endpoint: a webhook POST with its body and
		// headers; the endpoint itself, without a path below it.
		r = s.DoRaw(t, "", "POST", base+"/public", http.Header{"Content-Type": {"application/x-www-form-urlencoded"},
			"X-Hub-Signature-256": {"sha256=abc"}}, []byte("payload=%7B%22a%22%3A1%7D"))
		r.WantStatus(t, 202)
		got = endpointAnswer{}
		r.JSON(t, &got)
		if got.Event.InstallationID != inst.ID || got.Event.Request.Method != "post" || got.Event.Request.URL != apitest.PublicURL+base+"/public" ||
			got.Event.Request.Headers["x-hub-signature-256"] != "sha256=abc" ||
			got.Event.Request.Headers["content-type"] != "application/x-www-form-urlencoded" ||
			got.Body == nil || *got.Body != "payload=%7B%22a%22%3A1%7D" || got.Installation != inst.ID ||
			got.InstallationEndpoint != apitest.PublicURL+base+"/public" || got.Space != "" {
			t.Fatalf("the script saw %+v", got)
		}

		// A space installation's endpoint.
		spaceBase := base + "/spaces/" + space
		r = s.DoRaw(t, "", "PUT", spaceBase+"/public/hooks/github", http.Header{"Content-Type": {"application/json"}}, []byte(`{"ref":"main"}`))
		r.WantStatus(t, 202)
		got = endpointAnswer{}
		r.JSON(t, &got)
		if got.Event.InstallationID != inst.ID || got.Event.SpaceID != space || got.Space != space ||
			got.SpaceEndpoint != apitest.PublicURL+spaceBase+"/public" || *got.Body != `{"ref":"main"}` {
			t.Fatalf("the script saw %+v", got)
		}

		// Unknown integrations, installations and space installations.
		s.Do(t, "", "GET", "/v1/integrations/nope/public", nil).WantError(t, 404, "No integration matches the name")
		s.Do(t, "", "POST", "/v1/integrations/hooks/installations/nope/public/x", nil).WantError(t, 404, "No installation matches the id")
		other := newSpace(t, s, admin, org, "Other")
		s.Do(t, "", "GET", base+"/spaces/"+other+"/public", nil).WantError(t, 404, "No space installation matches the id")
		// A body over the bound is refused before the script runs.
		s.DoRaw(t, "", "POST", base+"/public", http.Header{"Content-Type": {"text/plain"}},
			[]byte(strings.Repeat("x", 5<<20+1))).WantError(t, 413, "request body is larger than")
		// A script that throws: 503, and the event says why.
		s.Do(t, "", "POST", base+"/public/fail", nil).WantError(t, 503, "the integration's script failed")

		var l struct{ Items []eventBody }
		s.Do(t, admin, "GET", "/v1/integrations/hooks/events?limit=100", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != before+4 {
			t.Fatalf("%d events after %d: %+v", len(l.Items), before, l.Items)
		}
		want := []struct{ status, installation, trace string }{ // newest first
			{"failed", inst.ID, "error: the script was stopped (exception): Error: the webhook signature does not match"},
			{"success", inst.ID, "info: the script answered PUT " + apitest.PublicURL + spaceBase + "/public/hooks/github with HTTP 202"},
			{"success", inst.ID, "info: request post " + apitest.PublicURL + base + "/public"},
			{"success", "", "info: request get " + apitest.PublicURL + "/v1/integrations/hooks/public/oauth?code=abc&state=x%20y"},
		}
		for n, w := range want {
			e := l.Items[n]
			if e.Status != w.status || e.InstallationID != w.installation || e.Payload["type"] != "fetch" {
				t.Errorf("event %d: %+v", n, e)
			}
			var one struct {
				Trace struct {
					Logs []struct{ Level, Message string }
				}
			}
			s.Do(t, admin, "GET", "/v1/integrations/hooks/events/"+e.ID, nil).WantStatus(t, 200).JSON(t, &one)
			var lines []string
			for _, line := range one.Trace.Logs {
				lines = append(lines, line.Level+": "+line.Message)
			}
			if !strings.Contains(strings.Join(lines, "\n"), w.trace) {
				t.Errorf("event %d trace:\n%s\nwant %q", n, strings.Join(lines, "\n"), w.trace)
			}
		}
	})
}

// TestIntegrationPublicEndpointRateLimit: public endpoints are limited per
// installation (the integration's own endpoint has its own budget), on
// top of the caller's address.
func TestIntegrationPublicEndpointRateLimit(t *testing.T) {
	limits := httpapi.RateLimits{PerToken: 1000, PerAddress: 1000, Sensitive: 1000, PerEndpoint: 2}
	apitest.RunOptions(t, apitest.Options{RateLimits: limits}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		org2, admin2 := s.Org(t)
		publish(t, s, admin, "limited", manifest(org, map[string]any{"script": endpointScript, "visibility": "public"}))
		var a, b installationBody
		s.Do(t, admin, "POST", "/v1/integrations/limited/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &a)
		s.Do(t, admin2, "POST", "/v1/integrations/limited/installations", map[string]any{"organization": org2}).WantStatus(t, 201).JSON(t, &b)
		runJobs(t, s)
		pa := "/v1/integrations/limited/installations/" + a.ID + "/public/x"
		s.Do(t, "", "GET", pa, nil).WantStatus(t, 202)
		s.Do(t, "", "GET", pa, nil).WantStatus(t, 202)
		r := s.Do(t, "", "GET", pa, nil)
		r.WantError(t, 429, "too many requests: at most 2 a minute")
		if r.Header.Get("Retry-After") == "" {
			t.Fatalf("refusal headers %v", r.Header)
		}
		// Another installation, and the integration's endpoint, have their own budgets.
		s.Do(t, "", "GET", "/v1/integrations/limited/installations/"+b.ID+"/public", nil).WantStatus(t, 202)
		s.Do(t, "", "GET", "/v1/integrations/limited/public", nil).WantStatus(t, 202)
		// The refused request ran nothing.
		var l struct{ Items []eventBody }
		s.Do(t, admin, "GET", "/v1/integrations/limited/events?limit=100", nil).WantStatus(t, 200).JSON(t, &l)
		fetches := 0
		for _, e := range l.Items {
			if e.Payload["type"] == "fetch" {
				fetches++
			}
		}
		if fetches != 4 {
			t.Fatalf("%d fetch events, want 4", fetches)
		}
	})
}

// TestIntegrationPublishScriptCheck: a script that throws at load, or
// exports no handler, is refused at publish with its error, and nothing
// changes.
func TestIntegrationPublishScriptCheck(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		publish(t, s, admin, "loader", manifest(org, nil))
		s.Do(t, admin, "POST", "/v1/integrations/loader", manifest(org, map[string]any{"title": "Changed",
			"script": "const key = globalThis.KEY; if (!key) throw new Error('KEY is not set');\nexport default { fetch: () => new Response('x') };"})).
			WantError(t, 400, "the script does not load: Error: KEY is not set")
		var got integrationBody
		s.Do(t, admin, "GET", "/v1/integrations/loader", nil).WantStatus(t, 200).JSON(t, &got)
		if got.Version != 1 || got.Title != "Hello" {
			t.Fatalf("a refused publish changed the integration: %+v", got)
		}
		s.Do(t, admin, "POST", "/v1/integrations/handlerless", manifest(org, map[string]any{"script": "export default { hello() {} };"})).
			WantError(t, 400, "the script does not load: the script has no default export with a fetch function")
		s.Do(t, admin, "POST", "/v1/integrations/looping", manifest(org, map[string]any{"script": "for (;;) {}\nexport default { fetch() {} };"})).
			WantError(t, 400, "the script does not load within the limits (timeout)")
		s.Do(t, admin, "GET", "/v1/integrations/handlerless", nil).WantError(t, 404, "No integration matches the name")
		s.Do(t, admin, "GET", "/v1/integrations/looping", nil).WantError(t, 404, "No integration matches the name")
		// Only the organization's admins make the server load a script.
		_, stranger := s.User(t)
		s.Do(t, stranger, "POST", "/v1/integrations/loader", manifest(org, map[string]any{"script": "for (;;) {}"})).
			WantError(t, 404, "The organization cannot be found for the given hostname")
	})
}
