package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Node keys and heading anchors.
//
// Every block and every inline of a stored document has a key: a short
// string of letters and digits, unique within the document, as in GitBook's
// documents (its renderer numbers ordered lists and names React elements by
// block key, and comments target nodes by key). Text nodes keep a key when
// they come with one but are never given one. Every heading has meta.id, its
// anchor: data.id when the author set a valid one, else a slug of its text,
// with -1, -2… for repeats, so that anchors are unique within the document.
//
// Finish gives a document written by Folio its keys and anchors, carrying
// the keys of the document it replaces over to the blocks that survive.
// Upgrade does the same for a document stored before keys existed. New keys
// come from DerivedKeys seeded with the document's hash: they look random,
// but the same document always gets the same keys, so identical imports
// still make identical objects and a stored document always reads the same.

// KeyLength is the length of the keys Finish and Upgrade give nodes.
const KeyLength = 12

// MaxAnchorLength bounds the anchors derived from heading text, in bytes.
const MaxAnchorLength = 100

const keyAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// appendKeyChars maps random bytes to key characters, dropping bytes of 248
// and above so that every character is equally likely (248 = 4×62), until
// out holds KeyLength characters.
func appendKeyChars(out, random []byte) []byte {
	for _, b := range random {
		if len(out) == KeyLength {
			break
		}
		if b < 248 {
			out = append(out, keyAlphabet[b%62])
		}
	}
	return out
}

// DerivedKeys returns a maker of keys that depend only on seed and on how
// many keys the maker made before: pseudo-random strings of KeyLength
// letters and digits. Folio seeds it with the hash of the document being
// keyed, so that the same document always gets the same keys (see Finish).
func DerivedKeys(seed Hash) func() string {
	var n uint64
	return func() string {
		out := make([]byte, 0, KeyLength)
		for len(out) < KeyLength {
			var msg [len("folio.key.v1") + 1 + 32 + 8]byte
			i := copy(msg[:], "folio.key.v1\x00")
			i += copy(msg[i:], seed[:])
			binary.BigEndian.PutUint64(msg[i:], n)
			n++
			s := sha256.Sum256(msg[:])
			out = appendKeyChars(out, s[:])
		}
		return string(out)
	}
}

// needsKey reports whether n is a node that must have a key.
func needsKey(n *Node) bool { return n.Object == ObjectBlock || n.Object == ObjectInline }

func isHeading(n *Node) bool {
	return n.Object == ObjectBlock && (n.Type == BlockHeading1 || n.Type == BlockHeading2 || n.Type == BlockHeading3)
}

// eachNode calls fn for every node under nodes, in document order: a node,
// then its children, then its fragments' nodes.
func eachNode(nodes []Node, fn func(n *Node)) {
	for i := range nodes {
		n := &nodes[i]
		fn(n)
		eachNode(n.Nodes, fn)
		for j := range n.Fragments {
			eachNode(n.Fragments[j].Nodes, fn)
		}
	}
}

// keysComplete reports whether every block and inline of d has a key and no
// two nodes share one.
func keysComplete(d *Document) bool {
	seen := map[string]struct{}{}
	ok := true
	eachNode(d.Nodes, func(n *Node) {
		if !ok {
			return
		}
		if n.Key == "" {
			ok = !needsKey(n)
			return
		}
		if _, dup := seen[n.Key]; dup {
			ok = false
			return
		}
		seen[n.Key] = struct{}{}
	})
	return ok
}

// fillKeys gives a key from newKey to every block and inline without one,
// and to every node whose key an earlier node (in document order) has. A
// new key is never one that some node of d already has.
func fillKeys(d *Document, newKey func() string) {
	taken := map[string]bool{}
	eachNode(d.Nodes, func(n *Node) {
		if n.Key != "" {
			taken[n.Key] = true
		}
	})
	kept := map[string]bool{}
	eachNode(d.Nodes, func(n *Node) {
		if n.Key != "" && !kept[n.Key] {
			kept[n.Key] = true
			return
		}
		if n.Key == "" && !needsKey(n) {
			return
		}
		k := newKey()
		for taken[k] {
			k = newKey()
		}
		n.Key = k
		taken[k], kept[k] = true, true
	})
}

