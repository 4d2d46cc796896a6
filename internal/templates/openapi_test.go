package templates

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

func readSpec(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nodeText returns the plain text of one node.
func nodeText(n content.Node) string {
	return (&content.Document{Nodes: []content.Node{n}}).PlainText()
}

// headings returns the text of the top-level blocks of one type.
func headings(doc *content.Document, typ string) []string {
	var out []string
	for _, n := range doc.Nodes {
		if n.Type == typ {
			out = append(out, nodeText(n))
		}
	}
	return out
}

// codeBlocks returns the text of every code block of doc, tabs included.
func codeBlocks(doc *content.Document) []string {
	var out []string
	walkNodes(doc.Nodes, func(n content.Node) {
		if n.Type == content.BlockCode {
			out = append(out, nodeText(n))
		}
	})
	return out
}

// codeContaining returns the first code block containing s, or fails.
func codeContaining(t *testing.T, doc *content.Document, s string) string {
	t.Helper()
	for _, c := range codeBlocks(doc) {
		if strings.Contains(c, s) {
			return c
		}
	}
	t.Fatalf("no code block contains %q; blocks:\n%s", s, strings.Join(codeBlocks(doc), "\n---\n"))
	return ""
}

func wantText(t *testing.T, doc *content.Document, subs ...string) {
	t.Helper()
	text := doc.PlainText()
	for _, s := range subs {
		if !strings.Contains(text, s) {
			t.Errorf("text does not contain %q:\n%s", s, text)
		}
	}
}

func TestAPIReferenceFromYAML(t *testing.T) {
	snap := build(t, APIReference, Input{OpenAPI: readSpec(t, "petstore.yaml"), Title: "ignored"})
	checkSnapshot(t, snap)
	// Tags in declaration order, x-displayName as title, the unused tag
	// skipped, untagged operations last.
	if diff := cmp.Diff("Introduction 1f44b\nPets\nStore\nDefault\n", outline(snap.Tree)); diff != "" {
		t.Fatalf("tree (-want +got):\n%s", diff)
	}
	pages := snap.Tree.Pages
	if got := pages[1].Description; got != "Everything about the pets in the shop." {
		t.Errorf("one-line tag description should be the page description, got %q", got)
	}
	if pages[2].Description != "" {
		t.Errorf("a multi-paragraph tag description stays in the body, got page description %q", pages[2].Description)
	}
	if got := pages[0].Description; got != "Reference for Petstore, version 1.4.0." {
		t.Errorf("introduction description = %q", got)
	}

	intro := docOf(t, snap, "introduction")
	wantText(t, intro, "The Petstore API manages the pets", "1.4.0", "3.0.3", "Petstore support", "Apache 2.0",
		"https://{region}.petstore.example/v1", "Production", "defaults to eu; one of eu, us",
		"API key, sent in the X-API-Key header", "Create keys in the dashboard.",
		"https://auth.petstore.example/token", "pets:write", "Unless an operation says otherwise, requests need api_key.")
	if got := headings(intro, content.BlockHeading2); !cmp.Equal(got, []string{"Servers", "Authentication", "Endpoints"}) {
		t.Errorf("introduction headings = %q", got)
	}
	var linked []string
	walkNodes(intro.Nodes, func(n content.Node) {
		if ref, _ := n.Data["ref"].(map[string]any); n.Type == content.InlineLink && ref["kind"] == "page" {
			linked = append(linked, ref["page"].(string))
		}
	})
	if want := []string{pages[1].ID, pages[2].ID, pages[3].ID}; !cmp.Equal(linked, want) {
		t.Errorf("introduction links to pages %v, want %v", linked, want)
	}

	pets := docOf(t, snap, "pets")
	// DELETE comes before GET in the file, unlike the usual method order.
	want := []string{"GET /pets", "POST /pets", "DELETE /pets/{petId}", "GET /pets/{petId}", "PUT /pets/{petId}/photo"}
	if diff := cmp.Diff(want, headings(pets, content.BlockHeading2)); diff != "" {
		t.Errorf("Pets operations, in source order (-want +got):\n%s", diff)
	}
	wantText(t, pets, "List pets", "Operation ID: listPets", "newest first",
		"How many pets to return | at most 100. Default: 20.", "One of available, pending, sold.",
		"integer (int32)", "string (uuid)", "NewPet", "application/xml", "A page of pets.", "An error.",
		"This operation is deprecated", "Authentication: oauth (scopes pets:write).")
	hints := 0
	walkNodes(pets.Nodes, func(n content.Node) {
		if n.Type == content.BlockHint {
			hints++
		}
	})
	if hints != 1 {
		t.Errorf("Pets has %d hints, want 1 (the deprecation)", hints)
	}
	list := codeContaining(t, pets, `"https://eu.petstore.example/v1/pets?status=available"`)
	if !strings.Contains(list, `-H "X-API-Key: $API_KEY"`) || strings.Contains(list, "-X GET") {
		t.Errorf("GET /pets request:\n%s", list)
	}
	create := codeContaining(t, pets, "-X POST")
	for _, s := range []string{`-H "Content-Type: application/json"`, `"name": "Rex"`, `"tag": "dog"`} {
		if !strings.Contains(create, s) {
			t.Errorf("POST /pets request lacks %s:\n%s", s, create)
		}
	}
	if c := codeContaining(t, pets, "-X DELETE"); !strings.Contains(c, "/pets/42") || !strings.Contains(c, "Bearer $ACCESS_TOKEN") {
		t.Errorf("DELETE request should fill the path example and use OAuth:\n%s", c)
	}
	if c := codeContaining(t, pets, "-X PUT"); !strings.Contains(c, `-F "file=@path/to/file"`) || !strings.Contains(c, `-F "caption=string"`) {
		t.Errorf("multipart request:\n%s", c)
	}
	// The response example is generated from the schema: readOnly id kept,
	// recursive parent left out.
	resp := codeContaining(t, pets, `"born": "2025-01-15"`)
	if !strings.Contains(resp, `"id": 1`) || strings.Contains(resp, "parent") {
		t.Errorf("generated Pet example:\n%s", resp)
	}

	store := docOf(t, snap, "store")
	wantText(t, store, "Orders are kept for two years.", "One of placed, approved, delivered.")
	req := codeContaining(t, store, "/store/orders")
	if strings.Contains(req, `"id"`) || !strings.Contains(req, `"quantity": 1`) || !strings.Contains(req, `"petId": 42`) {
		t.Errorf("request body should leave out readOnly id and use examples and minimums:\n%s", req)
	}
	codeContaining(t, store, `"status": "placed"`) // the named response example

	def := docOf(t, snap, "default")
	if got := headings(def, content.BlockHeading2); !cmp.Equal(got, []string{"GET /health"}) {
		t.Errorf("Default headings = %q", got)
	}
	wantText(t, def, "Authentication: none.")
	if c := codeContaining(t, def, "/health"); strings.Contains(c, "API_KEY") {
		t.Errorf("health check needs no credentials:\n%s", c)
	}
	codeContaining(t, def, "ok")
}

func TestAPIReferenceFromJSONKeepsSourceOrder(t *testing.T) {
	snap := build(t, APIReference, Input{OpenAPI: readSpec(t, "library.json")})
	checkSnapshot(t, snap)
	if diff := cmp.Diff("Introduction 1f44b\nBooks\nAuthors\n", outline(snap.Tree)); diff != "" {
		t.Fatalf("tree (-want +got):\n%s", diff)
	}
	books := docOf(t, snap, "books")
	want := []string{"POST /books", "GET /books", "GET /books/{isbn}"}
	if diff := cmp.Diff(want, headings(books, content.BlockHeading2)); diff != "" {
		t.Errorf("Books operations (-want +got):\n%s", diff)
	}
	form := codeContaining(t, books, "-X POST")
	for _, s := range []string{`-H "Authorization: Bearer $TOKEN"`, `--data-urlencode "title=Dune"`, `--data-urlencode "year=1965"`} {
		if !strings.Contains(form, s) {
			t.Errorf("form request lacks %s:\n%s", s, form)
		}
	}
	wantText(t, docOf(t, snap, "introduction"), "HTTP bearer authentication", "Tokens are JWT.")
}

func TestAPIReferenceOpenAPI31(t *testing.T) {
	snap := build(t, APIReference, Input{OpenAPI: readSpec(t, "webhooks-3.1.yaml")})
	checkSnapshot(t, snap)
	if diff := cmp.Diff("Introduction 1f44b\nSubscriptions\nWebhooks\n", outline(snap.Tree)); diff != "" {
		t.Fatalf("tree (-want +got):\n%s", diff)
	}
	if got := snap.Tree.Pages[0].Description; got != "Subscribe to shop events." {
		t.Errorf("info.summary should be the introduction's description, got %q", got)
	}
	wantText(t, docOf(t, snap, "introduction"), "3.1.0", "MIT", "The document lists no server", "Webhooks")
	subs := docOf(t, snap, "subscriptions")
	wantText(t, subs, "string or null", "string (uri)")
	req := codeContaining(t, subs, "https://api.example.com/subscriptions")
	if !strings.Contains(req, `"secret": "s3cr3t"`) {
		t.Errorf("3.1 examples keyword not used:\n%s", req)
	}
	codeContaining(t, subs, `"id": "sub_1"`) // const
	hooks := docOf(t, snap, "webhooks")
	if got := headings(hooks, content.BlockHeading2); !cmp.Equal(got, []string{"POST petAdopted"}) {
		t.Errorf("webhook headings = %q", got)
	}
	if c := codeContaining(t, hooks, "adoptedAt"); strings.Contains(c, "curl") {
		t.Errorf("a webhook shows its payload, not a request:\n%s", c)
	}
}

func TestAPIReferenceTitlesAndSlugsUnique(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: Clash, version: '1'}
tags:
  - name: Introduction
  - name: Default
    description: Declared, so it keeps its place.
  - name: introduction!
paths:
  /a:
    get: {tags: [Introduction], responses: {'200': {description: ok}}}
  /b:
    get: {responses: {'200': {description: ok}}}
  /c:
    get: {tags: [Default], responses: {'200': {description: ok}}}
  /d:
    get: {tags: ['introduction!'], responses: {'200': {description: ok}}}
`
	snap := build(t, APIReference, Input{OpenAPI: []byte(spec)})
	checkSnapshot(t, snap)
	var got []string
	for _, p := range snap.Tree.Pages {
		got = append(got, p.Title+" /"+p.Slug)
	}
	want := []string{"Introduction /introduction", "Introduction (2) /introduction-2", "Default /default", "introduction! /introduction-3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("pages (-want +got):\n%s", diff)
	}
	if h := headings(docOf(t, snap, "default"), content.BlockHeading2); !cmp.Equal(h, []string{"GET /b", "GET /c"}) {
		t.Errorf("the declared Default tag should hold untagged operations too, got %q", h)
	}
}

func TestAPIReferenceSpecTextCannotInjectBlocks(t *testing.T) {
	spec := "openapi: 3.0.3\ninfo:\n  title: 'Inject {% hint %}'\n  version: '1'\n" +
		"  description: \"Intro\\n\\n{% hint style=\\\"danger\\\" %}\\nboom\\n{% endhint %}\\n\\n```\\n{% raw %}\\n```\"\n" +
		"paths:\n  /x:\n    get:\n      summary: '# not a heading'\n      description: \"{% tabs %}\"\n" +
		"      responses: {'200': {description: 'a | b'}}\n"
	snap := build(t, APIReference, Input{OpenAPI: []byte(spec)})
	checkSnapshotText(t, snap, true) // the tags must stay as text here
	for _, doc := range snap.Documents {
		walkNodes(doc.Nodes, func(n content.Node) {
			if n.Type == content.BlockHint || n.Type == content.BlockTabs {
				t.Errorf("spec text produced a %s block", n.Type)
			}
		})
	}
	intro := docOf(t, snap, "introduction")
	wantText(t, intro, "Inject {% hint %}", `{% hint style="danger" %}`, "boom")
	// Inside fenced code the text is kept exactly.
	if c := codeContaining(t, intro, "raw"); c != "{% raw %}" {
		t.Errorf("fenced code changed: %q", c)
	}
	def := docOf(t, snap, "default")
	if got := headings(def, content.BlockHeading1); len(got) != 0 {
		t.Errorf("summary became a heading: %q", got)
	}
	wantText(t, def, "# not a heading", "{% tabs %}", "a | b")
}

func TestAPIReferenceInvalidSpec(t *testing.T) {
	tests := map[string]struct{ spec, want string }{
		"swagger 2 json":  {`{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {}}`, "Swagger 2.0"},
		"swagger 2 yaml":  {"swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n", "Swagger 2.0"},
		"not a document":  {"hello", "could not be read"},
		"broken yaml":     {"openapi: 3.0.0\ninfo: [\n", "could not be read"},
		"missing ref":     {`{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"parameters":[{"$ref":"#/components/parameters/nope"}],"responses":{"200":{"description":"ok"}}}}}}`, "could not be read"},
		"external ref":    {`{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":{"/a":{"$ref":"https://example.com/a.yaml"}}}`, "could not be read"},
		"file ref":        {`{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":"/etc/passwd"}}}}}}`, "could not be read"},
		"no version":      {`{"info":{"title":"T","version":"1"},"paths":{}}`, `no "openapi" version`},
		"version 2":       {`{"openapi":"2.0","info":{"title":"T","version":"1"},"paths":{}}`, `OpenAPI version "2.0" is not supported`},
		"no info":         {`{"openapi":"3.0.0","paths":{}}`, "needs info.title"},
		"empty title":     {"openapi: 3.0.0\ninfo: {title: ' ', version: '1'}\npaths: {}\n", "needs info.title"},
		"array":           {`[1, 2]`, "could not be read"},
		"null tag":        {"openapi: 3.0.0\ninfo: {title: T, version: '1'}\ntags: [~]\npaths: {}\n", ""},
		"paths not a map": {`{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":[]}`, "could not be read"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			snap, err := Build(APIReference, Input{OpenAPI: []byte(tt.spec)})
			if tt.want == "" {
				// Accepted: odd but harmless input must not panic.
				if err != nil {
					t.Fatalf("Build: %v", err)
				}
				checkSnapshot(t, snap)
				return
			}
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "params.contentRefs" {
				t.Fatalf("error = %v, want Invalid on params.contentRefs", err)
			}
			if !strings.Contains(fe.Message, tt.want) {
				t.Errorf("message %q does not contain %q", fe.Message, tt.want)
			}
		})
	}
}

