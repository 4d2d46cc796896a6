package content

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// texts returns the plain text of each top-level block.
func texts(d *Document) []string {
	out := []string{}
	for _, n := range d.Nodes {
		out = append(out, (&Document{Nodes: []Node{n}}).PlainText())
	}
	return out
}

func keyed(key string, d *Document) *Document {
	for i := range d.Nodes {
		d.Nodes[i].Key = key + string(rune('0'+i))
	}
	return d
}

func TestMergeDocuments(t *testing.T) {
	tests := []struct {
		name               string
		base, ours, theirs *Document
		want               []string
		conflicts          int
		conflictMentions   string
	}{
		{name: "different blocks", base: NewDocument("a", "b", "c", "d"),
			ours: NewDocument("A", "b", "c", "d"), theirs: NewDocument("a", "b", "c", "D"),
			want: []string{"A", "b", "c", "D"}},
		{name: "adjacent blocks", base: NewDocument("a", "b", "c"),
			ours: NewDocument("A", "b", "c"), theirs: NewDocument("a", "B", "c"),
			want: []string{"A", "B", "c"}},
		{name: "same change on both sides", base: NewDocument("a", "b"),
			ours: NewDocument("a", "X"), theirs: NewDocument("a", "X"),
			want: []string{"a", "X"}},
		{name: "same block differently", base: NewDocument("a", "b", "c"),
			ours: NewDocument("a", "B1", "c"), theirs: NewDocument("a", "B2", "c"),
			want: []string{"a", "B1", "c"}, conflicts: 1, conflictMentions: `block 2 (paragraph "b")`},
		{name: "removed and changed", base: NewDocument("a", "b", "c"),
			ours: NewDocument("a", "c"), theirs: NewDocument("a", "B", "c"),
			want: []string{"a", "B", "c"}, conflicts: 1, conflictMentions: "removed"},
		{name: "removed on one side", base: NewDocument("a", "b", "c"),
			ours: NewDocument("a", "c"), theirs: NewDocument("A", "b", "c"),
			want: []string{"A", "c"}},
		{name: "inserted on both sides at different places", base: NewDocument("a", "b"),
			ours: NewDocument("o", "a", "b"), theirs: NewDocument("a", "b", "t"),
			want: []string{"o", "a", "b", "t"}},
		{name: "inserted at one place, ours first", base: NewDocument("a", "b"),
			ours: NewDocument("a", "o", "b"), theirs: NewDocument("a", "t", "b"),
			want: []string{"a", "o", "t", "b"}},
		{name: "identical insertions once", base: NewDocument("a"),
			ours: NewDocument("a", "x"), theirs: NewDocument("a", "x"),
			want: []string{"a", "x"}},
		{name: "keyed blocks pair by key", base: keyed("k", NewDocument("a", "b", "c")),
			ours: func() *Document { d := keyed("k", NewDocument("a", "B", "c")); return d }(),
			theirs: func() *Document {
				d := keyed("k", NewDocument("a", "b", "C"))
				return d
			}(),
			want: []string{"a", "B", "C"}},
		{name: "empty base", base: NewDocument(), ours: NewDocument("o"), theirs: NewDocument("t"),
			want: []string{"o", "t"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, conflicts := MergeDocuments(tc.base, tc.ours, tc.theirs)
			if d := cmp.Diff(tc.want, texts(out)); d != "" {
				t.Errorf("blocks (-want +got):\n%s", d)
			}
			if len(conflicts) != tc.conflicts {
				t.Fatalf("conflicts %+v, want %d", conflicts, tc.conflicts)
			}
			if tc.conflicts > 0 && !strings.Contains(conflicts[0].Message, tc.conflictMentions) {
				t.Errorf("conflict %q does not mention %q", conflicts[0].Message, tc.conflictMentions)
			}
		})
	}
}

func TestMergeDocumentsDataConflict(t *testing.T) {
	base, ours, theirs := NewDocument("a"), NewDocument("a"), NewDocument("a")
	ours.Data["x"], theirs.Data["x"] = "1", "2"
	if _, c := MergeDocuments(base, ours, theirs); len(c) != 1 || c[0].Block != -1 {
		t.Fatalf("conflicts %+v", c)
	}
	theirs.Data["x"] = "1"
	if out, c := MergeDocuments(base, ours, theirs); len(c) != 0 || out.Data["x"] != "1" {
		t.Fatalf("conflicts %+v data %v", c, out.Data)
	}
}
