package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

const petstoreSpec = `openapi: 3.0.3
info:
  title: Pet Store
  version: 1.0.0
  description: Sell pets online.
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      responses:
        "200":
          description: The pets.
    post:
      tags: [pets]
      summary: Add a pet
      requestBody:
        content:
          application/json:
            schema:
              type: object
      responses:
        "201":
          description: Added.
  /stores:
    get:
      tags: [stores]
      summary: List stores
      responses:
        "200":
          description: The stores.
`

func TestApplyTemplates(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, id := range []string{"blank", "product-docs", "knowledge-base", "changelog", "api-reference"} {
			t.Run(id, func(t *testing.T) {
				space := newSpace(t, s, admin, org, "Template "+id)
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": id}).WantStatus(t, 204)
				var rev revisionBody
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
				if len(rev.Pages) == 0 || len(rev.Parents) != 1 {
					t.Fatalf("template %s gave %+v", id, rev)
				}
				if id != "blank" && len(rev.Pages) < 2 {
					t.Fatalf("template %s has only %d pages", id, len(rev.Pages))
				}
				// Every page reads back as Markdown.
				var walk func(ps []pageBody)
				walk = func(ps []pageBody) {
					for _, p := range ps {
						if p.Type == "document" {
							s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=markdown", nil).WantStatus(t, 200)
						}
						walk(p.Pages)
					}
				}
				walk(rev.Pages)
			})
		}

		// api-reference from a spec given as a url reference.
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/yaml")
			w.Write([]byte(petstoreSpec))
		}))
		defer remote.Close()
		space := newSpace(t, s, admin, org, "API")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "api-reference",
			"params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "url", "url": remote.URL + "/openapi.yaml"}}}}).WantStatus(t, 204)
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		titles := map[string]bool{}
		var walk func(ps []pageBody)
		walk = func(ps []pageBody) {
			for _, p := range ps {
				titles[p.Title] = true
				walk(p.Pages)
			}
		}
		walk(rev.Pages)
		if !titles["Pets"] && !titles["pets"] {
			t.Fatalf("api-reference pages: %v", titles)
		}
		var sl searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=add+pet", nil).WantStatus(t, 200).JSON(t, &sl)
		if sl.Count == 0 {
			t.Fatal("generated operation pages are not searchable")
		}

		// Errors change nothing.
		var before struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &before)
		for _, tt := range []struct {
			name   string
			body   map[string]any
			status int
			msg    string
		}{
			{"no id", map[string]any{}, 400, "id is required"},
			{"unknown id", map[string]any{"id": "wiki"}, 400, "does not exist"},
			{"change request", map[string]any{"id": "blank", "changeRequestId": "cr1"}, 404, "change request not found"},
			{"openapi ref", map[string]any{"id": "api-reference", "params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "openapi", "spec": "petstore"}}}}, 400, "url reference"},
			{"bad spec", map[string]any{"id": "api-reference", "params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "url", "url": dataURL("application/json", []byte(`{"openapi": 7}`))}}}}, 400, "OpenAPI document"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				s.DoUnchecked(t, admin, "POST", "/v1/spaces/"+space+"/content/template", tt.body).WantError(t, tt.status, tt.msg)
			})
		}
		var after struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &after)
		if after.Revision != before.Revision {
			t.Fatal("a failed template changed the space")
		}
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "blank"}).WantError(t, 403, "cannot edit")
	})
}

func TestTemplateOnALockedSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Frozen")
		importInto(t, s, admin, space, "", "markdown", []byte("# Keep\n\nKept as is.\n"))
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		var before revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &before)
		_, editor := s.Member(t, org, folio.RoleEdit)
		for _, tt := range []struct{ name, token string }{{"admin", admin}, {"editor", editor}} {
			t.Run(tt.name, func(t *testing.T) {
				s.Do(t, tt.token, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "product-docs"}).WantError(t, 403, "locked")
				var after revisionBody
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &after)
				if after.ID != before.ID || len(after.Pages) != 1 || after.Pages[0].Title != "Keep" {
					t.Fatalf("a refused template changed the space: %+v", after)
				}
			})
		}
		// Unlocked again, the template applies.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "live"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "blank"}).WantStatus(t, 204)
	})
}
