package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type installationBody struct {
	ID, Status     string
	SpaceSelection string `json:"space_selection"`
	Spaces         int
	Configuration  map[string]any
	ExternalIDs    []string `json:"externalIds"`
	Target         struct{ Organization string }
	URLs           struct{ Location string }
}

type eventBody struct {
	ID, IntegrationID, InstallationID, Status, State string
	Payload                                          map[string]any
}

func eventTypes(t *testing.T, s *apitest.Server, token, name string) []string {
	t.Helper()
	var l struct{ Items []eventBody }
	s.Do(t, token, "GET", "/v1/integrations/"+name+"/events?limit=100", nil).WantStatus(t, 200).JSON(t, &l)
	types := []string{}
	for i := len(l.Items) - 1; i >= 0; i-- {
		types = append(types, l.Items[i].Payload["type"].(string))
	}
	return types
}

// tunnel is a development tunnel on loopback: it records the multipart
// events GitBook's contract sends.
type tunnel struct {
	*httptest.Server
	mu     sync.Mutex
	events []map[string]any
	envs   []map[string]any
}

func newTunnel(t *testing.T) *tunnel {
	tn := &tunnel{}
	tn.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var e, env map[string]any
		json.Unmarshal([]byte(r.FormValue("event")), &e)
		json.Unmarshal([]byte(r.FormValue("environment")), &env)
		tn.mu.Lock()
		tn.events, tn.envs = append(tn.events, e), append(tn.envs, env)
		tn.mu.Unlock()
	}))
	t.Cleanup(tn.Close)
	return tn
}

