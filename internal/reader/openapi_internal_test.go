package reader

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/openapi"
)

// TestRenderOpenAPIBounds: the page budget cuts texts once spent, and without specifications at hand (the
// print) a block shows its method and path only.
func TestRenderOpenAPIBounds(t *testing.T) {
	t.Parallel()
	o := &opResolver{budget: 100}
	v := &opView{}
	o.fill(v, &openapi.Operation{Summary: strings.Repeat("s", 500), Description: strings.Repeat("d", 500),
		Responses: []openapi.Response{{Status: "200", Example: []byte(`{"a": "` + strings.Repeat("x", 5000) + `"}`)}}})
	if len(v.Summary) > 100+len("…") || v.Description != "" || v.Responses[0].Example != "" || o.budget != 0 {
		t.Fatalf("budget not kept: summary %d bytes, description %q, example %d bytes, budget %d",
			len(v.Summary), v.Description, len(v.Responses[0].Example), o.budget)
	}

	n := content.NewBlock(content.BlockOpenAPIOperation)
	n.Data = map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "pets"}, "path": "/pets", "method": "post"}
	out, err := fragment("blocks", (&renderer{}).blocks([]content.Node{n}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `<span class="method method-post">POST</span> <code class="openapi-path">/pets</code>`) ||
		strings.Contains(string(out), "not available") {
		t.Fatalf("print rendering: %s", out)
	}
}
