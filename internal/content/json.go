package content

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// Decoding goes through one generic json.Unmarshal into any, then a linear
// walk that builds the typed tree. Letting encoding/json call UnmarshalJSON
// per nested node would rescan every subtree once per level above it.
// Encoding likewise writes the whole tree into one buffer.
//
// Presence is kept: a nil map or slice is an absent property and a non-nil
// one, even empty, is written. The one exception is isVoid, a plain bool: it
// is written when true and, for the types whose schema requires it, when
// false; when absent on input it takes the type's value from the table.

// MarshalJSON writes the document with "object", "data" and "nodes" always
// present; it fails only on data values encoding/json cannot encode.
func (d Document) MarshalJSON() ([]byte, error) { return encode(func(e *encoder) { e.document(&d) }) }

// UnmarshalJSON decodes a document; a well-formed JSON value of the wrong
// shape is an Invalid error naming the offending path.
func (d *Document) UnmarshalJSON(b []byte) error { return decodeInto(b, d, (*decoder).document) }

// MarshalJSON writes the node as the reference shapes it.
func (n Node) MarshalJSON() ([]byte, error) { return encode(func(e *encoder) { e.node(&n) }) }

// UnmarshalJSON decodes one node; a value of the wrong shape is an Invalid error.
func (n *Node) UnmarshalJSON(b []byte) error { return decodeInto(b, n, (*decoder).node) }

// MarshalJSON writes the leaf with "object", "text" and, when non-nil, "marks".
func (l Leaf) MarshalJSON() ([]byte, error) { return encode(func(e *encoder) { e.leaf(&l) }) }

// UnmarshalJSON decodes one leaf; a value of the wrong shape is an Invalid error.
func (l *Leaf) UnmarshalJSON(b []byte) error { return decodeInto(b, l, (*decoder).leaf) }

// MarshalJSON writes the mark with "object", "type" and, when non-nil, "data".
func (m Mark) MarshalJSON() ([]byte, error) { return encode(func(e *encoder) { e.mark(&m) }) }

// UnmarshalJSON decodes one mark; a value of the wrong shape is an Invalid error.
func (m *Mark) UnmarshalJSON(b []byte) error { return decodeInto(b, m, (*decoder).mark) }

// MarshalJSON writes the fragment with "object" and "nodes" always present.
func (f Fragment) MarshalJSON() ([]byte, error) { return encode(func(e *encoder) { e.fragment(&f) }) }

// UnmarshalJSON decodes one fragment; a value of the wrong shape is an Invalid error.
func (f *Fragment) UnmarshalJSON(b []byte) error { return decodeInto(b, f, (*decoder).fragment) }

func encode(write func(*encoder)) ([]byte, error) {
	var e encoder
	write(&e)
	return e.buf, e.err
}

// decodeInto decodes b generically and builds *dst from it; JSON null leaves
// dst unchanged, as encoding/json does.
func decodeInto[T any](b []byte, dst *T, build func(*decoder, any) T) error {
	v, err := decodeAny(b)
	if err != nil || v == nil {
		return err
	}
	var dec decoder
	out := build(&dec, v)
	if dec.err != nil {
		return dec.err
	}
	*dst = out
	return nil
}