func TestIntegrationInstallations(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		dev, devAdmin := s.Org(t)
		org, admin := s.Org(t)
		_, creator := s.Member(t, org, folio.RoleCreate)
		other, otherAdmin := s.Org(t)
		publish(t, s, devAdmin, "acme-bot", manifest(dev, map[string]any{"visibility": "public",
			"scopes": []string{"space:content:read"}}))
		path := "/v1/integrations/acme-bot/installations"

		// Installing: admins of the organization, once.
		s.Do(t, creator, "POST", path, map[string]any{"organization": org}).
			WantError(t, 403, "only organization admins install integrations")
		s.Do(t, otherAdmin, "POST", path, map[string]any{"organization": org}).WantStatus(t, 404)
		s.Do(t, admin, "POST", path, map[string]any{}).WantError(t, 400, "organization is required")
		var inst installationBody
		s.Do(t, admin, "POST", path, map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &inst)
		if inst.Status != "active" || inst.Target.Organization != org || inst.SpaceSelection != "all" {
			t.Fatalf("installed %+v", inst)
		}
		s.Do(t, admin, "POST", path, map[string]any{"organization": org}).
			WantError(t, 409, "the integration acme-bot is already installed in this organization")
		var otherInst installationBody
		s.Do(t, otherAdmin, "POST", path, map[string]any{"organization": other}).WantStatus(t, 201).JSON(t, &otherInst)

		// Who sees which installations.
		count := func(token, query string) int {
			var l struct{ Count int }
			s.Do(t, token, "GET", path+query, nil).WantStatus(t, 200).JSON(t, &l)
			return l.Count
		}
		if a, b, c := count(devAdmin, ""), count(admin, ""), count(otherAdmin, ""); a != 2 || b != 1 || c != 1 {
			t.Fatalf("installations seen by the developer %d, the installer %d, another %d", a, b, c)
		}
		s.Do(t, otherAdmin, "GET", path+"/"+inst.ID, nil).WantError(t, 404, "Installation could not be found")
		s.Do(t, creator, "GET", path+"/"+inst.ID, nil).WantError(t, 404, "Installation could not be found")

		// Updates: configuration, external ids, selection; bad ones change nothing.
		for _, tc := range []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"six ids", map[string]any{"externalIds": []string{"a", "b", "c", "d", "e", "f"}}, "externalIds lists at most 5 ids"},
			{"empty id", map[string]any{"externalIds": []string{""}}, "each external id must be 1 to 200 bytes"},
			{"configuration list", map[string]any{"configuration": []int{1}}, "configuration must be an object"},
			{"selection", map[string]any{"space_selection": "some"}, "space_selection must be all or selected"},
		} {
			s.Do(t, admin, "PATCH", path+"/"+inst.ID, tc.body).WantError(t, 400, tc.msg)
		}
		s.Do(t, admin, "PATCH", path+"/"+inst.ID, map[string]any{"configuration": map[string]any{"channel": "#docs"},
			"externalIds": []string{"team-42"}, "space_selection": "selected"}).WantStatus(t, 200).JSON(t, &inst)
		if inst.Configuration["channel"] != "#docs" || len(inst.ExternalIDs) != 1 || inst.SpaceSelection != "selected" {
			t.Fatalf("updated %+v", inst)
		}
		if n := count(devAdmin, "?externalId=team-42"); n != 1 {
			t.Fatalf("externalId filter: %d", n)
		}

		// Spaces and sites.
		space := newSpace(t, s, admin, org, "Docs")
		hidden := newSpace(t, s, admin, org, "Hidden")
		foreign := newSpace(t, s, otherAdmin, other, "Foreign")
		s.Do(t, admin, "POST", path+"/"+inst.ID+"/spaces", map[string]any{"space": foreign}).WantStatus(t, 404)
		var si struct {
			Integration, Installation, Status string
			Space                             any
		}
		s.Do(t, admin, "POST", path+"/"+inst.ID+"/spaces", map[string]any{"space": space}).WantStatus(t, 201).JSON(t, &si)
		if si.Integration != "acme-bot" || si.Installation != inst.ID || si.Space != space {
			t.Fatalf("space installation %+v", si)
		}
		s.Do(t, admin, "POST", path+"/"+inst.ID+"/spaces", map[string]any{"space": space}).WantStatus(t, 409)
		var spaces struct {
			Items []struct{ Space map[string]any }
		}
		s.Do(t, devAdmin, "GET", "/v1/integrations/acme-bot/spaces?extended=true", nil).WantStatus(t, 200).JSON(t, &spaces)
		if len(spaces.Items) != 1 || spaces.Items[0].Space["id"] != space || spaces.Items[0].Space["title"] != "Docs" {
			t.Fatalf("expanded spaces %+v", spaces.Items)
		}
		s.Do(t, admin, "PATCH", path+"/"+inst.ID+"/spaces/"+space, map[string]any{"externalIds": []string{"repo-7"}}).WantStatus(t, 200)
		for q, want := range map[string]int{"?externalId=repo-7": 1, "?externalId=repo-8": 0, "": 1} {
			var l struct{ Count int }
			s.Do(t, devAdmin, "GET", "/v1/integrations/acme-bot/spaces"+q, nil).WantStatus(t, 200).JSON(t, &l)
			if l.Count != want {
				t.Errorf("spaces%s: %d, want %d", q, l.Count, want)
			}
		}
		site := newSite(t, s, admin, org, map[string]any{"title": "Site"})
		s.Do(t, admin, "POST", path+"/"+inst.ID+"/sites", map[string]any{"siteId": site.ID}).WantStatus(t, 201)
		s.Do(t, admin, "PATCH", path+"/"+inst.ID+"/sites/"+site.ID, map[string]any{"configuration": map[string]any{"x": 1}}).
			WantStatus(t, 200)
		s.Do(t, admin, "GET", path+"/"+inst.ID+"/sites/"+site.ID, nil).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", path+"/"+inst.ID+"/sites/"+site.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", path+"/"+inst.ID+"/sites/"+site.ID, nil).WantStatus(t, 404)

		// The organization's views.
		var status struct{ Status string }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations/acme-bot/installation_status", nil).WantStatus(t, 200).JSON(t, &status)
		if status.Status != "active" {
			t.Fatalf("status %+v", status)
		}
		if got := integrationNames(t, s, admin, ""); strings.Join(got, " ") != "acme-bot" {
			t.Fatalf("integrations %v", got)
		}
		var orgList struct{ Items []integrationBody }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations", nil).WantStatus(t, 200).JSON(t, &orgList)
		if len(orgList.Items) != 1 {
			t.Fatalf("installed integrations %+v", orgList.Items)
		}
		listed := func(path string) string {
			var l struct{ Items []integrationBody }
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
			var names []string
			for _, i := range l.Items {
				names = append(names, i.Name)
			}
			return strings.Join(names, " ")
		}
		if a, b, c := listed("/v1/spaces/"+space+"/integrations"), listed("/v1/spaces/"+hidden+"/integrations"),
			listed("/v1/orgs/"+org+"/sites/"+site.ID+"/integrations"); a != "acme-bot" || b != "" || c != "acme-bot" {
			t.Fatalf("integrations of the space %q, of the unselected space %q, of the site %q", a, b, c)
		}
		s.Do(t, otherAdmin, "GET", "/v1/spaces/"+space+"/integrations", nil).WantStatus(t, 404)
		var statuses struct {
			Items []struct {
				Status      string
				Integration integrationBody
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations/installations-status", nil).WantStatus(t, 200).JSON(t, &statuses)
		if len(statuses.Items) != 1 || statuses.Items[0].Status != "active" || statuses.Items[0].Integration.Name != "acme-bot" {
			t.Fatalf("statuses %+v", statuses.Items)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations/installations-status?target=space", nil).WantStatus(t, 200).JSON(t, &statuses)
		if len(statuses.Items) != 0 {
			t.Fatalf("statuses of space integrations %+v", statuses.Items)
		}
		var orgInst struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/installations", nil).WantStatus(t, 200).JSON(t, &orgInst)
		if orgInst.Count != 1 {
			t.Fatalf("organization installations %d", orgInst.Count)
		}

		// An installation token reads the spaces it is installed on, and
		// nothing else.
		s.Do(t, admin, "POST", path+"/"+inst.ID+"/tokens", nil).
			WantError(t, 403, "only admins of the organization that owns the integration create installation tokens")
		var tok struct{ Token string }
		s.Do(t, devAdmin, "POST", path+"/"+inst.ID+"/tokens", nil).WantStatus(t, 200).JSON(t, &tok)
		s.Do(t, tok.Token, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)
		s.Do(t, tok.Token, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200)
		s.Do(t, tok.Token, "GET", "/v1/spaces/"+hidden, nil).WantStatus(t, 404)
		s.Do(t, tok.Token, "GET", "/v1/spaces/"+foreign, nil).WantStatus(t, 404)
		s.Do(t, tok.Token, "GET", "/v1/orgs/"+org+"/members", nil).WantError(t, 403, "an installation token cannot call this operation")
		s.Do(t, tok.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"title": "Mine"}).WantStatus(t, 403)
		s.Do(t, tok.Token, "GET", path+"/"+inst.ID, nil).WantStatus(t, 200)
		s.Do(t, tok.Token, "GET", path+"/"+otherInst.ID, nil).WantStatus(t, 404)

		// Events of every change, for the integration's admins.
		want := "installation_setup installation_setup installation_setup space_installation_setup space_installation_setup " +
			"site_installation_setup site_installation_setup site_installation_deleted"
		if got := strings.Join(eventTypes(t, s, devAdmin, "acme-bot"), " "); got != want {
			t.Fatalf("events %s", got)
		}
		s.Do(t, admin, "GET", "/v1/integrations/acme-bot/events", nil).
			WantError(t, 403, "only admins of the organization that owns the integration see its events and change its dev mode")

		// Uninstalling ends the token's access.
		s.Do(t, admin, "DELETE", path+"/"+inst.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", path+"/"+inst.ID, nil).WantStatus(t, 404)
		s.Do(t, tok.Token, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 404)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations/acme-bot/installation_status", nil).WantStatus(t, 404)
		if got := eventTypes(t, s, devAdmin, "acme-bot"); got[len(got)-1] != "installation_deleted" {
			t.Fatalf("after uninstall: %v", got)
		}
	})
}

