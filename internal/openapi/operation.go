package openapi

import (
	"encoding/json"
	"strings"
)

// Bounds of the operation model, so that a hostile document cannot make a
// page list grow without end.
const (
	maxOperations = 5000
	maxParams     = 100
	maxResponses  = 50
	maxTypes      = 10
	maxExample    = 8 << 10 // bytes of one example
	maxRefHops    = 16
)

// Operation is one API operation as pages render it.
type Operation struct {
	Method      string // upper case: GET, POST…
	Path        string
	OperationID string
	Summary     string
	Description string
	Tags        []string
	Deprecated  bool
	Parameters  []Parameter
	RequestBody *RequestBody // nil when the operation takes no body
	Responses   []Response
}

// Parameter is one path, query, header or cookie parameter.
type Parameter struct {
	Name        string
	In          string
	Required    bool
	Deprecated  bool
	Description string
	Schema      string // a short type summary such as "string", "array of Pet"
}

// RequestBody is an operation's body.
type RequestBody struct {
	Description  string
	Required     bool
	ContentTypes []string
	Schema       string          // summary of the first content type's schema
	Example      json.RawMessage // the first example given, nil when none or too large
}

// Response is one documented response.
type Response struct {
	Status       string // "200", "4XX" or "default"
	Description  string
	ContentTypes []string
	Schema       string
	Example      json.RawMessage
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Operations lists the operations of a processed specification in document
// order, with path-level parameters merged in and local $refs followed.
// Lists are capped (5,000 operations, 100 parameters and 50 responses each).
func Operations(r *Result) []Operation {
	root := r.root
	if root == nil {
		for _, f := range r.Filesystem {
			if f.IsEntrypoint {
				root, _, _ = parseJSON(f.Specification, parseLimits{maxNodes: DefaultLimits.MaxNodes * 4, maxDepth: DefaultLimits.MaxNest + 16})
			}
		}
	}
	paths := root.get("paths")
	if paths == nil || paths.kind != kObject {
		return nil
	}
	var out []Operation
	for i, path := range paths.keys {
		item := deref(root, paths.vals[i])
		if item == nil || item.kind != kObject {
			continue
		}
		for _, m := range methods {
			op := deref(root, item.get(m))
			if op == nil || op.kind != kObject {
				continue
			}
			if len(out) == maxOperations {
				return out
			}
			out = append(out, operation(root, strings.ToUpper(m), path, item, op))
		}
	}
	return out
}

func operation(root *node, method, path string, item, op *node) Operation {
	o := Operation{
		Method:      method,
		Path:        path,
		OperationID: op.str("operationId"),
		Summary:     op.str("summary"),
		Description: op.str("description"),
		Deprecated:  boolOf(op.get("deprecated")),
	}
	if tags := op.get("tags"); tags != nil && tags.kind == kArray {
		for _, t := range tags.vals {
			if t.kind == kString && len(o.Tags) < maxTypes {
				o.Tags = append(o.Tags, t.s)
			}
		}
	}
	// Operation parameters override path-level ones with the same name and location.
	seen := map[string]bool{}
	for _, list := range []*node{op.get("parameters"), item.get("parameters")} {
		list = deref(root, list)
		if list == nil || list.kind != kArray {
			continue
		}
		for _, pn := range list.vals {
			p := deref(root, pn)
			if p == nil || p.kind != kObject || len(o.Parameters) == maxParams {
				continue
			}
			key := p.str("in") + "\x00" + p.str("name")
			if seen[key] {
				continue
			}
			seen[key] = true
			o.Parameters = append(o.Parameters, Parameter{
				Name:        p.str("name"),
				In:          p.str("in"),
				Required:    boolOf(p.get("required")),
				Deprecated:  boolOf(p.get("deprecated")),
				Description: p.str("description"),
				Schema:      schemaSummary(root, p.get("schema"), 0),
			})
		}
	}
	if body := deref(root, op.get("requestBody")); body != nil && body.kind == kObject {
		rb := &RequestBody{Description: body.str("description"), Required: boolOf(body.get("required"))}
		rb.ContentTypes, rb.Schema, rb.Example = media(root, body.get("content"))
		o.RequestBody = rb
	}
	if resps := deref(root, op.get("responses")); resps != nil && resps.kind == kObject {
		for i, status := range resps.keys {
			if strings.HasPrefix(status, "x-") {
				continue
			}
			if len(o.Responses) == maxResponses {
				break
			}
			rn := deref(root, resps.vals[i])
			if rn == nil || rn.kind != kObject {
				continue
			}
			resp := Response{Status: status, Description: rn.str("description")}
			resp.ContentTypes, resp.Schema, resp.Example = media(root, rn.get("content"))
			o.Responses = append(o.Responses, resp)
		}
	}
	return o
}

// media summarizes a content map: its media types, and the schema and
// first example of the first one.
func media(root *node, content *node) (types []string, schema string, example json.RawMessage) {
	content = deref(root, content)
	if content == nil || content.kind != kObject {
		return nil, "", nil
	}
	for i, t := range content.keys {
		if len(types) < maxTypes {
			types = append(types, t)
		}
		if i > 0 {
			continue
		}
		mt := deref(root, content.vals[i])
		if mt == nil || mt.kind != kObject {
			continue
		}
		s := deref(root, mt.get("schema"))
		schema = schemaSummary(root, mt.get("schema"), 0)
		ex := mt.get("example")
		if ex == nil {
			if exs := deref(root, mt.get("examples")); exs != nil && exs.kind == kObject && len(exs.vals) > 0 {
				if first := deref(root, exs.vals[0]); first != nil {
					ex = first.get("value")
				}
			}
		}
		if ex == nil && s != nil {
			ex = s.get("example")
		}
		if ex != nil {
			if b := encode(ex); len(b) <= maxExample {
				example = b
			}
		}
	}
	return types, schema, example
}

// deref follows local $refs, at most maxRefHops of them.
func deref(root, n *node) *node {
	for i := 0; n != nil && i < maxRefHops; i++ {
		ref := n.str("$ref")
		if !strings.HasPrefix(ref, "#") {
			return n
		}
		n = resolvePointer(root, ref[1:])
	}
	return n
}

// schemaSummary describes a schema in a few words: the component name for
// a reference, else its type, with "array of" for arrays.
func schemaSummary(root, s *node, depth int) string {
	if s == nil || s.kind != kObject || depth > 4 {
		return ""
	}
	if ref := s.str("$ref"); ref != "" {
		if rest, ok := strings.CutPrefix(ref, "#/"+extKey+"/"); ok && !strings.Contains(rest, "/") {
			// A whole bundled file has only a hash for a name: describe
			// what it holds instead.
			t := deref(root, s)
			if title := t.str("title"); title != "" {
				return title
			}
			return schemaSummary(root, t, depth+1)
		}
		if i := strings.LastIndex(ref, "/"); i >= 0 && i < len(ref)-1 {
			return strings.ReplaceAll(strings.ReplaceAll(ref[i+1:], "~1", "/"), "~0", "~")
		}
		return ref
	}
	t := s.get("type")
	typ := ""
	switch {
	case t == nil:
	case t.kind == kString:
		typ = t.s
	case t.kind == kArray:
		var parts []string
		for _, v := range t.vals {
			if v.kind == kString && len(parts) < maxTypes {
				parts = append(parts, v.s)
			}
		}
		typ = strings.Join(parts, " | ")
	}
	if typ == "array" {
		if inner := schemaSummary(root, s.get("items"), depth+1); inner != "" {
			return "array of " + inner
		}
	}
	if typ == "" {
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			if v := s.get(k); v != nil && v.kind == kArray {
				return k
			}
		}
		if s.get("properties") != nil {
			return "object"
		}
	}
	if f := s.str("format"); f != "" && typ != "" {
		return typ + " (" + f + ")"
	}
	return typ
}

func boolOf(n *node) bool { return n != nil && n.kind == kBool && n.s == "true" }