func decodeAny(b []byte) (any, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// encoder appends JSON to buf, keeping the first error. A bare encoder
// leaves out nodes' keys and meta, to compare nodes by what authors wrote
// (see keys.go).
type encoder struct {
	buf  []byte
	err  error
	bare bool
}

// key writes a property name, preceded by a comma unless it is the first.
func (e *encoder) key(first *bool, name string) {
	if !*first {
		e.buf = append(e.buf, ',')
	}
	*first = false
	e.buf = appendString(e.buf, name)
	e.buf = append(e.buf, ':')
}

// value writes any JSON value. Strings, booleans and empty objects, most of
// a document, are written directly; the rest goes through encoding/json.
func (e *encoder) value(v any) {
	if e.err != nil {
		return
	}
	switch v := v.(type) {
	case string:
		e.buf = appendString(e.buf, v)
		return
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
		return
	case map[string]any:
		if len(v) == 0 {
			e.buf = append(e.buf, "{}"...)
			return
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	e.buf = append(e.buf, b...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string escaped as encoding/json does:
// HTML characters, U+2028 and U+2029 as \u escapes, invalid UTF-8 as U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func (e *encoder) extra(first *bool, extra map[string]any) {
	if len(extra) == 0 {
		return
	}
	for _, k := range sortedKeys(extra) {
		e.key(first, k)
		e.value(extra[k])
	}
}

func (e *encoder) document(d *Document) {
	first := true
	e.buf = append(e.buf, '{')
	e.key(&first, "object")
	e.buf = appendString(e.buf, d.Object)
	e.key(&first, "data")
	if d.Data == nil {
		e.buf = append(e.buf, "{}"...)
	} else {
		e.value(d.Data)
	}
	e.key(&first, "nodes")
	e.nodes(d.Nodes)
	e.extra(&first, d.Extra)
	e.buf = append(e.buf, '}')
}

// nodes writes a list of nodes, nil as [].
func (e *encoder) nodes(nodes []Node) {
	e.buf = append(e.buf, '[')
	for i := range nodes {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.node(&nodes[i])
	}
	e.buf = append(e.buf, ']')
}

func (e *encoder) node(n *Node) {
	first := true
	e.buf = append(e.buf, '{')
	e.key(&first, "object")
	e.buf = appendString(e.buf, n.Object)
	if n.Type != "" {
		e.key(&first, "type")
		e.buf = appendString(e.buf, n.Type)
	}
	if n.Key != "" && !e.bare {
		e.key(&first, "key")
		e.buf = appendString(e.buf, n.Key)
	}
	if n.Object == ObjectBlock || n.Object == ObjectInline {
		if spec, _ := lookup(n.Object, n.Type); n.IsVoid || spec.writeVoid {
			e.key(&first, "isVoid")
			e.buf = strconv.AppendBool(e.buf, n.IsVoid)
		}
	}
	if n.Data != nil {
		e.key(&first, "data")
		e.value(n.Data)
	}
	if n.Meta != nil && !e.bare {
		e.key(&first, "meta")
		e.value(n.Meta)
	}
	if n.Nodes != nil {
		e.key(&first, "nodes")
		e.nodes(n.Nodes)
	}
	if n.Leaves != nil {
		e.key(&first, "leaves")
		e.buf = append(e.buf, '[')
		for i := range n.Leaves {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.leaf(&n.Leaves[i])
		}
		e.buf = append(e.buf, ']')
	}
	if n.Fragments != nil {
		e.key(&first, "fragments")
		e.buf = append(e.buf, '[')
		for i := range n.Fragments {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.fragment(&n.Fragments[i])
		}
		e.buf = append(e.buf, ']')
	}
	e.extra(&first, n.Extra)
	e.buf = append(e.buf, '}')
}

func (e *encoder) leaf(l *Leaf) {
	first := true
	e.buf = append(e.buf, '{')
	e.key(&first, "object")
	e.buf = appendString(e.buf, l.Object)
	e.key(&first, "text")
	e.buf = appendString(e.buf, l.Text)
	if l.Marks != nil {
		e.key(&first, "marks")
		e.buf = append(e.buf, '[')
		for i := range l.Marks {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.mark(&l.Marks[i])
		}
		e.buf = append(e.buf, ']')
	}
	e.extra(&first, l.Extra)
	e.buf = append(e.buf, '}')
}

func (e *encoder) mark(m *Mark) {
	first := true
	e.buf = append(e.buf, '{')
	e.key(&first, "object")
	e.buf = appendString(e.buf, m.Object)
	e.key(&first, "type")
	e.buf = appendString(e.buf, m.Type)
	if m.Data != nil {
		e.key(&first, "data")
		e.value(m.Data)
	}
	e.extra(&first, m.Extra)
	e.buf = append(e.buf, '}')
}

func (e *encoder) fragment(f *Fragment) {
	first := true
	e.buf = append(e.buf, '{')
	e.key(&first, "object")
	e.buf = appendString(e.buf, f.Object)
	if f.Key != "" {
		e.key(&first, "key")
		e.buf = appendString(e.buf, f.Key)
	}
	if f.Fragment != "" {
		e.key(&first, "fragment")
		e.buf = appendString(e.buf, f.Fragment)
	}
	if f.Type != "" {
		e.key(&first, "type")
		e.buf = appendString(e.buf, f.Type)
	}
	e.key(&first, "nodes")
	e.nodes(f.Nodes)
	e.extra(&first, f.Extra)
	e.buf = append(e.buf, '}')
}

// decoder builds typed values from the generic decoding, keeping the first
// error and the path it was found at. Known properties are read in a fixed
// order so that the error reported for a bad input is always the same.
type decoder struct {
	path []seg
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		msg := fmt.Sprintf(format, args...)
		if p := formatPath(d.path); p != "" {
			msg = p + ": " + msg
		}
		d.err = folio.Errorf(folio.Invalid, "invalid document: %s", msg)
	}
}

// object asserts that v is a JSON object; what names it in messages.
func (d *decoder) object(v any, what string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		d.fail("%s must be an object", what)
	}
	return m
}

// array returns the array property name of m, and false when it is absent
// or null; any other value is an error.
func (d *decoder) array(m map[string]any, name string) ([]any, bool) {
	switch v := m[name].(type) {
	case nil:
		return nil, false
	case []any:
		return v, true
	}
	d.fail("%s must be an array", name)
	return nil, false
}

// each calls fn for every element of arr, the array property name, with the
// path extended.
func (d *decoder) each(name string, arr []any, fn func(i int, v any)) {
	for i, v := range arr {
		if d.err != nil {
			return
		}
		d.path = append(d.path, seg{name, i})
		fn(i, v)
		d.path = d.path[:len(d.path)-1]
	}
}

// str returns the string property name of m, "" when absent.
func (d *decoder) str(m map[string]any, name string) string {
	v, ok := m[name]
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.fail("%s must be a string", name)
	}
	return s
}

// dict returns the object property name of m; null counts as absent.
func (d *decoder) dict(m map[string]any, name string) map[string]any {
	switch v := m[name].(type) {
	case nil:
		return nil
	case map[string]any:
		return v
	}
	d.fail("%s must be an object", name)
	return nil
}

// extra returns the properties of m not named in known, nil if none.
func extra(m map[string]any, known ...string) map[string]any {
	var out map[string]any
	for k, v := range m {
		if slices.Contains(known, k) {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = v
	}
	return out
}

func (d *decoder) document(v any) Document {
	m := d.object(v, "a document")
	return Document{
		Object: d.str(m, "object"),
		Data:   d.dict(m, "data"),
		Nodes:  d.nodes(m),
		Extra:  extra(m, "object", "data", "nodes"),
	}
}

func (d *decoder) nodes(m map[string]any) []Node {
	arr, ok := d.array(m, "nodes")
	if !ok {
		return nil
	}
	out := make([]Node, len(arr))
	d.each("nodes", arr, func(i int, v any) { out[i] = d.node(v) })
	return out
}

func (d *decoder) node(v any) Node {
	m := d.object(v, "a node")
	n := Node{
		Object: d.str(m, "object"),
		Type:   d.str(m, "type"),
		Key:    d.str(m, "key"),
	}
	switch b := m["isVoid"].(type) {
	case bool:
		n.IsVoid = b
	case nil:
		// Absent: the type decides, so a void block sent without isVoid
		// is written back with the "isVoid": true the schema requires.
		spec, _ := lookup(n.Object, n.Type)
		n.IsVoid = spec.void
	default:
		d.fail("isVoid must be a boolean")
	}
	n.Data = d.dict(m, "data")
	n.Meta = d.dict(m, "meta")
	n.Nodes = d.nodes(m)
	if arr, ok := d.array(m, "leaves"); ok {
		n.Leaves = make([]Leaf, len(arr))
		d.each("leaves", arr, func(i int, v any) { n.Leaves[i] = d.leaf(v) })
	}
	if arr, ok := d.array(m, "fragments"); ok {
		n.Fragments = make([]Fragment, len(arr))
		d.each("fragments", arr, func(i int, v any) { n.Fragments[i] = d.fragment(v) })
	}
	n.Extra = extra(m, "object", "type", "key", "isVoid", "data", "meta", "nodes", "leaves", "fragments")
	return n
}

func (d *decoder) leaf(v any) Leaf {
	m := d.object(v, "a leaf")
	l := Leaf{
		Object: d.str(m, "object"),
		Text:   d.str(m, "text"),
		Extra:  extra(m, "object", "text", "marks"),
	}
	if arr, ok := d.array(m, "marks"); ok {
		l.Marks = make([]Mark, len(arr))
		d.each("marks", arr, func(i int, v any) { l.Marks[i] = d.mark(v) })
	}
	return l
}

func (d *decoder) mark(v any) Mark {
	m := d.object(v, "a mark")
	return Mark{
		Object: d.str(m, "object"),
		Type:   d.str(m, "type"),
		Data:   d.dict(m, "data"),
		Extra:  extra(m, "object", "type", "data"),
	}
}

func (d *decoder) fragment(v any) Fragment {
	m := d.object(v, "a fragment")
	return Fragment{
		Object:   d.str(m, "object"),
		Key:      d.str(m, "key"),
		Fragment: d.str(m, "fragment"),
		Type:     d.str(m, "type"),
		Nodes:    d.nodes(m),
		Extra:    extra(m, "object", "key", "fragment", "type", "nodes"),
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
