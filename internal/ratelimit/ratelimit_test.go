package ratelimit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/ratelimit"
)

func TestBurstThenSteadyRate(t *testing.T) {
	l := ratelimit.New(10, time.Minute, 100)
	now := time.Unix(1_000_000, 0)
	for i := range 10 {
		r := l.Allow("k", now)
		if !r.Allowed || r.Remaining != 9-i || r.Limit != 10 {
			t.Fatalf("request %d: %+v", i, r)
		}
	}
	r := l.Allow("k", now)
	if r.Allowed || r.RetryAfter != 6*time.Second || r.Remaining != 0 {
		t.Fatalf("11th request: %+v", r)
	}
	// Another key is not affected.
	if r := l.Allow("other", now); !r.Allowed {
		t.Fatalf("other key: %+v", r)
	}
	// One request every six seconds after the burst.
	if r := l.Allow("k", now.Add(6*time.Second)); !r.Allowed || r.Remaining != 0 {
		t.Fatalf("after 6s: %+v", r)
	}
	if r := l.Allow("k", now.Add(7*time.Second)); r.Allowed {
		t.Fatalf("after 7s: %+v", r)
	}
	// A full period later the burst is back.
	if r := l.Allow("k", now.Add(2*time.Minute)); !r.Allowed || r.Remaining != 9 || !r.Reset.Equal(now.Add(2*time.Minute+6*time.Second)) {
		t.Fatalf("a period later: %+v", r)
	}
}

func TestDisabled(t *testing.T) {
	var nilLimiter *ratelimit.Limiter
	for _, l := range []*ratelimit.Limiter{ratelimit.New(0, time.Minute, 10), nilLimiter} {
		for range 1000 {
			if r := l.Allow("k", time.Now()); !r.Allowed {
				t.Fatal("a disabled limiter refused a request")
			}
		}
	}
}

func TestKeysAreBounded(t *testing.T) {
	l := ratelimit.New(1, time.Minute, 100)
	now := time.Unix(1_000_000, 0)
	for i := range 10_000 {
		if r := l.Allow(fmt.Sprint("key", i), now); !r.Allowed {
			t.Fatalf("key %d refused", i)
		}
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("the limiter remembers %d keys, want 100", n)
	}
	// The limit still holds for a key seen just now.
	if r := l.Allow("key9999", now); r.Allowed {
		t.Fatal("the newest key lost its state")
	}
}

// A flood of new keys (a client spreading over an IPv6 range) must not
// reset the budgets of keys it did not send: the limiter used to forget
// every key when full, which handed a throttled client a fresh burst.
func TestFloodKeepsThrottledKeys(t *testing.T) {
	l := ratelimit.New(30, time.Minute, 1000)
	now := time.Unix(1_000_000, 0)
	for i := range 30 {
		if r := l.Allow("victim-budget", now); !r.Allowed {
			t.Fatalf("request %d refused", i)
		}
	}
	if r := l.Allow("victim-budget", now); r.Allowed {
		t.Fatal("the 31st request was allowed")
	}
	// A key that spent part of its budget keeps it too.
	for range 10 {
		l.Allow("half", now)
	}
	for i := range 50_000 {
		at := now.Add(time.Duration(i) * time.Microsecond) // 50 ms of flood
		if r := l.Allow(fmt.Sprint("flood", i), at); !r.Allowed {
			t.Fatalf("flood key %d refused", i)
		}
	}
	after := now.Add(time.Second) // under the 2 s a request takes to come back
	if r := l.Allow("victim-budget", after); r.Allowed {
		t.Fatalf("the throttled key got a fresh budget after the flood: %+v", r)
	}
	if r := l.Allow("half", after); !r.Allowed || r.Remaining != 19 {
		// 10 spent a second ago, one now.
		t.Fatalf("the partly spent key: %+v", r)
	}
	if n := l.Len(); n > 1000 {
		t.Fatalf("the limiter remembers %d keys, over its bound", n)
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":               "192.0.2.7",
		"::ffff:192.0.2.7":        "192.0.2.7",
		"2001:db8:1:2:aaaa::1":    "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:1:2:3": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":         "2001:db8:1:3::/64",
		"fe80::1%eth0":            "fe80::/64",
		"not an address":          "not an address",
	} {
		if got := ratelimit.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkAllow(b *testing.B) {
	l := ratelimit.New(1_000_000, time.Second, 10_000)
	now := time.Now()
	for i := 0; b.Loop(); i++ {
		l.Allow("token", now)
	}
}