// headingText returns the text of a heading: its leaves and those of its
// inlines, fragments (annotation bodies) left out.
func headingText(nodes []Node, b *strings.Builder) {
	for i := range nodes {
		for _, l := range nodes[i].Leaves {
			b.WriteString(l.Text)
		}
		headingText(nodes[i].Nodes, b)
	}
}

// validAnchorID reports whether s may be a heading's own id (the
// reference's pattern for data.id: ^[-a-z0-9.+_]+$).
func validAnchorID(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '+' || c == '_') {
			return false
		}
	}
	return true
}

// HeadingAnchor derives an anchor from a heading's text: lowercase letters
// and digits of any script (accented Latin letters transliterated as in
// Slugify), every other run of characters one '-', trimmed, at most
// MaxAnchorLength bytes, and "heading" when nothing is left.
func HeadingAnchor(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		var s string
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			s = string(r)
		case transliterations[r] != "":
			s = transliterations[r]
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			s = string(r)
		}
		if s == "" {
			dash = b.Len() > 0
			continue
		}
		if b.Len()+len(s)+1 > MaxAnchorLength {
			break
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteString(s)
	}
	if b.Len() == 0 {
		return "heading"
	}
	return b.String()
}

// headingID is a heading's anchor before repeats are told apart.
func headingID(n *Node) string {
	if id, _ := n.Data["id"].(string); validAnchorID(id) {
		return id
	}
	var b strings.Builder
	headingText(n.Nodes, &b)
	return HeadingAnchor(b.String())
}

// eachAnchor calls fn for every heading of d with its anchor, unique
// within d: a repeat of an anchor gets the first free suffix -1, -2…
func eachAnchor(d *Document, fn func(n *Node, id string)) {
	taken := map[string]bool{}
	eachNode(d.Nodes, func(n *Node) {
		if !isHeading(n) {
			return
		}
		base := headingID(n)
		id := base
		for i := 1; taken[id]; i++ {
			id = base + "-" + strconv.Itoa(i)
		}
		taken[id] = true
		fn(n, id)
	})
}

// anchorsCurrent reports whether every heading's meta.id is its anchor.
func anchorsCurrent(d *Document) bool {
	ok := true
	eachAnchor(d, func(n *Node, id string) {
		if got, _ := n.Meta["id"].(string); got != id {
			ok = false
		}
	})
	return ok
}

// anyHeadingWithoutID reports whether a heading of d has no meta.id.
func anyHeadingWithoutID(d *Document) bool {
	missing := false
	eachNode(d.Nodes, func(n *Node) {
		if isHeading(n) {
			if id, _ := n.Meta["id"].(string); id == "" {
				missing = true
			}
		}
	})
	return missing
}

// setAnchors writes every heading's anchor in its meta.id, in a new meta
// map (the old one may be shared).
func setAnchors(d *Document) {
	eachAnchor(d, func(n *Node, id string) {
		m := make(map[string]any, len(n.Meta)+1)
		for k, v := range n.Meta {
			m[k] = v
		}
		m["id"] = id
		n.Meta = m
	})
}

// Complete reports whether d needs nothing from Finish: every block and
// inline has a key, keys are unique and every heading's meta.id is its
// anchor.
func Complete(d *Document) bool {
	return d == nil || keysComplete(d) && anchorsCurrent(d)
}

// Finish returns d with keys and anchors as a stored document needs them
// (see the top of keys.go), and whether anything changed. d itself is never
// changed: when something must change, Finish works on a copy. old, when
// not nil, is the document d replaces: blocks of d without a key take the
// key of the old block they match, so that a block that survives an import,
// a git sync or a Markdown round trip keeps its key. Keys d already has are
// kept, except a repeated one, which only its first node keeps. Remaining
// nodes get keys from newKey.
func Finish(d, old *Document, newKey func() string) (*Document, bool) {
	if Complete(d) {
		return d, false
	}
	out := d.clone()
	if old != nil {
		used := map[string]bool{}
		eachNode(out.Nodes, func(n *Node) {
			if n.Key != "" {
				used[n.Key] = true
			}
		})
		carryKeys(old.Nodes, out.Nodes, used)
	}
	fillKeys(out, newKey)
	setAnchors(out)
	return out, true
}

