package translate

import (
	"encoding/json"
	"html"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/foliodocs/folio/internal/content"
)

// elemKind says what a tag of an encoded unit stands for.
type elemKind uint8

const (
	elemMark   elemKind = iota // <g>: a mark over the text inside
	elemInline                 // <g>: a link or annotation; its text is translated
	elemKeep                   // <x/>: a leaf kept as is (inline code, keyboard keys)
	elemNode                   // <x/>: an inline node kept as is (emoji, expression, math...)
	elemTerm                   // <x/>: a glossary term, replaced by its target term
)

// elem is the meaning of one tag id.
type elem struct {
	kind  elemKind
	scope int // id of the enclosing elemInline, or -1 at the block's level
	mark  content.Mark
	key   string        // identity of mark, for merging and ordering
	leaf  content.Leaf  // elemKeep
	node  *content.Node // elemNode and elemInline
	term  string        // elemTerm
}

// keptMarks are the marks whose text is code or keys, never translated.
var keptMarks = map[string]bool{content.MarkCode: true, content.MarkKeyboard: true}

// encoder writes one unit's inline content as markup: escaped text, <g>
// around marks and inline nodes with text, <x/> for what stays untouched.
type encoder struct {
	b     strings.Builder
	plain strings.Builder // the source text, for counting words
	elems []elem
	rank  map[string]int // mark identity -> order of first appearance
	// orders maps a set of marks to the order a source leaf gave them.
	orders map[string][]string
	gl     *glossary
}

// setKey names a set of mark identities regardless of order.
func setKey(keys []string) string {
	s := slices.Clone(keys)
	slices.Sort(s)
	return strings.Join(s, "\x01")
}

func markKey(m *content.Mark) string {
	if len(m.Data) == 0 {
		return m.Type
	}
	b, _ := json.Marshal(m.Data) // decoded JSON values only; map keys sorted
	return m.Type + "\x00" + string(b)
}

func (e *encoder) add(el elem) int {
	e.elems = append(e.elems, el)
	return len(e.elems) - 1
}

func (e *encoder) tag(name string, id int, selfClose bool) {
	e.b.WriteString("<" + name + ` id="` + strconv.Itoa(id) + `"`)
	if selfClose {
		e.b.WriteString("/")
	}
	e.b.WriteString(">")
}

// nodes encodes a list of text and inline nodes inside scope.
func (e *encoder) nodes(ns []content.Node, scope int) {
	for i := 0; i < len(ns); {
		if ns[i].Object == content.ObjectText {
			var leaves []content.Leaf
			for ; i < len(ns) && ns[i].Object == content.ObjectText; i++ {
				leaves = append(leaves, ns[i].Leaves...)
			}
			e.leaves(leaves, scope)
			continue
		}
		n := &ns[i]
		i++
		if translatedInline(n) {
			id := e.add(elem{kind: elemInline, scope: scope, node: n})
			e.tag("g", id, false)
			e.nodes(n.Nodes, id)
			e.b.WriteString("</g>")
			continue
		}
		e.tag("x", e.add(elem{kind: elemNode, scope: scope, node: n}), true)
		e.plain.WriteByte(' ')
	}
}

// translatedInline reports whether an inline's text children are part of
// the sentence: links and annotations. Everything else is kept whole.
func translatedInline(n *content.Node) bool {
	return n.Object == content.ObjectInline && (n.Type == content.InlineLink || n.Type == content.InlineAnnotation) && len(n.Nodes) > 0
}

// leaves encodes a run of leaves, nesting <g> tags so that a mark spanning
// several leaves opens once: marks that last longer open first.
func (e *encoder) leaves(ls []content.Leaf, scope int) {
	type open struct {
		key string
		id  int
	}
	n := len(ls)
	sets := make([]map[string]*content.Mark, n)
	for i := range ls {
		sets[i] = map[string]*content.Mark{}
		var order []string
		for j := range ls[i].Marks {
			m := &ls[i].Marks[j]
			if keptMarks[m.Type] {
				continue
			}
			k := markKey(m)
			sets[i][k] = m
			order = append(order, k)
			if _, ok := e.rank[k]; !ok {
				e.rank[k] = len(e.rank)
			}
		}
		if len(order) > 1 {
			e.orders[setKey(order)] = order
		}
	}
	// runs[i][k] is how many leaves from i on carry mark k.
	runs := make([]map[string]int, n)
	for i := n - 1; i >= 0; i-- {
		runs[i] = make(map[string]int, len(sets[i]))
		for k := range sets[i] {
			runs[i][k] = 1
			if i+1 < n {
				runs[i][k] += runs[i+1][k]
			}
		}
	}
	var stack []open
	for i := range ls {
		l := &ls[i]
		if l.Text == "" {
			continue
		}
		cut := len(stack)
		for j, o := range stack {
			if sets[i][o.key] == nil {
				cut = j
				break
			}
		}
		for len(stack) > cut {
			stack = stack[:len(stack)-1]
			e.b.WriteString("</g>")
		}
		var opening []string
		for k := range sets[i] {
			if !slices.ContainsFunc(stack, func(o open) bool { return o.key == k }) {
				opening = append(opening, k)
			}
		}
		slices.SortFunc(opening, func(a, b string) int {
			if runs[i][a] != runs[i][b] {
				return runs[i][b] - runs[i][a]
			}
			return e.rank[a] - e.rank[b]
		})
		for _, k := range opening {
			m := sets[i][k]
			id := e.add(elem{kind: elemMark, scope: scope, mark: *m, key: k})
			e.tag("g", id, false)
			stack = append(stack, open{k, id})
		}
		if slices.ContainsFunc(l.Marks, func(m content.Mark) bool { return keptMarks[m.Type] }) {
			e.tag("x", e.add(elem{kind: elemKeep, scope: scope, leaf: *l}), true)
			e.plain.WriteByte(' ')
			continue
		}
		e.text(l.Text, scope)
	}
	for range stack {
		e.b.WriteString("</g>")
	}
}