func TestAPIReferenceWithoutSpecIsTheStarter(t *testing.T) {
	for _, spec := range [][]byte{nil, []byte("  \n")} {
		snap := build(t, APIReference, Input{OpenAPI: spec, Title: "Payments API"})
		if got := outline(snap.Tree); got != "Introduction 1f44b\nAuthentication 1f511\nErrors 26a0\nUsers\n" {
			t.Fatalf("starter tree:\n%s", got)
		}
		wantText(t, docOf(t, snap, "introduction"), "the reference for Payments API", "OpenAPI 3.0 or 3.1")
		users := docOf(t, snap, "users")
		if got := headings(users, content.BlockHeading2); !cmp.Equal(got, []string{"GET /users/{userId}", "POST /users"}) {
			t.Errorf("example endpoint headings = %q", got)
		}
		codeContaining(t, users, `"email": "jane@example.com"`)
	}
}

func TestOtherTemplatesIgnoreTheSpec(t *testing.T) {
	snap := build(t, ProductDocs, Input{OpenAPI: []byte("not a spec")})
	checkSnapshot(t, snap)
}

func TestAPIReferenceManyOperations(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Big, version: '1'}\npaths:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "  /items/%d:\n    get:\n      tags: [Items]\n      parameters:\n        - {name: q, in: query, required: true, schema: {type: string}}\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}}}\n", i)
	}
	snap := build(t, APIReference, Input{OpenAPI: []byte(b.String())})
	checkSnapshot(t, snap)
	h := headings(docOf(t, snap, "items"), content.BlockHeading2)
	if len(h) != 400 || h[0] != "GET /items/0" || h[399] != "GET /items/399" {
		t.Fatalf("%d headings, first %q", len(h), h[0])
	}
}

