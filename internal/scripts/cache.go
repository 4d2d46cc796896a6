package scripts

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// programCache keeps compiled scripts by the SHA-256 of their source, least
// recently used first out, within a byte budget. Two runs that need the same
// uncompiled script compile it once: the second waits for the first.
type programCache struct {
	mu       sync.Mutex
	maxBytes int64
	size     int64
	order    *list.List // of *cacheEntry, most recently used at the front
	entries  map[[32]byte]*list.Element
	loading  map[[32]byte]*compileCall
	compiles int // compilations run, for tests

	hits, misses, evictions uint64 // for the metrics (Runner.CacheStats)
}

type cacheEntry struct {
	key      [32]byte
	bytecode []byte
}

type compileCall struct {
	done     chan struct{}
	bytecode []byte
	err      error
}

func newProgramCache(maxBytes int64) *programCache {
	return &programCache{
		maxBytes: maxBytes,
		order:    list.New(),
		entries:  make(map[[32]byte]*list.Element),
		loading:  make(map[[32]byte]*compileCall),
	}
}

// get returns the bytecode of source, compiling it with compile on a miss.
// A failed compilation is not cached.
func (c *programCache) get(source string, compile func(string) ([]byte, error)) (bytecode []byte, err error) {
	key := sha256.Sum256([]byte(source))
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.hits++
		c.order.MoveToFront(el)
		bc := el.Value.(*cacheEntry).bytecode
		c.mu.Unlock()
		return bc, nil
	}
	c.misses++
	if call, ok := c.loading[key]; ok {
		c.mu.Unlock()
		<-call.done
		return call.bytecode, call.err
	}
	call := &compileCall{done: make(chan struct{})}
	c.loading[key] = call
	c.compiles++
	c.mu.Unlock()

	defer func() {
		// Also on a panic in compile: waiters must never hang.
		if p := recover(); p != nil {
			call.bytecode, call.err = nil, scriptErrorf(KindInvalidScript, "the script could not be compiled")
		}
		c.mu.Lock()
		delete(c.loading, key)
		if call.err == nil {
			c.add(key, call.bytecode)
		}
		c.mu.Unlock()
		close(call.done)
		bytecode, err = call.bytecode, call.err
	}()
	call.bytecode, call.err = compile(source)
	return call.bytecode, call.err
}

// add stores bytecode and evicts the least recently used entries past the
// budget; c.mu is held. A program larger than the whole budget is not kept.
func (c *programCache) add(key [32]byte, bytecode []byte) {
	n := int64(len(bytecode))
	if n > c.maxBytes {
		return
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, bytecode: bytecode})
	c.size += n
	for c.size > c.maxBytes {
		el := c.order.Back()
		e := el.Value.(*cacheEntry)
		c.order.Remove(el)
		delete(c.entries, e.key)
		c.size -= int64(len(e.bytecode))
		c.evictions++
	}
}

// stats reports the entries held and the compilations run.
func (c *programCache) stats() (entries, compiles int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.compiles
}

// CacheStats are the counters and occupancy of the runner's cache of
// compiled scripts.
type CacheStats struct {
	Hits, Misses, Evictions uint64
	Entries                 int
	Bytes, MaxBytes         int64
}

// CacheStats reports the cache of compiled scripts, for the metrics.
func (r *Runner) CacheStats() CacheStats {
	c := r.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Evictions: c.evictions,
		Entries: len(c.entries), Bytes: c.size, MaxBytes: c.maxBytes}
}
