package content

import (
	"hash/maphash"
	"math/bits"
)

// NodeMap is an Index whose versions share their structure: a hash array
// mapped trie of the pages by id. Editing one (Edit, then Set or Delete)
// copies only the O(log n) nodes on the edited paths, so the index of a
// revision that changes a few pages costs a few allocations whatever the
// size of the space, and every older version stays valid and unchanged.
// Lookups follow at most 13 nodes (five bits of a 64-bit hash per level).
// The zero NodeMap is empty.
type NodeMap struct {
	root *hamtNode
	n    int
}

// hamtNode is one level of the trie: the slots present among its 32, in
// bit order. Past the hash's 64 bits a node holds the colliding entries in
// coll instead. Only the builder holding owner may change the node in place.
type hamtNode struct {
	bitmap uint32
	slots  []hamtSlot
	coll   []*hamtEntry
	owner  *hamtOwner
}

// hamtOwner marks the nodes a builder may change in place; a builder takes a
// new one when it hands its nodes over to a map.
type hamtOwner struct{ _ byte }

// hamtSlot holds either an entry or a child node.
type hamtSlot struct {
	entry *hamtEntry
	child *hamtNode
}

type hamtEntry struct {
	hash uint64
	node PageNode
}

const hamtBits = 5

var hamtSeed = maphash.MakeSeed()

// hamtHash hashes page ids; a variable so that tests can force collisions.
var hamtHash = func(id string) uint64 { return maphash.String(hamtSeed, id) }

// NewNodeMap indexes every page of t by id, like NodesByID.
func NewNodeMap(t *Tree) NodeMap {
	b := NodeMap{}.Edit()
	Walk(t, func(n PageNode) bool { b.Set(n); return true })
	return b.Map()
}

// Node returns the page with the given id and its place.
func (m NodeMap) Node(id string) (PageNode, bool) {
	h := hamtHash(id)
	n := m.root
	for shift := uint(0); n != nil; shift += hamtBits {
		if n.coll != nil {
			for _, e := range n.coll {
				if e.node.Page.ID == id {
					return e.node, true
				}
			}
			return PageNode{}, false
		}
		bit := uint32(1) << ((h >> shift) & 31)
		if n.bitmap&bit == 0 {
			return PageNode{}, false
		}
		s := n.slots[bits.OnesCount32(n.bitmap&(bit-1))]
		if s.child == nil {
			if s.entry.hash == h && s.entry.node.Page.ID == id {
				return s.entry.node, true
			}
			return PageNode{}, false
		}
		n = s.child
	}
	return PageNode{}, false
}

// Len returns the number of pages.
func (m NodeMap) Len() int { return m.n }

// NodeMapBuilder makes a new version of a NodeMap. Nodes it copied are its
// own and are changed in place by later calls, so a batch of edits copies
// each node at most once. Map ends the batch.
type NodeMapBuilder struct {
	root  *hamtNode
	n     int
	owner *hamtOwner
}

// Edit returns a builder of a new version of m; m itself never changes.
func (m NodeMap) Edit() *NodeMapBuilder {
	return &NodeMapBuilder{root: m.root, n: m.n, owner: new(hamtOwner)}
}

// Map returns the map built so far. The builder may go on: nodes the
// returned map holds are no longer changed in place.
func (b *NodeMapBuilder) Map() NodeMap {
	b.owner = new(hamtOwner) // nodes made so far are the map's: copy before changing
	return NodeMap{root: b.root, n: b.n}
}

// Node returns the page with the given id in the map being built.
func (b *NodeMapBuilder) Node(id string) (PageNode, bool) {
	return NodeMap{root: b.root}.Node(id)
}

// Set records n under its page's id, replacing any page with that id.
func (b *NodeMapBuilder) Set(n PageNode) {
	e := &hamtEntry{hash: hamtHash(n.Page.ID), node: n}
	var added bool
	b.root, added = b.set(b.root, 0, e)
	if added {
		b.n++
	}
}

// Delete removes the page with the given id, if present.
func (b *NodeMapBuilder) Delete(id string) {
	var removed bool
	b.root, removed = b.delete(b.root, 0, hamtHash(id), id)
	if removed {
		b.n--
	}
}

