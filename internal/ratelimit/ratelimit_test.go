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
	// Memory stayed bounded: forgotten keys start afresh rather than the
	// map growing; the limit still holds for a key seen just now.
	if r := l.Allow("key9999", now); r.Allowed {
		t.Fatal("the newest key lost its state")
	}
}

func BenchmarkAllow(b *testing.B) {
	l := ratelimit.New(1_000_000, time.Second, 10_000)
	now := time.Now()
	for i := 0; b.Loop(); i++ {
		l.Allow("token", now)
	}
}
