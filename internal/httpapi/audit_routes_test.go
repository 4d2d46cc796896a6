package httpapi_test

import (
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// TestAdministrativeRoutesAudited walks the administrative routes: each
// successful call must leave at least one audit entry carrying its request
// id. A route in this list that writes none fails the test.
func TestAdministrativeRoutesAudited(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		do := func(method, path string, body any) func(t *testing.T) *apitest.Response {
			return func(t *testing.T) *apitest.Response { return s.Do(t, admin, method, path, body) }
		}
		o := "/v1/orgs/" + org
		member := func(t *testing.T) string { u, _ := s.Member(t, org, folio.RoleRead); return u.ID }
		space := func(t *testing.T) string { return newSpace(t, s, admin, org, "Space") }
		collection := func(t *testing.T) string {
			var c struct{ ID string }
			s.Do(t, admin, "POST", o+"/collections", map[string]any{"title": "Col"}).WantStatus(t, 201).JSON(t, &c)
			return c.ID
		}
		team := func(t *testing.T) string {
			var tm struct{ ID string }
			s.Do(t, admin, "PUT", o+"/teams", map[string]any{"title": "Team"}).WantStatus(t, 201).JSON(t, &tm)
			return tm.ID
		}
		site := func(t *testing.T) string { return newSite(t, s, admin, org, map[string]any{"title": "Site"}).ID }
		shared := func(t *testing.T) string {
			return newSite(t, s, admin, org, map[string]any{"title": "Shared", "visibility": "share-link"}).ID
		}
		linkInvite := func(t *testing.T) string {
			var inv struct{ ID string }
			s.Do(t, admin, "POST", o+"/link-invites", map[string]any{"role": "read"}).WantStatus(t, 201).JSON(t, &inv)
			return inv.ID
		}
		webhook := func(t *testing.T) string {
			var h struct{ ID string }
			s.Do(t, admin, "POST", o+"/webhooks", map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}).
				WantStatus(t, 201).JSON(t, &h)
			return h.ID
		}
		shareLink := func(t *testing.T, site string) string {
			var l struct{ ID string }
			s.Do(t, admin, "POST", o+"/sites/"+site+"/share-links", map[string]any{"name": "x"}).WantStatus(t, 201).JSON(t, &l)
			return l.ID
		}
		n := 0
		integration := func(t *testing.T) string {
			n++
			name := "audited-" + string(rune('a'+n))
			publish(t, s, admin, name, manifest(org, nil))
			return name
		}
		installation := func(t *testing.T) (string, string) {
			name := integration(t)
			var in struct{ ID string }
			s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations", map[string]any{"organization": org}).
				WantStatus(t, 201).JSON(t, &in)
			return name, in.ID
		}
		idp := ssotest.New(t)
		samlProvider := func(t *testing.T) string {
			var p struct{ ID string }
			s.Do(t, admin, "POST", o+"/saml", map[string]any{"label": "IdP", "entityID": idp.EntityID, "ssoURL": idp.SSOURL,
				"certificate": idp.CertPEM}).WantStatus(t, 201).JSON(t, &p)
			return p.ID
		}
		token := func(t *testing.T) string {
			var tk struct{ ID string }
			s.Do(t, admin, "POST", "/v1/user/tokens", map[string]any{"label": "ci"}).WantStatus(t, 201).JSON(t, &tk)
			return tk.ID
		}
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", gitbookRepo, "Docs")
		gitBody := map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}
		// onTarget installs an integration on a space or a site and returns
		// the path of that installation.
		onTarget := func(t *testing.T, plural string) string {
			name, id := installation(t)
			// The body names a space "space" and a site "siteId".
			field, target := "space", ""
			if plural == "spaces" {
				target = space(t)
			} else {
				field, target = "siteId", site(t)
			}
			base := "/v1/integrations/" + name + "/installations/" + id + "/" + plural
			s.Do(t, admin, "POST", base, map[string]any{field: target}).WantStatus(t, 201)
			return base + "/" + target
		}
		siteSpace := func(t *testing.T, st string) string {
			var ss struct{ ID string }
			s.Do(t, admin, "POST", o+"/sites/"+st+"/site-spaces", map[string]any{"spaceId": space(t)}).WantStatus(t, 201).JSON(t, &ss)
			return ss.ID
		}
		redirect := func(t *testing.T, st string) string {
			var r struct{ ID string }
			s.Do(t, admin, "POST", o+"/sites/"+st+"/redirects", map[string]any{"source": "/old-" + strings.ToLower(folio.NewID()[:6]),
				"destination": map[string]any{"kind": "site-space", "siteSpaceId": siteSpace(t, st)}}).WantStatus(t, 201).JSON(t, &r)
			return r.ID
		}
		section := func(t *testing.T, st string) string {
			var sec struct{ ID string }
			s.Do(t, admin, "POST", o+"/sites/"+st+"/sections", map[string]any{"spaceId": space(t)}).WantStatus(t, 201).JSON(t, &sec)
			return sec.ID
		}
		group := func(t *testing.T, st string) string {
			var g struct{ ID string }
			s.Do(t, admin, "POST", o+"/sites/"+st+"/section-groups", map[string]any{"title": "Group"}).WantStatus(t, 201).JSON(t, &g)
			return g.ID
		}
		tunnel := httptest.NewServer(nil)
		t.Cleanup(tunnel.Close)

		routes := []struct {
			route string
			call  func(t *testing.T) *apitest.Response
		}{
			{"PATCH /v1/orgs/{organizationId}", do("PATCH", o, map[string]any{"title": "Renamed"})},
			{"PATCH /v1/orgs/{organizationId} defaultContent", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o, map[string]any{"defaultContent": map[string]any{"type": "site", "site": site(t)}})
			}},
			{"PATCH /v1/orgs/{organizationId}/members/{userId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/members/"+member(t), map[string]any{"role": "edit"})
			}},
			{"PATCH /v1/orgs/{organizationId}/members/{userId} disabled", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/members/"+member(t), map[string]any{"disabled": true})
			}},
			{"DELETE /v1/orgs/{organizationId}/members/{userId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/members/"+member(t), nil)
			}},
			{"POST /v1/orgs/{organizationId}/link-invites", do("POST", o+"/link-invites", map[string]any{"role": "read"})},
			{"PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/link-invites/"+linkInvite(t), map[string]any{"role": "edit"})
			}},
			{"DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/link-invites/"+linkInvite(t), nil)
			}},
			{"PUT /v1/orgs/{organizationId}/teams", do("PUT", o+"/teams", map[string]any{"title": "Writers"})},
			{"PATCH /v1/orgs/{organizationId}/teams/{teamId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/teams/"+team(t), map[string]any{"title": "Renamed"})
			}},
			{"PUT /v1/orgs/{organizationId}/teams/{teamId}/members", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PUT", o+"/teams/"+team(t)+"/members", map[string]any{"add": []string{member(t)}})
			}},
			{"POST /v1/orgs/{organizationId}/sites", do("POST", o+"/sites", map[string]any{"title": "New site"})},
			{"DELETE /v1/orgs/{organizationId}/teams/{teamId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/teams/"+team(t), nil)
			}},
			{"PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PUT", o+"/teams/"+team(t)+"/members/"+member(t), nil)
			}},
			{"DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", func(t *testing.T) *apitest.Response {
				tm, u := team(t), member(t)
				s.Do(t, admin, "PUT", o+"/teams/"+tm+"/members/"+u, nil).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", o+"/teams/"+tm+"/members/"+u, nil)
			}},
			{"POST /v1/orgs/{organizationId}/spaces", do("POST", o+"/spaces", map[string]any{"title": "New"})},
			{"PATCH /v1/spaces/{spaceId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/spaces/"+space(t), map[string]any{"title": "Renamed"})
			}},
			{"DELETE /v1/spaces/{spaceId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", "/v1/spaces/"+space(t), nil)
			}},
			{"POST /v1/spaces/{spaceId}/restore", func(t *testing.T) *apitest.Response {
				sp := space(t)
				s.Do(t, admin, "DELETE", "/v1/spaces/"+sp, nil).WantStatus(t, 204)
				return s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/restore", nil)
			}},
			{"POST /v1/spaces/{spaceId}/move", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/spaces/"+space(t)+"/move", map[string]any{"parent": collection(t)})
			}},
			{"PATCH /v1/spaces/{spaceId}/permissions/users/{userId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/spaces/"+space(t)+"/permissions/users/"+member(t), map[string]any{"role": "edit"})
			}},
			{"PUT /v1/orgs/{organizationId}/agent-instructions", do("PUT", o+"/agent-instructions",
				`{"instructions":{"object":"document","data":{"schemaVersion":1},"nodes":[{"object":"block","type":"paragraph",`+
					`"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief.","marks":[]}]}]}]}}`)},
			{"POST /v1/spaces/{spaceId}/transfer", func(t *testing.T) *apitest.Response {
				// The admin's second organization receives the space; the
				// entry is written in the organization the space leaves.
				var target struct{ ID string }
				s.Do(t, admin, "POST", "/v1/orgs", map[string]any{"title": "Target"}).WantStatus(t, 201).JSON(t, &target)
				return s.Do(t, admin, "POST", "/v1/spaces/"+space(t)+"/transfer", map[string]any{"organization": target.ID})
			}},
			{"POST /v1/collections/{collectionId}/move", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/collections/"+collection(t)+"/move", map[string]any{"parent": collection(t)})
			}},
			{"DELETE /v1/spaces/{spaceId}/permissions/users/{userId}", func(t *testing.T) *apitest.Response {
				sp, u := space(t), member(t)
				s.Do(t, admin, "PATCH", "/v1/spaces/"+sp+"/permissions/users/"+u, map[string]any{"role": "edit"}).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/spaces/"+sp+"/permissions/users/"+u, nil)
			}},
			{"PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/collections/"+collection(t)+"/permissions/teams/"+team(t), map[string]any{"role": "read"})
			}},
			{"POST /v1/orgs/{organizationId}/collections", do("POST", o+"/collections", map[string]any{"title": "New"})},
			{"PATCH /v1/collections/{collectionId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/collections/"+collection(t), map[string]any{"title": "Renamed"})
			}},
			{"DELETE /v1/collections/{collectionId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", "/v1/collections/"+collection(t), nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/publish", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/sites/"+site(t)+"/publish", nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish", func(t *testing.T) *apitest.Response {
				st := site(t)
				s.Do(t, admin, "POST", o+"/sites/"+st+"/publish", nil).WantStatus(t, 200)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/unpublish", nil)
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId} visibility", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/sites/"+site(t), map[string]any{"visibility": "unlisted"})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/sites/"+site(t), nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/share-links", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/sites/"+shared(t)+"/share-links", map[string]any{"name": "partners"})
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", func(t *testing.T) *apitest.Response {
				st := shared(t)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/share-links/"+shareLink(t, st), map[string]any{"active": false})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", func(t *testing.T) *apitest.Response {
				st := shared(t)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/share-links/"+shareLink(t, st), nil)
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/sites/"+site(t)+"/publishing/auth",
					map[string]any{"backend": "custom", "fallbackURL": "https://login.example/start"})
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/sites/"+site(t)+"/publishing/auth/regenerate", nil)
			}},
			{"POST /v1/orgs/{organizationId}/webhooks", do("POST", o+"/webhooks", map[string]any{"url": "https://hooks.example/a", "events": []string{"*"}})},
			{"PATCH /v1/orgs/{organizationId}/webhooks/{webhookId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/webhooks/"+webhook(t), map[string]any{"url": "https://hooks.example/b"})
			}},
			{"DELETE /v1/orgs/{organizationId}/webhooks/{webhookId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/webhooks/"+webhook(t), nil)
			}},
			{"POST /v1/integrations/{integrationName}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/integrations/audited-publish", manifest(org, nil))
			}},
			{"DELETE /v1/integrations/{integrationName}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", "/v1/integrations/"+integration(t), nil)
			}},
			{"POST /v1/integrations/{integrationName}/installations", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/integrations/"+integration(t)+"/installations", map[string]any{"organization": org})
			}},
			{"PATCH /v1/integrations/{integrationName}/installations/{installationId}", func(t *testing.T) *apitest.Response {
				name, id := installation(t)
				return s.Do(t, admin, "PATCH", "/v1/integrations/"+name+"/installations/"+id, map[string]any{"configuration": map[string]any{"a": 1}})
			}},
			{"DELETE /v1/integrations/{integrationName}/installations/{installationId}", func(t *testing.T) *apitest.Response {
				name, id := installation(t)
				return s.Do(t, admin, "DELETE", "/v1/integrations/"+name+"/installations/"+id, nil)
			}},

			{"POST /v1/orgs", func(t *testing.T) *apitest.Response {
				// Recorded in the new organization: the walk reads the
				// audit log of the organization the answer names.
				return s.Do(t, admin, "POST", "/v1/orgs", map[string]any{"title": "Audited"})
			}},
			{"POST /v1/user/tokens", do("POST", "/v1/user/tokens", map[string]any{"label": "deploy"})},
			{"DELETE /v1/user/tokens/{tokenId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", "/v1/user/tokens/"+token(t), nil)
			}},
			{"POST /v1/orgs/{organizationId}/members/{userId}/sso", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/members/"+member(t)+"/sso", nil)
			}},
			{"POST /v1/orgs/{organizationId}/invites", do("POST", o+"/invites", map[string]any{"emails": []string{"invited@example.com"}})},
			{"POST /v1/orgs/{organizationId}/saml", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/saml", map[string]any{"label": "New", "entityID": idp.EntityID, "ssoURL": idp.SSOURL,
					"certificate": idp.CertPEM})
			}},
			{"PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", o+"/saml/"+samlProvider(t), map[string]any{"label": "Renamed"})
			}},
			{"DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", o+"/saml/"+samlProvider(t), nil)
			}},
			{"POST /v1/spaces/{spaceId}/git/import", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/spaces/"+space(t)+"/git/import", gitBody)
			}},
			{"POST /v1/spaces/{spaceId}/git/export", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/spaces/"+space(t)+"/git/export",
					map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "commitMessage": "Export"})
			}},
			{"DELETE /v1/spaces/{spaceId}/git/legacy-installation", func(t *testing.T) *apitest.Response {
				sp := space(t)
				s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/git/import", gitBody).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/spaces/"+sp+"/git/legacy-installation", nil)
			}},
			{"POST /v1/collections/{collectionId}/transfer", func(t *testing.T) *apitest.Response {
				var target struct{ ID string }
				s.Do(t, admin, "POST", "/v1/orgs", map[string]any{"title": "Target"}).WantStatus(t, 201).JSON(t, &target)
				return s.Do(t, admin, "POST", "/v1/collections/"+collection(t)+"/transfer", map[string]any{"organization": target.ID})
			}},
			{"POST /v1/spaces/{spaceId}/permissions", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/spaces/"+space(t)+"/permissions", map[string]any{"role": "read", "users": []string{member(t)}})
			}},
			{"PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/spaces/"+space(t)+"/permissions/teams/"+team(t), map[string]any{"role": "read"})
			}},
			{"DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId}", func(t *testing.T) *apitest.Response {
				c, tm := space(t), team(t)
				s.Do(t, admin, "PATCH", "/v1/spaces/"+c+"/permissions/teams/"+tm, map[string]any{"role": "read"}).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/spaces/"+c+"/permissions/teams/"+tm, nil)
			}},
			{"POST /v1/collections/{collectionId}/permissions", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", "/v1/collections/"+collection(t)+"/permissions", map[string]any{"role": "read", "users": []string{member(t)}})
			}},
			{"DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}", func(t *testing.T) *apitest.Response {
				c, tm := collection(t), team(t)
				s.Do(t, admin, "PATCH", "/v1/collections/"+c+"/permissions/teams/"+tm, map[string]any{"role": "read"}).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/collections/"+c+"/permissions/teams/"+tm, nil)
			}},
			{"PATCH /v1/collections/{collectionId}/permissions/users/{userId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", "/v1/collections/"+collection(t)+"/permissions/users/"+member(t), map[string]any{"role": "edit"})
			}},
			{"DELETE /v1/collections/{collectionId}/permissions/users/{userId}", func(t *testing.T) *apitest.Response {
				c, u := collection(t), member(t)
				s.Do(t, admin, "PATCH", "/v1/collections/"+c+"/permissions/users/"+u, map[string]any{"role": "edit"}).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/collections/"+c+"/permissions/users/"+u, nil)
			}},
			{"PUT /v1/integrations/{integrationName}/dev", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PUT", "/v1/integrations/"+integration(t)+"/dev", map[string]any{"tunnelUrl": tunnel.URL})
			}},
			{"DELETE /v1/integrations/{integrationName}/dev", func(t *testing.T) *apitest.Response {
				name := integration(t)
				s.Do(t, admin, "PUT", "/v1/integrations/"+name+"/dev", map[string]any{"tunnelUrl": tunnel.URL}).WantStatus(t, 204)
				return s.Do(t, admin, "DELETE", "/v1/integrations/"+name+"/dev", nil)
			}},
			{"POST /v1/integrations/{integrationName}/installations/{installationId}/tokens", func(t *testing.T) *apitest.Response {
				name, id := installation(t)
				return s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+id+"/tokens", nil)
			}},
			{"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces", func(t *testing.T) *apitest.Response {
				name, id := installation(t)
				return s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+id+"/spaces", map[string]any{"space": space(t)})
			}},
			{"PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", onTarget(t, "spaces"), map[string]any{"configuration": map[string]any{"a": 1}})
			}},
			{"DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", onTarget(t, "spaces"), nil)
			}},
			{"POST /v1/integrations/{integrationName}/installations/{installationId}/sites", func(t *testing.T) *apitest.Response {
				name, id := installation(t)
				return s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+id+"/sites", map[string]any{"siteId": site(t)})
			}},
			{"PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PATCH", onTarget(t, "sites"), map[string]any{"configuration": map[string]any{"a": 1}})
			}},
			{"DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "DELETE", onTarget(t, "sites"), nil)
			}},
			{"PUT /v1/orgs/{organizationId}/sites/{siteId}/customization", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PUT", o+"/sites/"+site(t)+"/customization", customization(t, "Custom"))
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/site-spaces/"+siteSpace(t, st)+"/customization", map[string]any{"title": "Custom"})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", func(t *testing.T) *apitest.Response {
				st := site(t)
				ss := siteSpace(t, st)
				s.Do(t, admin, "PATCH", o+"/sites/"+st+"/site-spaces/"+ss+"/customization", map[string]any{"title": "Custom"}).WantStatus(t, 200)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/site-spaces/"+ss+"/customization", nil)
			}},
			{"PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "PUT", o+"/sites/"+site(t)+"/adaptive-schema", adaptiveSchemaBody)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/redirects", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/redirects", map[string]any{"source": "/before",
					"destination": map[string]any{"kind": "site-space", "siteSpaceId": siteSpace(t, st)}})
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/redirects/"+redirect(t, st), map[string]any{"source": "/elsewhere"})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/redirects/"+redirect(t, st), nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/sites/"+site(t)+"/site-spaces", map[string]any{"spaceId": space(t)})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/site-spaces/"+siteSpace(t, st), nil)
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/site-spaces/"+siteSpace(t, st), map[string]any{"path": "renamed"})
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", func(t *testing.T) *apitest.Response {
				st := site(t)
				ss := siteSpace(t, st)
				siteSpace(t, st)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/site-spaces/"+ss+"/move", map[string]any{})
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/sections", func(t *testing.T) *apitest.Response {
				return s.Do(t, admin, "POST", o+"/sites/"+site(t)+"/sections", map[string]any{"spaceId": space(t)})
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/sections/"+section(t, st), map[string]any{"title": "Renamed"})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/sections/"+section(t, st), nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/sections/"+section(t, st)+"/move", map[string]any{})
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/structure/sort", func(t *testing.T) *apitest.Response {
				st := site(t)
				first, second := section(t, st), section(t, st)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/structure/sort", map[string]any{
					"item":     map[string]any{"type": "site-section", "id": second},
					"position": map[string]any{"before": map[string]any{"type": "site-section", "id": first}}})
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/section-groups", map[string]any{"title": "Group"})
			}},
			{"PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "PATCH", o+"/sites/"+st+"/section-groups/"+group(t, st), map[string]any{"title": "Renamed"})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/section-groups/"+group(t, st), nil)
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", func(t *testing.T) *apitest.Response {
				st := site(t)
				section(t, st)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/section-groups/"+group(t, st)+"/move", map[string]any{})
			}},
			{"POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", func(t *testing.T) *apitest.Response {
				st := site(t)
				sec := section(t, st)
				return s.Do(t, admin, "POST", o+"/sites/"+st+"/section-groups/"+group(t, st)+"/sections", map[string]any{"sectionId": sec})
			}},
			{"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
				func(t *testing.T) *apitest.Response {
					st := site(t)
					sec, g := section(t, st), group(t, st)
					s.Do(t, admin, "POST", o+"/sites/"+st+"/section-groups/"+g+"/sections", map[string]any{"sectionId": sec}).WantStatus(t, 201)
					return s.Do(t, admin, "DELETE", o+"/sites/"+st+"/section-groups/"+g+"/sections/"+sec, nil)
				}},
		}
		for _, rt := range routes {
			t.Run(rt.route, func(t *testing.T) {
				r := rt.call(t)
				if r.Status >= 300 {
					t.Fatalf("%s answered %d: %s", rt.route, r.Status, r.Body)
				}
				rid := r.Header.Get("X-Request-Id")
				in := org
				if rt.route == "POST /v1/orgs" {
					var created struct{ ID string }
					r.JSON(t, &created)
					in = created.ID
				}
				for _, e := range auditLog(t, s, admin, in, "?limit=100") {
					if e.RequestID == rid {
						return
					}
				}
				t.Errorf("%s wrote no audit entry", rt.route)
			})
		}
	})
}