// text writes escaped text, with glossary terms as <x/> tags.
func (e *encoder) text(s string, scope int) {
	e.plain.WriteString(s)
	pos := 0
	for _, m := range e.gl.find(s) {
		e.b.WriteString(escapeText(s[pos:m.start]))
		e.tag("x", e.add(elem{kind: elemTerm, scope: scope, term: m.target}), true)
		pos = m.end
	}
	e.b.WriteString(escapeText(s[pos:]))
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escapeText escapes the characters that would read as markup.
func escapeText(s string) string { return textEscaper.Replace(s) }

// item is one piece of parsed markup: text, or a tag with its children.
type item struct {
	id   int // -1 for text
	text string
	kids []item
}

// parser reads an engine's markup back and checks it against the elems:
// every tag exactly once, of its kind, inside the same inline as before,
// with no inline node inside a mark.
type parser struct {
	s     string
	elems []elem
	seen  []bool
}

func parseMarkup(s string, elems []elem) ([]item, bool) {
	p := &parser{s: s, elems: elems, seen: make([]bool, len(elems))}
	items, ok := p.items(-1, false, 0)
	if !ok || p.s != "" {
		return nil, false
	}
	for _, v := range p.seen {
		if !v {
			return nil, false
		}
	}
	return items, true
}

// items reads until the </g> closing the current tag (depth > 0) or the end.
func (p *parser) items(scope int, inMark bool, depth int) ([]item, bool) {
	var out []item
	for {
		i := strings.IndexByte(p.s, '<')
		if i < 0 {
			if depth > 0 {
				return nil, false
			}
			if p.s != "" {
				out = append(out, item{id: -1, text: html.UnescapeString(p.s)})
			}
			p.s = ""
			return out, true
		}
		if i > 0 {
			out = append(out, item{id: -1, text: html.UnescapeString(p.s[:i])})
			p.s = p.s[i:]
		}
		name, id, closing, selfClose, rest, ok := readTag(p.s)
		if !ok {
			return nil, false
		}
		p.s = rest
		if closing {
			if name != "g" || depth == 0 {
				return nil, false
			}
			return out, true
		}
		if id < 0 || id >= len(p.elems) || p.seen[id] {
			return nil, false
		}
		p.seen[id] = true
		el := &p.elems[id]
		if el.scope != scope {
			return nil, false
		}
		switch el.kind {
		case elemMark, elemInline:
			if name != "g" || selfClose || (el.kind == elemInline && inMark) {
				return nil, false
			}
			inner := scope
			if el.kind == elemInline {
				inner = id
			}
			kids, ok := p.items(inner, el.kind == elemMark || (inMark && el.kind != elemInline), depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, item{id: id, kids: kids})
		default:
			if name != "x" || (el.kind == elemNode && inMark) {
				return nil, false
			}
			if !selfClose {
				// <x id="N"></x>, as HTML-minded engines write it.
				_, _, closing, _, rest, ok := readTag(p.s)
				if !ok || !closing {
					return nil, false
				}
				p.s = rest
			}
			out = append(out, item{id: id})
		}
	}
}

// readTag reads one tag at the start of s: <g id="N">, </g>, <x id="N"/>,
// <x id="N"> or </x>, with any spacing and quoting, in any case.
func readTag(s string) (name string, id int, closing, selfClose bool, rest string, ok bool) {
	end := strings.IndexByte(s, '>')
	if end < 0 || !strings.HasPrefix(s, "<") {
		return "", 0, false, false, "", false
	}
	body := strings.TrimSpace(s[1:end])
	rest = s[end+1:]
	if strings.HasPrefix(body, "/") {
		name = strings.ToLower(strings.TrimSpace(body[1:]))
		return name, -1, true, false, rest, name == "g" || name == "x"
	}
	if strings.HasSuffix(body, "/") {
		selfClose = true
		body = strings.TrimSpace(body[:len(body)-1])
	}
	f := strings.Fields(body)
	if len(f) < 2 || len(f) > 3 {
		return "", 0, false, false, "", false
	}
	name = strings.ToLower(f[0])
	attr := strings.Join(f[1:], "")
	k, v, found := strings.Cut(attr, "=")
	if !found || strings.ToLower(k) != "id" || (name != "g" && name != "x") {
		return "", 0, false, false, "", false
	}
	v = strings.Trim(v, `"'`)
	n, err := strconv.Atoi(v)
	if err != nil {
		return "", 0, false, false, "", false
	}
	return name, n, false, selfClose, rest, true
}

// rebuilder turns parsed items back into nodes.
type rebuilder struct {
	elems  []elem
	rank   map[string]int
	orders map[string][]string
}

// piece is a leaf or an inline node, in order, before text nodes are formed.
type piece struct {
	leaf *content.Leaf
	node *content.Node
}

func (r *rebuilder) build(items []item, orig []content.Node) []content.Node {
	var pieces []piece
	r.flatten(items, nil, &pieces)
	return group(pieces, orig)
}

func (r *rebuilder) flatten(items []item, marks []int, out *[]piece) {
	for _, it := range items {
		if it.id < 0 {
			*out = append(*out, piece{leaf: &content.Leaf{Object: content.ObjectLeaf, Text: it.text, Marks: r.marks(marks)}})
			continue
		}
		el := &r.elems[it.id]
		switch el.kind {
		case elemMark:
			r.flatten(it.kids, append(marks, it.id), out)
		case elemInline:
			n := *el.node
			n.Nodes = r.build(it.kids, el.node.Nodes)
			*out = append(*out, piece{node: &n})
		case elemNode:
			*out = append(*out, piece{node: el.node})
		case elemKeep:
			l := el.leaf
			*out = append(*out, piece{leaf: &l})
		case elemTerm:
			*out = append(*out, piece{leaf: &content.Leaf{Object: content.ObjectLeaf, Text: el.term, Marks: r.marks(marks)}})
		}
	}
}

// marks returns the marks of the open <g> tags, once each, in the order
// they first appeared in the source.
func (r *rebuilder) marks(ids []int) []content.Mark {
	out := make([]content.Mark, 0, len(ids))
	var keys []string
	for _, id := range ids {
		el := &r.elems[id]
		if slices.Contains(keys, el.key) {
			continue
		}
		keys = append(keys, el.key)
		m := el.mark
		m.Data = maps.Clone(m.Data)
		m.Extra = maps.Clone(m.Extra)
		out = append(out, m)
	}
	// A leaf with the same marks as a source leaf lists them in its order;
	// other combinations follow the order marks first appeared in.
	pos := r.rank
	if order, ok := r.orders[setKey(keys)]; ok {
		pos = make(map[string]int, len(order))
		for i, k := range order {
			pos[k] = i
		}
	}
	slices.SortStableFunc(out, func(a, b content.Mark) int { return pos[markKey(&a)] - pos[markKey(&b)] })
	return out
}

// group gathers consecutive leaves into text nodes, merging neighbours with
// the same marks and dropping empty leaves. When orig had a text node at
// both ends and between any two inlines (the editor's normal form), the
// result gets empty text nodes where needed to keep that form.
func group(pieces []piece, orig []content.Node) []content.Node {
	var texts []*content.Node // the text nodes of orig, reused for their keys
	for i := range orig {
		if orig[i].Object == content.ObjectText {
			texts = append(texts, &orig[i])
		}
	}
	out := make([]content.Node, 0, len(orig))
	var run []content.Leaf
	flush := func(force bool) {
		if len(run) == 0 && !force {
			return
		}
		t := content.Node{Object: content.ObjectText, Leaves: run}
		if len(texts) > 0 {
			t.Key, t.Extra = texts[0].Key, texts[0].Extra
			texts = texts[1:]
		}
		if t.Leaves == nil {
			t.Leaves = []content.Leaf{{Object: content.ObjectLeaf, Marks: []content.Mark{}}}
		}
		out = append(out, t)
		run = nil
	}
	normal := normalForm(orig)
	for _, p := range pieces {
		if p.leaf != nil {
			l := *p.leaf
			if l.Text == "" {
				continue
			}
			if k := len(run) - 1; k >= 0 && sameMarks(run[k].Marks, l.Marks) && run[k].Extra == nil && l.Extra == nil {
				run[k].Text += l.Text
				continue
			}
			run = append(run, l)
			continue
		}
		flush(normal)
		out = append(out, *p.node)
	}
	flush(normal || len(out) == 0)
	return out
}

// normalForm reports whether ns starts and ends with text and never holds
// two inlines side by side.
func normalForm(ns []content.Node) bool {
	if len(ns) == 0 || ns[0].Object != content.ObjectText || ns[len(ns)-1].Object != content.ObjectText {
		return false
	}
	for i := 1; i < len(ns); i++ {
		if ns[i].Object != content.ObjectText && ns[i-1].Object != content.ObjectText {
			return false
		}
	}
	return true
}

func sameMarks(a, b []content.Mark) bool {
	return slices.EqualFunc(a, b, func(x, y content.Mark) bool { return markKey(&x) == markKey(&y) })
}
