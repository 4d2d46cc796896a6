package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// kind is the JSON type of a node.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// node is one JSON value that keeps the order of object keys, which decides
// the order GitBook's renderer lists paths, operations and properties in.
// Numbers keep their literal text so that nothing is rounded.
type node struct {
	kind kind
	s    string   // string value, number literal, or "true"/"false"
	keys []string // object keys, parallel to vals
	vals []*node  // object values or array items
	line int      // 1-based source line, 0 when unknown
	idx  map[string]int
}

// indexAt is the object size from which get builds a key index, so that
// lookups in large objects (paths, components/schemas) stay constant time.
const indexAt = 16

// get returns the value of key in an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	if len(n.keys) < indexAt {
		for i, k := range n.keys {
			if k == key {
				return n.vals[i]
			}
		}
		return nil
	}
	if n.idx == nil {
		n.idx = make(map[string]int, len(n.keys))
		for i, k := range n.keys {
			n.idx[k] = i
		}
	}
	if i, ok := n.idx[key]; ok {
		return n.vals[i]
	}
	return nil
}

// str returns the string value of key in an object, or "".
func (n *node) str(key string) string {
	if v := n.get(key); v != nil && v.kind == kString {
		return v.s
	}
	return ""
}

// set replaces the value of key, or appends key at the end of the object.
func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
	n.idx = nil
}

// dedupe keeps one entry per key (the last value, at the first key's
// place), as JSON decoders do, so the output never repeats a key.
func (n *node) dedupe() {
	if len(n.keys) < 2 {
		return
	}
	seen := make(map[string]int, len(n.keys))
	keys, vals := n.keys[:0], n.vals[:0]
	for i, k := range n.keys {
		if j, ok := seen[k]; ok {
			vals[j] = n.vals[i]
			continue
		}
		seen[k] = len(keys)
		keys = append(keys, k)
		vals = append(vals, n.vals[i])
	}
	n.keys, n.vals = keys, vals
}

// parseLimits bounds the work of turning source text into nodes.
type parseLimits struct {
	maxNodes int // total values, counting YAML alias expansions
	maxDepth int // nesting of arrays and objects
}

// syntaxError is a parse failure with the source line when known.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("line %d: %s", e.line, e.msg)
	}
	return e.msg
}

var errTooManyNodes = errors.New("too many values")

// parseDocument reads a JSON or YAML document. Text that starts like JSON
// is read as JSON first; YAML is the fallback, since JSON is nearly a
// subset of YAML and flow-style YAML also starts with a brace.
func parseDocument(data []byte, lim parseLimits) (*node, int, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		n, count, jerr := parseJSON(data, lim)
		if jerr == nil {
			return n, count, nil
		}
		if errors.Is(jerr, errTooManyNodes) {
			return nil, 0, jerr
		}
		if n, count, yerr := parseYAML(data, lim); yerr == nil {
			return n, count, nil
		}
		return nil, 0, jerr
	}
	return parseYAML(data, lim)
}

// jsonParser builds nodes from encoding/json's token stream.
type jsonParser struct {
	dec   *json.Decoder
	data  []byte
	lim   parseLimits
	count int
}

// parseJSON reads one JSON value and returns it with the number of values.
func parseJSON(data []byte, lim parseLimits) (*node, int, error) {
	p := &jsonParser{dec: json.NewDecoder(bytes.NewReader(data)), data: data, lim: lim}
	p.dec.UseNumber()
	n, err := p.value(0)
	if err != nil {
		return nil, 0, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, 0, p.fail(errors.New("unexpected text after the JSON value"))
	}
	return n, p.count, nil
}

// lineAt returns the 1-based line of a byte offset.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

func (p *jsonParser) fail(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &syntaxError{line: lineAt(p.data, se.Offset), msg: "invalid JSON: " + strings.TrimPrefix(se.Error(), "invalid character ")}
	}
	if errors.Is(err, errTooManyNodes) {
		return err
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &syntaxError{line: lineAt(p.data, int64(len(p.data))), msg: "invalid JSON: unexpected end of input"}
	}
	return &syntaxError{line: lineAt(p.data, p.dec.InputOffset()), msg: "invalid JSON: " + err.Error()}
}

func (p *jsonParser) value(depth int) (*node, error) {
	p.count++
	if p.count > p.lim.maxNodes {
		return nil, errTooManyNodes
	}
	if depth > p.lim.maxDepth {
		return nil, &syntaxError{line: lineAt(p.data, p.dec.InputOffset()), msg: fmt.Sprintf("values are nested more than %d levels deep", p.lim.maxDepth)}
	}
	// JSON nodes carry no line: counting newlines up to every token would
	// make parsing quadratic, and messages about JSON name pointers instead.
	const line = 0
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			n := &node{kind: kArray, line: line}
			for p.dec.More() {
				v, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, p.fail(err)
			}
			return n, nil
		}
		n := &node{kind: kObject, line: line}
		for p.dec.More() {
			kt, err := p.dec.Token()
			if err != nil {
				return nil, p.fail(err)
			}
			key, _ := kt.(string)
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, key)
			n.vals = append(n.vals, v)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.fail(err)
		}
		n.dedupe()
		return n, nil
	case string:
		return &node{kind: kString, s: t}, nil
	case json.Number:
		return &node{kind: kNumber, s: t.String()}, nil
	case bool:
		if t {
			return &node{kind: kBool, s: "true"}, nil
		}
		return &node{kind: kBool, s: "false"}, nil
	default:
		return &node{kind: kNull}, nil
	}
}

