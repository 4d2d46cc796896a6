package specval

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
)

const defaultSpecPath = "/root/.cache/folio/gitbook-api-0.143.2/spec/openapi.json"

// specPath is the GitBook document the tests run against: $FOLIO_GITBOOK_SPEC
// when set, else the default cache location.
func specPath() string {
	if p := os.Getenv("FOLIO_GITBOOK_SPEC"); p != "" {
		return p
	}
	return defaultSpecPath
}

var (
	loadOnce sync.Once
	loaded   *Validator
	loadErr  error
)

// validator loads the document once for the whole test binary, or skips the
// test when the document is not on this machine.
func validator(t testing.TB) *Validator {
	t.Helper()
	p := specPath()
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the GitBook reference is required in CI, and is not at %s: %v", p, err)
		}
		t.Skipf("GitBook OpenAPI document not available at %s (set FOLIO_GITBOOK_SPEC to its path): %v", p, err)
	}
	loadOnce.Do(func() { loaded, loadErr = Load(p) })
	if loadErr != nil {
		t.Fatalf("Load(%s): %v", p, loadErr)
	}
	return loaded
}

var jsonHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

// org returns a valid Organization as a JSON object, changed by edit.
func org(edit func(m map[string]any)) []byte {
	perms := map[string]any{}
	for _, k := range []string{"view", "admin", "ownTeam", "createContent", "createOpenAPISpec",
		"ingestConversations", "viewBilling", "listMembers", "listTeams", "listIntegrations",
		"listInstallations", "installIntegration"} {
		perms[k] = k == "view"
	}
	m := map[string]any{
		"object":       "organization",
		"id":           "abc",
		"plan":         "free",
		"title":        "Acme Docs",
		"createdAt":    "2024-05-01T12:34:56.789Z",
		"inviteLinks":  true,
		"type":         "business",
		"emailDomains": []any{"acme.example"},
		"mergeRules":   map[string]any{"type": "none"},
		"urls": map[string]any{
			"app":      "http://127.0.0.1:4321/app/o/abc",
			"location": "http://127.0.0.1:4321/v1/orgs/abc",
		},
		"trial":       map[string]any{"status": "none"},
		"permissions": perms,
	}
	if edit != nil {
		edit(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

const base = "http://127.0.0.1:4321/v1"

func TestCheck(t *testing.T) {
	v := validator(t)

	getOrg := func(status int, body []byte) Exchange {
		return Exchange{
			Method:     http.MethodGet,
			URL:        mustURL(base + "/orgs/abc"),
			Header:     http.Header{"Authorization": {"Bearer t"}},
			Status:     status,
			RespHeader: jsonHeader,
			RespBody:   body,
		}
	}
	patchOrg := func(reqBody string, status int, respBody []byte) Exchange {
		return Exchange{
			Method:     http.MethodPatch,
			URL:        mustURL(base + "/orgs/abc"),
			Header:     http.Header{"Content-Type": {"application/json"}},
			Body:       []byte(reqBody),
			Status:     status,
			RespHeader: jsonHeader,
			RespBody:   respBody,
		}
	}
	deleteSpace := func(body string) Exchange {
		x := Exchange{
			Method: http.MethodDelete,
			URL:    mustURL(base + "/spaces/sp1"),
			Status: http.StatusNoContent,
		}
		if body != "" {
			x.RespHeader = jsonHeader
			x.RespBody = []byte(body)
		}
		return x
	}
	errBody := func(code int, msg string) []byte {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": msg}})
		return b
	}

	tests := []struct {
		name        string
		x           Exchange
		wantMatched bool
		// wantErr lists substrings the error must contain; nil means no error.
		wantErr []string
	}{
		{
			name:        "organization with defaultRole null",
			x:           getOrg(200, org(func(m map[string]any) { m["defaultRole"] = nil })),
			wantMatched: true,
		},
		{
			name:        "organization with defaultRole admin",
			x:           getOrg(200, org(func(m map[string]any) { m["defaultRole"] = "admin" })),
			wantMatched: true,
		},
		{
			name:        "organization without optional fields, query string and other host",
			x:           Exchange{Method: "GET", URL: mustURL("https://localhost:9/v1/orgs/x-y_z?foo=bar"), Status: 200, RespHeader: jsonHeader, RespBody: org(nil)},
			wantMatched: true,
		},
		{
			name:        "organization with defaultRole not a role",
			x:           getOrg(200, org(func(m map[string]any) { m["defaultRole"] = "owner" })),
			wantMatched: true,
			wantErr:     []string{"getOrganizationById", "/defaultRole"},
		},
		{
			name:        "organization missing required field",
			x:           getOrg(200, org(func(m map[string]any) { delete(m, "permissions") })),
			wantMatched: true,
			wantErr:     []string{"getOrganizationById", "GET /v1/orgs/abc -> 200", `property "permissions" is missing`},
		},
		{
			name:        "organization with title of wrong type",
			x:           getOrg(200, org(func(m map[string]any) { m["title"] = 5 })),
			wantMatched: true,
			wantErr:     []string{"getOrganizationById", `at "/title"`, "value must be a string"},
		},
		{
			name: "organization with several problems reports all",
			x: getOrg(200, org(func(m map[string]any) {
				m["title"] = 5
				delete(m, "id")
			})),
			wantMatched: true,
			wantErr:     []string{"2 problems", `at "/title"`, `property "id" is missing`},
		},
		{
			name:        "organization with bad date-time",
			x:           getOrg(200, org(func(m map[string]any) { m["createdAt"] = "yesterday" })),
			wantMatched: true,
			wantErr:     []string{`at "/createdAt"`, "date-time"},
		},
		{
			name: "organization with bad uri",
			x: getOrg(200, org(func(m map[string]any) {
				m["urls"] = map[string]any{"app": "/relative/only", "location": "http://127.0.0.1:4321/v1/orgs/abc"}
			})),
			wantMatched: true,
			wantErr:     []string{`at "/urls/app"`, "uri"},
		},
		{
			name:        "organization with logo null in urls is rejected (URL is not nullable)",
			x:           getOrg(200, org(func(m map[string]any) { m["urls"].(map[string]any)["logo"] = nil })),
			wantMatched: true,
			wantErr:     []string{`at "/urls/logo"`},
		},
		{
			name:        "undeclared 2xx status",
			x:           getOrg(201, org(nil)),
			wantMatched: true,
			wantErr:     []string{"undeclared status 201 for operationId getOrganizationById"},
		},
		{
			name:        "declared 404 with error body",
			x:           getOrg(404, errBody(404, "Organization not found")),
			wantMatched: true,
		},
		{
			name:        "declared 404 with wrong code",
			x:           getOrg(404, errBody(400, "nope")),
			wantMatched: true,
			wantErr:     []string{`at "/error/code"`},
		},
		{
			name:        "undeclared 401 with error body",
			x:           getOrg(401, errBody(401, "Unauthorized")),
			wantMatched: true,
		},
		{
			name:        "undeclared 401 with malformed body",
			x:           getOrg(401, []byte(`{"message":"x"}`)),
			wantMatched: true,
			wantErr:     []string{"undeclared status 401", "#/components/schemas/Error", `property "error" is missing`},
		},
		{
			name:        "undeclared 401 with non-JSON body",
			x:           Exchange{Method: "GET", URL: mustURL(base + "/orgs/abc"), Status: 401, RespHeader: http.Header{"Content-Type": {"text/plain"}}, RespBody: []byte("Unauthorized\n")},
			wantMatched: true,
			wantErr:     []string{"text/plain", "not JSON"},
		},
		{
			name:        "undeclared 403 with error.code mismatching status",
			x:           getOrg(403, errBody(401, "Forbidden")),
			wantMatched: true,
			wantErr:     []string{"error.code is 401, want the HTTP status 403"},
		},
		{
			name:        "undeclared 302",
			x:           getOrg(302, nil),
			wantMatched: true,
			wantErr:     []string{"undeclared status 302"},
		},
		{
			name:        "204 with empty body",
			x:           deleteSpace(""),
			wantMatched: true,
		},
		{
			name:        "204 with body",
			x:           deleteSpace(`{"ok":true}`),
			wantMatched: true,
			wantErr:     []string{"deleteSpaceById", "DELETE /v1/spaces/sp1 -> 204", "must have an empty body"},
		},
		{
			name:        "unknown route POST /v1/orgs",
			x:           Exchange{Method: http.MethodPost, URL: mustURL(base + "/orgs"), Body: []byte(`{"title":"x"}`), Status: 201, RespHeader: jsonHeader, RespBody: []byte(`{}`)},
			wantMatched: false,
		},
		{
			name:        "unknown path",
			x:           Exchange{Method: http.MethodGet, URL: mustURL(base + "/folio/health"), Status: 200},
			wantMatched: false,
		},
		{
			name:        "path outside /v1",
			x:           Exchange{Method: http.MethodGet, URL: mustURL("http://127.0.0.1:4321/orgs/abc"), Status: 200},
			wantMatched: false,
		},
		{
			name:        "PATCH with valid body and 200",
			x:           patchOrg(`{"title":"New title","defaultRole":null,"logo":null}`, 200, org(nil)),
			wantMatched: true,
		},
		{
			name:        "PATCH with invalid body and 200",
			x:           patchOrg(`{"title":5}`, 200, org(nil)),
			wantMatched: true,
			wantErr:     []string{"updateOrganizationById", "PATCH /v1/orgs/abc -> 200", "request: request body has an error", `at "/title"`},
		},
		{
			name:        "PATCH with logo not a URI and 200",
			x:           patchOrg(`{"logo":"not a uri"}`, 200, org(nil)),
			wantMatched: true,
			wantErr:     []string{"request body has an error", `at "/logo"`},
		},
		{
			name:        "PATCH without body and 200",
			x:           patchOrg(``, 200, org(nil)),
			wantMatched: true,
			wantErr:     []string{"request body has an error", "value is required but missing"},
		},
		{
			name:        "PATCH with invalid body and 400",
			x:           patchOrg(`{"title":5}`, 400, errBody(400, "Invalid title")),
			wantMatched: true,
		},
		{
			name:        "PATCH with invalid body and 422 (undeclared)",
			x:           patchOrg(`not json`, 422, errBody(422, "Invalid JSON")),
			wantMatched: true,
		},
		{
			name: "list of organizations",
			x: Exchange{
				Method:     http.MethodGet,
				URL:        mustURL(base + "/orgs?limit=5&page=p1"),
				Status:     200,
				RespHeader: jsonHeader,
				RespBody:   []byte(`{"next":{"page":"p2"},"count":3,"items":[` + string(org(nil)) + `]}`),
			},
			wantMatched: true,
		},
		{
			name: "list of organizations without items",
			x: Exchange{
				Method:     http.MethodGet,
				URL:        mustURL(base + "/orgs"),
				Status:     200,
				RespHeader: jsonHeader,
				RespBody:   []byte(`{"count":0}`),
			},
			wantMatched: true,
			wantErr:     []string{"listOrganizationsForAuthenticatedUser", `property "items" is missing`},
		},
		{
			name: "list with invalid query parameter and 200",
			x: Exchange{
				Method:     http.MethodGet,
				URL:        mustURL(base + "/orgs?limit=abc"),
				Status:     200,
				RespHeader: jsonHeader,
				RespBody:   []byte(`{"items":[]}`),
			},
			wantMatched: true,
			wantErr:     []string{"request", `parameter "limit" in query`},
		},
		{
			name: "list with invalid query parameter and 400",
			x: Exchange{
				Method:     http.MethodGet,
				URL:        mustURL(base + "/orgs?limit=abc"),
				Status:     400,
				RespHeader: jsonHeader,
				RespBody:   errBody(400, "limit must be a number"),
			},
			wantMatched: true,
		},
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			matched, err := v.Check(context.Background(), tc.x)
			if matched != tc.wantMatched {
				t.Errorf("matched = %v, want %v", matched, tc.wantMatched)
			}
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error containing %q, got nil", tc.wantErr)
			}
			for _, s := range tc.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error does not contain %q:\n%v", s, err)
				}
			}
		})
	}
}

