package folio

import "time"

// Revision types, as in the GitBook reference.
const (
	RevisionEdits    = "edits"
	RevisionMerge    = "merge"
	RevisionRollback = "rollback"
	RevisionUpdate   = "update"
)

// Revision is an immutable snapshot of a space's content. TreeHash addresses
// its page tree, files and variables in the object store
// (docs/content-design.md).
type Revision struct {
	ID        ID
	SpaceID   ID
	TreeHash  string
	Parents   []ID
	Type      string
	Git       *GitCommit
	CreatedBy ID
	CreatedAt time.Time
}

// GitCommit is the git commit a revision came from (GitSyncCommit).
type GitCommit struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByGitBook bool   `json:"createdByGitBook"`
	URL              string `json:"url,omitempty"`
	Ref              string `json:"ref,omitempty"`
}

// Content read options shared by the content endpoints.
type ContentOptions struct {
	// Metadata false leaves out git metadata ("metadata" query flag).
	Metadata bool
	// Computed false skips computed content ("computed" query flag).
	Computed bool
}

// Document formats of a page read.
const (
	FormatDocument = "document"
	FormatMarkdown = "markdown"
)

// PageOptions are the options of a page read.
type PageOptions struct {
	ContentOptions
	Format       string // "" (no body), FormatDocument or FormatMarkdown
	Evaluated    string // "", "true" or "deterministic-only"
	Dereferenced string // "", "true" or "reusable-contents"
}
