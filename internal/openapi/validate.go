package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
)

// convertSwagger turns a bundled Swagger 2.0 document into OpenAPI 3.0 with
// kin-openapi's converter, as GitBook's parser upgrades 2.0 before storing.
// The converter keeps maps, so paths and their operations are put back in
// the source order afterwards.
func convertSwagger(root *node, lim Limits) (out *node, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, newError(CodeParseError, fmt.Errorf("openapi2conv panic: %v", r), "the Swagger 2.0 document could not be converted to OpenAPI 3.0")
		}
	}()
	var d2 openapi2.T
	if err := json.Unmarshal(encode(root), &d2); err != nil {
		return nil, newError(CodeParseError, err, "the Swagger 2.0 document could not be read: %s", folio.Clip(err.Error(), 300))
	}
	d3, err := openapi2conv.ToV3(&d2)
	if err != nil {
		return nil, newError(CodeParseError, err, "the Swagger 2.0 document could not be converted to OpenAPI 3.0: %s", folio.Clip(err.Error(), 300))
	}
	data, err := json.Marshal(d3)
	if err != nil {
		return nil, newError(CodeParseError, err, "the Swagger 2.0 document could not be converted to OpenAPI 3.0")
	}
	out, _, err = parseJSON(data, parseLimits{maxNodes: 4 * lim.MaxNodes, maxDepth: lim.MaxNest + 16})
	if err != nil {
		return nil, newError(CodeParseError, err, "the Swagger 2.0 document could not be converted to OpenAPI 3.0")
	}
	// Put back what the converter's maps sorted: paths and their methods,
	// and the components that were 2.0 sections; the top level follows the
	// usual order of an OpenAPI 3 document.
	sortDeep(root.get("paths"), out.get("paths"))
	sortMovedSchemas(root.get("paths"), out.get("paths"))
	if comps := out.get("components"); comps != nil {
		sortDeep(root.get("definitions"), comps.get("schemas"))
		sortDeep(root.get("parameters"), comps.get("parameters"))
		sortDeep(root.get("responses"), comps.get("responses"))
		sortDeep(root.get("securityDefinitions"), comps.get("securitySchemes"))
	}
	if p := out.get("paths"); p == nil || p.kind != kObject {
		// The converter drops an empty paths object, which 3.0 requires.
		out.set("paths", &node{kind: kObject})
	}
	sortLike(out, topOrder, nil)
	return out, nil
}

// topOrder is the usual order of an OpenAPI 3 document's fields.
var topOrder = &node{kind: kObject, keys: []string{"openapi", "info", "jsonSchemaDialect", "servers", "security", "tags",
	"externalDocs", "paths", "webhooks", "components"}, vals: make([]*node, 10)}

// sortDeep orders dst's keys like src's, and so on down every key both
// have, which restores the order of schema properties after conversion.
func sortDeep(src, dst *node) { sortLike(dst, src, sortDeep) }

// sortMovedSchemas restores the order inside the schemas the converter moved:
// a 2.0 response's "schema" into each media type of its 3.0 "content", and
// the body parameter's schema into requestBody.
func sortMovedSchemas(src, dst *node) {
	if src == nil || dst == nil || src.kind != kObject || dst.kind != kObject {
		return
	}
	for i, path := range dst.keys {
		item, srcItem := dst.vals[i], src.get(path)
		if item.kind != kObject || srcItem == nil {
			continue
		}
		for j, method := range item.keys {
			op, srcOp := item.vals[j], srcItem.get(method)
			if op.kind != kObject || srcOp == nil {
				continue
			}
			if resps, srcResps := op.get("responses"), srcOp.get("responses"); resps != nil && resps.kind == kObject {
				for k, status := range resps.keys {
					sortContent(srcResps.get(status).get("schema"), resps.vals[k].get("content"))
				}
			}
			if params := srcOp.get("parameters"); params != nil && params.kind == kArray {
				for _, p := range params.vals {
					if p.str("in") == "body" {
						sortContent(p.get("schema"), op.get("requestBody").get("content"))
					}
				}
			}
		}
	}
}

// sortContent orders the schema of every media type in content like src.
func sortContent(src, content *node) {
	if src == nil || content == nil || content.kind != kObject {
		return
	}
	for _, mt := range content.vals {
		sortDeep(src, mt.get("schema"))
	}
}

// sortLike orders the keys of dst as they appear in src, keys unknown to
// src last; then calls inner on each pair of values under the same key.
func sortLike(dst, src *node, inner func(src, dst *node)) {
	if dst == nil || src == nil || dst.kind != kObject || src.kind != kObject {
		return
	}
	rank := make(map[string]int, len(src.keys))
	for i, k := range src.keys {
		rank[k] = i
	}
	pos := func(k string) int {
		if r, ok := rank[k]; ok {
			return r
		}
		return len(src.keys)
	}
	idx := make([]int, len(dst.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return pos(dst.keys[idx[a]]) < pos(dst.keys[idx[b]]) })
	keys := make([]string, len(idx))
	vals := make([]*node, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = dst.keys[j], dst.vals[j]
	}
	dst.keys, dst.vals, dst.idx = keys, vals, nil
	if inner != nil {
		for i, k := range dst.keys {
			inner(src.get(k), dst.vals[i])
		}
	}
}

// validate returns the findings about a bundled OpenAPI 3.x document: local
// $refs that lead nowhere (checked here, for every $ref), then what
// kin-openapi's validator reports. None of them stops processing: GitBook
// renders what it can of an imperfect specification.
func validate(ctx context.Context, root *node, spec []byte, max int) []Problem {
	var out []Problem
	add := func(p Problem) bool {
		if len(out) >= max {
			return false
		}
		out = append(out, p)
		return true
	}
	checkRefs(root, add)
	for _, p := range kinValidate(ctx, spec) {
		if !add(p) {
			break
		}
	}
	return out
}

// checkRefs reports each local $ref whose JSON pointer leads nowhere.
func checkRefs(root *node, add func(Problem) bool) {
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.kind != kObject && n.kind != kArray {
			continue
		}
		for i, v := range n.vals {
			if n.kind == kObject && n.keys[i] == "$ref" && v.kind == kString {
				ref := v.s
				if strings.HasPrefix(ref, "#/") && resolvePointer(root, ref[1:]) == nil {
					if !add(Problem{Message: fmt.Sprintf("$ref %q does not lead to anything in the document", folio.Clip(ref, 200)), Code: "unresolved-ref", Line: v.line}) {
						return
					}
				}
				continue
			}
			stack = append(stack, v)
		}
	}
}

// kinValidate loads spec with kin-openapi (no external references: the
// document is already bundled) and runs its validator.
func kinValidate(ctx context.Context, spec []byte) (out []Problem) {
	defer func() {
		if r := recover(); r != nil {
			out = []Problem{{Message: "the document could not be validated", Code: "invalid"}}
		}
	}()
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return []Problem{{Message: "the document could not be validated: " + folio.Clip(err.Error(), 300), Code: "invalid"}}
	}
	err = doc.Validate(ctx, openapi3.EnableMultiError(), openapi3.DisableExamplesValidation())
	if err == nil {
		return nil
	}
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			out = append(out, Problem{Message: folio.Clip(e.Error(), 300), Code: "invalid"})
		}
		return out
	}
	return []Problem{{Message: folio.Clip(err.Error(), 300), Code: "invalid"}}
}
