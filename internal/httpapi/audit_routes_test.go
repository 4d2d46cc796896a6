package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
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
		}
		for _, rt := range routes {
			t.Run(rt.route, func(t *testing.T) {
				r := rt.call(t)
				if r.Status >= 300 {
					t.Fatalf("%s answered %d: %s", rt.route, r.Status, r.Body)
				}
				rid := r.Header.Get("X-Request-Id")
				for _, e := range auditLog(t, s, admin, org, "?limit=100") {
					if e.RequestID == rid {
						return
					}
				}
				t.Errorf("%s wrote no audit entry", rt.route)
			})
		}
	})
}
