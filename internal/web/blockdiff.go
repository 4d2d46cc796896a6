package web

import "html/template"

// The block diff of two versions of a page (diffDocuments). Blocks are
// compared by their rendered HTML, interned to numbers. Versions that
// differ after their common beginning in a small region get the exact
// longest-common-subsequence table (the diff the pages always showed);
// larger ones Myers' O(ND) algorithm in linear space, which gives up past
// maxDiffEdits added and removed blocks, so that no pair of versions costs
// more than linear memory and O((N+M)·maxDiffEdits) time.
const (
	// maxDiffCells bounds the exact table: 4 MiB of int32.
	maxDiffCells = 1 << 20
	// maxDiffEdits is the most added and removed blocks a diff shows;
	// beyond it the page says the versions are too different to compare
	// block by block.
	maxDiffEdits = 2000
)

// edit is one step of a block diff: a[i] kept as b[j] ('='), a[i]
// removed ('-') or b[j] added ('+').
type edit struct {
	op   byte
	i, j int
}

// blockDiff returns the edits turning blocks a into blocks b, and false
// when they differ in more than maxEdits blocks.
func blockDiff(a, b []template.HTML, maxEdits int) ([]edit, bool) {
	ids := make(map[template.HTML]int32, len(a)+len(b))
	intern := func(hs []template.HTML) []int32 {
		out := make([]int32, len(hs))
		for i, h := range hs {
			id, ok := ids[h]
			if !ok {
				id = int32(len(ids))
				ids[h] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	out := make([]edit, 0, max(len(x), len(y)))
	// The common beginning is kept: the table makes the same choice.
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		out = append(out, edit{'=', p, p})
		p++
	}
	if n, m := len(x)-p, len(y)-p; (n+1)*(m+1) <= maxDiffCells {
		return lcsDiff(x, y, p, out), true
	}
	md := &myers{a: x, b: y, maxD: maxEdits / 2, out: out}
	if !md.diff(p, len(x), p, len(y)) {
		return nil, false
	}
	return md.out, true
}

// lcsDiff appends the edits of a[p:] into b[p:] by a table of their
// longest common subsequences, removals before additions where both
// keep as many blocks.
func lcsDiff(a, b []int32, p int, out []edit) []edit {
	n, m := len(a)-p, len(b)-p
	w := m + 1
	// lcs[i*w+j] is the common length of a[p+i:] and b[p+j:].
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[p+i] == b[p+j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[p+i] == b[p+j]:
			out = append(out, edit{'=', p + i, p + j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			out = append(out, edit{'-', p + i, 0})
			i++
		default:
			out = append(out, edit{'+', 0, p + j})
			j++
		}
	}
	return out
}

// myers is Myers' diff in linear space ("An O(ND) Difference Algorithm
// and Its Variations", 1986, section 4b), after diff-match-patch's bisect:
// find the middle snake of the shortest edit script from both ends, split
// there, recurse. maxD bounds the search from each end.
type myers struct {
	a, b   []int32
	maxD   int
	v1, v2 []int
	out    []edit
}

// diff appends the edits of a[a0:a1] into b[b0:b1]; false past the bound.
func (m *myers) diff(a0, a1, b0, b1 int) bool {
	for a0 < a1 && b0 < b1 && m.a[a0] == m.b[b0] {
		m.out = append(m.out, edit{'=', a0, b0})
		a0, b0 = a0+1, b0+1
	}
	endA := a1
	for a0 < a1 && b0 < b1 && m.a[a1-1] == m.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	x, y, ok := -1, -1, true
	if a0 < a1 && b0 < b1 {
		if x, y, ok = m.bisect(a0, a1, b0, b1); !ok {
			return false
		}
	}
	if x >= 0 && (x != a0 || y != b0) && (x != a1 || y != b1) {
		if !m.diff(a0, x, b0, y) || !m.diff(x, a1, y, b1) {
			return false
		}
	} else { // one side is empty, or nothing in common
		for i := a0; i < a1; i++ {
			m.out = append(m.out, edit{'-', i, 0})
		}
		for j := b0; j < b1; j++ {
			m.out = append(m.out, edit{'+', 0, j})
		}
	}
	for i := a1; i < endA; i++ {
		m.out = append(m.out, edit{'=', i, b1 + i - a1})
	}
	return true
}

// bisect returns the middle snake's end (x, y) of a[a0:a1] against
// b[b0:b1], both non-empty and differing at both ends; -1, -1 when they
// have nothing in common, false when the search passes maxD.
func (m *myers) bisect(a0, a1, b0, b1 int) (int, int, bool) {
	n, mm := a1-a0, b1-b0
	maxD := (n + mm + 1) / 2
	// Diagonals -d-1…d+1 of d ≤ min(maxD, m.maxD) fit the arrays: a
	// snake's ends overlap only on such diagonals, so the rest is skipped.
	off := min(maxD, m.maxD) + 2
	size := 2*off + 1
	if cap(m.v1) < size {
		m.v1, m.v2 = make([]int, size), make([]int, size)
	}
	v1, v2 := m.v1[:size], m.v2[:size]
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - mm
	front := delta%2 != 0 // the forward search meets the reverse one
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for d := 0; d < maxD; d++ {
		if d > m.maxD {
			return 0, 0, false
		}
		for k1 := -d + k1start; k1 <= d-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -d || k1 != d && v1[i-1] < v1[i+1] {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < mm && m.a[a0+x1] == m.b[b0+y1] {
				x1, y1 = x1+1, y1+1
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2 // off the right edge
			case y1 > mm:
				k1start += 2 // off the bottom
			case front:
				if i2 := off + delta - k1; i2 >= 0 && i2 < size && v2[i2] != -1 && x1 >= n-v2[i2] {
					return a0 + x1, b0 + y1, true
				}
			}
		}
		for k2 := -d + k2start; k2 <= d-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -d || k2 != d && v2[i-1] < v2[i+1] {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < mm && m.a[a1-x2-1] == m.b[b1-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > mm:
				k2start += 2
			case !front:
				if i1 := off + delta - k2; i1 >= 0 && i1 < size && v1[i1] != -1 {
					x1 := v1[i1]
					if y1 := x1 - (i1 - off); x1 >= n-x2 {
						return a0 + x1, b0 + y1, true
					}
				}
			}
		}
	}
	return -1, -1, true
}
