package app

// CacheStats are the counters and occupancy of one of the server's
// in-memory caches, for the metrics. Size and Limit are in Unit: the tree
// cache weighs pages and files, the document and compiled-script caches
// bytes, the others entries.
type CacheStats struct {
	Name                    string
	Unit                    string
	Hits, Misses, Evictions uint64
	Entries                 int
	Size, Limit             int
}

// CacheStats reports every in-memory cache of this server process (the
// reader's rendered HTML reports its own).
func (a *App) CacheStats() []CacheStats {
	s := []CacheStats{
		cacheStats("trees", "pages", a.trees.Stats()),
		cacheStats("documents", "bytes", a.docs.Stats()),
		cacheStats("revisions", "entries", a.revisions.Stats()),
		cacheStats("site_profiles", "entries", a.profiles.Stats()),
		cacheStats("openapi_operations", "bytes", a.openAPIOps.Stats()),
		a.tokens.stats(),
	}
	if a.scriptRunner != nil {
		r := a.scriptRunner.CacheStats()
		s = append(s, CacheStats{Name: "scripts", Unit: "bytes", Hits: r.Hits, Misses: r.Misses,
			Evictions: r.Evictions, Entries: r.Entries, Size: int(r.Bytes), Limit: int(r.MaxBytes)})
	}
	return s
}
