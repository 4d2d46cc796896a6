package httpapi

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/foliodocs/folio/internal/app"
)

// jobMetrics describe the durable job queue: gauges read from the store
// at each scrape (so every server reports the same shared queue), and the
// runs of this server's runner, which it reports through JobObserver.
type jobMetrics struct {
	app      *app.App
	queued   *prometheus.Desc
	running  *prometheus.Desc
	failed   *prometheus.Desc
	oldest   *prometheus.Desc
	runs     *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newJobMetrics(a *app.App) *jobMetrics {
	return &jobMetrics{
		app:     a,
		queued:  prometheus.NewDesc("folio_jobs_queued", "Jobs waiting to run (due now or later), over all servers.", nil, nil),
		running: prometheus.NewDesc("folio_jobs_running", "Jobs held by a live lease, over all servers.", nil, nil),
		failed:  prometheus.NewDesc("folio_jobs_failed_recent", "Jobs that failed for good in the last 24 hours.", nil, nil),
		oldest: prometheus.NewDesc("folio_jobs_oldest_due_seconds",
			"How long the oldest due job that nobody runs has waited; 0 when none waits.", nil, nil),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "folio_job_runs_total",
			Help: "Job runs of this server by kind and outcome (succeeded, retried, failed, cancelled).",
		}, []string{"kind", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "folio_job_duration_seconds",
			Help:    "Duration of this server's job runs by kind.",
			Buckets: []float64{.01, .05, .1, .5, 1, 5, 15, 60, 300, 1800},
		}, []string{"kind"}),
	}
}

func (m *jobMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.queued
	ch <- m.running
	ch <- m.failed
	ch <- m.oldest
	m.runs.Describe(ch)
	m.duration.Describe(ch)
}

func (m *jobMetrics) Collect(ch chan<- prometheus.Metric) {
	m.runs.Collect(ch)
	m.duration.Collect(ch)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s, err := m.app.JobStats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(m.queued, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(m.queued, prometheus.GaugeValue, float64(s.Queued))
	ch <- prometheus.MustNewConstMetric(m.running, prometheus.GaugeValue, float64(s.Running))
	ch <- prometheus.MustNewConstMetric(m.failed, prometheus.GaugeValue, float64(s.Failed))
	ch <- prometheus.MustNewConstMetric(m.oldest, prometheus.GaugeValue, s.OldestDue.Seconds())
}

// JobObserver returns the function the server's job runner calls when a
// run ends, for folio_job_runs_total and folio_job_duration_seconds.
func (s *Server) JobObserver() func(kind, outcome string, took time.Duration) {
	return func(kind, outcome string, took time.Duration) {
		if s.jobs == nil {
			return
		}
		s.jobs.runs.WithLabelValues(kind, outcome).Inc()
		s.jobs.duration.WithLabelValues(kind).Observe(took.Seconds())
	}
}
