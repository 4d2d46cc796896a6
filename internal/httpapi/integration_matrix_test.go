package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestWebhookAndAuditMatrix covers the organization's webhook and audit
// log routes for every actor: organization admins only, 404 outside the
// organization, refused writes change nothing.
func TestWebhookAndAuditMatrix(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		list := "/v1/orgs/" + a.Org + "/webhooks"
		n := 0
		fresh := func() int { n++; return n }
		newHook := func() string {
			var h struct{ ID string }
			s.Do(t, admin, "POST", list, map[string]any{"url": fmt.Sprintf("https://example.com/%d", fresh()),
				"events": []string{"*"}}).WantStatus(t, 201).JSON(t, &h)
			return list + "/" + h.ID
		}
		hook := newHook()
		// A delivery to redeliver: deleting a space is an event.
		sp := newSpace(t, s, admin, a.Org, "Doomed")
		s.Do(t, admin, "DELETE", "/v1/spaces/"+sp, nil).WantStatus(t, 204)
		ds := listDeliveries(t, s, admin, a.Org, hook[len(list)+1:])
		if len(ds) != 1 {
			t.Fatalf("deliveries %+v", ds)
		}
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		adminOnly := func(ok int) map[string]int {
			return apitest.Want(apitest.NotMembers, apitest.AnyActor, 403, apitest.Admin, ok)
		}
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "listWebhooks", Method: "GET", Path: fixed(list), Want: adminOnly(200)},
			{Name: "createWebhook", Method: "POST", Path: fixed(list), State: apitest.Paths(fixed(list)),
				Body: func(*apitest.Actors) any {
					return map[string]any{"url": fmt.Sprintf("https://example.com/new/%d", fresh()), "events": []string{"*"}}
				}, Want: adminOnly(201)},
			{Name: "getWebhook", Method: "GET", Path: fixed(hook), Want: adminOnly(200)},
			{Name: "updateWebhook", Method: "PATCH", Path: fixed(hook), State: apitest.Self,
				Body: func(*apitest.Actors) any {
					return map[string]any{"url": fmt.Sprintf("https://example.com/u/%d", fresh())}
				},
				Want: adminOnly(200)},
			{Name: "deleteWebhook", Method: "DELETE", Path: func(*apitest.Actors) string { return newHook() }, State: apitest.Self,
				Want: adminOnly(204)},
			{Name: "listWebhookDeliveries", Method: "GET", Path: fixed(hook + "/deliveries"), Want: adminOnly(200)},
			{Name: "redeliverWebhook", Method: "POST", Path: fixed(hook + "/deliveries/" + ds[0].ID + "/redeliver"),
				State: apitest.Paths(fixed(hook + "/deliveries")), Want: adminOnly(202)},
			{Name: "listAuditLog", Method: "GET", Path: fixed("/v1/orgs/" + a.Org + "/audit-log"), Want: adminOnly(200)},
		})
	})
}