// TestIntegrationEventsToTunnel sends an installation's events to the
// integration's development tunnel, in GitBook's multipart shape, with an
// installation token that works.
func TestIntegrationEventsToTunnel(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		tn := newTunnel(t)
		publish(t, s, admin, "tunnelled", manifest(org, map[string]any{"secrets": map[string]string{"KEY": "v"}}))
		s.Do(t, admin, "PUT", "/v1/integrations/tunnelled/dev", map[string]any{"tunnelUrl": "ftp://x"}).WantStatus(t, 400)
		s.Do(t, admin, "PUT", "/v1/integrations/tunnelled/dev", map[string]any{"tunnelUrl": tn.URL}).WantStatus(t, 204)
		var inst installationBody
		s.Do(t, admin, "POST", "/v1/integrations/tunnelled/installations", map[string]any{"organization": org}).
			WantStatus(t, 201).JSON(t, &inst)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Hello\n"))
		runJobs(t, s)

		tn.mu.Lock()
		events, envs := tn.events, tn.envs
		tn.mu.Unlock()
		if len(events) != 2 || events[0]["type"] != "installation_setup" || events[1]["type"] != "space_content_updated" ||
			events[1]["spaceId"] != space || events[1]["installationId"] != inst.ID {
			t.Fatalf("tunnel received %v", events)
		}
		env := envs[1]
		tokens, _ := env["apiTokens"].(map[string]any)
		secrets, _ := env["secrets"].(map[string]any)
		if env["apiEndpoint"] != apitest.PublicURL || secrets["KEY"] != "v" || tokens["installation"] == nil {
			t.Fatalf("environment %v", env)
		}
		s.Do(t, tokens["installation"].(string), "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)

		var l struct{ Items []eventBody }
		s.Do(t, admin, "GET", "/v1/integrations/tunnelled/events", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 2 || l.Items[0].Status != "success" || l.Items[0].State != "success" {
			t.Fatalf("events %+v", l.Items)
		}
		var one struct {
			Event eventBody
			Trace struct {
				Logs []struct{ Level, Message, Timestamp string }
			}
		}
		s.Do(t, admin, "GET", "/v1/integrations/tunnelled/events/"+l.Items[0].ID, nil).WantStatus(t, 200).JSON(t, &one)
		if len(one.Trace.Logs) != 1 || !strings.Contains(one.Trace.Logs[0].Message, "delivered to the development tunnel: HTTP 200") {
			t.Fatalf("trace %+v", one.Trace)
		}
		s.Do(t, admin, "GET", "/v1/integrations/tunnelled/events/nope", nil).WantError(t, 404, "Not found")
		s.Do(t, admin, "DELETE", "/v1/integrations/tunnelled/dev", nil).WantStatus(t, 204)
	})
}

