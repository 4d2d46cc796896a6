package content

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// BlockConflict is a top-level block of a document that both sides of a
// merge changed differently, or that one side removed and the other
// changed. Block is its index in the base document (-1 for the document's
// data); Message says what clashed, naming the block by type and text.
type BlockConflict struct {
	Block   int
	Message string
}

// blockState is what one side did to one base block.
type blockState uint8

const (
	blockSame blockState = iota
	blockChanged
	blockRemoved
)

// sideEdits is one side's changes to a base document's top-level blocks:
// for each base block its fate (and new version when changed), and the
// blocks inserted before each base block (ins[len(base)]: at the end).
type sideEdits struct {
	state   []blockState
	changed []Node
	ins     [][]Node
}

// blockPrints returns the canonical JSON of each block: equal prints mean
// equal blocks.
func blockPrints(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i := range nodes {
		b, err := nodes[i].MarshalJSON()
		if err != nil {
			// Cannot happen for a decoded document; a unique print keeps
			// the block from matching anything.
			b = fmt.Appendf(nil, "\x00unencodable %d %p", i, &nodes[i])
		}
		out[i] = string(b)
	}
	return out
}

// matchBlocks returns the pairs (i, j) of a longest common subsequence of
// equal blocks, increasing in both. A common prefix and suffix are matched
// first, so that a small edit of a long document costs little.
func matchBlocks(a, b []string) [][2]int {
	var pre [][2]int
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo] == b[lo] {
		pre = append(pre, [2]int{lo, lo})
		lo++
	}
	ea, eb := len(a), len(b)
	var suf [][2]int
	for ea > lo && eb > lo && a[ea-1] == b[eb-1] {
		ea--
		eb--
		suf = append(suf, [2]int{ea, eb})
	}
	slices.Reverse(suf)
	ma, mb := a[lo:ea], b[lo:eb]
	// Classic dynamic programming over the middle: l[i][j] is the length of
	// the longest common subsequence of ma[i:] and mb[j:].
	l := make([][]int32, len(ma)+1)
	for i := range l {
		l[i] = make([]int32, len(mb)+1)
	}
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	mid := [][2]int{}
	for i, j := 0, 0; i < len(ma) && j < len(mb); {
		switch {
		case ma[i] == mb[j]:
			mid = append(mid, [2]int{lo + i, lo + j})
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return append(append(pre, mid...), suf...)
}

// edits describes side's changes to base. Between two matched blocks, the
// base blocks left over were changed or removed and the side's left over
// blocks are their new versions or insertions: blocks with the same key
// pair up first, then the rest pair up in order; base blocks beyond are
// removed and side blocks beyond are inserted at the end of the gap.
func edits(base, side []Node, bp, sp []string) sideEdits {
	e := sideEdits{state: make([]blockState, len(base)), changed: make([]Node, len(base)), ins: make([][]Node, len(base)+1)}
	matches := append(matchBlocks(bp, sp), [2]int{len(base), len(side)})
	bi, si := 0, 0
	for _, m := range matches {
		gapB, gapS := m[0]-bi, m[1]-si
		pairedS := make([]bool, gapS)
		pairedB := make([]bool, gapB)
		for x := range gapB {
			k := base[bi+x].Key
			if k == "" {
				continue
			}
			for y := range gapS {
				if !pairedS[y] && side[si+y].Key == k {
					pairedB[x], pairedS[y] = true, true
					e.state[bi+x], e.changed[bi+x] = blockChanged, side[si+y]
					break
				}
			}
		}
		y := 0
		for x := range gapB {
			if pairedB[x] {
				continue
			}
			for y < gapS && pairedS[y] {
				y++
			}
			if y < gapS && (base[bi+x].Key == "" || side[si+y].Key == "") {
				pairedS[y] = true
				e.state[bi+x], e.changed[bi+x] = blockChanged, side[si+y]
				y++
				continue
			}
			e.state[bi+x] = blockRemoved
		}
		for y := range gapS {
			if !pairedS[y] {
				e.ins[m[0]] = append(e.ins[m[0]], side[si+y])
			}
		}
		bi, si = m[0]+1, m[1]+1
	}
	return e
}

// MergeDocuments merges two documents forked from base, block by block over
// their top-level blocks: a block changed or removed on one side only takes
// that side's version; changed identically on both, it is kept once;
// changed differently on both, or removed on one side and changed on the
// other, it is a BlockConflict (ours is kept). Blocks inserted at one place
// by both sides go there, ours first, and only once when identical. The
// document's data merges as one value with the same rules. Blocks match by
// equal content first (a longest common subsequence), then by key, then by
// position between matched blocks. The inputs are not changed.
func MergeDocuments(base, ours, theirs *Document) (*Document, []BlockConflict) {
	bp, op, tp := blockPrints(base.Nodes), blockPrints(ours.Nodes), blockPrints(theirs.Nodes)
	oe := edits(base.Nodes, ours.Nodes, bp, op)
	te := edits(base.Nodes, theirs.Nodes, bp, tp)
	out := &Document{Object: ours.Object, Data: ours.Data, Extra: ours.Extra, Nodes: []Node{}}
	var conflicts []BlockConflict
	switch {
	case reflect.DeepEqual(ours.Data, base.Data):
		out.Data = theirs.Data
	case reflect.DeepEqual(theirs.Data, base.Data), reflect.DeepEqual(ours.Data, theirs.Data):
	default:
		conflicts = append(conflicts, BlockConflict{Block: -1, Message: "both sides changed the document's data differently"})
	}
	for i := 0; i <= len(base.Nodes); i++ {
		oi, ti := oe.ins[i], te.ins[i]
		out.Nodes = append(out.Nodes, oi...)
		if !slices.Equal(blockPrints(oi), blockPrints(ti)) {
			out.Nodes = append(out.Nodes, ti...)
		}
		if i == len(base.Nodes) {
			break
		}
		os, ts := oe.state[i], te.state[i]
		var pick *Node
		switch {
		case os == blockSame && ts == blockSame:
			pick = &base.Nodes[i]
		case os == blockSame:
			if ts == blockChanged {
				pick = &te.changed[i]
			}
		case ts == blockSame:
			if os == blockChanged {
				pick = &oe.changed[i]
			}
		case os == blockRemoved && ts == blockRemoved:
		case os == blockChanged && ts == blockChanged && sameBlock(&oe.changed[i], &te.changed[i]):
			pick = &oe.changed[i]
		default:
			what := "changed it differently"
			if os == blockRemoved || ts == blockRemoved {
				what = "removed it while the other changed it"
			}
			conflicts = append(conflicts, BlockConflict{Block: i,
				Message: fmt.Sprintf("%s: one side %s", describeBlock(i, &base.Nodes[i]), what)})
			if os == blockChanged {
				pick = &oe.changed[i]
			} else if ts == blockChanged {
				pick = &te.changed[i]
			}
		}
		if pick != nil {
			out.Nodes = append(out.Nodes, *pick)
		}
	}
	return out, conflicts
}

func sameBlock(a, b *Node) bool {
	pa, pb := blockPrints([]Node{*a}), blockPrints([]Node{*b})
	return pa[0] == pb[0]
}

// describeBlock names a block for a conflict message: its position (from
// 1), type and the start of its text.
func describeBlock(i int, n *Node) string {
	d := &Document{Nodes: []Node{*n}}
	text := strings.Join(strings.Fields(d.PlainText()), " ")
	if utf8.RuneCountInString(text) > 40 {
		r := []rune(text)
		text = string(r[:40]) + "…"
	}
	s := fmt.Sprintf("block %d (%s", i+1, n.Type)
	if text != "" {
		s += fmt.Sprintf(" %q", text)
	}
	return s + ")"
}