// TestInstallationMatrix covers installation routes for every actor. The
// integration belongs to the other organization (its admin is the
// integration's admin); the organization's admins install it.
func TestInstallationMatrix(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin, dev := a.Tokens[apitest.Admin], a.Tokens[apitest.OtherOrg]
		publish(t, s, dev, "matrix-bot", manifest(a.OtherOrg, map[string]any{"visibility": "public"}))
		base := "/v1/integrations/matrix-bot"
		orgInst := "/v1/orgs/" + a.Org + "/installations"
		var inst installationBody
		install := func(*apitest.Actors) {
			var l struct{ Items []installationBody }
			s.Do(t, admin, "GET", base+"/installations", nil).WantStatus(t, 200).JSON(t, &l)
			if len(l.Items) == 0 {
				s.Do(t, admin, "POST", base+"/installations", map[string]any{"organization": a.Org}).WantStatus(t, 201).JSON(t, &inst)
			} else {
				inst = l.Items[0]
			}
		}
		uninstall := func(*apitest.Actors) {
			install(nil)
			s.Do(t, admin, "DELETE", base+"/installations/"+inst.ID, nil).WantStatus(t, 204)
		}
		install(nil)
		current := func(*apitest.Actors) string { return base + "/installations/" + inst.ID }
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		n := 0
		// Managers of the installation: the organization's admins and the
		// integration's; everyone else does not see it.
		managers := func(ok int) map[string]int {
			return apitest.Want(nil, apitest.AnyActor, 404, apitest.Admin, ok, apitest.OtherOrg, ok)
		}
		memberRead := apitest.Want(apitest.NotMembers, apitest.AnyActor, 200)
		adminRead := apitest.Want(apitest.NotMembers, apitest.AnyActor, 403, apitest.Admin, 200)
		integrationAdmin := func(ok int) map[string]int { return apitest.Want(nil, apitest.AnyActor, 403, apitest.OtherOrg, ok) }
		notManagers := []string{apitest.Create, apitest.Review, apitest.Edit, apitest.Comment, apitest.Read, apitest.Guest, apitest.Outsider}
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "installIntegration", Method: "POST", Path: fixed(base + "/installations"), Reset: uninstall,
				Body: map[string]any{"organization": a.Org}, State: apitest.Paths(fixed(orgInst)),
				Want: apitest.Want(nil, apitest.AnyActor, 403, apitest.Admin, 201, apitest.Outsider, 404, apitest.OtherOrg, 404)},
			{Name: "listIntegrationInstallations", Method: "GET", Path: fixed(base + "/installations"), Reset: install,
				Want: apitest.Want(nil, apitest.AnyActor, 200)},
			{Name: "getIntegrationInstallationById", Method: "GET", Path: current, Reset: install, Want: managers(200)},
			{Name: "updateIntegrationInstallation", Method: "PATCH", Path: current, Reset: install, State: apitest.Self,
				Body: func(*apitest.Actors) any { n++; return map[string]any{"configuration": map[string]any{"n": n}} },
				Want: managers(200)},
			{Name: "uninstallIntegration", Method: "DELETE", Path: current, Reset: install, State: apitest.Paths(fixed(orgInst)),
				Want: apitest.Want(nil, apitest.AnyActor, 204), Refused: notManagers},
			{Name: "createIntegrationInstallationToken", Method: "POST", Path: func(a *apitest.Actors) string { return current(a) + "/tokens" },
				Reset: install, NoState: "a token is not stored: nothing a refusal could leave changed",
				Want: apitest.Want(nil, apitest.AnyActor, 404, apitest.Admin, 403, apitest.OtherOrg, 200)},
			{Name: "listOrganizationInstallations", Method: "GET", Path: fixed(orgInst), Reset: install, Want: adminRead},
			{Name: "listOrganizationIntegrationsStatus", Method: "GET", Path: fixed("/v1/orgs/" + a.Org + "/integrations/installations-status"),
				Reset: install, Want: adminRead},
			{Name: "listOrganizationIntegrations", Method: "GET", Path: fixed("/v1/orgs/" + a.Org + "/integrations"), Reset: install,
				Want: memberRead},
			{Name: "getOrganizationIntegrationStatus", Method: "GET", Reset: install,
				Path: fixed("/v1/orgs/" + a.Org + "/integrations/matrix-bot/installation_status"), Want: memberRead},
			{Name: "listIntegrationEvents", Method: "GET", Path: fixed(base + "/events"), Want: integrationAdmin(200)},
			{Name: "setIntegrationDevelopmentMode", Method: "PUT", Path: fixed(base + "/dev"),
				Body: map[string]any{"tunnelUrl": "https://tunnel.example"}, Want: integrationAdmin(204),
				NoState: "the tunnel is not part of any answer"},
			{Name: "unpublishIntegration", Method: "DELETE", Path: fixed("/v1/integrations/gone"),
				Reset: func(*apitest.Actors) {
					s.Do(t, dev, "POST", "/v1/integrations/gone", manifest(a.OtherOrg, map[string]any{"visibility": "public"})).WantStatus(t, 200)
				},
				State: apitest.Self, StateAs: apitest.OtherOrg,
				Want: apitest.Want(nil, apitest.AnyActor, 403, apitest.OtherOrg, 204)},
		})
	})
}