// TestIntegrationScriptFailures runs scripts that loop forever, allocate
// without bound and throw: each is stopped, its event fails with the
// reason in its trace, and the server goes on serving and running scripts.
func TestIntegrationScriptFailures(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, tc := range []struct {
			name, body, trace string
		}{
			{"loop", `while (true) {}`, "the script was stopped (timeout)"},
			{"allocate", `const a = []; while (true) { a.push(new Array(100000).fill(a.length)); }`, "the script was stopped (memory)"},
			{"throw", `console.warn("about to fail"); throw new TypeError("no such thing");`, "TypeError: no such thing"},
			{"works", `console.log("fine"); return new Response("OK");`, "the script answered HTTP 200"},
		} {
			script := "export default { async fetch(request, env, ctx) { " + tc.body + " } };"
			publish(t, s, admin, "bad-"+tc.name, manifest(org, map[string]any{"script": script}))
			s.Do(t, admin, "POST", "/v1/integrations/bad-"+tc.name+"/installations", map[string]any{"organization": org}).WantStatus(t, 201)
		}
		runJobs(t, s)
		s.Do(t, "", "GET", "/healthz", nil).WantStatus(t, 200)
		for _, tc := range []struct{ name, status, trace string }{
			{"loop", "failed", "the script was stopped (timeout)"},
			{"allocate", "failed", "the script was stopped (memory)"},
			{"throw", "failed", "TypeError: no such thing"},
			{"works", "success", "the script answered HTTP 200"},
		} {
			var l struct{ Items []eventBody }
			s.Do(t, admin, "GET", "/v1/integrations/bad-"+tc.name+"/events", nil).WantStatus(t, 200).JSON(t, &l)
			if len(l.Items) != 1 || l.Items[0].Status != tc.status {
				t.Fatalf("%s: events %+v", tc.name, l.Items)
			}
			var one struct {
				Trace struct {
					Logs []struct{ Level, Message string }
				}
			}
			s.Do(t, admin, "GET", "/v1/integrations/bad-"+tc.name+"/events/"+l.Items[0].ID, nil).WantStatus(t, 200).JSON(t, &one)
			var all []string
			for _, line := range one.Trace.Logs {
				all = append(all, line.Level+": "+line.Message)
			}
			if !strings.Contains(strings.Join(all, "\n"), tc.trace) {
				t.Errorf("%s: trace\n%s", tc.name, strings.Join(all, "\n"))
			}
			if tc.name == "throw" && !strings.Contains(strings.Join(all, "\n"), "warn: about to fail") {
				t.Errorf("the console line before the throw is not traced: %v", all)
			}
		}
	})
}

