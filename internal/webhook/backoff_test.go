package webhook_test

import (
	"math"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/webhook"
)

func TestBackoff(t *testing.T) {
	ceilings := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour, time.Hour, time.Hour}
	for i, ceiling := range ceilings {
		n := i + 1
		top, giveUp := webhook.Backoff(n, func() float64 { return math.Nextafter(1, 0) })
		if giveUp {
			t.Fatalf("Backoff(%d) gave up before MaxAttempts", n)
		}
		if top > ceiling || top < ceiling-time.Millisecond {
			t.Errorf("Backoff(%d) at the top of the jitter = %s, want just under %s", n, top, ceiling)
		}
		mid, _ := webhook.Backoff(n, func() float64 { return 0.5 })
		if mid != ceiling/2 {
			t.Errorf("Backoff(%d) at 0.5 = %s, want %s", n, mid, ceiling/2)
		}
		low, _ := webhook.Backoff(n, func() float64 { return 0 })
		if low != webhook.MinWait {
			t.Errorf("Backoff(%d) at 0 = %s, want the floor %s", n, low, webhook.MinWait)
		}
	}
	if len(ceilings)+1 != webhook.MaxAttempts {
		t.Fatalf("table covers %d tries, MaxAttempts is %d", len(ceilings)+1, webhook.MaxAttempts)
	}
	for _, n := range []int{webhook.MaxAttempts, webhook.MaxAttempts + 1, math.MaxInt} {
		if _, giveUp := webhook.Backoff(n, nil); !giveUp {
			t.Errorf("Backoff(%d) did not give up", n)
		}
	}
}

func TestBackoffOddInputs(t *testing.T) {
	tests := []struct {
		name string
		n    int
		rnd  func() float64
		want time.Duration
	}{
		{"n zero counts as the first try", 0, func() float64 { return 0.5 }, 15 * time.Second},
		{"n negative counts as the first try", math.MinInt, func() float64 { return 0.5 }, 15 * time.Second},
		{"rnd above one is clamped", 1, func() float64 { return 7 }, 30 * time.Second},
		{"rnd negative is clamped", 1, func() float64 { return -3 }, webhook.MinWait},
		{"rnd NaN is clamped", 1, math.NaN, webhook.MinWait},
		{"rnd infinite is clamped", 1, func() float64 { return math.Inf(1) }, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, giveUp := webhook.Backoff(tt.n, tt.rnd)
			if giveUp || got != tt.want {
				t.Fatalf("Backoff = %s, %v; want %s, false", got, giveUp, tt.want)
			}
		})
	}
}

func TestBackoffJitterBounds(t *testing.T) {
	// The default source stays within [MinWait, ceiling] and actually varies.
	seen := map[time.Duration]bool{}
	for range 200 {
		w, _ := webhook.Backoff(3, nil)
		if w < webhook.MinWait || w > 2*time.Minute {
			t.Fatalf("Backoff(3) = %s, outside [%s, 2m]", w, webhook.MinWait)
		}
		seen[w] = true
	}
	if len(seen) < 100 {
		t.Fatalf("only %d distinct waits in 200 draws: no jitter", len(seen))
	}
}
