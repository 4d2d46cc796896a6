package web

import (
	"html/template"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// bigDoc is a document of n top-level blocks, every other one a divider
// (one node each: the most blocks a document can hold), the paragraph at
// index changed (if any) reworded.
func bigDoc(n int, changed ...int) *content.Document {
	d := &content.Document{Object: content.ObjectDocument}
	for i := range n {
		if i%2 == 0 {
			d.Nodes = append(d.Nodes, content.NewBlock(content.BlockDivider))
			continue
		}
		text := "Block " + strconv.Itoa(i)
		if slices.Contains(changed, i) {
			text += " changed"
		}
		d.Nodes = append(d.Nodes, content.NewBlock(content.BlockParagraph, content.NewText(text)))
	}
	return d
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDiffDocumentsMemoryIsLinear: the diff of two versions of a large
// page allocates in proportion to the page, not to the product of its
// versions' sizes (a table of 8,000 × 8,000 blocks alone is 512 MB), also
// when the versions are too different to show block by block.
func TestDiffDocumentsMemoryIsLinear(t *testing.T) {
	c := &app.Content{}
	never := func(int) bool { return false }
	cases := []struct {
		name     string
		after    func(n int) *content.Document
		tooLarge func(n int) bool
	}{
		{"one block changed in the middle", func(n int) *content.Document { return bigDoc(n, n/2+1) }, never},
		{"first and last blocks changed", func(n int) *content.Document { return bigDoc(n, 1, n-1) }, never},
		{"every other block changed", func(n int) *content.Document {
			var all []int
			for i := 1; i < n; i += 2 {
				all = append(all, i)
			}
			return bigDoc(n, all...)
		}, func(n int) bool { return n > maxDiffEdits }}, // n/2 removed and n/2 added
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			perBlock := map[int]uint64{}
			for _, n := range []int{1000, 8000} {
				a, b := bigDoc(n), tc.after(n)
				var d docDiff
				bytes := allocated(func() {
					var err error
					if d, err = diffDocuments(a, b, c, c, "/s/x", 4); err != nil {
						t.Fatal(err)
					}
				})
				perBlock[n] = bytes / uint64(n)
				t.Logf("%d blocks: %d bytes, %d a block", n, bytes, perBlock[n])
				if d.TooLarge != tc.tooLarge(n) || d.Before != n || d.After != n {
					t.Fatalf("%d blocks: too large %v (%d, %d)", n, d.TooLarge, d.Before, d.After)
				}
				if !d.TooLarge && len(d.Blocks) < n {
					t.Fatalf("%d blocks: %d in the diff", n, len(d.Blocks))
				}
			}
			// Linear: the cost per block does not grow with the page (a
			// table would make it 8 times larger).
			if perBlock[8000] > 2*perBlock[1000] || perBlock[8000] > 16<<10 {
				t.Fatalf("bytes a block: %d at 1,000 blocks, %d at 8,000", perBlock[1000], perBlock[8000])
			}
		})
	}
}

// oldDiff is the block diff the pages had before blockDiff: the full
// longest-common-subsequence table, removals first on ties.
func oldDiff(a, b []template.HTML) string {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, "="+string(a[i]))
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "-"+string(a[i]))
			i++
		default:
			out = append(out, "+"+string(b[j]))
			j++
		}
	}
	return strings.Join(out, " ")
}

func show(a, b []template.HTML, edits []edit) string {
	var out []string
	for _, e := range edits {
		switch e.op {
		case '=':
			if a[e.i] != b[e.j] {
				return "kept " + string(a[e.i]) + " as " + string(b[e.j])
			}
			out = append(out, "="+string(a[e.i]))
		case '-':
			out = append(out, "-"+string(a[e.i]))
		default:
			out = append(out, "+"+string(b[e.j]))
		}
	}
	return strings.Join(out, " ")
}