// TestSiteIntegrationScripts lists the scripts of integrations with the
// site:script:inject scope and serves what their fetch_published_script
// event answers, with the integration's content security policy.
func TestSiteIntegrationScripts(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, outsider := s.Org(t)
		script := `export default { async fetch(request) {
			const form = await request.formData();
			const event = JSON.parse(form.get("event"));
			if (event.type !== "fetch_published_script") return new Response("?", { status: 406 });
			return new Response("console.log('injected on " + event.siteId + "')", { headers: { "content-type": "application/javascript" } });
		} };`
		publish(t, s, admin, "injector", manifest(org, map[string]any{"script": script,
			"scopes":                []string{"site:script:inject", "site:script:cookies"},
			"contentSecurityPolicy": map[string]string{"script-src": "'self' https://cdn.example"}}))
		publish(t, s, admin, "quiet", manifest(org, map[string]any{"script": script}))
		var inst installationBody
		s.Do(t, admin, "POST", "/v1/integrations/injector/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &inst)
		var quiet installationBody
		s.Do(t, admin, "POST", "/v1/integrations/quiet/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &quiet)
		guide := newSpace(t, s, admin, org, "Guide")
		site := newSite(t, s, admin, org, map[string]any{"title": "Site", "spaces": []string{guide}})
		list := "/v1/orgs/" + org + "/sites/" + site.ID + "/integration-scripts"
		var scripts []struct {
			Script, ContentSecurityPolicy string
			Cookies                       bool
		}
		s.Do(t, admin, "GET", list, nil).WantStatus(t, 200).JSON(t, &scripts)
		if len(scripts) != 1 || !scripts[0].Cookies || scripts[0].ContentSecurityPolicy != "script-src 'self' https://cdn.example" ||
			!strings.HasSuffix(scripts[0].Script, "/v1/integrations/injector/installations/"+inst.ID+"/sites/"+site.ID+"/script.js") {
			t.Fatalf("scripts %+v", scripts)
		}
		s.Do(t, outsider, "GET", list, nil).WantStatus(t, 404)
		path := strings.TrimPrefix(scripts[0].Script, apitest.PublicURL)
		s.Do(t, "", "GET", path, nil).WantStatus(t, 404) // not published yet
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site.ID+"/publish", nil).WantStatus(t, 200)
		// The published site's profile, which GitBook's renderer reads,
		// names the same scripts.
		var profile struct{ Scripts []map[string]any }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/"+site.ID+"/published", nil).WantStatus(t, 200).JSON(t, &profile)
		if want := []map[string]any{{"script": scripts[0].Script, "contentSecurityPolicy": "script-src 'self' https://cdn.example", "cookies": true}}; !reflect.DeepEqual(profile.Scripts, want) {
			t.Fatalf("published profile scripts %v, want %v", profile.Scripts, want)
		}

		// The site's API token, which GitBook's renderer holds, lists them
		// too; another site's token sees nothing of this site.
		siteToken := lookupURL(t, s, "https://folio.test/sites/"+site.ID, 200).APIToken
		var viaToken []struct {
			Script, ContentSecurityPolicy string
			Cookies                       bool
		}
		s.Do(t, siteToken, "GET", list, nil).WantStatus(t, 200).JSON(t, &viaToken)
		if d := cmp.Diff(scripts, viaToken); d != "" {
			t.Fatalf("scripts listed with the site token (-member +site token):\n%s", d)
		}
		other := newSite(t, s, admin, org, map[string]any{"title": "Other", "spaces": []string{guide}})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+other.ID+"/publish", nil).WantStatus(t, 200)
		otherToken := lookupURL(t, s, "https://folio.test/sites/"+other.ID, 200).APIToken
		s.Do(t, otherToken, "GET", list, nil).WantStatus(t, 404)
		r := s.Do(t, "", "GET", path, nil).WantStatus(t, 200)
		if string(r.Body) != "console.log('injected on "+site.ID+"')" || r.Header.Get("Content-Type") != "application/javascript" ||
			r.Header.Get("Content-Security-Policy") != "script-src 'self' https://cdn.example" {
			t.Fatalf("script %q, headers %v", r.Body, r.Header)
		}
		// An installation without the site:script:inject scope serves nothing.
		quietPath := strings.Replace(strings.Replace(path, "injector", "quiet", 1), inst.ID, quiet.ID, 1)
		s.Do(t, "", "GET", quietPath, nil).WantError(t, 404, "script not found")
	})
}