// Upgrade gives d, a document stored under hash h, in place, the keys
// Finish(d, nil, DerivedKeys(h)) would give it, so that the same stored
// document always reads with the same keys; anchors are only written when
// a heading has none. It reports whether d changed.
func Upgrade(d *Document, h Hash) bool {
	if d == nil {
		return false
	}
	changed := false
	if !keysComplete(d) {
		fillKeys(d, DerivedKeys(h))
		changed = true
	}
	if anyHeadingWithoutID(d) {
		setAnchors(d)
		changed = true
	}
	return changed
}

// Canonical JSON patterns KeyedJSON looks for. A '"' inside a JSON string
// is always escaped, so `":"` never occurs inside one: these only match the
// structure of the document.
var (
	blockStart  = []byte(`{"object":"block","type":"`)
	inlineStart = []byte(`{"object":"inline","type":"`)
	textKey     = []byte(`{"object":"text","key":"`)
	keyProp     = []byte(`,"key":"`)
	metaID      = []byte(`"meta":{"id":"`)
	nodesProp   = []byte(`"nodes":[`)
)

// KeyedJSON reports, from a document's canonical JSON (MarshalJSON's
// output, as stored), that Upgrade would not change it: every block and
// inline has a key, no key repeats and every heading has a meta.id. It does
// not decode; false means "perhaps not": decode and Upgrade.
func KeyedJSON(b []byte) bool {
	seen := map[string]struct{}{}
	record := func(rest []byte) bool {
		q := bytes.IndexByte(rest, '"')
		if q < 0 {
			return false
		}
		if _, dup := seen[string(rest[:q])]; dup {
			return false
		}
		seen[string(rest[:q])] = struct{}{}
		return true
	}
	for _, start := range [][]byte{blockStart, inlineStart} {
		rest := b
		for {
			i := bytes.Index(rest, start)
			if i < 0 {
				break
			}
			rest = rest[i+len(start):]
			q := bytes.IndexByte(rest, '"')
			if q < 0 {
				return false
			}
			typ := string(rest[:q])
			rest = rest[q+1:]
			if !bytes.HasPrefix(rest, keyProp) || !record(rest[len(keyProp):]) {
				return false
			}
			if typ == BlockHeading1 || typ == BlockHeading2 || typ == BlockHeading3 {
				// A heading's meta comes before its nodes.
				m, n := bytes.Index(rest, metaID), bytes.Index(rest, nodesProp)
				if m < 0 || n >= 0 && n < m {
					return false
				}
			}
		}
	}
	for rest := b; ; {
		i := bytes.Index(rest, textKey)
		if i < 0 {
			break
		}
		rest = rest[i+len(textKey):]
		if !record(rest) {
			return false
		}
	}
	return true
}

// clone copies d deeply enough that keys and meta can be set on the copy:
// nodes and fragments are copied, data, leaves and extra properties shared.
func (d *Document) clone() *Document {
	c := *d
	c.Nodes = cloneNodes(d.Nodes)
	return &c
}

func cloneNodes(nodes []Node) []Node {
	if nodes == nil {
		return nil
	}
	out := make([]Node, len(nodes))
	for i := range nodes {
		out[i] = nodes[i]
		out[i].Nodes = cloneNodes(nodes[i].Nodes)
		if fs := nodes[i].Fragments; fs != nil {
			out[i].Fragments = make([]Fragment, len(fs))
			for j := range fs {
				out[i].Fragments[j] = fs[j]
				out[i].Fragments[j].Nodes = cloneNodes(fs[j].Nodes)
			}
		}
	}
	return out
}

// BareJSON returns n's JSON without the keys and meta of n and its
// descendants: two nodes with equal bare JSON hold the same content,
// whatever keys and computed properties (heading anchors) they were given.
func BareJSON(n *Node) ([]byte, error) {
	e := encoder{bare: true}
	e.node(n)
	return e.buf, e.err
}

