package templates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// sampleMode says which side of the exchange an example is for: readOnly
// properties are left out of requests and writeOnly ones out of responses.
type sampleMode int

const (
	forRequest sampleMode = iota
	forResponse
)

// Generated examples nest at most maxSampleDepth levels and hold at most
// maxSampleValues values, so a schema that fans out (every property a
// reference to another wide object) cannot make one example exponential.
const (
	maxSampleDepth  = 8
	maxSampleValues = 500
)

// sample builds an example value for a schema: its own example, const,
// default or first enum value when it has one, else a value of its type.
// Schemas already on the path (recursive ones) are left out.
func sample(ref *openapi3.SchemaRef, mode sampleMode) any {
	s := &sampler{mode: mode, budget: maxSampleValues, onPath: map[*openapi3.Schema]bool{}}
	return s.value(ref, 0)
}

// sampler holds the state of one generated example.
type sampler struct {
	mode   sampleMode
	budget int // values left to generate
	onPath map[*openapi3.Schema]bool
}

func (sm *sampler) value(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > maxSampleDepth || sm.onPath[ref.Value] || sm.budget <= 0 {
		return nil
	}
	sm.budget--
	s := ref.Value
	switch {
	case s.Example != nil:
		return s.Example
	case len(s.Examples) > 0 && s.Examples[0] != nil:
		return s.Examples[0]
	case s.Const != nil:
		return s.Const
	case s.Default != nil:
		return s.Default
	case len(s.Enum) > 0 && s.Enum[0] != nil:
		return s.Enum[0]
	}
	sm.onPath[s] = true
	defer delete(sm.onPath, s)
	next := func(r *openapi3.SchemaRef) any { return sm.value(r, depth+1) }

	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		var other any
		for _, sub := range s.AllOf {
			switch v := next(sub).(type) {
			case map[string]any:
				maps.Copy(merged, v)
			case nil:
			default:
				other = v
			}
		}
		maps.Copy(merged, sm.object(s, depth))
		if len(merged) > 0 || other == nil {
			return merged
		}
		return other
	}
	if len(s.OneOf) > 0 {
		return next(s.OneOf[0])
	}
	if len(s.AnyOf) > 0 {
		return next(s.AnyOf[0])
	}
	switch primaryType(s) {
	case "object":
		return sm.object(s, depth)
	case "array":
		if len(s.PrefixItems) > 0 {
			out := []any{}
			for _, p := range s.PrefixItems {
				if v := next(p); v != nil {
					out = append(out, v)
				}
			}
			return out
		}
		if v := next(s.Items); v != nil {
			return []any{v}
		}
		return []any{}
	case "string":
		return sampleString(s)
	case "integer":
		return int64(clamp(1, s, true))
	case "number":
		return clamp(1.5, s, false)
	case "boolean":
		return true
	}
	return nil
}

// object fills an object's properties in name order (so a spent budget cuts
// the same ones every time), leaving out those the mode does not send and
// those that sample to nothing.
func (sm *sampler) object(s *openapi3.Schema, depth int) map[string]any {
	out := map[string]any{}
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		if p == nil || p.Value == nil {
			continue
		}
		if (sm.mode == forRequest && p.Value.ReadOnly) || (sm.mode == forResponse && p.Value.WriteOnly) {
			continue
		}
		if v := sm.value(p, depth+1); v != nil {
			out[name] = v
		}
	}
	if len(s.Properties) == 0 && s.AdditionalProperties.Schema != nil {
		if v := sm.value(s.AdditionalProperties.Schema, depth+1); v != nil {
			out["key"] = v
		}
	}
	return out
}

// primaryType is the schema's first non-null type, or the type its keywords
// imply.
func primaryType(s *openapi3.Schema) string {
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				return t
			}
		}
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return "object"
	case s.Items != nil || len(s.PrefixItems) > 0:
		return "array"
	}
	return ""
}

// clamp keeps a sample number within the schema's bounds.
func clamp(v float64, s *openapi3.Schema, integer bool) float64 {
	if s.Min != nil && v < *s.Min {
		v = *s.Min
		if integer {
			v = math.Ceil(v)
		}
	}
	if s.Max != nil && v > *s.Max {
		v = *s.Max
		if integer {
			v = math.Floor(v)
		}
	}
	return v
}

var formatSamples = map[string]string{
	"date-time": "2025-01-15T09:30:00Z", "date": "2025-01-15", "time": "09:30:00",
	"email": "jane@example.com", "uuid": "3f2b8c1e-6d4a-4b7e-9c2d-8a1f5e7b9d20",
	"uri": "https://example.com", "url": "https://example.com", "uri-reference": "/example",
	"hostname": "example.com", "ipv4": "192.0.2.10", "ipv6": "2001:db8::10",
	"byte": "aGVsbG8=", "binary": "(binary data)", "password": "********",
}