// TestRenderIntegrationUI renders an integration's component (a block
// fetch) through its script, with its content security policy.
func TestRenderIntegrationUI(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		other, otherAdmin := s.Org(t)
		script := `export default { async fetch(request) {
			const event = JSON.parse((await request.formData()).get("event"));
			if (event.type !== "ui_render") return new Response("?", { status: 406 });
			if (event.componentId !== "card") return new Response("{}", { status: 404 });
			const out = { type: "element", state: { clicks: (event.state.clicks || 0) + (event.action ? 1 : 0) }, props: event.props,
				element: { type: "block", children: [{ type: "text", children: ["Hello " + event.props.name] }] } };
			return new Response(JSON.stringify(out), { headers: { "content-type": "application/json", "cache-control": "max-age=60" } });
		} };`
		publish(t, s, admin, "cards", manifest(org, map[string]any{"script": script, "visibility": "public",
			"contentSecurityPolicy": "default-src 'self'"}))
		var inst installationBody
		s.Do(t, admin, "POST", "/v1/integrations/cards/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &inst)
		space := newSpace(t, s, admin, org, "Docs")
		body := func(componentID string, action any) map[string]any {
			b := map[string]any{"componentId": componentID, "props": map[string]any{"name": "Ada"}, "state": map[string]any{"clicks": 1},
				"context": map[string]any{"type": "document", "spaceId": space, "editable": true, "theme": "light"}}
			if action != nil {
				b["action"] = action
			}
			return b
		}
		r := s.Do(t, admin, "POST", "/v1/integrations/cards/render", body("card", map[string]any{"action": "click"})).WantStatus(t, 200)
		var out struct {
			Type  string
			State struct{ Clicks int }
		}
		r.JSON(t, &out)
		if out.Type != "element" || out.State.Clicks != 2 || !strings.Contains(string(r.Body), "Hello Ada") ||
			r.Header.Get("Cache-Control") != "max-age=60" || r.Header.Get("Content-Security-Policy") != "default-src 'self'" {
			t.Fatalf("render %s, headers %v", r.Body, r.Header)
		}
		s.Do(t, admin, "POST", "/v1/integrations/cards/render", body("nope", nil)).WantError(t, 404, "the integration has no component nope")
		s.Do(t, admin, "POST", "/v1/integrations/cards/render", map[string]any{"componentId": "card", "props": map[string]any{},
			"context": map[string]any{"theme": "light"}}).WantStatus(t, 400)
		// props and state are objects (the reference's PlainObject and
		// object); anything else is refused before the script runs.
		for _, c := range []struct {
			name, field string
			value       any
			msg         string
		}{
			{"props/string", "props", "a", "props is required and must be an object"},
			{"props/list", "props", []any{}, "props is required and must be an object"},
			{"props/null", "props", nil, "props is required and must be an object"},
			{"props/absent", "props", absent{}, "props is required and must be an object"},
			{"state/string", "state", "a", "state must be an object"},
			{"state/list", "state", []any{}, "state must be an object"},
			{"state/number", "state", 1, "state must be an object"},
			{"state/null", "state", nil, "state must be an object"},
		} {
			t.Run(c.name, func(t *testing.T) {
				b := body("card", nil)
				if _, ok := c.value.(absent); ok {
					delete(b, c.field)
				} else {
					b[c.field] = c.value
				}
				s.DoUnchecked(t, admin, "POST", "/v1/integrations/cards/render", b).WantError(t, 400, c.msg)
			})
		}
		b := body("card", nil)
		delete(b, "state") // state is optional
		s.Do(t, admin, "POST", "/v1/integrations/cards/render", b).WantStatus(t, 200)
		// Another organization has not installed it, and cannot see the space.
		s.Do(t, otherAdmin, "POST", "/v1/integrations/cards/render", body("card", nil)).WantStatus(t, 404)
		s.Do(t, otherAdmin, "POST", "/v1/integrations/cards/render", map[string]any{"componentId": "card", "props": map[string]any{},
			"context": map[string]any{"type": "configuration_account", "organizationId": other, "theme": "light"}}).WantStatus(t, 404)
	})
}

