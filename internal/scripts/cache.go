package scripts

import (
	"crypto/sha256"
	"sync/atomic"

	"github.com/foliodocs/folio/internal/lru"
)

// programCache keeps compiled scripts by the SHA-256 of their source, least
// recently used first out, within a byte budget. Two runs that need the same
// uncompiled script compile it once: the second waits for the first.
type programCache struct {
	lru      *lru.Cache[string, []byte]
	compiles atomic.Int64 // compilations run, for tests
}

func newProgramCache(maxBytes int64) *programCache {
	return &programCache{lru: lru.New(maxBytes, func(_ string, bc []byte) int64 { return int64(len(bc)) })}
}

// get returns the bytecode of source, compiling it with compile on a miss.
// A failed compilation is not cached; a panic in compile becomes an error
// for every run that waited on it.
func (c *programCache) get(source string, compile func(string) ([]byte, error)) ([]byte, error) {
	sum := sha256.Sum256([]byte(source))
	return c.lru.Load(string(sum[:]), func() (bytecode []byte, err error) {
		c.compiles.Add(1)
		defer func() {
			if p := recover(); p != nil {
				bytecode, err = nil, scriptErrorf(KindInvalidScript, "the script could not be compiled")
			}
		}()
		return compile(source)
	})
}

// stats reports the entries held and the compilations run.
func (c *programCache) stats() (entries, compiles int) {
	return c.lru.Len(), int(c.compiles.Load())
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
	s := r.cache.lru.Stats()
	return CacheStats{Hits: s.Hits, Misses: s.Misses, Evictions: s.Evictions,
		Entries: s.Entries, Bytes: s.Used, MaxBytes: s.Limit}
}
