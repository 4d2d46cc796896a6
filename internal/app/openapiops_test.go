package app_test

import (
	"context"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

const opsSpec = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      summary: Get a pet
      responses:
        "200": {description: The pet}
`

// TestOpenAPIOperation: an operation of a specification's latest version
// is found by slug or source URL, method in any case; a missing
// specification, a specification without a version, a missing operation
// and another organization's specification are NotFound.
func TestOpenAPIOperation(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, _ := s.Org(t)
		other, _ := s.Org(t)
		admin := ownerOf(t, s, org)
		text := opsSpec
		if _, err := s.App.CreateOpenAPISpec(ctx, admin, org, app.OpenAPISpecInput{Slug: "pets", Source: &app.OpenAPISource{Text: &text}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.OpenAPIOperation(ctx, org, "pets", "GET", "/pets/{id}"); !folio.IsNotFound(err) {
			t.Fatalf("before processing: %v, want NotFound", err)
		}
		runJobs(t, s)

		op, err := s.App.OpenAPIOperation(ctx, org, "pets", "get", "/pets/{id}")
		if err != nil {
			t.Fatal(err)
		}
		if op.Method != "GET" || op.Summary != "Get a pet" || len(op.Parameters) != 1 || op.Parameters[0].Name != "id" ||
			len(op.Responses) != 1 || op.Responses[0].Status != "200" {
			t.Fatalf("operation %+v", op)
		}
		ops, err := s.App.OpenAPIOperations(ctx, org, "pets")
		if err != nil || len(ops.Operations) != 1 || ops.Version == "" {
			t.Fatalf("operations %+v, %v", ops, err)
		}
		vs, err := s.App.OpenAPILatestVersions(ctx, org, []string{"pets", "nowhere", "https://example.com/x.yaml"})
		if err != nil || len(vs) != 3 || vs[0] != ops.Version || vs[1] != "" || vs[2] != "" {
			t.Fatalf("latest versions %v, %v", vs, err)
		}
		for name, lookup := range map[string]func() error{
			"missing spec":      func() error { _, err := s.App.OpenAPIOperation(ctx, org, "nowhere", "GET", "/pets/{id}"); return err },
			"missing operation": func() error { _, err := s.App.OpenAPIOperation(ctx, org, "pets", "DELETE", "/pets/{id}"); return err },
			"missing path":      func() error { _, err := s.App.OpenAPIOperation(ctx, org, "pets", "GET", "/pets"); return err },
			"bad slug":          func() error { _, err := s.App.OpenAPIOperation(ctx, org, "../x", "GET", "/pets"); return err },
			"other org":         func() error { _, err := s.App.OpenAPIOperation(ctx, other, "pets", "GET", "/pets/{id}"); return err },
			"unknown url": func() error {
				_, err := s.App.OpenAPIOperation(ctx, org, "https://example.com/x.yaml", "GET", "/pets/{id}")
				return err
			},
		} {
			if err := lookup(); !folio.IsNotFound(err) {
				t.Errorf("%s: %v, want NotFound", name, err)
			}
		}
	})
}

func ownerOf(t *testing.T, s *apitest.Server, org folio.ID) folio.Caller {
	t.Helper()
	u, _ := s.Member(t, org, folio.RoleAdmin)
	return folio.Caller{UserID: u.ID}
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
