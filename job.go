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
}

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
)

// SpaceRetention is how long a deleted space can be restored.
const SpaceRetention = 7 * 24 * time.Hour
