package store

import (
	"slices"
	"testing"
)

func TestPadIn(t *testing.T) {
	tx := &Tx{}
	for _, tc := range []struct {
		n, want int
		cached  bool
	}{
		{0, 0, false}, {1, 1, true}, {2, 2, true}, {3, 4, true}, {5, 8, true},
		{150, 256, true}, {256, 256, true}, {257, 257, false},
	} {
		vals := make([]int, tc.n)
		for i := range vals {
			vals[i] = i + 1
		}
		got, padded := padIn(tx, vals)
		if len(padded) != tc.want || (got == tx) != tc.cached {
			t.Errorf("padIn(%d values) = %d values, cached %v; want %d, %v", tc.n, len(padded), got == tx, tc.want, tc.cached)
			continue
		}
		// The padding repeats values of the list: as an IN list it is the same set.
		if !slices.Equal(padded[:tc.n], vals) {
			t.Errorf("padIn(%d values) changed the values: %v", tc.n, padded[:tc.n])
		}
		for _, v := range padded[tc.n:] {
			if !slices.Contains(vals, v) {
				t.Errorf("padIn(%d values) added %d", tc.n, v)
			}
		}
	}
}