// walkedAdministrative is every route TestAdministrativeRoutesAudited
// calls, by pattern (without the walk's variant suffixes).
func walkedAdministrative(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile("audit_routes_test.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range walkedRoute.FindAllStringSubmatch(string(src), -1) {
		out[m[1]] = true
	}
	return out
}

var walkedRoute = regexp.MustCompile(`(?m)^\t\t\t\{"((?:POST|PUT|PATCH|DELETE) /[^" ]+)`)

// notAdministrative lists the writing routes that are not administrative
// changes, with why: content and its review, a user's own session or
// presence, reads sent as POST, and deliveries of what is already
// configured. Every other POST, PUT, PATCH or DELETE route must be in
// TestAdministrativeRoutesAudited.
var notAdministrative = map[string]string{
	// Presence and joining: a user acting for themselves. Joining adds a
	// member, which addMember records as member.added.
	"POST /v1/orgs/{organizationId}/ping":               "last-seen time",
	"POST /v1/orgs/{organizationId}/join":               "joining by email domain, recorded as member.added",
	"POST /v1/orgs/{organizationId}/invites/{inviteId}": "joining by an invite link, recorded as member.added",
	// SAML sign-in (its sign-ups are recorded as member.added).
	"POST /v1/orgs/{organizationId}/saml/{samlProviderId}/acs": "a sign-in",
	// Content of spaces: pages, imports, templates, copies.
	"POST /v1/spaces/{spaceId}/duplicate":                             "a copy of content",
	"POST /v1/spaces/{spaceId}/content/import":                        "content",
	"POST /v1/spaces/{spaceId}/content/page/{pageId}/import":          "content",
	"POST /v1/spaces/{spaceId}/content/template":                      "content",
	"POST /v1/orgs/{organizationId}/openapi":                          "content (specifications)",
	"PUT /v1/orgs/{organizationId}/openapi/{specSlug}":                "content (specifications)",
	"PATCH /v1/orgs/{organizationId}/openapi/{specSlug}":              "content (specifications)",
	"DELETE /v1/orgs/{organizationId}/openapi/{specSlug}":             "content (specifications)",
	"POST /v1/orgs/{organizationId}/translations":                     "content (translated copies)",
	"PUT /v1/orgs/{organizationId}/translations/{translationId}":      "content (translated copies)",
	"DELETE /v1/orgs/{organizationId}/translations/{translationId}":   "content (translated copies)",
	"POST /v1/orgs/{organizationId}/translations/{translationId}/run": "content (translated copies)",
	"PUT /v1/orgs/{organizationId}/translations-glossary":             "content (glossary)",
	// Change requests, their reviews and comments: the editing workflow.
	"POST /v1/spaces/{spaceId}/change-requests":                                                  "content workflow",
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                               "content workflow",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge":                          "content workflow",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update":                         "content workflow",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import":                 "content",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/import":   "content",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews":                        "content workflow",
	"POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers":            "content workflow",
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}": "content workflow",
	// Reads sent as POST.
	"POST /v1/orgs/{organizationId}/sites/{siteId}/search": "a search",
	"POST /v1/orgs/{organizationId}/sites/{siteId}/ask":    "a question",
	"POST /v1/urls/published":                              "a lookup",
	"POST /v1/integrations/{integrationName}/render":       "renders an integration's UI",
	// Deliveries of what is already configured: the webhook and its
	// target do not change.
	"POST /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": "sends an event again",
}

