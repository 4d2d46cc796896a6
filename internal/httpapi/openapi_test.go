package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// specServer serves specification files from a map that tests change, and
// can stall or fail on purpose.
type specServer struct {
	mu    sync.Mutex
	files map[string]string
	stall bool
	*httptest.Server
}

func newSpecServer(t *testing.T, files map[string]string) *specServer {
	s := &specServer{files: files}
	done := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.files[strings.TrimPrefix(r.URL.Path, "/")]
		stall := s.stall
		s.mu.Unlock()
		if stall {
			select {
			case <-done:
			case <-r.Context().Done():
			}
			return
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(func() { close(done); s.Close() })
	return s
}

func (s *specServer) remove(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, name)
}

func (s *specServer) set(name, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[name] = body
}

// petstore is a small OpenAPI 3.0 specification in two files: the
// entrypoint refers to a schema in another file by a relative $ref.
var petstore = map[string]string{
	"api/openapi.yaml": `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: "./schemas/pet.yaml"
`,
	"api/schemas/pet.yaml": `type: object
required: [id, name]
properties:
  id:
    type: integer
  name:
    type: string
`,
}

type openAPISpecBody struct {
	Object, ID, Slug, SourceURL, ProcessingState, Visibility, LastVersion, LastProcessedAt, LastProcessErrorCode string
	LastProcessedErrors                                                                                          []struct{ Message, Code string }
	Permissions                                                                                                  struct{ View, Edit bool }
	URLs                                                                                                         struct{ Location, App, Published string }
}

func runJobs(t *testing.T, s *apitest.Server) {
	t.Helper()
	for range 20 {
		n, err := s.Jobs.RunDue(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

func getSpec(t *testing.T, s *apitest.Server, token, org, slug string) openAPISpecBody {
	t.Helper()
	var b openAPISpecBody
	s.Do(t, token, "GET", "/v1/orgs/"+org+"/openapi/"+slug, nil).WantStatus(t, 200).JSON(t, &b)
	return b
}

func TestOpenAPISpecLifecycle(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petstore["api/openapi.yaml"], "api/schemas/pet.yaml": petstore["api/schemas/pet.yaml"]})
		entry := srv.URL + "/api/openapi.yaml"

		var created openAPISpecBody
		r := s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "petstore", "source": map[string]any{"url": entry}}).WantStatus(t, 201)
		r.JSON(t, &created)
		if created.Object != "openapi-spec" || created.Slug != "petstore" || created.SourceURL != entry || created.ProcessingState != "pending" ||
			created.Visibility != "private" || !created.Permissions.Edit || r.Header.Get("Location") != created.URLs.Location {
			t.Fatalf("created %+v", created)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/latest", nil).WantError(t, 404, "no matching OpenAPI specification version found")

		runJobs(t, s)
		spec := getSpec(t, s, admin, org, "petstore")
		if spec.ProcessingState != "complete" || spec.LastVersion == "" || spec.LastProcessedAt == "" || spec.LastProcessErrorCode != "" {
			t.Fatalf("processed %+v", spec)
		}
		var latest struct{ Object, ID, URL string }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/latest", nil).WantStatus(t, 200).JSON(t, &latest)
		if latest.Object != "openapi-spec-version" || latest.ID != spec.LastVersion || latest.URL == "" {
			t.Fatalf("latest %+v", latest)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/"+latest.ID, nil).WantStatus(t, 200)
		var content struct {
			Filesystem json.RawMessage
			URL        string
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/latest/content", nil).WantStatus(t, 200).JSON(t, &content)
		if !strings.Contains(string(content.Filesystem), "listPets") || !strings.Contains(string(content.Filesystem), `"name"`) || content.URL != latest.URL {
			t.Fatalf("content %s %s", content.Filesystem, content.URL)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/"+latest.ID+"/content", nil).WantStatus(t, 200)

		// The raw specification: private needs a member's token.
		rawPath := strings.TrimPrefix(latest.URL, apitest.PublicURL)
		s.Do(t, "", "GET", rawPath, nil).WantStatus(t, 404)
		if got := s.Do(t, admin, "GET", rawPath, nil).WantStatus(t, 200); !strings.Contains(string(got.Body), "openapi: 3.0.3") {
			t.Fatalf("raw %s", got.Body)
		}
		var public openAPISpecBody
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"visibility": "public"}).WantStatus(t, 200).JSON(t, &public)
		if public.Visibility != "public" || public.URLs.Published != latest.URL {
			t.Fatalf("public %+v", public)
		}
		s.Do(t, "", "GET", rawPath, nil).WantStatus(t, 200)

		// Processing the same content again makes no new version.
		var put openAPISpecBody
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"source": map[string]any{"url": entry}}).WantStatus(t, 200).JSON(t, &put)
		if put.ProcessingState != "pending" {
			t.Fatalf("put %+v", put)
		}
		runJobs(t, s)
		if again := getSpec(t, s, admin, org, "petstore"); again.LastVersion != spec.LastVersion {
			t.Fatalf("same content made a new version: %s", again.LastVersion)
		}
		// A change in a referenced file makes one.
		srv.set("api/schemas/pet.yaml", petstore["api/schemas/pet.yaml"]+"  tag:\n    type: string\n")
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"source": map[string]any{"url": entry}}).WantStatus(t, 200)
		runJobs(t, s)
		changed := getSpec(t, s, admin, org, "petstore")
		if changed.LastVersion == spec.LastVersion {
			t.Fatal("changed content made no new version")
		}
		var versions struct {
			Count int
			Items []struct{ ID string }
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions", nil).WantStatus(t, 200).JSON(t, &versions)
		if versions.Count != 2 || versions.Items[0].ID != changed.LastVersion || versions.Items[1].ID != spec.LastVersion {
			t.Fatalf("versions %+v", versions)
		}

		// Failures keep the last good version served.
		for _, tc := range []struct {
			name, code string
			break_     func()
		}{
			{"not found", "FETCH_ERROR", func() { srv.remove("api/openapi.yaml") }},
			{"invalid YAML", "PARSE_ERROR", func() { srv.set("api/openapi.yaml", "openapi: 3.0.3\ninfo: [unclosed\n") }},
			{"not OpenAPI", "PARSE_ERROR", func() { srv.set("api/openapi.yaml", "hello: world\n") }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.break_()
				s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/petstore", map[string]any{"source": map[string]any{"url": entry}}).WantStatus(t, 200)
				runJobs(t, s)
				failed := getSpec(t, s, admin, org, "petstore")
				if failed.ProcessingState != "complete" || failed.LastProcessErrorCode != tc.code || len(failed.LastProcessedErrors) == 0 ||
					failed.LastVersion != changed.LastVersion {
					t.Fatalf("failed %+v", failed)
				}
				s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore/versions/latest/content", nil).WantStatus(t, 200)
			})
		}

		// Delete: 204, also when already gone.
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/openapi/petstore", nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/openapi/petstore", nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/petstore", nil).WantError(t, 404, "no matching OpenAPI specification found")
		s.Do(t, "", "GET", rawPath, nil).WantStatus(t, 404)
	})
}