// yamlConverter turns a yaml.v3 node tree into nodes. It expands aliases
// itself, counting every expanded value, so that "billion laughs" documents
// stop at the node budget instead of growing exponentially.
type yamlConverter struct {
	lim   parseLimits
	count int
}

// parseYAML reads one YAML document and returns it with the number of
// values, aliases expanded.
func parseYAML(data []byte, lim parseLimits) (n *node, count int, err error) {
	defer func() {
		// yaml.v3 panics on a few malformed inputs; that is the document's
		// fault and must not take the server down.
		if r := recover(); r != nil {
			n, count, err = nil, 0, &syntaxError{msg: "invalid YAML"}
		}
	}()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, 0, yamlSyntaxError(err)
	}
	if root.Kind == 0 {
		return nil, 0, &syntaxError{msg: "the document is empty"}
	}
	c := &yamlConverter{lim: lim}
	n, err = c.convert(&root, 0)
	return n, c.count, err
}

// yamlSyntaxError turns yaml.v3's "yaml: line N: msg" into a syntaxError.
func yamlSyntaxError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if line, perr := strconv.Atoi(rest[:i]); perr == nil {
				return &syntaxError{line: line, msg: "invalid YAML: " + strings.TrimSpace(rest[i+1:])}
			}
		}
	}
	return &syntaxError{msg: "invalid YAML: " + msg}
}

func (c *yamlConverter) convert(y *yaml.Node, depth int) (*node, error) {
	c.count++
	if c.count > c.lim.maxNodes {
		return nil, errTooManyNodes
	}
	if depth > c.lim.maxDepth {
		return nil, &syntaxError{line: y.Line, msg: fmt.Sprintf("values are nested more than %d levels deep", c.lim.maxDepth)}
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return &node{kind: kNull, line: y.Line}, nil
		}
		return c.convert(y.Content[0], depth)
	case yaml.AliasNode:
		if y.Alias == nil {
			return &node{kind: kNull, line: y.Line}, nil
		}
		return c.convert(y.Alias, depth+1)
	case yaml.SequenceNode:
		n := &node{kind: kArray, line: y.Line, vals: make([]*node, 0, len(y.Content))}
		for _, item := range y.Content {
			v, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		return n, nil
	case yaml.MappingNode:
		n := &node{kind: kObject, line: y.Line}
		if err := c.mapping(n, y, depth); err != nil {
			return nil, err
		}
		n.dedupe()
		return n, nil
	default:
		return c.scalar(y), nil
	}
}

// mapping adds the pairs of y to n, applying merge keys ("<<") after the
// explicit keys so that explicit keys win.
func (c *yamlConverter) mapping(n *node, y *yaml.Node, depth int) error {
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		val, err := c.convert(v, depth+1)
		if err != nil {
			return err
		}
		key := k.Value
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			key = k.Alias.Value
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, val)
	}
	for _, m := range merges {
		if m.Kind == yaml.AliasNode && m.Alias != nil {
			m = m.Alias
		}
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			v, err := c.convert(src, depth+1)
			if err != nil {
				return err
			}
			if v.kind != kObject {
				return &syntaxError{line: src.Line, msg: "invalid YAML: a merge key (<<) needs a mapping"}
			}
			for i, k := range v.keys {
				if n.get(k) == nil {
					n.keys = append(n.keys, k)
					n.vals = append(n.vals, v.vals[i])
					n.idx = nil
				}
			}
		}
	}
	return nil
}

// scalar resolves a YAML scalar to a JSON value the way YAML 1.2's core
// schema does (yaml.v3 has already chosen the tag).
func (c *yamlConverter) scalar(y *yaml.Node) *node {
	switch y.ShortTag() {
	case "!!null":
		return &node{kind: kNull, line: y.Line}
	case "!!bool":
		var b bool
		if y.Decode(&b) == nil {
			return &node{kind: kBool, s: strconv.FormatBool(b), line: y.Line}
		}
	case "!!int":
		var i int64
		if y.Decode(&i) == nil {
			return &node{kind: kNumber, s: strconv.FormatInt(i, 10), line: y.Line}
		}
		var u uint64
		if y.Decode(&u) == nil {
			return &node{kind: kNumber, s: strconv.FormatUint(u, 10), line: y.Line}
		}
	case "!!float":
		var f float64
		if y.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			if isJSONNumber(y.Value) {
				return &node{kind: kNumber, s: y.Value, line: y.Line}
			}
			return &node{kind: kNumber, s: strconv.FormatFloat(f, 'g', -1, 64), line: y.Line}
		}
	}
	return &node{kind: kString, s: y.Value, line: y.Line}
}

// isJSONNumber reports whether s is already written as a JSON number, so it
// can be kept digit for digit.
func isJSONNumber(s string) bool {
	return json.Valid([]byte(s)) && s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}

// encode writes n as compact JSON, keeping key order.
func encode(n *node) []byte {
	var b bytes.Buffer
	writeNode(&b, n)
	return b.Bytes()
}

func writeNode(b *bytes.Buffer, n *node) {
	switch n.kind {
	case kNull:
		b.WriteString("null")
	case kBool, kNumber:
		b.WriteString(n.s)
	case kString:
		writeString(b, n.s)
	case kArray:
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			writeNode(b, v)
		}
		b.WriteByte(']')
	case kObject:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeNode(b, n.vals[i])
		}
		b.WriteByte('}')
	}
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, and
// U+2028/U+2029 are escaped so the output is also valid JavaScript.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
