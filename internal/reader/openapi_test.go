package reader_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

const petsSpec = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      summary: List all pets
      description: Returns the pets of the store.
      parameters:
        - {name: limit, in: query, required: false, description: How many to return, schema: {type: integer, format: int32}}
        - {name: X-Request-Id, in: header, required: true, schema: {type: string}}
      responses:
        "200":
          description: A page of pets
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
              example: [{"name": "Rex"}]
        default:
          description: An error
    post:
      summary: Create a pet
      deprecated: true
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
            example: {"name": "Tom"}
      responses:
        "201": {description: Created}
components:
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
`

const hostileSpec = `openapi: 3.0.3
info: {title: Evil, version: "1"}
paths:
  /evil:
    get:
      summary: "<script>alert(1)</script>"
      description: "Read <img src=x onerror=alert(2)> and [this](https://evil.test/x)"
      parameters:
        - {name: "<b onmouseover=alert(4)>q</b>", in: query, schema: {type: string}}
      responses:
        "200":
          description: "</section><script>alert(5)</script>"
          content:
            application/json:
              example: {"html": "</code></pre><script>alert(6)</script>"}
`

// runJobs runs the due background jobs (the specifications' processing).
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

// putSpec creates or updates a specification from text and processes it.
func (f *fixture) putSpec(t *testing.T, slug, text string) {
	t.Helper()
	f.s.Do(t, f.admin, "PUT", "/v1/orgs/"+f.org+"/openapi/"+slug, map[string]any{"source": map[string]any{"text": text}})
	runJobs(t, f.s)
}

// TestRenderOpenAPIBlocks: openapi-operation blocks show the operation of
// the specification's latest version (method, path, summary, parameters,
// body, responses and examples), a missing specification or operation a
// note, and a new version of the specification shows on the next request
// although the revision did not change.
func TestRenderOpenAPIBlocks(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		md := "# API\n\n{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n\n" +
			"{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"post\" %}\n{% endopenapi-operation %}\n\n" +
			"{% openapi-operation spec=\"petstore\" path=\"/cats\" method=\"get\" %}\n{% endopenapi-operation %}\n\n" +
			"{% openapi-operation spec=\"nowhere\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n"
		f := newFixture(t, s, md, map[string]any{})
		f.publish(t)
		base := "/sites/" + f.site + "/"

		// Before the specification exists: notes, and a cached page that
		// must not outlive the specification's creation.
		get(t, s, nil, "", base).want(t, 200, "Operation GET /pets of petstore is not available")
		get(t, s, nil, "", base).want(t, 200, "Operation GET /pets of petstore is not available")

		f.putSpec(t, "petstore", petsSpec)
		p := get(t, s, nil, "", base).want(t, 200,
			`<span class="method method-get">GET</span> <code class="openapi-path">/pets</code>`,
			"List all pets", "Returns the pets of the store.",
			"<code>limit</code>", "<td>query</td>", "integer (int32)", "How many to return",
			"<code>X-Request-Id</code>", "Required",
			`<span class="status">200</span> A page of pets`, "array of Pet", `&#34;name&#34;: &#34;Rex&#34;`,
			`<span class="status">default</span> An error`,
			`<span class="method method-post">POST</span>`, "Create a pet", `<span class="deprecated">Deprecated</span>`,
			"Request body", `&#34;name&#34;: &#34;Tom&#34;`, `<span class="status">201</span> Created`,
			"Operation GET /cats of petstore is not available",
			"Operation GET /pets of nowhere is not available")
		noHostile(t, p)
		get(t, s, nil, "", base).want(t, 200, "List all pets") // from the cache

		// A new version, same revision: the page follows.
		f.putSpec(t, "petstore", strings.ReplaceAll(petsSpec, "List all pets", "List every pet"))
		if p := get(t, s, nil, "", base).want(t, 200, "List every pet"); strings.Contains(p.body, "List all pets") {
			t.Fatal("the page shows the old version")
		}
		// And back, to a page rendered before: still the latest.
		f.putSpec(t, "petstore", petsSpec)
		if p := get(t, s, nil, "", base).want(t, 200, "List all pets"); strings.Contains(p.body, "List every pet") {
			t.Fatal("the page shows the previous version")
		}

		// A deleted specification: the note again.
		s.Do(t, f.admin, "DELETE", "/v1/orgs/"+f.org+"/openapi/petstore", nil)
		if p := get(t, s, nil, "", base).want(t, 200, "Operation GET /pets of petstore is not available"); strings.Contains(p.body, "List all pets") {
			t.Fatal("the page shows a deleted specification")
		}
	})
}

// TestRenderOpenAPIHostile: a specification's text is escaped, never
// markup, links or scripts.
func TestRenderOpenAPIHostile(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		md := "# API\n\n{% openapi-operation spec=\"evil\" path=\"/evil\" method=\"get\" %}\n{% endopenapi-operation %}\n"
		f := newFixture(t, s, md, map[string]any{})
		f.putSpec(t, "evil", hostileSpec)
		f.publish(t)
		p := get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200, "&lt;script&gt;alert(1)&lt;/script&gt;",
			"&lt;img src=x onerror=alert(2)&gt;", "&lt;b onmouseover=alert(4)&gt;q&lt;/b&gt;",
			"&lt;/section&gt;&lt;script&gt;alert(5)&lt;/script&gt;", "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(6)")
		noHostile(t, p)
		if strings.Contains(p.body, `href="https://evil.test`) {
			t.Fatal("a link from the specification")
		}
	})
}

// TestRenderSwaggerBlock: the older {% openapi %} block names a
// specification by its source URL (or slug), resolved among the
// organization's specifications.
func TestRenderSwaggerBlock(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(strings.ReplaceAll(petsSpec, "Create a pet", "Create a pet from the URL")))
		}))
		defer srv.Close()
		src := srv.URL + "/openapi.yaml"
		md := "# API\n\n{% openapi src=\"petstore\" path=\"/pets\" method=\"get\" %}\n[petstore](petstore)\n{% endopenapi %}\n\n" +
			"{% openapi src=\"" + src + "\" path=\"/pets\" method=\"post\" %}\n[remote](" + src + ")\n{% endopenapi %}\n\n" +
			"{% openapi src=\"https://example.com/other.yaml\" path=\"/pets\" method=\"get\" %}\n[other](https://example.com/other.yaml)\n{% endopenapi %}\n"
		f := newFixture(t, s, md, map[string]any{})
		f.putSpec(t, "petstore", petsSpec)
		f.s.Do(t, f.admin, "POST", "/v1/orgs/"+f.org+"/openapi", map[string]any{"slug": "remote", "source": map[string]any{"url": src}}).WantStatus(t, 201)
		runJobs(t, s)
		f.publish(t)
		get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200, "List all pets", "Create a pet from the URL",
			"Operation GET /pets of https://example.com/other.yaml is not available")
	})
}