func TestOpenAPISpecFetchTimeout(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{ImportFetchTimeout: 300 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		srv := newSpecServer(t, map[string]string{})
		srv.stall = true
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "slow", "source": map[string]any{"url": srv.URL + "/x.yaml"}}).WantStatus(t, 201)
		runJobs(t, s)
		spec := getSpec(t, s, admin, org, "slow")
		if spec.LastProcessErrorCode != "FETCH_TIMEOUT" || spec.LastVersion != "" || spec.ProcessingState != "complete" {
			t.Fatalf("timeout %+v", spec)
		}
	})
}

func TestOpenAPISpecFormats(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, tc := range []struct{ slug, text, want string }{
			{"swagger-json", `{"swagger":"2.0","info":{"title":"S","version":"1"},"paths":{"/a":{"get":{"operationId":"getA","responses":{"200":{"description":"ok"}}}}}}`, "getA"},
			{"swagger-yaml", "swagger: \"2.0\"\ninfo: {title: S, version: \"1\"}\npaths:\n  /b:\n    get:\n      operationId: getB\n      responses:\n        \"200\": {description: ok}\n", "getB"},
			{"openapi-31", "openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /c:\n    get:\n      operationId: getC\n      responses:\n        \"200\": {description: ok}\n", "getC"},
		} {
			t.Run(tc.slug, func(t *testing.T) {
				s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": tc.slug, "source": map[string]any{"text": tc.text}}).WantStatus(t, 201)
				runJobs(t, s)
				spec := getSpec(t, s, admin, org, tc.slug)
				if spec.LastVersion == "" || spec.LastProcessErrorCode != "" || spec.SourceURL != "" {
					t.Fatalf("spec %+v", spec)
				}
				var content struct{ Filesystem json.RawMessage }
				s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/"+tc.slug+"/versions/latest/content", nil).WantStatus(t, 200).JSON(t, &content)
				if !strings.Contains(string(content.Filesystem), tc.want) {
					t.Fatalf("content %s", content.Filesystem)
				}
			})
		}
		var list struct {
			Count int
			Items []openAPISpecBody
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi?limit=2", nil).WantStatus(t, 200).JSON(t, &list)
		if list.Count != 3 || len(list.Items) != 2 {
			t.Fatalf("list %+v", list)
		}
	})
}

