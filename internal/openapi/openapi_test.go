package openapi

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/google/go-cmp/cmp"
)

// httpFetcher fetches with a plain client that has a short time limit,
// standing in for the server's guarded client.
func httpFetcher(timeout time.Duration) Fetcher {
	client := &http.Client{Timeout: timeout}
	return func(ctx context.Context, url string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, folio.Errorf(folio.Unavailable, "the server answered %d", resp.StatusCode)
		}
		return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	}
}

// specServer serves testdata/ plus a few misbehaving URLs.
func specServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/slow.yaml", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	mux.HandleFunc("/invalid.yaml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "openapi: 3.0.0\ninfo:\n  title: x\n   bad: [\n")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// specOf decodes the entrypoint of r.
func specOf(t *testing.T, r *Result) map[string]any {
	t.Helper()
	if len(r.Filesystem) != 1 || !r.Filesystem[0].IsEntrypoint {
		t.Fatalf("filesystem = %d files, want one entrypoint", len(r.Filesystem))
	}
	var m map[string]any
	if err := json.Unmarshal(r.Filesystem[0].Specification, &m); err != nil {
		t.Fatalf("specification is not JSON: %v", err)
	}
	return m
}

func TestProcessVersions(t *testing.T) {
	tests := []struct {
		file, version string
		wantOps       []string // METHOD path in order
	}{
		{"swagger2.json", "2.0", []string{"GET /pets", "GET /pets/{id}"}},
		{"swagger2.yaml", "2.0", []string{"POST /pets"}},
		{"openapi30.yaml", "3.0.3", []string{"GET /orders", "POST /orders"}},
		{"openapi31.json", "3.1.0", []string{"GET /z-last", "GET /a-first"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Process(context.Background(), readTestdata(t, tt.file), "", nil, Limits{})
			if err != nil {
				t.Fatalf("Process: %v", err)
			}
			if r.Version != tt.version {
				t.Errorf("Version = %q, want %q", r.Version, tt.version)
			}
			spec := specOf(t, r)
			if v, _ := spec["openapi"].(string); !strings.HasPrefix(v, "3.") {
				t.Errorf("specification openapi = %q, want 3.x (Swagger is converted)", v)
			}
			var got []string
			for _, op := range Operations(r) {
				got = append(got, op.Method+" "+op.Path)
			}
			if diff := cmp.Diff(tt.wantOps, got); diff != "" {
				t.Errorf("operations (-want +got):\n%s", diff)
			}
			for _, p := range r.Problems {
				t.Logf("problem: %s (%s)", p.Message, p.Code)
			}
		})
	}
}

func TestProcessMultiFile(t *testing.T) {
	srv := specServer(t)
	url := srv.URL + "/multi/openapi.yaml"
	r, err := ProcessURL(context.Background(), url, httpFetcher(2*time.Second), Limits{})
	if err != nil {
		t.Fatalf("ProcessURL: %v", err)
	}
	wantSources := []string{srv.URL + "/multi/paths/pets.yaml", srv.URL + "/multi/schemas/pet.yaml", srv.URL + "/multi/schemas/owner.json"}
	if diff := cmp.Diff(wantSources, r.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems = %+v, want none", r.Problems)
	}
	spec := string(r.Filesystem[0].Specification)
	if strings.Contains(spec, ".yaml") || strings.Contains(spec, ".json") {
		t.Errorf("bundled specification still names a file: %s", spec)
	}
	// Every $ref is local and resolves, including the cycle pet → owner → pet.
	root, _, err := parseJSON(r.Filesystem[0].Specification, parseLimits{maxNodes: 1e6, maxDepth: 100})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	checkRefs(root, func(p Problem) bool { refs = append(refs, p.Message); return true })
	if len(refs) != 0 {
		t.Errorf("unresolved refs: %v", refs)
	}
	ops := Operations(r)
	if len(ops) != 1 || ops[0].OperationID != "listPets" || ops[0].Responses[0].Schema != "array of object" {
		t.Errorf("operations = %+v", ops)
	}
	if f := r.Filesystem[0]; f.Filename != "openapi.json" || f.Dir != "." || f.References == nil {
		t.Errorf("file = %+v, want openapi.json in . with empty references", f)
	}
}

// keyOf returns the x-ext key of the i-th bundled source.
func keyOf(t *testing.T, r *Result, i int) string {
	t.Helper()
	ext := r.root.get(extKey)
	if ext == nil || len(ext.keys) <= i {
		t.Fatalf("no x-ext entry %d", i)
	}
	return ext.keys[i]
}

