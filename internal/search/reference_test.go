package search_test

import (
	"encoding/json"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReferencesFixture(t *testing.T) {
	d := readDoc(t, "page.json")
	got := search.References(d)
	const ref, dep = search.RelationReference, search.RelationDependsOn
	want := []search.Reference{
		{Kind: "url", URL: "https://example.com/docs", Node: "l1", NodeType: "link", Relation: ref},
		{Kind: "user", User: "u1", NodeType: "mention", Relation: ref},
		{Kind: "page", Page: "page-install", NodeType: "button", Relation: ref},
		{Kind: "anchor", Anchor: "faq", Page: "page-help", NodeType: "link", Relation: ref}, // in an annotation body
		{Kind: "file", File: "file-diagram", Node: "img1", NodeType: "image", Relation: dep},
		{Kind: "url", URL: "https://example.com/dark.png", Node: "img1", NodeType: "image", Relation: dep},
		{Kind: "space", Space: "space-2", NodeType: "link", Relation: ref}, // in an image caption
		{Kind: "url", URL: "https://example.com/legacy.png", NodeType: "inline-image", Relation: dep},
		{Kind: "file", File: "file-logo", NodeType: "inline-image", Relation: dep},
		{Kind: "file", File: "file-report", Node: "f1", NodeType: "file", Relation: dep},
		{Kind: "file", File: "file-drawing", Node: "drawing-1", NodeType: "drawing", Relation: dep},
		{Kind: "url", URL: "https://www.youtube.com/watch?v=x", NodeType: "embed", Relation: dep},
		{Kind: "url", URL: "https://github.com/foliodocs/folio", NodeType: "integration", Relation: dep},
		{Kind: "reusable-content", ReusableContent: "rc-1", NodeType: "reusable-content", Relation: dep}, // in an expandable
		{Kind: "page", Page: "page-go", Space: "space-3", NodeType: "content-ref", Relation: ref},        // in a tab
		{Kind: "collection", Collection: "col-1", Node: "t1", NodeType: "table", Relation: ref},          // a record value
		{Kind: "url", URL: "https://example.com/cell.png", Node: "t1", NodeType: "table", Relation: ref}, // an image record
		{Kind: "file", File: "file-cell", NodeType: "link", Relation: ref},                               // in a cell
		{Kind: "file", File: "file-spec", Node: "get-pets", NodeType: "swagger", Relation: dep},
		{Kind: "openapi", Spec: "petstore", NodeType: "openapi-operation", Relation: dep},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(search.Reference{}, "Raw")); diff != "" {
		t.Errorf("References (-want +got):\n%s", diff)
	}
	// Raw is the document's own ref object, for callers that rewrite links.
	link := d.Nodes[0].Nodes[1].Data["ref"].(map[string]any)
	link["url"] = "changed"
	if len(got) == 0 || got[0].Raw["url"] != "changed" {
		t.Errorf("Raw of the first reference is not the document's ref object: %v", got[0].Raw)
	}
	for i, r := range got {
		if r.Raw == nil && r.Kind != search.RefURL {
			t.Errorf("reference %d (%s) has no Raw", i, r.Kind)
		}
	}
}

func TestReferences(t *testing.T) {
	inline := func(typ string, data map[string]any, children ...content.Node) content.Node {
		n := content.NewInline(typ, children...)
		n.Data = data
		return n
	}
	tests := []struct {
		name string
		doc  *content.Document
		want []search.Reference
	}{
		{"nil document", nil, nil},
		{"no references", content.NewDocument("text"), nil},
		{"unknown kinds are not refs",
			doc(content.NewBlock(content.BlockParagraph, inline(content.InlineButton,
				map[string]any{"kind": "primary", "x": map[string]any{"kind": "weird", "url": "u"}}))),
			nil},
		{"ref without its target is kept for broken-link reports",
			doc(content.NewBlock(content.BlockParagraph, inline(content.InlineLink,
				map[string]any{"ref": map[string]any{"kind": "page"}}, content.NewText("x")))),
			[]search.Reference{{Kind: "page", NodeType: "link", Relation: search.RelationReference}}},
		{"refs in arrays and unknown data",
			doc(content.NewBlock(content.BlockParagraph, inline(content.InlineLink,
				map[string]any{"extra": []any{map[string]any{"kind": "space", "space": "s1"}, "x"},
					"ref": map[string]any{"kind": "url", "url": "https://a"}}, content.NewText("x")))),
			[]search.Reference{
				{Kind: "space", Space: "s1", NodeType: "link", Relation: search.RelationReference},
				{Kind: "url", URL: "https://a", NodeType: "link", Relation: search.RelationReference},
			}},
		{"url outside embeds is not a link",
			doc(content.NewBlock(content.BlockParagraph, inline(content.InlineLink,
				map[string]any{"url": "https://not-a-ref"}, content.NewText("x")))),
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := search.References(tt.doc)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(search.Reference{}, "Raw")); diff != "" {
				t.Errorf("References (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRef(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{"kind":"anchor","anchor":"a","page":"p","space":"s"}`), &m); err != nil {
		t.Fatal(err)
	}
	got, ok := search.ParseRef(m)
	want := search.Reference{Kind: "anchor", Anchor: "a", Page: "p", Space: "s"}
	if !ok || !cmp.Equal(want, got, cmpopts.IgnoreFields(search.Reference{}, "Raw")) {
		t.Errorf("ParseRef = %+v, %v; want %+v", got, ok, want)
	}
	for _, bad := range []map[string]any{nil, {}, {"kind": 1}, {"kind": "URL"}, {"url": "x"}} {
		if _, ok := search.ParseRef(bad); ok {
			t.Errorf("ParseRef(%v) accepted", bad)
		}
	}
}

func TestIsAppURL(t *testing.T) {
	const base = "https://docs.example.com"
	tests := []struct {
		name, url, base string
		want            bool
	}{
		{"space on the app host", "https://docs.example.com/s/abc", base, true},
		{"organization on the app host", "https://docs.example.com/o/org1/s/abc/page", base, true},
		{"host case and http scheme", "http://DOCS.example.com/s/abc", base, true},
		{"default port", "https://docs.example.com:443/s/abc", base, true},
		{"path without host", "/s/abc#x", base, true},
		{"protocol-relative", "//docs.example.com/o/x", base, true},
		{"other path on the app host", "https://docs.example.com/v1/spaces/abc", base, false},
		{"published site on the app host", "https://docs.example.com/my-site/page", base, false},
		{"other host", "https://example.com/s/abc", base, false},
		{"subdomain", "https://evil.docs.example.com/s/abc", base, false},
		{"other port", "https://docs.example.com:8443/s/abc", base, false},
		{"prefix without slash", "https://docs.example.com/space", base, false},
		{"relative path", "s/abc", base, false},
		{"mailto", "mailto:a@docs.example.com", base, false},
		{"javascript", "javascript:alert(1)", base, false},
		{"ftp scheme", "ftp://docs.example.com/s/abc", base, false},
		{"unparsable", "https://docs.example.com/%zz", base, false},
		{"empty", "", base, false},
		{"base with path", "https://example.com/folio/s/abc", "https://example.com/folio/", true},
		{"outside the base path", "https://example.com/s/abc", "https://example.com/folio", false},
		{"base with port", "http://localhost:8080/s/x", "http://localhost:8080", true},
		{"bad base", "https://docs.example.com/s/abc", "::", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := search.IsAppURL(tt.url, tt.base); got != tt.want {
				t.Errorf("IsAppURL(%q, %q) = %v, want %v", tt.url, tt.base, got, tt.want)
			}
		})
	}
}
