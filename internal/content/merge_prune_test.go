package content

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// deepClone copies every page of a tree, as a tree loaded again from the
// store would be: equal hashes, no shared pointers.
func deepClone(t *Tree) *Tree {
	var cp func(ps []*Page) []*Page
	cp = func(ps []*Page) []*Page {
		out := make([]*Page, len(ps))
		for i, p := range ps {
			c := p.Clone()
			c.Pages = cp(p.Pages)
			out[i] = c
		}
		return out
	}
	f := t.Fork()
	f.Pages = cp(t.Pages)
	return f
}

func take(t *Tree, id string) *Page {
	var rm func(ps *[]*Page) *Page
	rm = func(ps *[]*Page) *Page {
		for i, p := range *ps {
			if p.ID == id {
				*ps = slices.Delete(*ps, i, i+1)
				return p
			}
			if got := rm(&p.Pages); got != nil {
				return got
			}
		}
		return nil
	}
	return rm(&t.Pages)
}

func find(t *Tree, id string) *Page {
	n, err := Find(t, id)
	if err != nil {
		return nil
	}
	return n.Page
}

// TestMergeSkipsQuietSubtrees checks the merges whose trees share
// subtrees, which Merge does not walk: moves and removals of subtrees
// meeting changes deep inside them, and the sharing of what did not change.
func TestMergeSkipsQuietSubtrees(t *testing.T) {
	base := tree(pg("a", pg("a1", pg("a11"), pg("a12")), pg("a2")), pg("b", pg("b1")), pg("c"))
	retitle := func(id, title string) func(tr *Tree) {
		return func(tr *Tree) { find(tr, id).Title = title }
	}
	moveUnder := func(id, parent string) func(tr *Tree) {
		return func(tr *Tree) {
			p := take(tr, id)
			np := find(tr, parent)
			np.Pages = append(np.Pages, p)
		}
	}
	tests := []struct {
		name         string
		ours, theirs func(tr *Tree)
		want         []string
		conflicts    []string
	}{
		{name: "both move a subtree to the same parent", ours: moveUnder("a1", "c"), theirs: moveUnder("a1", "c"),
			want: []string{">a:Title a", "a>a2:Title a2", ">b:Title b", "b>b1:Title b1", ">c:Title c", "c>a1:Title a1",
				"a1>a11:Title a11", "a1>a12:Title a12"}},
		{name: "moved subtree edited deep inside", ours: moveUnder("a1", "b"), theirs: retitle("a12", "Edited"),
			want: []string{">a:Title a", "a>a2:Title a2", ">b:Title b", "b>b1:Title b1", "b>a1:Title a1",
				"a1>a11:Title a11", "a1>a12:Edited", ">c:Title c"}},
		{name: "edited deep inside a subtree the other side moved", ours: retitle("a11", "Edited"), theirs: moveUnder("a", "c"),
			want: []string{">b:Title b", "b>b1:Title b1", ">c:Title c", "c>a:Title a", "a>a1:Title a1",
				"a1>a11:Edited", "a1>a12:Title a12", "a>a2:Title a2"}},
		{name: "removed subtree edited deep inside", ours: func(tr *Tree) { take(tr, "a") }, theirs: retitle("a12", "Edited"),
			want:      []string{">a:Title a", "a>a1:Title a1", "a1>a12:Edited", ">b:Title b", "b>b1:Title b1", ">c:Title c"},
			conflicts: []string{"a/removed", "a1/removed", "a12/removed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ours, theirs := deepClone(base), deepClone(base)
			tc.ours(ours)
			tc.theirs(theirs)
			out, conflicts := Merge(deepClone(base), ours, theirs, nil)
			if d := cmp.Diff(tc.want, shape(out)); d != "" {
				t.Errorf("merged (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.conflicts, fields(conflicts)); d != "" {
				t.Errorf("conflicts (-want +got):\n%s", d)
			}
		})
	}

	// What neither side changed is ours' own page, whole.
	ours, theirs := deepClone(base), deepClone(base)
	retitle("c", "C!")(theirs)
	out, conflicts := Merge(deepClone(base), ours, theirs, nil)
	if len(conflicts) != 0 || out.Pages[0] != ours.Pages[0] || out.Pages[1] != ours.Pages[1] || out.Pages[2] == ours.Pages[2] ||
		out.Pages[2].Title != "C!" {
		t.Fatalf("sharing: conflicts %v, pages %p %p %p of ours %p %p %p", conflicts, out.Pages[0], out.Pages[1], out.Pages[2],
			ours.Pages[0], ours.Pages[1], ours.Pages[2])
	}
}
