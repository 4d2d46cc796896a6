// Package ratelimit limits request rates per key (a token, a client
// address) in memory with the generic cell rate algorithm: each key may
// make Limit requests per Period, in bursts of up to Limit, and one more
// every Period/Limit after that. The state of a key is one timestamp.
//
// Limits are per server: several servers behind a load balancer each
// allow the full rate. Sharing them through PostgreSQL would put a write
// on every request's path; see docs/operations.md.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Limiter limits the rate of requests per key.
type Limiter struct {
	limit    int
	period   time.Duration
	interval time.Duration // between two requests at the steady rate
	maxKeys  int

	mu  sync.Mutex
	tat map[string]time.Time // theoretical arrival time of each key's next request
}

// New returns a limiter of limit requests per period per key, remembering
// at most maxKeys keys (when more are active, the ones whose state has run
// out are forgotten first, then all: a flood of keys cannot grow memory).
// A limit of zero or less allows everything.
func New(limit int, period time.Duration, maxKeys int) *Limiter {
	l := &Limiter{limit: limit, period: period, maxKeys: max(maxKeys, 1), tat: map[string]time.Time{}}
	if limit > 0 {
		l.interval = period / time.Duration(limit)
	}
	return l
}

// Result is the outcome of one request, for the rate limit headers.
type Result struct {
	Allowed    bool
	Limit      int           // requests per period
	Remaining  int           // requests left in the burst now
	Reset      time.Time     // when the key is back to a full burst
	RetryAfter time.Duration // when refused: how long until one request is allowed
}

// Allow counts one request of key at now.
func (l *Limiter) Allow(key string, now time.Time) Result {
	if l == nil || l.limit <= 0 {
		return Result{Allowed: true}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	tat, ok := l.tat[key]
	if !ok || tat.Before(now) {
		tat = now
	}
	next := tat.Add(l.interval)
	allowAt := next.Add(-l.period)
	if now.Before(allowAt) {
		return Result{Limit: l.limit, Remaining: 0, Reset: tat, RetryAfter: allowAt.Sub(now)}
	}
	if !ok && len(l.tat) >= l.maxKeys {
		l.sweep(now)
	}
	l.tat[key] = next
	remaining := int(math.Floor(float64(l.period-next.Sub(now)) / float64(l.interval)))
	return Result{Allowed: true, Limit: l.limit, Remaining: max(remaining, 0), Reset: next}
}

// sweep forgets the keys back to a full burst; if that is not enough, all.
func (l *Limiter) sweep(now time.Time) {
	for k, t := range l.tat {
		if !t.After(now) {
			delete(l.tat, k)
		}
	}
	if len(l.tat) >= l.maxKeys {
		clear(l.tat)
	}
}
