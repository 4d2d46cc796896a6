package webhook

import (
	"math/rand/v2"
	"time"
)

// Retry schedule: the wait before try n+1 is drawn uniformly (full jitter)
// from [MinWait, BaseWait·2^(n-1)], capped at MaxWait; after MaxAttempts
// tries the delivery gives up. The ceilings run 30 s, 1 min, 2 min, … 32 min,
// then 1 h, so the last try happens at most about 5 hours after the first.
const (
	BaseWait    = 30 * time.Second
	MaxWait     = time.Hour
	MinWait     = time.Second
	MaxAttempts = 12
)

// Backoff returns how long to wait after try n (1-based) failed before the
// next one, and giveUp when n has reached MaxAttempts. rnd returns a number
// in [0, 1) (math/rand/v2's Float64 when nil); values outside are clamped.
func Backoff(n int, rnd func() float64) (wait time.Duration, giveUp bool) {
	if n < 1 {
		n = 1
	}
	if n >= MaxAttempts {
		return 0, true
	}
	ceiling := MaxWait
	// 2^7·30 s already passes an hour; checking first avoids any overflow.
	if shift := n - 1; shift < 7 {
		ceiling = min(BaseWait<<shift, MaxWait)
	}
	if rnd == nil {
		rnd = rand.Float64
	}
	f := rnd()
	if !(f >= 0) { // also catches NaN
		f = 0
	}
	if f > 1 {
		f = 1
	}
	wait = time.Duration(f * float64(ceiling))
	return max(wait, MinWait), false
}