// TestPostOrgsUndeclared makes sure the unknown-route case above tests what it
// means to: the document declares no POST /orgs.
func TestPostOrgsUndeclared(t *testing.T) {
	v := validator(t)
	p := v.doc.Paths.Value("/orgs")
	if p == nil {
		t.Fatal("document has no /orgs path")
	}
	if p.Post != nil {
		t.Fatal("document declares POST /orgs; pick another undeclared route for the test")
	}
}

// TestNullableRefPatch checks the in-memory fix of {"$ref": ..., "nullable": true}.
func TestNullableRefPatch(t *testing.T) {
	v := validator(t)
	billing := v.doc.Components.Schemas["OrganizationBilling"]
	if billing == nil {
		t.Skip("document has no OrganizationBilling schema")
	}
	endDate := billing.Value.Properties["endDate"]
	if endDate == nil || !refSiblingNullable(endDate) {
		t.Skip("OrganizationBilling.endDate is no longer a $ref with nullable: true")
	}
	if err := endDate.Value.VisitJSON(nil, v.schemaOpts...); err != nil {
		t.Errorf("endDate: null rejected: %v", err)
	}
	if err := endDate.Value.VisitJSON("2024-01-02T03:04:05Z", v.schemaOpts...); err != nil {
		t.Errorf("endDate: date-time rejected: %v", err)
	}
	if err := endDate.Value.VisitJSON("soon", v.schemaOpts...); err == nil {
		t.Error("endDate: invalid date-time accepted")
	}
	// The shared Timestamp schema must stay non-nullable.
	if err := v.doc.Components.Schemas["Timestamp"].Value.VisitJSON(nil, v.schemaOpts...); err == nil {
		t.Error("Timestamp accepts null after the patch")
	}
}