// TestEveryWritingRouteClassified fails when a POST, PUT, PATCH or DELETE
// route is neither walked by TestAdministrativeRoutesAudited nor listed in
// notAdministrative, so a new administrative route cannot be forgotten.
// Comments (of spaces and of change requests) are content and are matched
// by their path.
func TestEveryWritingRouteClassified(t *testing.T) {
	s := apitest.New(t, "sqlite", apitest.Options{})
	walked := walkedAdministrative(t)
	seen := map[string]bool{}
	for _, r := range routes(t, s) {
		method, path, _ := strings.Cut(r.Pattern, " ")
		switch method {
		case "POST", "PUT", "PATCH", "DELETE":
		default:
			continue // reads, and public endpoints registered for every method
		}
		seen[r.Pattern] = true
		_, listed := notAdministrative[r.Pattern]
		comment := strings.Contains(path, "/comments")
		switch {
		case walked[r.Pattern] && (listed || comment):
			t.Errorf("%s is both walked and listed as not administrative", r.Pattern)
		case !walked[r.Pattern] && !listed && !comment:
			t.Errorf("%s is neither in TestAdministrativeRoutesAudited nor in notAdministrative", r.Pattern)
		}
	}
	for p := range notAdministrative {
		if !seen[p] {
			t.Errorf("notAdministrative lists %s, which is no writing route", p)
		}
	}
	for p := range walked {
		if !seen[p] {
			t.Errorf("TestAdministrativeRoutesAudited walks %s, which is no writing route", p)
		}
	}
}
