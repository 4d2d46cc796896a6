package httpapi_test

import (
	"fmt"
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
			{"unknown openapi spec", map[string]any{"id": "api-reference", "params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "openapi", "spec": "petstore"}}}}, 400, "no OpenAPI specification petstore in this organization"},
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

// A template applied with changeRequestId replaces the change request's
// head, as a new head whose parent is the previous one, and records the
// caller as a contributor; the live space does not change. Change requests
// that are merged or archived, unknown ones and callers who may not edit
// are refused, and a refusal changes nothing.
func TestTemplateInAChangeRequest(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Keep\n\nKept as is.\n"))
		var live revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &live)
		_, editor := s.Member(t, org, folio.RoleEdit)
		var eu struct{ ID string }
		s.Do(t, editor, "GET", "/v1/user", nil).JSON(t, &eu)

		cr := newCR(t, s, admin, space, "Restructure")
		s.Do(t, editor, "POST", "/v1/spaces/"+space+"/content/template",
			map[string]any{"id": "product-docs", "changeRequestId": cr.ID}).WantStatus(t, 204)
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).WantStatus(t, 200).JSON(t, &got)
		if got.Revision == cr.Revision {
			t.Fatal("the template did not move the change request's head")
		}
		var head revisionBody
		s.Do(t, admin, "GET", crPath(space, cr)+"/content", nil).WantStatus(t, 200).JSON(t, &head)
		if head.ID != got.Revision || len(head.Parents) != 1 || head.Parents[0] != cr.Revision || len(head.Pages) < 2 {
			t.Fatalf("head %+v", head)
		}
		for _, p := range head.Pages {
			if p.Title == "Keep" {
				t.Fatalf("the template kept the old content: %+v", head.Pages)
			}
		}
		var contributors struct {
			Count int
			Items []struct{ User struct{ ID string } }
		}
		s.Do(t, admin, "GET", crPath(space, cr)+"/contributors", nil).WantStatus(t, 200).JSON(t, &contributors)
		if contributors.Count != 1 || contributors.Items[0].User.ID != eu.ID {
			t.Fatalf("contributors %+v, want the editor", contributors)
		}
		// By number too.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template",
			map[string]any{"id": "blank", "changeRequestId": fmt.Sprint(cr.Number)}).WantStatus(t, 204)
		var now revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != live.ID || len(now.Pages) != 1 || now.Pages[0].Title != "Keep" {
			t.Fatalf("a template in a change request changed the live space: %+v", now)
		}

		// Refusals change nothing.
		merged := newCR(t, s, admin, space, "Merged")
		importIntoCR(t, s, admin, space, merged, "", "# Added\n\nText.\n")
		s.Do(t, admin, "POST", crPath(space, merged)+"/merge", nil).WantStatus(t, 200)
		archived := newCR(t, s, admin, space, "Archived")
		s.Do(t, admin, "PATCH", crPath(space, archived), map[string]any{"status": "archived"}).WantStatus(t, 200)
		open := newCR(t, s, admin, space, "Open")
		_, reader := s.Member(t, org, folio.RoleRead)
		for _, tt := range []struct {
			name, token, cr string
			status          int
			msg             string
		}{
			{"unknown", admin, "nosuchchangerequest1", 404, "change request not found"},
			{"merged", admin, merged.ID, 409, "merged"},
			{"archived", admin, archived.ID, 409, "archived"},
			{"reader", reader, open.ID, 403, "cannot edit"},
			{"no id", admin, open.ID, 400, "id is required"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				var before crBody
				if tt.cr != "nosuchchangerequest1" {
					s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/"+tt.cr, nil).WantStatus(t, 200).JSON(t, &before)
				}
				spaceBefore := getCounts(t, s, admin, space).Revision
				body := map[string]any{"id": "blank", "changeRequestId": tt.cr}
				if tt.name == "no id" {
					delete(body, "id")
				}
				s.DoUnchecked(t, tt.token, "POST", "/v1/spaces/"+space+"/content/template", body).WantError(t, tt.status, tt.msg)
				if tt.cr != "nosuchchangerequest1" {
					var after crBody
					s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/"+tt.cr, nil).WantStatus(t, 200).JSON(t, &after)
					if after.Revision != before.Revision || after.Status != before.Status {
						t.Fatalf("a refused template changed the change request: %+v -> %+v", before, after)
					}
				}
				if getCounts(t, s, admin, space).Revision != spaceBefore {
					t.Fatal("a refused template changed the space")
				}
			})
		}

		// A locked space refuses templates on its live content but takes
		// them in its change requests: that is where its edits go.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		spaceBefore := getCounts(t, s, admin, space).Revision
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "blank"}).WantError(t, 403, "locked")
		if getCounts(t, s, admin, space).Revision != spaceBefore {
			t.Fatal("a template changed a locked space's live content")
		}
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template",
			map[string]any{"id": "blank", "changeRequestId": open.ID}).WantStatus(t, 204)
		var after crBody
		s.Do(t, admin, "GET", crPath(space, open), nil).JSON(t, &after)
		if after.Revision == open.Revision {
			t.Fatal("a template in a locked space's change request did not change it")
		}
	})
}
