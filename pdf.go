package folio

import "time"

// PDFExport is the state of the PDF of one printed variant of a revision.
type PDFExport struct {
	SpaceID    ID
	RevisionID ID
	// Variant names what was printed: the whole space, a page with its
	// subpages, or one page alone, in a change request or not.
	Variant   string
	Status    string // PDFPending, PDFDone or PDFFailed
	Error     string // why the last attempt failed
	Size      int64  // bytes of the stored PDF
	UpdatedAt time.Time
}

// PDF export states.
const (
	PDFPending = "pending"
	PDFDone    = "done"
	PDFFailed  = "failed"
)