// valid checks that edits walk a and b in order and keep as many blocks
// as a longest common subsequence.
func valid(t *testing.T, a, b []template.HTML, edits []edit) {
	t.Helper()
	i, j, kept := 0, 0, 0
	for _, e := range edits {
		switch e.op {
		case '=':
			if e.i != i || e.j != j || a[i] != b[j] {
				t.Fatalf("bad keep %+v at %d,%d: %s", e, i, j, show(a, b, edits))
			}
			i, j, kept = i+1, j+1, kept+1
		case '-':
			if e.i != i {
				t.Fatalf("bad removal %+v at %d: %s", e, i, show(a, b, edits))
			}
			i++
		default:
			if e.j != j {
				t.Fatalf("bad addition %+v at %d: %s", e, j, show(a, b, edits))
			}
			j++
		}
	}
	if i != len(a) || j != len(b) {
		t.Fatalf("edits end at %d,%d of %d,%d", i, j, len(a), len(b))
	}
	if want := strings.Count(oldDiff(a, b), "="); kept != want {
		t.Fatalf("kept %d blocks, a longest common subsequence has %d: %s", kept, want, show(a, b, edits))
	}
}

func randomBlocks(r *rand.Rand, n, alphabet int) []template.HTML {
	out := make([]template.HTML, n)
	for i := range out {
		out[i] = template.HTML(strconv.Itoa(r.IntN(alphabet)))
	}
	return out
}

// TestBlockDiff: small diffs are exactly the ones the pages showed
// before; Myers' diff, for large ones, keeps as many blocks as the table
// would and gives up past its bound.
func TestBlockDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := randomBlocks(r, r.IntN(12), 4), randomBlocks(r, r.IntN(12), 4)
		edits, ok := blockDiff(a, b, maxDiffEdits)
		if !ok {
			t.Fatal("a small diff gave up")
		}
		if got, want := show(a, b, edits), oldDiff(a, b); got != want {
			t.Fatalf("%q → %q:\n%s\nwas\n%s", a, b, got, want)
		}
	}
	for range 2000 {
		a, b := randomBlocks(r, r.IntN(80), 1+r.IntN(6)), randomBlocks(r, r.IntN(80), 1+r.IntN(6))
		if r.IntN(2) == 0 { // b an edit of a
			b = slices.Clone(a)
			for range r.IntN(6) {
				k := r.IntN(len(b) + 1)
				b = slices.Insert(b, k, template.HTML("new"))
				if len(b) > 1 {
					i := r.IntN(len(b))
					b = slices.Delete(b, i, i+1)
				}
			}
		}
		m := &myers{a: internAll(a, b)[0], b: internAll(a, b)[1], maxD: 1 << 20}
		if !m.diff(0, len(a), 0, len(b)) {
			t.Fatal("an unbounded diff gave up")
		}
		valid(t, a, b, m.out)
	}
	// Large versions take Myers' path, within the bound or not.
	a := randomBlocks(r, 3000, 1000)
	b := slices.Clone(a)
	b[0], b[1500], b[2999] = "x", "y", "z"
	edits, ok := blockDiff(a, b, maxDiffEdits)
	if !ok {
		t.Fatal("three changed blocks gave up")
	}
	valid(t, a, b, edits)
	if got := len(edits); got != 3003 {
		t.Fatalf("%d edits, want 3,000 kept or removed and 3 added", got)
	}
	if _, ok := blockDiff(a, randomBlocks(r, 3000, 1000), 200); ok {
		t.Fatal("two unrelated versions of 3,000 blocks were compared within 200 edits")
	}
}

func internAll(a, b []template.HTML) [2][]int32 {
	ids := map[template.HTML]int32{}
	var out [2][]int32
	for s, hs := range [][]template.HTML{a, b} {
		for _, h := range hs {
			if _, ok := ids[h]; !ok {
				ids[h] = int32(len(ids))
			}
			out[s] = append(out[s], ids[h])
		}
	}
	return out
}
