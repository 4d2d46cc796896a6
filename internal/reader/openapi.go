package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/openapi"
)

// OpenAPI blocks. An openapi-operation block (data.ref {kind: openapi,
// spec}, data.method, data.path) and the older swagger block (data.ref a
// URL, which is a slug or the source URL of a specification, or {kind:
// openapi}) show one operation of the latest version of an organization's
// specification, as API documentation does: method and path, summary,
// description, parameters, request body and responses. Everything in a
// specification is untrusted: it is only ever text for html/template to
// escape (descriptions are shown as plain text, never as Markdown or
// HTML), no URL of the specification becomes a link, and every string is
// clipped (see the bounds below), within a budget for the whole page.

// Bounds of what a page shows of specifications.
const (
	maxOpSummary     = 300
	maxOpDescription = 2000
	maxOpExample     = 2 << 10
	maxOpBlocks      = 200       // OpenAPI blocks rendered in full on a page
	opPageBudget     = 512 << 10 // bytes of specification text on a page
)

// opView is an OpenAPI block for the templates.
type opView struct {
	Method, Path, Spec   string
	Badge                string // get, post, put, patch, delete or other: the badge's class
	Summary, Description string
	Deprecated           bool
	Params               []paramView
	Body                 *bodyView
	Responses            []respView
	Missing              string // the note shown instead, when the operation is not available
}

type paramView struct {
	Name, In, Schema, Description string
	Required, Deprecated          bool
}

type bodyView struct {
	Description, ContentTypes, Schema string
	Required                          bool
	Example                           string
}

type respView struct {
	Status, Description, ContentTypes, Schema string
	Example                                   string
}

// opResolver finds the operations of the specifications a page names, once
// per specification, and records the versions it rendered for the cache.
type opResolver struct {
	ctx    context.Context
	app    *app.App
	org    folio.ID
	specs  map[string]*specLookup
	refs   []string   // distinct references, in first-seen order
	used   []folio.ID // the version rendered for each of refs, "" when none
	blocks int
	budget int
	// transient is set when a lookup failed for another reason than a
	// missing specification: the page shows the note, but is not cached.
	transient bool
}

type specLookup struct {
	ops *app.OpenAPIOperations
	err error
}

func newOpResolver(ctx context.Context, a *app.App, org folio.ID) *opResolver {
	return &opResolver{ctx: ctx, app: a, org: org, specs: map[string]*specLookup{}, budget: opPageBudget}
}

// lookup returns the operations of a specification, or an error.
func (o *opResolver) lookup(ref string) (*app.OpenAPIOperations, error) {
	if l, ok := o.specs[ref]; ok {
		return l.ops, l.err
	}
	if len(o.refs) == app.MaxOpenAPIRefs {
		return nil, folio.Errorf(folio.NotFound, "too many specifications on one page")
	}
	l := &specLookup{}
	l.ops, l.err = o.app.OpenAPIOperations(o.ctx, o.org, ref)
	o.specs[ref] = l
	o.refs = append(o.refs, ref)
	var v folio.ID
	switch {
	case l.err == nil:
		v = l.ops.Version
	case !folio.IsNotFound(l.err):
		o.transient = true
	}
	o.used = append(o.used, v)
	return l.ops, l.err
}

// specRef reads the specification reference of an OpenAPI block: a slug,
// or an absolute URL for a swagger block; "" when it names none (a file of
// the space, for one).
func specRef(n *content.Node) string {
	ref, _ := n.Data["ref"].(map[string]any)
	switch str(ref, "kind") {
	case "openapi":
		return strings.TrimSpace(str(ref, "spec"))
	case "url":
		return strings.TrimSpace(str(ref, "url"))
	}
	return ""
}

// openAPIBlock renders an OpenAPI block.
func (r *renderer) openAPIBlock(n *content.Node) block {
	method := strings.ToUpper(strings.TrimSpace(str(n.Data, "method")))
	v := &opView{Method: folio.Clip(method, 16), Path: folio.Clip(str(n.Data, "path"), 300), Spec: folio.Clip(specRef(n), 200)}
	v.Badge = badge(method)
	if r.openapi == nil {
		// The print has no specifications at hand: method and path only.
		return block{Kind: "openapi", Op: v}
	}
	missing := func() block {
		spec := v.Spec
		if spec == "" {
			spec = "this page"
		}
		v.Missing = "Operation " + strings.TrimSpace(v.Method+" "+v.Path) + " of " + spec + " is not available"
		return block{Kind: "openapi", Op: v}
	}
	o := r.openapi
	if o.blocks == maxOpBlocks || v.Spec == "" || method == "" {
		return missing()
	}
	o.blocks++
	ops, err := o.lookup(specRef(n))
	if err != nil {
		return missing()
	}
	op, ok := ops.Find(method, str(n.Data, "path"))
	if !ok {
		return missing()
	}
	o.fill(v, op)
	return block{Kind: "openapi", Op: v}
}

// fill copies an operation into the view, clipped to the bounds.
func (o *opResolver) fill(v *opView, op *openapi.Operation) {
	v.Summary = o.text(op.Summary, maxOpSummary)
	v.Description = o.text(op.Description, maxOpDescription)
	v.Deprecated = op.Deprecated
	for _, p := range op.Parameters {
		v.Params = append(v.Params, paramView{Name: o.text(p.Name, 200), In: o.text(p.In, 20), Schema: o.text(p.Schema, 200),
			Description: o.text(p.Description, maxOpDescription), Required: p.Required, Deprecated: p.Deprecated})
	}
	if b := op.RequestBody; b != nil {
		v.Body = &bodyView{Description: o.text(b.Description, maxOpDescription), Required: b.Required,
			ContentTypes: o.text(strings.Join(b.ContentTypes, ", "), 300), Schema: o.text(b.Schema, 200), Example: o.example(b.Example)}
	}
	for _, rs := range op.Responses {
		v.Responses = append(v.Responses, respView{Status: o.text(rs.Status, 20), Description: o.text(rs.Description, maxOpDescription),
			ContentTypes: o.text(strings.Join(rs.ContentTypes, ", "), 300), Schema: o.text(rs.Schema, 200), Example: o.example(rs.Example)})
	}
}

// text clips s to n bytes and charges it to the page's budget; once the
// budget is spent, texts are cut short.
func (o *opResolver) text(s string, n int) string {
	n = min(n, o.budget)
	s = folio.Clip(s, n)
	o.budget = max(0, o.budget-len(s))
	return s
}

// example is an example as indented JSON, clipped.
func (o *opResolver) example(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return ""
	}
	return o.text(buf.String(), maxOpExample)
}

// badge is the class of a method's badge, from a fixed set.
func badge(method string) string {
	switch method {
	case "GET", "POST", "PUT", "PATCH", "DELETE":
		return strings.ToLower(method)
	}
	return "other"
}

// versionsKey is the part of a cache key naming the specification
// versions a page showed: "" for a page without OpenAPI blocks.
func versionsKey(refs []string, versions []folio.ID) string {
	if len(refs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("openapi")
	for i, r := range refs {
		b.WriteByte(3)
		b.WriteString(r)
		b.WriteByte(4)
		b.WriteString(versions[i])
	}
	return b.String()
}
