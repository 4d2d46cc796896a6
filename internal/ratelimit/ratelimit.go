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
	"container/heap"
	"math"
	"net/netip"
	"sync"
	"time"
)

// Limiter limits the rate of requests per key.
type Limiter struct {
	limit    int
	period   time.Duration
	interval time.Duration // between two requests at the steady rate
	maxKeys  int

	mu   sync.Mutex
	keys map[string]*entry
	// byTAT orders the keys by theoretical arrival time, earliest first:
	// the first is the key whose budget is nearest to whole, the one whose
	// state is worth least (among keys that spent alike, the least
	// recently used). When the limiter is full it forgets that one.
	byTAT tatHeap
}

// entry is one key's state.
type entry struct {
	key string
	tat time.Time // theoretical arrival time of the key's next request
	at  int       // index in byTAT
}

// New returns a limiter of limit requests per period per key, remembering
// at most maxKeys keys: when a new key comes to a full limiter, the key
// whose budget is nearest to whole is forgotten (one whose state has run
// out loses nothing; a throttled key is forgotten last), so a flood of
// keys can neither grow memory nor reset the keys it throttled.
// A limit of zero or less allows everything.
func New(limit int, period time.Duration, maxKeys int) *Limiter {
	l := &Limiter{limit: limit, period: period, maxKeys: max(maxKeys, 1), keys: map[string]*entry{}}
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
	e := l.keys[key]
	tat := now
	if e != nil && e.tat.After(now) {
		tat = e.tat
	}
	next := tat.Add(l.interval)
	allowAt := next.Add(-l.period)
	if now.Before(allowAt) {
		return Result{Limit: l.limit, Remaining: 0, Reset: tat, RetryAfter: allowAt.Sub(now)}
	}
	if e == nil {
		for len(l.keys) >= l.maxKeys {
			old := heap.Pop(&l.byTAT).(*entry)
			delete(l.keys, old.key)
		}
		e = &entry{key: key, tat: next}
		l.keys[key] = e
		heap.Push(&l.byTAT, e)
	} else {
		e.tat = next
		heap.Fix(&l.byTAT, e.at)
	}
	remaining := int(math.Floor(float64(l.period-next.Sub(now)) / float64(l.interval)))
	return Result{Allowed: true, Limit: l.limit, Remaining: max(remaining, 0), Reset: next}
}

// Len returns the number of keys the limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

// tatHeap is a min-heap of entries by theoretical arrival time.
type tatHeap []*entry

func (h tatHeap) Len() int           { return len(h) }
func (h tatHeap) Less(i, j int) bool { return h[i].tat.Before(h[j].tat) }
func (h tatHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}
func (h *tatHeap) Push(x any) {
	e := x.(*entry)
	e.at = len(*h)
	*h = append(*h, e)
}
func (h *tatHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return e
}

// AddressKey is the key of a client address: IPv4 addresses as they are,
// IPv6 addresses by their /64 network (one subscriber's usual allocation,
// which a client can spread its requests across at will). Anything that is
// not an address is its own key.
func AddressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.WithZone("").Prefix(64)
	return p.String()
}