func TestErrorIsInspectable(t *testing.T) {
	v := validator(t)
	_, err := v.Check(context.Background(), Exchange{
		Method: "GET", URL: mustURL(base + "/orgs/abc"), Status: 200,
		RespHeader: jsonHeader, RespBody: org(func(m map[string]any) { m["title"] = 5 }),
	})
	if err == nil {
		t.Fatal("want an error")
	}
	var multi interface{ Unwrap() []error }
	if !errors.As(err, &multi) || len(multi.Unwrap()) == 0 {
		t.Errorf("error %T does not unwrap to its problems", err)
	}
}

func TestLoadCachesAndRejectsBadInput(t *testing.T) {
	v := validator(t)
	again, err := Load(specPath())
	if err != nil {
		t.Fatal(err)
	}
	if again != v {
		t.Error("second Load of the same file did not return the cached Validator")
	}
	if _, err := Load(t.TempDir() + "/missing.json"); err == nil {
		t.Error("Load of a missing file succeeded")
	}
	bad := t.TempDir() + "/bad.txt"
	if err := os.WriteFile(bad, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil {
		t.Error("Load of a file with an unknown extension succeeded")
	}
}

func TestLoadYAML(t *testing.T) {
	p := strings.TrimSuffix(specPath(), ".json") + ".yaml"
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the GitBook reference is required in CI, and is not at %s: %v", p, err)
		}
		t.Skipf("YAML document not available at %s: %v", p, err)
	}
	v, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	matched, err := v.Check(context.Background(), Exchange{
		Method: "GET", URL: mustURL(base + "/orgs/abc"), Status: 200, RespHeader: jsonHeader, RespBody: org(nil),
	})
	if !matched || err != nil {
		t.Errorf("Check = %v, %v; want true, nil", matched, err)
	}
}

