package lru

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

func bytesOf(_ string, v []byte) int64 { return int64(len(v)) }

func TestEvictsLeastRecentlyUsedPastTheLimit(t *testing.T) {
	c := New(10, bytesOf)
	c.Add("a", make([]byte, 4))
	c.Add("b", make([]byte, 4))
	if _, ok := c.Get("a"); !ok { // a is now more recent than b
		t.Fatal("a missing")
	}
	c.Add("c", make([]byte, 4)) // 12 > 10: b goes
	if _, ok := c.Get("b"); ok {
		t.Error("b kept; want it evicted as the least recently used")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s evicted; want it kept", k)
		}
	}
	s := c.Stats()
	want := Stats{Hits: 3, Misses: 1, Evictions: 1, Entries: 2, Used: 8, Limit: 10}
	if s != want {
		t.Errorf("stats = %+v, want %+v", s, want)
	}
}

func TestAddReplacesAndRefusesWhatCannotFit(t *testing.T) {
	c := New(10, bytesOf)
	c.Add("a", make([]byte, 6))
	c.Add("a", make([]byte, 2))
	if s := c.Stats(); s.Used != 2 || s.Entries != 1 {
		t.Errorf("after replacing: used %d entries %d, want 2 and 1", s.Used, s.Entries)
	}
	c.Add("big", make([]byte, 11))
	if _, ok := c.Peek("big"); ok {
		t.Error("an entry heavier than the limit was kept")
	}
	if _, ok := c.Peek("a"); !ok {
		t.Error("adding an entry heavier than the limit evicted the others")
	}
	c.Add("a", make([]byte, 11))
	if _, ok := c.Peek("a"); ok {
		t.Error("replacing with a value heavier than the limit kept the old one")
	}
	if s := c.Stats(); s.Used != 0 || s.Hits != 0 || s.Misses != 0 {
		t.Errorf("Peek counted or the weights leak: %+v", s)
	}
}

func TestZeroLimitKeepsNothing(t *testing.T) {
	c := New(0, func(string, int) int64 { return 1 })
	c.Add("a", 1)
	if c.Len() != 0 {
		t.Errorf("len = %d, want 0", c.Len())
	}
}

func TestRemoveIfAndClear(t *testing.T) {
	c := New(100, func(string, int) int64 { return 1 })
	for i, k := range []string{"a", "b", "c", "d"} {
		c.Add(k, i)
	}
	c.RemoveIf(func(_ string, v int) bool { return v%2 == 0 })
	if _, ok := c.Peek("a"); ok || c.Len() != 2 {
		t.Errorf("RemoveIf: len %d, a kept %v; want b and d only", c.Len(), ok)
	}
	c.Remove("b")
	c.Clear()
	if s := c.Stats(); s.Entries != 0 || s.Used != 0 {
		t.Errorf("after Clear: %+v", s)
	}
}

func TestLoadRunsOnceForConcurrentMisses(t *testing.T) {
	c := New(100, func(string, int) int64 { return 1 })
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	results := make([]int, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.Load("k", func() (int, error) {
				calls.Add(1)
				<-release
				return 42, nil
			})
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		}()
	}
	// Let one load start, then release it; late callers find the value.
	for calls.Load() == 0 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("load ran %d times, want 1", n)
	}
	for i, v := range results {
		if v != 42 {
			t.Errorf("caller %d got %d, want 42", i, v)
		}
	}
}

func TestLoadDoesNotCacheErrors(t *testing.T) {
	c := New(100, func(string, int) int64 { return 1 })
	boom := errors.New("boom")
	if _, err := c.Load("k", func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	v, err := c.Load("k", func() (int, error) { return 7, nil })
	if err != nil || v != 7 {
		t.Errorf("second load = %d, %v; want 7 (the error was cached)", v, err)
	}
}

func TestFlightKeys(t *testing.T) {
	type id string
	if got := flightKey(id("x")); got != "x" {
		t.Errorf("named string: %q", got)
	}
	if a, b := flightKey([2]byte{1, 2}), flightKey([2]byte{1, 3}); a == b {
		t.Errorf("distinct arrays share the flight key %q", a)
	}
}