func TestOpenAPISpecValidationAndAccess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		text := map[string]any{"text": "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n"}
		for _, tc := range []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"no slug", map[string]any{"source": text}, "slug is required"},
			{"bad slug", map[string]any{"slug": "bad slug", "source": text}, "slug must be at most 100 letters and digits in words separated by single hyphens, such as my-api"},
			{"double hyphen", map[string]any{"slug": "a--b", "source": text}, "slug must be at most 100 letters and digits in words separated by single hyphens, such as my-api"},
			{"long slug", map[string]any{"slug": strings.Repeat("a", 101), "source": text}, "slug must be at most 100 letters and digits in words separated by single hyphens, such as my-api"},
			{"no source", map[string]any{"slug": "x"}, "source is required"},
			{"empty source", map[string]any{"slug": "x", "source": map[string]any{}}, "source needs a url or a text"},
			{"both", map[string]any{"slug": "x", "source": map[string]any{"url": "https://example.com/a.yaml", "text": "a"}}, "source has either a url or a text, not both"},
			{"relative url", map[string]any{"slug": "x", "source": map[string]any{"url": "a.yaml"}}, "source.url must be an absolute http or https URL"},
			{"file url", map[string]any{"slug": "x", "source": map[string]any{"url": "file:///etc/passwd"}}, "source.url must be an absolute http or https URL"},
			{"blank text", map[string]any{"slug": "x", "source": map[string]any{"text": "  "}}, "source.text must not be empty"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s.DoUnchecked(t, admin, "POST", "/v1/orgs/"+org+"/openapi", tc.body).WantError(t, 400, tc.msg)
			})
		}
		var list struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi", nil).WantStatus(t, 200).JSON(t, &list)
		if list.Count != 0 {
			t.Fatalf("refused requests created %d specifications", list.Count)
		}

		// PUT creates (201), then updates (200); a taken slug is refused.
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/api", map[string]any{"source": text}).WantStatus(t, 201)
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/api", map[string]any{"source": text}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "api", "source": text}).WantError(t, 400, "an OpenAPI specification with the slug api already exists")
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/openapi/api", map[string]any{"visibility": "hidden"}).WantStatus(t, 400)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/openapi/nope", map[string]any{"visibility": "public"}).WantError(t, 404, "no matching OpenAPI specification found")
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/api/versions/nope", nil).WantError(t, 404, "no matching OpenAPI specification version found")

		_, reader := s.Member(t, org, folio.RoleRead)
		_, creator := s.Member(t, org, folio.RoleCreate)
		_, outsider := s.Org(t)
		var seen openAPISpecBody
		s.Do(t, reader, "GET", "/v1/orgs/"+org+"/openapi/api", nil).WantStatus(t, 200).JSON(t, &seen)
		if seen.Permissions.Edit || !seen.Permissions.View {
			t.Fatalf("reader permissions %+v", seen.Permissions)
		}
		s.Do(t, reader, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "mine", "source": text}).WantError(t, 403, "you cannot change this organization's OpenAPI specifications")
		s.Do(t, reader, "PATCH", "/v1/orgs/"+org+"/openapi/api", map[string]any{"visibility": "public"}).WantStatus(t, 403)
		s.Do(t, reader, "DELETE", "/v1/orgs/"+org+"/openapi/api", nil).WantStatus(t, 403)
		s.Do(t, creator, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "mine", "source": text}).WantStatus(t, 201)
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/openapi/api", nil).WantStatus(t, 404)
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/openapi", nil).WantStatus(t, 404)
		s.Do(t, outsider, "DELETE", "/v1/orgs/"+org+"/openapi/api", nil).WantStatus(t, 404)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/api", nil).WantStatus(t, 200)
	})
}

