package content

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// Validate checks the document against the reference schema (object values,
// data.schemaVersion, known types, containment, isVoid; not type-specific
// data) and the limits MaxDepth, MaxNodes and MaxTextLength. It returns an
// Invalid error (folio.FieldErrorf) for field whose message names the path of
// the first offending node, such as "instructions: nodes[2].nodes[0]: ...".
func (d *Document) Validate(field string) error {
	v := validator{field: field}
	if d == nil {
		return v.fail("a document is required")
	}
	if d.Object != ObjectDocument {
		return v.fail("object must be %q, not %q", ObjectDocument, d.Object)
	}
	if d.Data == nil {
		// The reference requires data, even when it holds nothing.
		return v.fail("data is required (an object, usually {\"schemaVersion\": 1})")
	}
	if sv, ok := d.Data["schemaVersion"]; ok && !isNonNegativeInteger(sv) {
		return v.fail("data.schemaVersion must be a non-negative integer")
	}
	return v.children(container{root: true}, rootChildren, d.Nodes, 1)
}

func isNonNegativeInteger(v any) bool {
	switch n := v.(type) {
	case float64:
		return n >= 0 && n == float64(int64(n))
	case int:
		return n >= 0
	case int64:
		return n >= 0
	case json.Number:
		i, err := n.Int64()
		return err == nil && i >= 0
	}
	return false
}

// seg is one step of a path, such as nodes[2]; index -1 means a plain name.
type seg struct {
	name  string
	index int
}

func formatPath(path []seg) string {
	var b strings.Builder
	for i, s := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// container names the holder of a list of nodes in messages.
type container struct {
	root     bool
	typ      string // the owning node's type
	fragment bool   // the list is a fragment of the node
}

func (c container) String() string {
	switch {
	case c.root:
		return "the document"
	case c.fragment:
		return "a fragment of " + article(c.typ)
	}
	return article(c.typ)
}

// article prefixes word with "a" or "an".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// validator walks a document, counting nodes and characters as it goes.
type validator struct {
	field string
	path  []seg
	nodes int
	chars int
}

// fail returns the Invalid error for the current path.
func (v *validator) fail(format string, args ...any) error {
	return v.failAt(formatPath(v.path), format, args...)
}

// failAt returns the Invalid error for a path given as text, "" for none.
func (v *validator) failAt(path, format string, args ...any) error {
	parts := make([]string, 0, 3)
	if v.field != "" {
		parts = append(parts, v.field)
	}
	if path != "" {
		parts = append(parts, path)
	}
	parts = append(parts, fmt.Sprintf(format, args...))
	return folio.FieldErrorf(v.field, "%s", strings.Join(parts, ": "))
}

func (v *validator) children(in container, allowed childSet, nodes []Node, depth int) error {
	for i := range nodes {
		v.path = append(v.path, seg{"nodes", i})
		if err := v.node(in, allowed, &nodes[i], depth); err != nil {
			return err
		}
		v.path = v.path[:len(v.path)-1]
	}
	return nil
}

func (v *validator) node(in container, allowed childSet, n *Node, depth int) error {
	v.nodes++
	if v.nodes > MaxNodes {
		return v.failAt("", "the document has more than %d nodes", MaxNodes)
	}
	if depth > MaxDepth {
		return v.fail("nodes are nested deeper than %d levels", MaxDepth)
	}
	switch n.Object {
	case ObjectText:
		return v.text(in, allowed, n)
	case ObjectBlock, ObjectInline:
	default:
		return v.fail("object must be %q, %q or %q, not %q", ObjectBlock, ObjectInline, ObjectText, n.Object)
	}
	if n.Type == "" {
		return v.fail("%s needs a type", article(n.Object))
	}
	spec, ok := lookup(n.Object, n.Type)
	if !ok {
		return v.fail("unknown %s type %q", n.Object, n.Type)
	}
	if !allowed.allows(n) {
		if !allowed.accepts(n.Object) {
			return v.fail("%s cannot contain %s", in, article(n.Object))
		}
		return v.fail("%s cannot contain %s %s", in, article(n.Type), n.Object)
	}
	if n.IsVoid != spec.void {
		if spec.void {
			return v.fail("%s must be void", article(n.Type))
		}
		return v.fail("%s cannot be void", article(n.Type))
	}
	if len(n.Leaves) > 0 {
		return v.fail("%s cannot have leaves", article(n.Type))
	}
	if err := v.children(container{typ: n.Type}, spec.children, n.Nodes, depth+1); err != nil {
		return err
	}
	if len(n.Fragments) > 0 && spec.fragments == nil {
		return v.fail("%s cannot have fragments", article(n.Type))
	}
	for i := range n.Fragments {
		v.path = append(v.path, seg{"fragments", i})
		if err := v.fragment(n.Type, spec, &n.Fragments[i], depth); err != nil {
			return err
		}
		v.path = v.path[:len(v.path)-1]
	}
	return nil
}

func (v *validator) fragment(owner string, spec nodeSpec, f *Fragment, depth int) error {
	if f.Object != ObjectFragment {
		return v.fail("object must be %q, not %q", ObjectFragment, f.Object)
	}
	fs, ok := spec.match(f)
	name := f.Fragment
	if name == "" {
		name = f.Type
	}
	if !ok {
		return v.fail("%s cannot have a fragment named %q", article(owner), name)
	}
	if len(f.Nodes) < fs.min {
		return v.fail("fragment %q needs at least %s", name, countNodes(fs.min))
	}
	if fs.max > 0 && len(f.Nodes) > fs.max {
		return v.fail("fragment %q can hold at most %s", name, countNodes(fs.max))
	}
	return v.children(container{typ: owner, fragment: true}, fs.children, f.Nodes, depth+1)
}

func countNodes(n int) string {
	if n == 1 {
		return "1 node"
	}
	return strconv.Itoa(n) + " nodes"
}

func (v *validator) text(in container, allowed childSet, n *Node) error {
	if !allowed.allows(n) {
		return v.fail("%s cannot contain text", in)
	}
	switch {
	case n.Type != "":
		return v.fail("a text node cannot have a type")
	case len(n.Nodes) > 0:
		return v.fail("a text node cannot contain nodes")
	case len(n.Fragments) > 0:
		return v.fail("a text node cannot have fragments")
	}
	for i := range n.Leaves {
		l := &n.Leaves[i]
		v.path = append(v.path, seg{"leaves", i})
		if l.Object != ObjectLeaf {
			return v.fail("object must be %q, not %q", ObjectLeaf, l.Object)
		}
		v.chars += utf8.RuneCountInString(l.Text)
		if v.chars > MaxTextLength {
			return v.failAt("", "the document has more than %d characters of text", MaxTextLength)
		}
		for j := range l.Marks {
			m := &l.Marks[j]
			v.path = append(v.path, seg{"marks", j})
			if m.Object != ObjectMark {
				return v.fail("object must be %q, not %q", ObjectMark, m.Object)
			}
			if !markTypes[m.Type] {
				return v.fail("unknown mark type %q", m.Type)
			}
			v.path = v.path[:len(v.path)-1]
		}
		v.path = v.path[:len(v.path)-1]
	}
	return nil
}