func TestProcessErrors(t *testing.T) {
	srv := specServer(t)
	fetch := httpFetcher(300 * time.Millisecond)
	tests := []struct {
		name     string
		entry    string
		entryURL string
		code     string
		msg      string // part of the message
		line     int
	}{
		{"timeout", "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: slow.yaml\n", srv.URL + "/spec.yaml", CodeFetchTimeout, "did not answer in time", 0},
		{"not found", "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: missing.yaml\n", srv.URL + "/spec.yaml", CodeFetchError, `"missing.yaml" could not be fetched: the server answered 404`, 0},
		{"invalid referenced yaml", "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: invalid.yaml\n", srv.URL + "/spec.yaml", CodeParseError, `"invalid.yaml" could not be read: line 4`, 4},
		{"invalid yaml", "openapi: 3.0.0\ninfo:\n  title: x\n    bad: 1\n", "", CodeParseError, "line 4", 4},
		{"invalid json", "{\"openapi\": \"3.0.0\",\n\"info\": {]\n}", "", CodeParseError, "line 2: invalid JSON", 2},
		{"not openapi", "title: hello\n", "", CodeParseError, "not an OpenAPI document", 0},
		{"not an object", "- a\n- b\n", "", CodeParseError, "not an object", 0},
		{"empty", "", "", CodeParseError, "empty", 0},
		{"unsupported version", "openapi: 4.0.0\n", "", CodeParseError, `version "4.0.0" is not supported`, 0},
		{"relative ref in text", "openapi: 3.0.0\npaths:\n  /a: {$ref: 'a.yaml'}\n", "", CodeFetchError, "given by URL", 0},
		{"file scheme", "openapi: 3.0.0\npaths:\n  /a: {$ref: 'file:///etc/passwd'}\n", "", CodeFetchError, "not an http or https URL", 0},
		{"swagger ref to nothing", "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /p:\n    get:\n      responses:\n        '200': {description: ok, schema: {$ref: '#/definitions/Nope'}}\n", "", CodeParseError, `could not be converted to OpenAPI 3.0: failed to resolve "Nope"`, 0},
		{"billion laughs", laughs(), "", CodeParseError, "more than", 0},
		{"deep nesting", "openapi: 3.0.0\nx: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n", "", CodeParseError, "nested", 2},
		{"deep nesting json", `{"openapi":"3.0.0","x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}", "", CodeParseError, "nested", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Process(context.Background(), []byte(tt.entry), tt.entryURL, fetch, Limits{MaxNodes: 100_000})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("err = %s %q, want %s containing %q", e.Code, e.Message, tt.code, tt.msg)
			}
			if len(e.Problems) != 1 || e.Problems[0].Line != tt.line {
				t.Errorf("problems = %+v, want one at line %d", e.Problems, tt.line)
			}
			wantKind := folio.Invalid
			if tt.code != CodeParseError {
				wantKind = folio.Unavailable
			}
			if folio.KindOf(err) != wantKind || folio.MessageOf(err) != e.Message {
				t.Errorf("kind %v message %q, want %v and the same message", folio.KindOf(err), folio.MessageOf(err), wantKind)
			}
		})
	}
}

// laughs is a YAML "billion laughs" document: ten levels of ten aliases.
func laughs() string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestProcessURLErrors(t *testing.T) {
	srv := specServer(t)
	_, err := ProcessURL(context.Background(), srv.URL+"/nothing.yaml", httpFetcher(time.Second), Limits{})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeFetchError || !strings.Contains(e.Message, "the specification at") {
		t.Errorf("404 entrypoint: err = %v, want FETCH_ERROR naming the specification", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ProcessURL(ctx, srv.URL+"/multi/openapi.yaml", httpFetcher(time.Second), Limits{})
	if !errors.Is(err, context.Canceled) || errors.As(err, &e) {
		t.Errorf("cancelled: err = %v, want the context error, not a processing error", err)
	}
}

func TestProcessLimits(t *testing.T) {
	// A chain of files: n.yaml refers to n+1.yaml.
	chain := func(ctx context.Context, url string) ([]byte, error) {
		var n int
		fmt.Sscanf(url[strings.LastIndex(url, "/")+1:], "%d.yaml", &n)
		return fmt.Appendf(nil, "type: object\nproperties:\n  next: {$ref: '%d.yaml'}\n", n+1), nil
	}
	entry := []byte("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: '1.yaml'}\n")
	tests := []struct {
		name   string
		limits Limits
		msg    string
	}{
		{"depth", Limits{MaxDepth: 3, MaxFiles: 100}, "more than 3 levels deep"},
		{"files", Limits{MaxDepth: 100, MaxFiles: 5}, "more than 4 files"},
		{"bytes", Limits{MaxDepth: 100, MaxFiles: 100, MaxBytes: 400}, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Process(context.Background(), entry, "https://specs.example/api/openapi.yaml", chain, tt.limits)
			var e *Error
			if !errors.As(err, &e) || e.Code == "" || !strings.Contains(e.Message, tt.msg) {
				t.Fatalf("err = %v, want a processing error containing %q", err, tt.msg)
			}
		})
	}
}

func TestProcessCycles(t *testing.T) {
	files := map[string]string{
		"https://s.example/a.yaml": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'b.yaml#/B'}\n    Self: {$ref: '#/components/schemas/Self'}\n",
		"https://s.example/b.yaml": "B:\n  properties:\n    a: {$ref: 'a.yaml#/components/schemas/A'}\n    c: {$ref: 'c.yaml'}\nD: {$ref: '#/B'}\n",
		"https://s.example/c.yaml": "properties:\n  b: {$ref: 'b.yaml#/B'}\n",
	}
	calls := map[string]int{}
	fetch := func(ctx context.Context, url string) ([]byte, error) {
		calls[url]++
		if s, ok := files[url]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	r, err := ProcessURL(context.Background(), "https://s.example/a.yaml", fetch, Limits{})
	if err != nil {
		t.Fatalf("ProcessURL: %v", err)
	}
	for u, n := range calls {
		if n != 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
	}
	bk, ck := keyOf(t, r, 0), keyOf(t, r, 1)
	want := map[string]string{
		"/components/schemas/A/$ref":            "#/x-ext/" + bk + "/B",
		"/components/schemas/Self/$ref":         "#/components/schemas/Self",
		"/x-ext/" + bk + "/B/properties/a/$ref": "#/components/schemas/A",
		"/x-ext/" + bk + "/B/properties/c/$ref": "#/x-ext/" + ck,
		"/x-ext/" + bk + "/D/$ref":              "#/x-ext/" + bk + "/B",
		"/x-ext/" + ck + "/properties/b/$ref":   "#/x-ext/" + bk + "/B",
	}
	for ptr, ref := range want {
		if n := resolvePointer(r.root, ptr); n == nil || n.s != ref {
			t.Errorf("%s = %v, want %q", ptr, n, ref)
		}
	}
}

func TestHash(t *testing.T) {
	data := readTestdata(t, "openapi30.yaml")
	first, err := Process(context.Background(), data, "", nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		again, err := Process(context.Background(), data, "", nil, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Hash != first.Hash {
			t.Fatalf("hash changed between runs: %s, %s", first.Hash, again.Hash)
		}
	}
	// Formatting is not content; a changed description is.
	reformatted := strings.ReplaceAll(string(data), "  title: Store", "  title:    Store   ")
	if r, _ := Process(context.Background(), []byte(reformatted), "", nil, Limits{}); r.Hash != first.Hash {
		t.Errorf("hash changed with formatting only")
	}
	changed := strings.ReplaceAll(string(data), "Places an order.", "Places one order.")
	if r, _ := Process(context.Background(), []byte(changed), "", nil, Limits{}); r.Hash == first.Hash {
		t.Errorf("hash did not change with the content")
	}
	if len(first.Hash) != 64 {
		t.Errorf("hash %q is not SHA-256 hex", first.Hash)
	}
}

func TestOperations(t *testing.T) {
	r, err := Process(context.Background(), readTestdata(t, "openapi30.yaml"), "", nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Operation{
		{
			Method: "GET", Path: "/orders", OperationID: "listOrders", Deprecated: true,
			Parameters: []Parameter{
				{Name: "limit", In: "query", Description: "How many.", Schema: "integer (int32)"},
				{Name: "X-Tenant", In: "header", Required: true, Schema: "string"},
			},
			Responses: []Response{{Status: "200", Description: "Orders", ContentTypes: []string{"application/json"},
				Schema: "array of Order", Example: json.RawMessage(`[{"item":"pen","quantity":1}]`)}},
		},
		{
			Method: "POST", Path: "/orders", OperationID: "createOrder", Summary: "Create an order",
			Description: "Places an order.", Tags: []string{"orders"},
			Parameters: []Parameter{{Name: "X-Tenant", In: "header", Required: true, Schema: "string"}},
			RequestBody: &RequestBody{Required: true, ContentTypes: []string{"application/json"}, Schema: "Order",
				Example: json.RawMessage(`{"item":"book","quantity":2}`)},
			Responses: []Response{
				{Status: "201", Description: "Created", ContentTypes: []string{"application/json"}, Schema: "Order"},
				{Status: "default", Description: "An error", ContentTypes: []string{"application/problem+json"}, Schema: "object"},
			},
		},
	}
	if diff := cmp.Diff(want, Operations(r)); diff != "" {
		t.Errorf("Operations (-want +got):\n%s", diff)
	}
	// A Result rebuilt from stored content gives the same operations.
	stored := &Result{Filesystem: r.Filesystem}
	if diff := cmp.Diff(want, Operations(stored)); diff != "" {
		t.Errorf("Operations from stored content (-want +got):\n%s", diff)
	}
}

func TestUnquotedVersions(t *testing.T) {
	tests := []struct{ doc, version string }{
		{"openapi: 3.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "3.0"},
		{"swagger: 2.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "2.0"},
	}
	for _, tt := range tests {
		r, err := Process(context.Background(), []byte(tt.doc), "", nil, Limits{})
		if err != nil {
			t.Fatalf("%q: %v", tt.doc, err)
		}
		if r.Version != tt.version || len(r.Problems) != 0 {
			t.Errorf("%q: version %q problems %+v, want %q and none", tt.doc, r.Version, r.Problems, tt.version)
		}
		if v, _ := specOf(t, r)["openapi"].(string); !strings.HasPrefix(v, "3.0") {
			t.Errorf("%q: openapi = %v, want a 3.0 string", tt.doc, specOf(t, r)["openapi"])
		}
	}
}

func TestSwaggerConversionKeepsOrder(t *testing.T) {
	r, err := Process(context.Background(), readTestdata(t, "swagger2.json"), "", nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ops := Operations(r)
	if len(ops) != 2 || ops[0].Responses[0].Schema != "array of Pet" || ops[1].Parameters[0].Name != "id" || ops[1].Responses[0].Schema != "object" {
		t.Errorf("operations = %+v", ops)
	}
	if want := `{"openapi":"3.0.3","info":{"title":"Pets"`; !strings.HasPrefix(string(r.Filesystem[0].Specification), want) {
		t.Errorf("specification = %.80s…, want it to start with %s", r.Filesystem[0].Specification, want)
	}
	for _, want := range []string{
		`"Pet":{"type":"object","properties":{"name":{"type":"string"},"age":`,
		`"schema":{"type":"object","properties":{"pet":{"$ref":"#/components/schemas/Pet"},"etag":`,
		`"paths":{"/pets":{"get":{"operationId":"listPets","summary":"List pets","tags":["pets"],`,
	} {
		if !strings.Contains(string(r.Filesystem[0].Specification), want) {
			t.Errorf("specification lacks %s: %s", want, r.Filesystem[0].Specification)
		}
	}
	spec := specOf(t, r)
	servers, _ := spec["servers"].([]any)
	if len(servers) != 1 || servers[0].(map[string]any)["url"] != "https://api.example.com/v1" {
		t.Errorf("servers = %v", spec["servers"])
	}
}

func TestValidationProblems(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Missing'}\n"
	r, err := Process(context.Background(), []byte(doc), "", nil, Limits{})
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	if len(r.Problems) == 0 || r.Problems[0].Code != "unresolved-ref" {
		t.Errorf("problems = %+v, want an unresolved-ref first", r.Problems)
	}
}

func BenchmarkProcessGitBookSpec(b *testing.B) {
	data, err := os.ReadFile("/root/.cache/folio/gitbook-api-0.143.2/spec/openapi.json")
	if err != nil {
		b.Skip("GitBook reference specification not present")
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := Process(context.Background(), data, "", nil, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if len(Operations(r)) == 0 {
			b.Fatal("no operations")
		}
	}
}

// FuzzProcess checks that no input makes Process panic or fail without a
// processing error.
func FuzzProcess(f *testing.F) {
	for _, name := range []string{"swagger2.json", "swagger2.yaml", "openapi30.yaml", "openapi31.json", "multi/openapi.yaml"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(laughs()))
	files := func(ctx context.Context, url string) ([]byte, error) {
		return []byte("type: object\nproperties:\n  a: {$ref: '#/properties/a'}\n  b: {$ref: 'other.yaml'}\n"), nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		watchdog := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("Process hangs on %q", data)) })
		defer watchdog.Stop()
		r, err := Process(context.Background(), data, "https://s.example/spec.yaml", files, Limits{MaxNodes: 20_000, MaxFiles: 5})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" || e.Message == "" {
				t.Fatalf("err = %v, want a processing error", err)
			}
			return
		}
		if !json.Valid(r.Filesystem[0].Specification) {
			t.Fatalf("specification is not valid JSON")
		}
		Operations(r)
	})
}

// BenchmarkBundleGitBookSpec measures Folio's own part of Process (parse,
// bundle, encode, hash), without kin-openapi's validation.
func BenchmarkBundleGitBookSpec(b *testing.B) {
	data, err := os.ReadFile("/root/.cache/folio/gitbook-api-0.143.2/spec/openapi.json")
	if err != nil {
		b.Skip("GitBook reference specification not present")
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	lim := DefaultLimits
	for b.Loop() {
		bu, err := newBundler(context.Background(), "", nil, lim)
		if err != nil {
			b.Fatal(err)
		}
		root, err := bu.parse(data, "the specification")
		if err != nil {
			b.Fatal(err)
		}
		if err := bu.bundle(root); err != nil {
			b.Fatal(err)
		}
		_ = sha256.Sum256(encode(root))
	}
}