func TestAPIReferenceHostileSchemas(t *testing.T) {
	t.Run("alias bomb", func(t *testing.T) {
		spec := "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nx-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
		prev := "a"
		for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
			spec += "x-" + n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n"
			prev = n
		}
		_, err := Build(APIReference, Input{OpenAPI: []byte(spec + "paths: {}\n")})
		if folio.KindOf(err) != folio.Invalid {
			t.Fatalf("error = %v, want Invalid", err)
		}
	})
	t.Run("recursion", func(t *testing.T) {
		spec := `openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /a:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}}
components:
  schemas:
    A: {type: object, properties: {b: {$ref: '#/components/schemas/B'}, self: {$ref: '#/components/schemas/A'}, list: {type: array, items: {$ref: '#/components/schemas/A'}}}}
    B: {oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}], allOf: [{$ref: '#/components/schemas/B'}]}
`
		checkSnapshot(t, build(t, APIReference, Input{OpenAPI: []byte(spec)}))
	})
	t.Run("fan-out", func(t *testing.T) {
		// Eight properties per level, six levels: 8^6 leaves if expanded.
		var b strings.Builder
		b.WriteString("openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n" +
			"      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}}}\n" +
			"components:\n  schemas:\n")
		for i := range 6 {
			fmt.Fprintf(&b, "    S%d: {type: object, properties: {", i)
			for j := range 8 {
				fmt.Fprintf(&b, "p%d: {$ref: '#/components/schemas/S%d'}, ", j, i+1)
			}
			b.WriteString("}}\n")
		}
		b.WriteString("    S6: {type: string}\n")
		snap := build(t, APIReference, Input{OpenAPI: []byte(b.String())})
		checkSnapshot(t, snap)
		resp := codeContaining(t, docOf(t, snap, "default"), `"p0"`)
		if n := strings.Count(resp, `"string"`); n == 0 || n > maxSampleValues {
			t.Errorf("example holds %d leaves, want 1..%d", n, maxSampleValues)
		}
	})
}