// barePrints returns each node's JSON without keys and meta: equal prints
// mean nodes that are the same but for keys and computed properties.
func barePrints(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i := range nodes {
		e := encoder{bare: true}
		e.node(&nodes[i])
		if e.err != nil {
			// Only values JSON cannot hold get here: match nothing.
			out[i] = "\x00" + strconv.Itoa(i)
			continue
		}
		out[i] = string(e.buf)
	}
	return out
}

// maxPairCells bounds the table of the longest common subsequence carryKeys
// computes; beyond it, equal nodes pair greedily in order.
const maxPairCells = 1 << 20

// pairPrints returns pairs (i, j), increasing in both, of equal prints.
func pairPrints(a, b []string) [][2]int {
	if len(a)*len(b) <= maxPairCells {
		return matchBlocks(a, b)
	}
	at := map[string][]int{}
	for i, p := range a {
		at[p] = append(at[p], i)
	}
	var out [][2]int
	last := -1
	for j, p := range b {
		is := at[p]
		for len(is) > 0 && is[0] <= last {
			is = is[1:]
		}
		if len(is) > 0 {
			last = is[0]
			out = append(out, [2]int{is[0], j})
			is = is[1:]
		}
		at[p] = is
	}
	return out
}

// carryKeys gives nodes of nw without a key the key of the node of old
// they match, unless used (the keys nw already holds) has it. Nodes equal
// but for keys match first (a longest common subsequence), with all their
// descendants; between those, nodes of the same object and type match in
// order, and their children are matched the same way.
func carryKeys(old, nw []Node, used map[string]bool) {
	if len(old) == 0 || len(nw) == 0 {
		return
	}
	pairs := append(pairPrints(barePrints(old), barePrints(nw)), [2]int{len(old), len(nw)})
	oi, ni := 0, 0
	for _, p := range pairs {
		carryGap(old[oi:p[0]], nw[ni:p[1]], used)
		if p[0] < len(old) {
			copyKeys(&old[p[0]], &nw[p[1]], used)
		}
		oi, ni = p[0]+1, p[1]+1
	}
}

// carryGap pairs nodes of the same object and type in order.
func carryGap(old, nw []Node, used map[string]bool) {
	x := 0
	for j := range nw {
		for k := x; k < len(old); k++ {
			o, n := &old[k], &nw[j]
			if o.Object != n.Object || o.Type != n.Type {
				continue
			}
			takeKey(o, n, used)
			carryKeys(o.Nodes, n.Nodes, used)
			for fi := range n.Fragments {
				if of := matchingFragment(o.Fragments, &n.Fragments[fi], fi); of != nil {
					carryKeys(of.Nodes, n.Fragments[fi].Nodes, used)
				}
			}
			x = k + 1
			break
		}
	}
}

// matchingFragment returns the fragment of old with f's name and key, else
// the one at f's index when it has f's name.
func matchingFragment(old []Fragment, f *Fragment, i int) *Fragment {
	for j := range old {
		if old[j].Fragment == f.Fragment && old[j].Key == f.Key {
			return &old[j]
		}
	}
	if i < len(old) && old[i].Fragment == f.Fragment {
		return &old[i]
	}
	return nil
}

// copyKeys carries keys between two nodes equal but for keys, and all
// their descendants.
func copyKeys(o, n *Node, used map[string]bool) {
	takeKey(o, n, used)
	for i := range min(len(o.Nodes), len(n.Nodes)) {
		copyKeys(&o.Nodes[i], &n.Nodes[i], used)
	}
	for i := range min(len(o.Fragments), len(n.Fragments)) {
		of, nf := &o.Fragments[i], &n.Fragments[i]
		for j := range min(len(of.Nodes), len(nf.Nodes)) {
			copyKeys(&of.Nodes[j], &nf.Nodes[j], used)
		}
	}
}

func takeKey(o, n *Node, used map[string]bool) {
	if n.Key == "" && o.Key != "" && !used[o.Key] {
		n.Key = o.Key
		used[o.Key] = true
	}
}