// mine returns n itself when the builder owns it, a copy it owns otherwise.
func (b *NodeMapBuilder) mine(n *hamtNode) *hamtNode {
	if n.owner == b.owner {
		return n
	}
	c := &hamtNode{bitmap: n.bitmap, owner: b.owner}
	if n.coll != nil {
		c.coll = append(make([]*hamtEntry, 0, len(n.coll)+1), n.coll...)
	} else {
		c.slots = append(make([]hamtSlot, 0, len(n.slots)+1), n.slots...)
	}
	return c
}

func (b *NodeMapBuilder) set(n *hamtNode, shift uint, e *hamtEntry) (*hamtNode, bool) {
	if n == nil {
		return b.leaf(shift, e), true
	}
	id := e.node.Page.ID
	if n.coll != nil {
		n = b.mine(n)
		for i, o := range n.coll {
			if o.node.Page.ID == id {
				n.coll[i] = e
				return n, false
			}
		}
		n.coll = append(n.coll, e)
		return n, true
	}
	bit := uint32(1) << ((e.hash >> shift) & 31)
	i := bits.OnesCount32(n.bitmap & (bit - 1))
	n = b.mine(n)
	if n.bitmap&bit == 0 {
		n.bitmap |= bit
		n.slots = append(n.slots, hamtSlot{})
		copy(n.slots[i+1:], n.slots[i:])
		n.slots[i] = hamtSlot{entry: e}
		return n, true
	}
	s := n.slots[i]
	switch {
	case s.child != nil:
		child, added := b.set(s.child, shift+hamtBits, e)
		n.slots[i] = hamtSlot{child: child}
		return n, added
	case s.entry.node.Page.ID == id:
		n.slots[i] = hamtSlot{entry: e}
		return n, false
	default:
		n.slots[i] = hamtSlot{child: b.pair(shift+hamtBits, s.entry, e)}
		return n, true
	}
}

// leaf returns a node holding e alone.
func (b *NodeMapBuilder) leaf(shift uint, e *hamtEntry) *hamtNode {
	if shift >= 64 {
		return &hamtNode{coll: []*hamtEntry{e}, owner: b.owner}
	}
	return &hamtNode{bitmap: 1 << ((e.hash >> shift) & 31), slots: []hamtSlot{{entry: e}}, owner: b.owner}
}

// pair returns a node holding two entries of different ids.
func (b *NodeMapBuilder) pair(shift uint, x, y *hamtEntry) *hamtNode {
	if shift >= 64 {
		return &hamtNode{coll: []*hamtEntry{x, y}, owner: b.owner}
	}
	ix, iy := (x.hash>>shift)&31, (y.hash>>shift)&31
	switch {
	case ix == iy:
		return &hamtNode{bitmap: 1 << ix, slots: []hamtSlot{{child: b.pair(shift+hamtBits, x, y)}}, owner: b.owner}
	case ix > iy:
		x, y = y, x
		ix, iy = iy, ix
	}
	return &hamtNode{bitmap: 1<<ix | 1<<iy, slots: []hamtSlot{{entry: x}, {entry: y}}, owner: b.owner}
}

func (b *NodeMapBuilder) delete(n *hamtNode, shift uint, h uint64, id string) (*hamtNode, bool) {
	if n == nil {
		return nil, false
	}
	if n.coll != nil {
		for i, o := range n.coll {
			if o.node.Page.ID == id {
				if len(n.coll) == 1 {
					return nil, true
				}
				n = b.mine(n)
				n.coll = append(n.coll[:i], n.coll[i+1:]...)
				return n, true
			}
		}
		return n, false
	}
	bit := uint32(1) << ((h >> shift) & 31)
	if n.bitmap&bit == 0 {
		return n, false
	}
	i := bits.OnesCount32(n.bitmap & (bit - 1))
	s := n.slots[i]
	if s.child != nil {
		child, removed := b.delete(s.child, shift+hamtBits, h, id)
		if !removed {
			return n, false
		}
		n = b.mine(n)
		if child != nil {
			n.slots[i] = hamtSlot{child: child}
			return n, true
		}
	} else if s.entry.node.Page.ID != id {
		return n, false
	} else {
		n = b.mine(n)
	}
	// Drop slot i.
	if len(n.slots) == 1 {
		return nil, true
	}
	n.bitmap &^= bit
	n.slots = append(n.slots[:i], n.slots[i+1:]...)
	return n, true
}
