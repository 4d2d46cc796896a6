package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestRefusalComesBeforeValidation checks that a caller who may not make a
// change gets 403, or 404 when they may not see the resource, whatever the
// body: docs/permissions.md gives non-members 404 "in every row", and the
// organization matrix holds PATCH /orgs/{id} to it ("a non-member learns
// nothing from a bad body either"). Only those who may write get 400.
func TestRefusalComesBeforeValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		space := newSpace(t, s, admin, a.Org, "Validated")
		var col, tm struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+a.Org+"/collections", `{"title":"Validated"}`).WantStatus(t, 201).JSON(t, &col)
		s.Do(t, admin, "PUT", "/v1/orgs/"+a.Org+"/teams", `{"title":"Validated"}`).WantStatus(t, 201).JSON(t, &tm)
		link := freshLinkInvite(t, s, a)
		org := "/v1/orgs/" + a.Org
		reader := a.Users[apitest.Read].ID
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		orgAdmins := apitest.Want(apitest.NotMembers, apitest.Admin, 400, apitest.AnyActor, 403)
		contentAdmins := apitest.Want(apitest.NoAccess, apitest.Admin, 400, apitest.AnyActor, 403)
		editors := apitest.Want(apitest.NoAccess, apitest.Admin, 400, apitest.Create, 400, apitest.Review, 400, apitest.Edit, 400,
			apitest.AnyActor, 403)
		grants := func(base string) func(*apitest.Actors, string) []string {
			return apitest.Paths(fixed(base+"/permissions/users"), fixed(base+"/permissions/teams"))
		}
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "updateOrganizationInviteById", Method: "PATCH", Path: fixed(link), Body: `{"role":"owner"}`,
				Want: orgAdmins, State: apitest.Self},
			{Name: "createOrganizationInvite", Method: "POST", Path: fixed(org + "/link-invites"), Body: `{"role":"owner"}`,
				Want: orgAdmins, State: apitest.Self},
			{Name: "inviteUsersToOrganization", Method: "POST", Path: fixed(org + "/invites"), Body: `{"emails":[]}`,
				Want: orgAdmins, State: apitest.Paths(fixed(org + "/members"))},
			{Name: "updateMemberInOrganizationById", Method: "PATCH", Path: fixed(org + "/members/" + reader), Body: `{"role":"owner"}`,
				Want: orgAdmins, State: apitest.Self},
			{Name: "inviteToSpace", Method: "POST", Path: fixed("/v1/spaces/" + space + "/permissions"), Body: `{"role":"read"}`,
				Want: contentAdmins, State: grants("/v1/spaces/" + space)},
			{Name: "updateUserPermissionInSpace", Method: "PATCH", Path: fixed("/v1/spaces/" + space + "/permissions/users/" + reader),
				Body: `{"role":"owner"}`, Want: contentAdmins, State: grants("/v1/spaces/" + space)},
			{Name: "updateTeamPermissionInCollection", Method: "PATCH", Path: fixed("/v1/collections/" + col.ID + "/permissions/teams/" + tm.ID),
				Body: `{}`, Want: contentAdmins, State: grants("/v1/collections/" + col.ID)},
			{Name: "inviteUsersToOrganization bad role", Method: "POST", Path: fixed(org + "/invites"),
				Body: `{"emails":[{"email":"someone@example.com","role":"owner"}]}`, Want: orgAdmins, State: apitest.Paths(fixed(org + "/members"))},
			{Name: "updateMemberInOrganizationById no role", Method: "PATCH", Path: fixed(org + "/members/" + reader), Body: `{}`,
				Want: orgAdmins, State: apitest.Self},
			{Name: "inviteToCollection no principal", Method: "POST", Path: fixed("/v1/collections/" + col.ID + "/permissions"),
				Body: `{"role":"read","users":[]}`, Want: contentAdmins, State: grants("/v1/collections/" + col.ID)},
			{Name: "updateTeamPermissionInSpace", Method: "PATCH", Path: fixed("/v1/spaces/" + space + "/permissions/teams/" + tm.ID),
				Body: `{"role":"owner"}`, Want: contentAdmins, State: grants("/v1/spaces/" + space)},
			{Name: "importContent", Method: "POST", Path: fixed("/v1/spaces/" + space + "/content/import"), Body: `{"source":"bogus"}`,
				Want: editors, State: apitest.Paths(fixed("/v1/spaces/" + space + "/content"))},
			{Name: "applyTemplate no id", Method: "POST", Path: fixed("/v1/spaces/" + space + "/content/template"), Body: `{}`,
				Want: editors, State: apitest.Paths(fixed("/v1/spaces/" + space + "/content"))},
			// Making a SAML provider's key pair costs CPU: only admins get
			// as far as validation.
			{Name: "createOrganizationSAMLProvider bad body", Method: "POST", Path: fixed(org + "/saml"), Body: `{"label":""}`,
				Want: orgAdmins, State: apitest.Paths(fixed(org + "/saml"))},
		})
	})
}