// absent marks a field a test leaves out of a body.
type absent struct{}

// TestInstallationTokenWrites checks that space:content:write lets an
// installation token edit the content of the spaces it is installed on,
// and that without it the same edit is refused and changes nothing.
func TestInstallationTokenWrites(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, name := range []string{"reader", "writer"} {
			scopes := []string{"space:content:read"}
			if name == "writer" {
				scopes = append(scopes, "space:content:write")
			}
			publish(t, s, admin, name, manifest(org, map[string]any{"scopes": scopes}))
		}
		space := newSpace(t, s, admin, org, "Docs")
		before := currentRevision(t, s, admin, space)
		token := func(name string) string {
			var inst installationBody
			s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations", map[string]any{"organization": org}).WantStatus(t, 201).JSON(t, &inst)
			var tok struct{ Token string }
			s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+inst.ID+"/tokens", nil).WantStatus(t, 200).JSON(t, &tok)
			return tok.Token
		}
		reader, writer := token("reader"), token("writer")
		body := map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# From an integration\n"))}
		s.Do(t, reader, "POST", "/v1/spaces/"+space+"/content/import", body).
			WantError(t, 403, "this operation needs one of the integration scopes space:content:write")
		if got := currentRevision(t, s, admin, space); got != before {
			t.Fatalf("a refused import moved the space from %s to %s", before, got)
		}
		s.Do(t, writer, "POST", "/v1/spaces/"+space+"/content/import", body).WantStatus(t, 201)
		if got := currentRevision(t, s, admin, space); got == before {
			t.Fatal("the import did not make a revision")
		}
		s.Do(t, writer, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200)
		// Settings stay an admin's.
		s.Do(t, writer, "PATCH", "/v1/spaces/"+space, map[string]any{"title": "Mine"}).WantStatus(t, 403)
		s.Do(t, writer, "DELETE", "/v1/spaces/"+space, nil).WantError(t, 403, "an installation token cannot call this operation")
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)
	})
}
