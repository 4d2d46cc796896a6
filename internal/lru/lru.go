// Package lru is the server's one in-memory cache: entries are weighed
// (in bytes, pages or just one each), the least recently used leave first
// once the weights pass a limit, and concurrent loads of one missing key
// run once (golang.org/x/sync/singleflight).
//
// It imports only the standard library and golang.org/x/sync.
package lru

import (
	"container/list"
	"fmt"
	"sync"

	"golang.org/x/sync/singleflight"
)

// Cache maps keys to values within a weight limit. It is safe for
// concurrent use. Values are shared between callers and must not be
// changed once added.
type Cache[K comparable, V any] struct {
	weigh func(K, V) int64
	group singleflight.Group

	mu    sync.Mutex
	limit int64
	used  int64
	order list.List // of *entry[K, V], most recently used at the front
	items map[K]*list.Element

	hits, misses, evictions uint64
}

type entry[K comparable, V any] struct {
	key    K
	val    V
	weight int64
}

// New returns a cache that keeps entries while their weights, as weigh
// reports them, add up to at most limit. A limit of 0 or less keeps
// nothing.
func New[K comparable, V any](limit int64, weigh func(K, V) int64) *Cache[K, V] {
	return &Cache[K, V]{weigh: weigh, limit: max(limit, 0), items: make(map[K]*list.Element)}
}

// Get returns the value under k and marks it most recently used. It counts
// a hit or a miss.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.touch(k)
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	return v, ok
}

// Peek is Get without counting a hit or a miss, for a caller that counts
// once it knows what a request made of the entry (CountHit, CountMiss).
func (c *Cache[K, V]) Peek(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.touch(k)
}

// CountHit and CountMiss count a request that Peek served or could not.
func (c *Cache[K, V]) CountHit() { c.mu.Lock(); c.hits++; c.mu.Unlock() }

// CountMiss counts a request that had to make its value anew.
func (c *Cache[K, V]) CountMiss() { c.mu.Lock(); c.misses++; c.mu.Unlock() }

func (c *Cache[K, V]) touch(k K) (V, bool) {
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Add stores v under k, replacing what k held, and evicts the least
// recently used entries past the limit. A value heavier than the whole
// limit is not kept.
func (c *Cache[K, V]) Add(k K, v V) {
	w := c.weigh(k, v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.remove(e)
	}
	if w > c.limit {
		return
	}
	c.items[k] = c.order.PushFront(&entry[K, V]{key: k, val: v, weight: w})
	c.used += w
	for c.used > c.limit {
		c.remove(c.order.Back())
		c.evictions++
	}
}

// Remove drops the entry under k, if any.
func (c *Cache[K, V]) Remove(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.remove(e)
	}
}

// RemoveIf drops every entry for which drop reports true. It visits every
// entry, for rare events such as a revocation.
func (c *Cache[K, V]) RemoveIf(drop func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if ent := e.Value.(*entry[K, V]); drop(ent.key, ent.val) {
			c.remove(e)
		}
		e = next
	}
}

// Clear drops every entry.
func (c *Cache[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.items)
	c.used = 0
}

func (c *Cache[K, V]) remove(e *list.Element) {
	ent := e.Value.(*entry[K, V])
	c.order.Remove(e)
	delete(c.items, ent.key)
	c.used -= ent.weight
}

// Load returns the value under k, calling load on a miss and adding what
// it returns. Concurrent Loads of one missing key call load once and share
// its answer, error included; an error is not cached. load must not depend
// on its caller's context, since the first caller's call serves the rest.
func (c *Cache[K, V]) Load(k K, load func() (V, error)) (V, error) {
	if v, ok := c.Get(k); ok {
		return v, nil
	}
	v, err, _ := c.group.Do(flightKey(k), func() (any, error) {
		// A load that finished since the Get above has added the value.
		if v, ok := c.Peek(k); ok {
			return v, nil
		}
		v, err := load()
		if err == nil {
			c.Add(k, v)
		}
		return v, err
	})
	if err != nil {
		var zero V
		return zero, err
	}
	return v.(V), nil
}

// flightKey names k for singleflight, which keys by string.
func flightKey[K comparable](k K) string {
	switch k := any(k).(type) {
	case string:
		return k
	case fmt.Stringer:
		return k.String()
	}
	return fmt.Sprint(k)
}

// Stats are a cache's counters and occupancy, for the metrics.
type Stats struct {
	Hits, Misses, Evictions uint64
	Entries                 int
	Used, Limit             int64
}

// Stats reports the cache's counters and occupancy.
func (c *Cache[K, V]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Hits: c.hits, Misses: c.misses, Evictions: c.evictions,
		Entries: len(c.items), Used: c.used, Limit: c.limit}
}

// Len reports the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