func sampleString(s *openapi3.Schema) string {
	if v, ok := formatSamples[s.Format]; ok {
		return v
	}
	if s.MinLength > 6 {
		return strings.Repeat("x", int(min(s.MinLength, 64)))
	}
	return "string"
}

// pickMedia chooses the content type to show: JSON first, then other JSON
// types, forms, and the rest in sorted order.
func pickMedia(c openapi3.Content) (string, *openapi3.MediaType) {
	rank := func(ct string) int {
		switch base := mediaBase(ct); {
		case base == "application/json":
			return 0
		case strings.Contains(base, "json"):
			return 1
		case base == "application/x-www-form-urlencoded":
			return 2
		case base == "multipart/form-data":
			return 3
		}
		return 4
	}
	best := ""
	for _, ct := range sortedKeys(c) {
		if c[ct] != nil && (best == "" || rank(ct) < rank(best)) {
			best = ct
		}
	}
	if best == "" {
		return "", nil
	}
	return best, c[best]
}

func mediaBase(ct string) string {
	base, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(base))
}

func isJSON(ct string) bool { return strings.Contains(mediaBase(ct), "json") }

// mediaExample is a media type's example: the example, the first named
// example with a value, or one generated from the schema.
func mediaExample(mt *openapi3.MediaType, mode sampleMode) (any, bool) {
	if mt.Example != nil {
		return mt.Example, true
	}
	for _, name := range sortedKeys(mt.Examples) {
		if e := mt.Examples[name]; e != nil && e.Value != nil && e.Value.Value != nil {
			return e.Value.Value, true
		}
	}
	if v := sample(mt.Schema, mode); v != nil {
		return v, true
	}
	return nil, false
}

// responseExample finds the example of the first successful response that
// has content.
func responseExample(op *openapi3.Operation) (code, ct string, ex any, ok bool) {
	if op.Responses == nil {
		return "", "", nil, false
	}
	for _, code := range sortedKeys(op.Responses.Map()) {
		r := op.Responses.Value(code)
		if !strings.HasPrefix(code, "2") || r == nil || r.Value == nil {
			continue
		}
		ct, mt := pickMedia(r.Value.Content)
		if mt == nil {
			continue
		}
		if ex, ok := mediaExample(mt, forResponse); ok {
			return code, ct, ex, true
		}
	}
	return "", "", nil, false
}

// formatExample writes an example as the code block shows it: strings of
// non-JSON types as they are, everything else as indented JSON.
func formatExample(ct string, ex any) string {
	if s, ok := ex.(string); ok && !isJSON(ct) {
		return s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(ex); err != nil {
		return fmt.Sprint(ex)
	}
	return strings.TrimRight(buf.String(), "\n")
}

func syntaxFor(ct string) string {
	base := mediaBase(ct)
	switch {
	case strings.Contains(base, "json"):
		return "json"
	case strings.Contains(base, "xml"):
		return "xml"
	case strings.Contains(base, "yaml"):
		return "yaml"
	case strings.Contains(base, "html"):
		return "html"
	}
	return "text"
}

// scalarText writes a value for a table cell or a URL: strings as they are,
// anything else as JSON.
func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// paramExample is a parameter's own example, or its schema's.
func paramExample(p *openapi3.Parameter) (any, bool) {
	if p.Example != nil {
		return p.Example, true
	}
	for _, name := range sortedKeys(p.Examples) {
		if e := p.Examples[name]; e != nil && e.Value != nil && e.Value.Value != nil {
			return e.Value.Value, true
		}
	}
	if ref := paramSchema(p); ref != nil && ref.Value != nil {
		s := ref.Value
		for _, v := range []any{s.Example, s.Const, s.Default} {
			if v != nil {
				return v, true
			}
		}
		if len(s.Examples) > 0 && s.Examples[0] != nil {
			return s.Examples[0], true
		}
		if len(s.Enum) > 0 && s.Enum[0] != nil {
			return s.Enum[0], true
		}
	}
	return nil, false
}

// paramValue is the value a curl example sends for a parameter.
func paramValue(p *openapi3.Parameter) string {
	if v, ok := paramExample(p); ok {
		return scalarText(v)
	}
	if v := sample(paramSchema(p), forRequest); v != nil {
		return scalarText(v)
	}
	return "value"
}
