package web

import (
	"testing"

	"github.com/foliodocs/folio"
)

// TestListUpTo: the tree gathers a paged list page by page, follows each
// page's cursor, and stops at its bound saying items were left out.
func TestListUpTo(t *testing.T) {
	const total = 2500
	var calls []int // the first item each call asked for
	list := func(opts folio.ListOptions) (folio.List[int], error) {
		from := 0
		if len(opts.After) > 0 {
			n, _ := opts.After[0].(int64)
			from = int(n)
		}
		calls = append(calls, from)
		var l folio.List[int]
		for i := from; i < total && len(l.Items) < opts.Limit; i++ {
			l.Items = append(l.Items, i)
		}
		if end := from + len(l.Items); end < total {
			l.Next = folio.EncodeCursor(end)
		}
		return l, nil
	}
	items, more, err := listUpTo(5000, list)
	if err != nil || more || len(items) != total || items[total-1] != total-1 {
		t.Fatalf("all: %d items, more %v, err %v", len(items), more, err)
	}
	if want := []int{0, 1000, 2000}; len(calls) != 3 || calls[1] != want[1] || calls[2] != want[2] {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	calls = nil
	items, more, err = listUpTo(2000, list)
	if err != nil || !more || len(items) != 2000 || len(calls) != 2 {
		t.Fatalf("bounded: %d items, more %v, err %v, %d calls", len(items), more, err, len(calls))
	}
}
