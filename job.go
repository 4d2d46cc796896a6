package folio

import "time"

// Job is a unit of durable background work.
type Job struct {
	ID          ID
	Kind        string
	Payload     string // JSON
	RunAt       time.Time
	Attempts    int
	MaxAttempts int
	LastError   string
	// Key, when set, is the job's concurrency key: of the jobs sharing a
	// key, one runs at a time, in run_at order, across every server.
	Key string
	// Done is when the job ended (done, failed for good or cancelled).
	Done *time.Time
	// Started is when the job was last claimed.
	Started *time.Time
	// CancelRequested is when cancellation was asked for.
	CancelRequested *time.Time
}

// JobStats describe the queue, for metrics and health checks.
type JobStats struct {
	Queued    int           // due or future jobs that have not ended and are not running
	Running   int           // jobs held by a live lease
	Failed    int           // jobs that ended in failure (not cancelled)
	OldestDue time.Duration // how long the oldest due, unclaimed job has waited; 0 when none
}

// JobSchedule enqueues a job of Kind every Every.
type JobSchedule struct {
	Name    string
	Kind    string
	Payload string
	Every   time.Duration
	NextRun time.Time
}

// ErrJobCancelled is the last error recorded for a cancelled job.
const ErrJobCancelled = "cancelled"

// Job kinds.
const (
	// JobPurgeSpace removes a deleted space for good once it has been
	// deleted for SpaceRetention. Payload: {"space": ID}.
	JobPurgeSpace = "purge-space"
	// JobImportContent imports content into a space. The request that
	// starts it runs it at once and holds its lease; the job runner runs it
	// again only if that server stopped before it finished.
	JobImportContent = "import-content"
	// JobPrintPDF prints a revision (or part of it) to PDF with headless
	// Chromium and stores it in the blob store. The request that first
	// asks for the PDF starts it and holds its lease, as imports do.
	// Payload: the print target (space, revision, change request, page).
	JobPrintPDF = "print-pdf"
	// JobGitSync runs one git import or export of a space. Jobs of one
	// space share a concurrency key: they run one at a time, in order.
	// Payload: {"operation": ID}.
	JobGitSync = "git-sync"
	// JobProcessOpenAPI fetches, parses and bundles an OpenAPI
	// specification into a new version when its content changed.
	// Payload: {"spec": ID}; jobs of one specification run in order.
	JobProcessOpenAPI = "process-openapi"
	// JobRefreshOpenAPI queues the processing of URL-sourced
	// specifications due for a refresh (the "openapi-refresh" schedule).
	JobRefreshOpenAPI = "refresh-openapi"
	// JobTranslate runs a translation. Payload: {"translation", "org",
	// "user"}; runs of one translation never overlap.
	JobTranslate = "translate"
	// JobDeliverWebhook sends one webhook delivery (one attempt; a retry
	// is a new job at its backoff time). Payload: {"delivery": ID}.
	JobDeliverWebhook = "deliver-webhook"
	// JobDispatchIntegrationEvent tells an installation about an event:
	// through the integration's development tunnel, or by running its
	// script. Payload: {"integration", "event"}.
	JobDispatchIntegrationEvent = "dispatch-integration-event"
	// JobCollectGarbage purges overdue deleted spaces, removes objects
	// and blobs nothing reaches and prunes old history (the "gc"
	// schedule; docs/garbage-collection.md). Payload: {}.
	JobCollectGarbage = "collect-garbage"
)

// SpaceRetention is how long a deleted space can be restored.
const SpaceRetention = 7 * 24 * time.Hour
