package httpapi

import (
	"net"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/foliodocs/folio/internal/buildinfo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the Prometheus collectors of one Server. Each Server has its
// own registry, so several can run in one process (tests).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	conns    prometheus.Gauge
}

func newMetrics(build buildinfo.Info) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "folio_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "folio_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern, method and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method", "status"}),
	}
	m.conns = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "folio_http_open_connections",
		Help: "Client connections open now, idle ones included.",
	})
	// The running build, as "folio version" prints it: constant 1, the
	// facts in the labels (the Prometheus convention for build info).
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "folio_build_info",
		Help: "The running build: module version, VCS revision and time, whether the checkout was modified, Go version.",
		ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Revision, "time": build.Time,
			"modified": strconv.FormatBool(build.Modified), "goversion": build.GoVersion},
	})
	info.Set(1)
	// Beside the usual Go metrics, the heap that the last collection found
	// live (go_gc_heap_live_bytes) and the next one's goal: RSS and heap in
	// use swing with collections, the live heap shows a leak.
	goHeap := collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/(live|goal):bytes$`)}
	m.reg.MustRegister(m.requests, m.latency, m.conns, info,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(goHeap)),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(route, method string, status int, d time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, method, code).Inc()
	m.latency.WithLabelValues(route, method, code).Observe(d.Seconds())
}

// ConnState counts open connections for /metrics; install it as the
// http.Server's ConnState hook.
func (s *Server) ConnState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		s.metrics.conns.Inc()
	case http.StateClosed, http.StateHijacked:
		s.metrics.conns.Dec()
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