func BenchmarkCheck(b *testing.B) {
	v := validator(b)
	x := Exchange{
		Method: "GET", URL: mustURL(base + "/orgs/abc"), Status: 200,
		RespHeader: jsonHeader, RespBody: org(func(m map[string]any) { m["defaultRole"] = nil }),
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Check(ctx, x); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRecursivePlainObject: the visitor's unsignedClaims (GitBook's
// recursive PlainObject) is checked, nested objects and arrays included,
// without the stack overflow kin-openapi's IsEmpty had on it.
func TestRecursivePlainObject(t *testing.T) {
	v := validator(t)
	resp := []byte(`{"site":"s","siteSpace":"ss","space":"sp","organization":"o","pathname":"","basePath":"/",` +
		`"siteBasePath":"/","apiToken":"x.y.z","complete":true,"canonicalUrl":"https://x.test/a"}`)
	for _, c := range []struct {
		claims string
		ok     bool
	}{
		{`{}`, true},
		{`{"a":{"b":1,"c":{"d":[true,"x",{"e":2}]}}}`, true},
		{`{"a":null}`, false},
		{`{"a":{"b":null}}`, false},
		{`"text"`, false},
	} {
		body := []byte(`{"url":"https://x.test/a","visitor":{"unsignedClaims":` + c.claims + `}}`)
		_, err := v.Check(context.Background(), Exchange{Method: "POST", URL: mustURL(base + "/urls/published"),
			Header: jsonHeader, Body: body, Status: 200, RespHeader: jsonHeader, RespBody: resp})
		if (err == nil) != c.ok {
			t.Errorf("unsignedClaims %s: error %v, want ok=%v", c.claims, err, c.ok)
		}
	}
}
