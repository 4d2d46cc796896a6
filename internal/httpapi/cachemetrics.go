package httpapi

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/foliodocs/folio/internal/app"
)

// cacheMetrics reports the app's in-memory caches by name: hits, misses
// and evictions since the process started, entries, size and bound.
type cacheMetrics struct {
	app                                           *app.App
	hits, misses, evictions, entries, size, limit *prometheus.Desc
}

func newCacheMetrics(a *app.App) *cacheMetrics {
	labels := []string{"cache"}
	sized := []string{"cache", "unit"}
	return &cacheMetrics{
		app:       a,
		hits:      prometheus.NewDesc("folio_cache_hits_total", "Lookups a cache answered, by cache.", labels, nil),
		misses:    prometheus.NewDesc("folio_cache_misses_total", "Lookups a cache could not answer, by cache.", labels, nil),
		evictions: prometheus.NewDesc("folio_cache_evictions_total", "Entries dropped to keep a cache within its bound, by cache.", labels, nil),
		entries:   prometheus.NewDesc("folio_cache_entries", "Entries a cache holds, by cache.", labels, nil),
		size:      prometheus.NewDesc("folio_cache_size", "What a cache holds, in its unit (bytes, pages or entries).", sized, nil),
		limit:     prometheus.NewDesc("folio_cache_limit", "The bound of a cache, in its unit.", sized, nil),
	}
}

func (m *cacheMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.hits, m.misses, m.evictions, m.entries, m.size, m.limit} {
		ch <- d
	}
}

func (m *cacheMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.app.CacheStats() {
		ch <- prometheus.MustNewConstMetric(m.hits, prometheus.CounterValue, float64(c.Hits), c.Name)
		ch <- prometheus.MustNewConstMetric(m.misses, prometheus.CounterValue, float64(c.Misses), c.Name)
		ch <- prometheus.MustNewConstMetric(m.evictions, prometheus.CounterValue, float64(c.Evictions), c.Name)
		ch <- prometheus.MustNewConstMetric(m.entries, prometheus.GaugeValue, float64(c.Entries), c.Name)
		ch <- prometheus.MustNewConstMetric(m.size, prometheus.GaugeValue, float64(c.Size), c.Name, c.Unit)
		ch <- prometheus.MustNewConstMetric(m.limit, prometheus.GaugeValue, float64(c.Limit), c.Name, c.Unit)
	}
}