func TestOpenAPISpecsRefreshOnSchedule(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		srv := newSpecServer(t, map[string]string{"api/openapi.yaml": petstore["api/openapi.yaml"], "api/schemas/pet.yaml": petstore["api/schemas/pet.yaml"]})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "petstore", "source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}}).WantStatus(t, 201)
		runJobs(t, s)
		first := getSpec(t, s, admin, org, "petstore")

		srv.set("api/schemas/pet.yaml", petstore["api/schemas/pet.yaml"]+"  age:\n    type: integer\n")
		ctx := context.Background()
		if err := s.App.EnsureSchedules(ctx); err != nil {
			t.Fatal(err)
		}
		// Not due yet: nothing changes.
		s.Clock.Set(time.Now().Add(time.Hour))
		runJobs(t, s)
		if got := getSpec(t, s, admin, org, "petstore"); got.LastVersion != first.LastVersion {
			t.Fatalf("refreshed before due")
		}
		// Six hours later the schedule queues it again.
		s.Clock.Set(time.Now().Add(folio.OpenAPIRefreshEvery + time.Hour))
		runJobs(t, s)
		if got := getSpec(t, s, admin, org, "petstore"); got.LastVersion == first.LastVersion {
			t.Fatalf("not refreshed: %+v", got)
		}
	})
}

// The api-reference template over an organization's specification makes
// pages computed from it: an introduction, one page per tag and models,
// whose documents follow the specification's new versions with no new
// revision.
func TestAPIReferenceTemplateComputesPagesFromASpec(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		spec := func(extra string) string {
			return "openapi: 3.0.3\ninfo: {title: Pets, version: \"2.1\", description: All about pets.}\npaths:\n" +
				"  /pets:\n    get:\n      tags: [pets]\n      operationId: listPets\n      summary: List pets\n      responses:\n        \"200\": {description: ok}\n" +
				extra +
				"  /stores:\n    get:\n      tags: [stores]\n      operationId: listStores\n      responses:\n        \"200\": {description: ok}\n" +
				"components:\n  schemas:\n    Pet: {type: object}\n    Store: {type: object}\n"
		}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": spec("")}}).WantStatus(t, 201)
		runJobs(t, s)

		space := newSpace(t, s, admin, org, "API")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "api-reference",
			"params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "openapi", "spec": "nope"}}}}).
			WantError(t, 400, "no OpenAPI specification nope in this organization")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "api-reference",
			"params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "openapi", "spec": "pets"}}}}).WantStatus(t, 204)
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		var titles []string
		for _, p := range rev.Pages {
			titles = append(titles, p.Title)
		}
		if strings.Join(titles, ",") != "Introduction,pets,stores,Models" {
			t.Fatalf("pages %v", titles)
		}
		petsPage := "/v1/spaces/" + space + "/content/page/" + rev.Pages[1].ID
		var doc struct {
			Document struct {
				Nodes []struct {
					Type string
					Data map[string]any
				}
			}
			Computed map[string]any
		}
		s.Do(t, admin, "GET", petsPage+"?format=document", nil).WantStatus(t, 200).JSON(t, &doc)
		if len(doc.Document.Nodes) != 1 || doc.Document.Nodes[0].Type != "openapi-operation" || doc.Document.Nodes[0].Data["path"] != "/pets" ||
			doc.Computed["type"] != "builtin:openapi" {
			t.Fatalf("computed page %+v", doc)
		}
		var intro pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+rev.Pages[0].ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &intro)
		if !strings.Contains(deref(intro.Markdown), "Pets 2.1") || !strings.Contains(deref(intro.Markdown), "All about pets.") {
			t.Fatalf("introduction %s", deref(intro.Markdown))
		}
		// Without computed content, the stored (empty) document.
		var raw struct{ Document struct{ Nodes []any } }
		s.Do(t, admin, "GET", petsPage+"?format=document&computed=false", nil).WantStatus(t, 200).JSON(t, &raw)
		if len(raw.Document.Nodes) != 0 {
			t.Fatalf("computed=false %+v", raw)
		}

		// A new version with a new operation of the tag: the page follows,
		// in the same revision.
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/openapi/pets", map[string]any{"source": map[string]any{"text": spec(
			"  /pets/{id}:\n    get:\n      tags: [pets]\n      operationId: getPet\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n      responses:\n        \"200\": {description: ok}\n")}}).WantStatus(t, 200)
		runJobs(t, s)
		s.Do(t, admin, "GET", petsPage+"?format=document", nil).WantStatus(t, 200).JSON(t, &doc)
		if len(doc.Document.Nodes) != 2 || doc.Document.Nodes[1].Data["path"] != "/pets/{id}" {
			t.Fatalf("after the new version %+v", doc.Document.Nodes)
		}
		var now revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != rev.ID {
			t.Fatal("a new version made a new revision")
		}
	})
}
