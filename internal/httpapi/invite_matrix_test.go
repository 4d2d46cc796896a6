package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// freshLinkInvite makes a read invite link in the actors' organization, as
// its admin, and returns its path.
func freshLinkInvite(t *testing.T, s *apitest.Server, a *apitest.Actors) string {
	t.Helper()
	var inv struct{ ID string }
	path := "/v1/orgs/" + a.Org + "/link-invites"
	s.Do(t, a.Tokens[apitest.Admin], "POST", path, `{"role":"read"}`).WantStatus(t, 201).JSON(t, &inv)
	return path + "/" + inv.ID
}

// freshSAMLProvider makes a SAML provider trusting idp in the actors'
// organization, as its admin, and returns its path.
func freshSAMLProvider(t *testing.T, s *apitest.Server, a *apitest.Actors, idp *ssotest.IdP) string {
	t.Helper()
	var p struct{ ID string }
	path := "/v1/orgs/" + a.Org + "/saml"
	s.Do(t, a.Tokens[apitest.Admin], "POST", path, map[string]any{
		"label": "IdP", "entityID": idp.EntityID, "ssoURL": idp.SSOURL, "certificate": idp.CertPEM,
	}).WantStatus(t, 201).JSON(t, &p)
	return path + "/" + p.ID
}

// TestInviteLinkAndSAMLMatrix covers reading and changing one invite link
// and one SAML provider: organization admins only. Another organization's
// admin who names the resource under their own organization gets 404.
func TestInviteLinkAndSAMLMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		idp := ssotest.New(t)
		adminOnly := map[string]int{apitest.Admin: 200, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403}
		with := apitest.Want
		link := freshLinkInvite(t, s, a)
		provider := freshSAMLProvider(t, s, a, idp)
		org := func(p string) func(*apitest.Actors) string {
			return func(a *apitest.Actors) string { return "/v1/orgs/" + a.Org + p }
		}
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		// The same resource addressed through the other organization.
		throughOther := func(kind, p string) func(*apitest.Actors) string {
			return func(a *apitest.Actors) string {
				return "/v1/orgs/" + a.OtherOrg + "/" + kind + p[strings.LastIndex(p, "/"):]
			}
		}
		// Refused changes would be new each time: the role goes back to
		// read before each actor, and the labels are numbered.
		resetLink := func(a *apitest.Actors) {
			s.Do(t, a.Tokens[apitest.Admin], "PATCH", link, `{"role":"read"}`).WantStatus(t, 200)
		}
		n := 0
		label := func(*apitest.Actors) any { n++; return map[string]any{"label": fmt.Sprintf("Label %d", n)} }
		// Through the other organization, its admin finds nothing (DELETE
		// of an absent resource is 204) and everyone else is no member.
		notThere := map[string]int{apitest.AnyActor: 404}
		deleteNotThere := map[string]int{apitest.OtherOrg: 204, apitest.AnyActor: 404}
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "getOrganizationInviteLink", Method: "GET", Path: fixed(link), Want: adminOnly},
			{Name: "updateOrganizationInviteById", Method: "PATCH", Path: fixed(link), Body: `{"role":"edit"}`, Want: adminOnly,
				Reset: resetLink, State: apitest.Self},
			{Name: "updateOrganizationInviteById unknown", Method: "PATCH", Path: org("/link-invites/nope"), Body: `{"role":"edit"}`,
				Want: with(adminOnly, apitest.Admin, 404), State: apitest.Paths(org("/link-invites"))},
			{Name: "getOrganizationInviteLink through another organization", Method: "GET", Path: throughOther("link-invites", link),
				Want: notThere},
			{Name: "updateOrganizationInviteById through another organization", Method: "PATCH", Path: throughOther("link-invites", link),
				Body: `{"role":"edit"}`, Want: notThere, Reset: resetLink, State: apitest.Paths(fixed(link))},
			{Name: "deleteOrganizationInviteById through another organization", Method: "DELETE", Path: throughOther("link-invites", link),
				Want: deleteNotThere, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(link))},

			{Name: "createOrganizationSAMLProvider", Method: "POST", Path: org("/saml"),
				Body: map[string]any{"label": "New", "entityID": idp.EntityID, "ssoURL": idp.SSOURL, "certificate": idp.CertPEM},
				Want: with(adminOnly, apitest.Admin, 201), State: apitest.Paths(org("/saml"))},
			{Name: "createOrganizationSAMLProvider invalid", Method: "POST", Path: org("/saml"), Body: `{"label":""}`,
				Want: with(adminOnly, apitest.Admin, 400), State: apitest.Paths(org("/saml"))},
			{Name: "getOrganizationSAMLProviderById", Method: "GET", Path: fixed(provider), Want: adminOnly},
			{Name: "updateOrganizationSAMLProvider", Method: "PATCH", Path: fixed(provider), Body: label, Want: adminOnly,
				State: apitest.Self},
			{Name: "updateOrganizationSAMLProvider unknown", Method: "PATCH", Path: org("/saml/nope"), Body: label,
				Want: with(adminOnly, apitest.Admin, 404), State: apitest.Paths(org("/saml"))},
			{Name: "getOrganizationSAMLProviderById through another organization", Method: "GET", Path: throughOther("saml", provider),
				Want: notThere},
			{Name: "updateOrganizationSAMLProvider through another organization", Method: "PATCH", Path: throughOther("saml", provider),
				Body: label, Want: notThere, State: apitest.Paths(fixed(provider))},
			{Name: "deleteOrganizationSAMLProvider through another organization", Method: "DELETE", Path: throughOther("saml", provider),
				Want: deleteNotThere, Refused: []string{apitest.OtherOrg},
				State: apitest.Paths(fixed(provider))},
		})
	})
}
