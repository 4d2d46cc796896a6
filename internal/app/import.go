package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
	"github.com/foliodocs/folio/internal/netguard"
	"github.com/foliodocs/folio/internal/store"
)

// DefaultImportFetchTimeout bounds fetching an imported URL, body included.
const DefaultImportFetchTimeout = 60 * time.Second

// Size caps of fetched import sources.
const (
	maxImportDocument = 10 << 20  // one Markdown or HTML document
	maxImportArchive  = 200 << 20 // a zip archive
)

// Import sources (ImportContentSource). Only the first four are supported.
var (
	importSources      = map[string]bool{"markdown": true, "html": true, "zip": true, "website": true}
	knownImportSources = map[string]bool{"docx": true, "confluence": true, "github-wiki": true, "notion": true, "google-docs": true}
)

// ImportInput is the body of an import (ImportContent).
type ImportInput struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

// ImportResult is what an import created (ImportContentResult): its
// revision exists when the result is returned.
type ImportResult struct {
	SpaceID    folio.ID
	RevisionID folio.ID
	// ChangeRequestID is set for an import into a change request, which
	// leaves the space's indexes alone.
	ChangeRequestID folio.ID
	Imported        int // pages and files imported
	Total           int // pages and files processed
}

// importLease is how long an import may run before another server takes
// over its job, taken to have died with its server.
const importLease = 30 * time.Minute

// importJob is the payload of a JobImportContent job.
type importJob struct {
	Space  folio.ID `json:"space"`
	Page   string   `json:"page,omitempty"`
	URL    string   `json:"url"`
	Source string   `json:"source"`
	User   folio.ID `json:"user"`
	Org    folio.ID `json:"org,omitempty"` // the caller's token scope
	// Installation is the grant of an installation token that asked for
	// the import (no user then).
	Installation *folio.InstallationGrant `json:"installation,omitempty"`
	Revision     folio.ID                 `json:"revision"`
	// ChangeRequest, when set, is the change request whose head the
	// import advances; the live space is then left alone.
	ChangeRequest folio.ID `json:"changeRequest,omitempty"`
}

func (in *ImportInput) validate() (*url.URL, error) {
	if in.Source == "" {
		return nil, folio.FieldErrorf("source", "source is required")
	}
	if knownImportSources[in.Source] {
		return nil, folio.FieldErrorf("source", "importing from %s is not supported by this server; use markdown, html, zip or website", in.Source)
	}
	if !importSources[in.Source] {
		return nil, folio.FieldErrorf("source", "source must be one of markdown, html, zip or website (the sources this server supports)")
	}
	if in.URL == "" {
		return nil, folio.FieldErrorf("url", "url is required")
	}
	u, err := url.Parse(in.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "data") || (u.Scheme != "data" && u.Host == "") {
		return nil, folio.FieldErrorf("url", "url must be an absolute http, https or data URL")
	}
	if u.User != nil {
		// The URL is kept with the import's job: no credentials in it.
		return nil, folio.FieldErrorf("url", "url must not carry credentials")
	}
	return u, nil
}

// requireEditable is the check of every write to a space's live content:
// the caller may edit and the space is neither locked nor deleted. A locked
// space takes its edits through change requests (requireEditor).
func requireEditable(sv *folio.SpaceView) error {
	if sv.DeletedAt != nil {
		return errSpaceNotFound
	}
	if sv.EditMode == folio.EditModeLocked {
		return folio.Errorf(folio.Forbidden, "the space is locked: edit it in a change request, or unlock it")
	}
	return require(sv.Permissions().Edit, "you cannot edit this space's content")
}

// requireEditor is the check of opening or changing a change request: the
// caller may edit and the space is not deleted, locked or not.
func requireEditor(sv *folio.SpaceView) error {
	if sv.DeletedAt != nil {
		return errSpaceNotFound
	}
	return require(sv.Permissions().Edit, "you cannot edit this space's content")
}

// ImportContent imports a document or an archive fetched from in.URL into a
// space as a new revision: at the end of its top level, or into a page when
// pageID is set. Nothing changes when any step fails.
func (a *App) ImportContent(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID string, in ImportInput) (*ImportResult, error) {
	// Check access before anything else: before fetching on the caller's
	// behalf, and before the body, which only those who may import learn
	// anything about.
	base, err := a.GetContent(ctx, caller, spaceID, "")
	if err != nil {
		return nil, err
	}
	if err := requireEditable(base.Space); err != nil {
		return nil, err
	}
	if pageID != "" {
		if n, ok := base.Node(pageID); !ok || n.Page.Type == content.PageLink {
			return nil, errPageNotFound
		}
	}
	u, err := in.validate()
	if err != nil {
		return nil, err
	}
	job := importJob{Space: spaceID, Page: pageID, URL: u.String(), Source: in.Source, User: caller.UserID,
		Org: caller.Org, Installation: caller.Installation, Revision: folio.NewID()}
	return a.startImport(ctx, job)
}

// startImport records an import as a job and runs it, answering with its
// outcome. The job names its revision up front, so that a run again by
// another server, after this one stopped, makes the same revision once.
func (a *App) startImport(ctx context.Context, job importJob) (*ImportResult, error) {
	payload, _ := json.Marshal(job)
	var jobID folio.ID
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		jobID, err = store.StartJob(ctx, tx, folio.JobImportContent, string(payload), importLease)
		return err
	})
	if err != nil {
		return nil, err
	}
	// The request answers with the import's outcome: every step is bounded
	// (the fetch by fetchTimeout, conversion linear in a bounded input), so
	// a 201 always names a revision that exists and a failed fetch answers
	// 4xx. The import goes on if the client leaves; its job records the
	// outcome, and another server retries it if this one stops.
	done := make(chan *ImportResult, 1)
	fail := make(chan error, 1)
	go func() {
		bg := context.WithoutCancel(ctx)
		res, err := a.runImport(bg, job)
		a.recordJob(bg, jobID, err)
		if err != nil {
			fail <- err
			return
		}
		done <- res
		a.tidyAfter(bg, res)
	}()
	select {
	case res := <-done:
		return res, nil
	case err := <-fail:
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err() // the client left: nobody reads an answer
	}
}

// revisionExists reports whether a space has a revision.
func (a *App) revisionExists(ctx context.Context, spaceID, revisionID folio.ID) bool {
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		_, err := store.GetRevision(ctx, tx, spaceID, revisionID)
		return err
	})
	return err == nil
}

// recordJob records the outcome of a job this server ran itself. A failure
// is final: the client was told, or the error is kept on the job.
func (a *App) recordJob(ctx context.Context, id folio.ID, jobErr error) {
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		if jobErr == nil {
			return store.FinishJob(ctx, tx, id)
		}
		return store.FailJob(ctx, tx, id, jobErr.Error(), tx.Now, true)
	})
	if err != nil {
		a.logger.Error("record job", "job", id, "error", err.Error())
	}
	if jobErr != nil && folio.KindOf(jobErr) == folio.Internal {
		a.logger.Error("job failed", "job", id, "error", jobErr.Error())
	}
}

// ImportContentJob runs an import job again, after the server that started
// it stopped before recording its outcome.
func (a *App) ImportContentJob(ctx context.Context, payload string) error {
	var job importJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "import job payload: %v", err)
	}
	res, err := a.runImport(ctx, job)
	a.tidyAfter(ctx, res)
	return err
}

// runImport fetches, converts and commits an import as the revision the
// job names. It is idempotent: a revision already made is kept.
func (a *App) runImport(ctx context.Context, job importJob) (*ImportResult, error) {
	caller := folio.Caller{UserID: job.User, Org: job.Org, Installation: job.Installation}
	res := &ImportResult{SpaceID: job.Space, RevisionID: job.Revision, ChangeRequestID: job.ChangeRequest}
	if a.revisionExists(ctx, job.Space, job.Revision) {
		return res, nil // done before this run
	}
	u, err := url.Parse(job.URL)
	if err != nil {
		return nil, folio.FieldErrorf("url", "url is not valid")
	}
	limit := int64(maxImportDocument)
	if job.Source == "zip" {
		limit = maxImportArchive
	}
	body, name, err := a.fetch(ctx, u, limit)
	if err != nil {
		return nil, err
	}
	// A Markdown page's links resolve against the pages of the content it
	// goes into, so it is converted for each base a commit attempt reads;
	// the other sources are converted once.
	var snap *content.Snapshot
	if job.Source != "markdown" {
		if snap, err = parseImport(job.Source, body, name); err != nil {
			return nil, err
		}
		body = nil // converted: the source is not needed any more
		if job.Page == "" && len(snap.Tree.ReusableContents) == 0 {
			finishImported(snap)
		}
	}
	graftInto := func(base *Content) (*content.Snapshot, error) {
		if job.Page != "" {
			if n, ok := base.Node(job.Page); !ok || n.Page.Type == content.PageLink {
				return nil, errPageNotFound
			}
		}
		s := snap
		if job.Source == "markdown" {
			var err error
			s, err = importer.MarkdownInto(body, strings.TrimSuffix(name, ".md"), importer.Into{Tree: base.Tree, PageID: job.Page})
			if err != nil {
				return nil, err
			}
		}
		res.Imported = len(content.Nodes(s.Tree)) + len(s.Tree.Files)
		res.Total = res.Imported
		return graft(base, job.Page, s)
	}
	if job.ChangeRequest != "" {
		_, err = a.commitChangeRequest(ctx, caller, job.Space, job.ChangeRequest, job.Revision, graftInto)
	} else {
		_, err = a.commit(ctx, caller, job.Space, edit{check: requireEditable, typ: folio.RevisionEdits, revision: job.Revision, build: graftInto})
	}
	if folio.KindOf(err) == folio.Conflict && a.revisionExists(ctx, job.Space, job.Revision) {
		return res, nil // another run of this job committed it first
	}
	if err != nil {
		return nil, err
	}
	// Searches right after a large import must be planned for its data.
	if res.Imported >= tidyAfterImport && job.ChangeRequest == "" {
		if err := a.db.AnalyzeContentIndex(ctx); err != nil {
			a.logger.Warn("analyze the content indexes after an import", "error", err.Error())
		}
	}
	return res, nil
}

// tidyAfter merges the full-text index segments a large import left, once
// its outcome is sent: the client does not wait for it.
func (a *App) tidyAfter(ctx context.Context, res *ImportResult) {
	if res == nil || res.Imported < tidyAfterImport || res.ChangeRequestID != "" {
		return
	}
	steps, err := a.db.MergeContentIndex(ctx)
	if err != nil {
		a.logger.Warn("merge the content index after an import", "error", err.Error())
		return
	}
	a.logger.Debug("merged the content index after an import", "space", res.SpaceID, "merge_steps", steps)
}

// tidyAfterImport is the size of an import, in pages and files, after
// which the store's content indexes are tidied: planner statistics before
// the import answers, index segments after (store.AnalyzeContentIndex,
// store.MergeContentIndex).
const tidyAfterImport = 1000

// parseImport converts fetched bytes of an HTML or zip source into
// content; Markdown is converted against the content it goes into
// (importer.MarkdownInto).
func parseImport(source string, body []byte, name string) (*content.Snapshot, error) {
	title := strings.TrimSuffix(name, ".md")
	switch source {
	case "html", "website":
		return importer.HTML(body, title)
	case "zip":
		return importer.Zip(bytes.NewReader(body), int64(len(body)), importer.DefaultLimits())
	}
	return nil, folio.FieldErrorf("source", "unsupported source %s", source)
}

// finishImported gives the documents of a freshly converted import, whose
// pages are all new, the keys and anchors finishDocuments would give them
// in each commit attempt: content.Finish with no old document and keys
// derived from the document's hash. finishDocuments then finds them
// complete and leaves them as they are, so that every attempt shares the
// finished documents instead of holding a finished copy beside each
// original; each original is dropped as soon as its copy exists. snap's
// pages are pointed at the finished documents in place: snap must be the
// import's own. An import into a page is left to finishDocuments: its
// first document replaces the page's, whose keys Finish carries over.
func finishImported(snap *content.Snapshot) {
	finished := make(map[content.Hash]*content.Document, len(snap.Documents))
	renamed := make(map[content.Hash]content.Hash, len(snap.Documents))
	var walk func(pages []*content.Page)
	walk = func(pages []*content.Page) {
		for _, p := range pages {
			if nh, ok := renamed[p.Document]; ok {
				p.Document = nh
			} else if d := snap.Documents[p.Document]; d != nil {
				h := p.Document
				f, changed := content.Finish(d, nil, content.DerivedKeys(h))
				nh := h
				if changed {
					nh = content.HashDocument(f)
				}
				delete(snap.Documents, h)
				finished[nh], renamed[h], p.Document = f, nh, nh
			}
			walk(p.Pages)
		}
	}
	walk(snap.Tree.Pages)
	// Documents no page points at (none an importer makes) stay as they
	// are, as finishDocuments leaves them.
	for h, d := range snap.Documents {
		if _, ok := finished[h]; !ok {
			finished[h] = d
		}
	}
	snap.Documents = finished
}

// graft returns base's content with snap added: at the end of the top
// level, or into the page pageID, whose document the first imported page
// replaces and under which the other imported pages go.
func graft(base *Content, pageID string, snap *content.Snapshot) (*content.Snapshot, error) {
	out := &content.Snapshot{Documents: snap.Documents, Blobs: snap.Blobs}
	imported := snap.Tree.Pages
	var t *content.Tree
	if pageID == "" {
		t = base.Tree.Fork()
		t.Pages = append(t.Pages, imported...)
	} else {
		var err error
		t, err = base.Tree.EditAt(base.chain(pageID), pageID, func(p *content.Page) {
			rest := imported
			if p.Type == content.PageDocument && len(imported) > 0 {
				first := imported[0]
				if first.Type == content.PageDocument {
					p.Document = first.Document
					p.Pages = append(p.Pages, first.Pages...)
					rest = imported[1:]
				}
			}
			for _, r := range rest {
				if r.Type == content.PageGroup {
					// Groups live only at the top level: under a page, a
					// group's children come in its place.
					p.Pages = append(p.Pages, r.Pages...)
					continue
				}
				p.Pages = append(p.Pages, r)
			}
		})
		if err != nil {
			return nil, errPageNotFound
		}
	}
	t.Files = append(t.Files, snap.Tree.Files...)
	out.Tree = t
	return out, nil
}

// fetch downloads an import source, at most limit bytes, and returns it
// with a file name taken from the URL.
func (a *App) fetch(ctx context.Context, u *url.URL, limit int64) ([]byte, string, error) {
	if u.Scheme == "data" {
		return decodeDataURL(u.String(), limit)
	}
	ctx, cancel := context.WithTimeout(ctx, a.fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", folio.FieldErrorf("url", "url is not valid")
	}
	req.Header.Set("User-Agent", "folio-import/1")
	resp, err := a.http.Do(req)
	if err != nil {
		if netguard.IsBlocked(err) {
			return nil, "", folio.FieldErrorf("url", "url points to a private network address, which imports may not fetch")
		}
		if isTimeout(err) {
			return nil, "", folio.FieldErrorf("url", "fetching url timed out after %s", a.fetchTimeout)
		}
		return nil, "", folio.FieldErrorf("url", "fetching url failed: %s", describeFetchError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", folio.FieldErrorf("url", "fetching url answered HTTP %d", resp.StatusCode)
	}
	body, err := readBody(resp, limit)
	if err != nil {
		if isTimeout(err) {
			return nil, "", folio.FieldErrorf("url", "fetching url timed out after %s", a.fetchTimeout)
		}
		return nil, "", folio.FieldErrorf("url", "reading url failed: %s", describeFetchError(err))
	}
	if int64(len(body)) > limit {
		return nil, "", folio.Errorf(folio.TooLarge, "the imported content is larger than %d MiB", limit>>20)
	}
	name := u.Path[strings.LastIndex(u.Path, "/")+1:]
	if n, err := url.PathUnescape(name); err == nil {
		name = n
	}
	return body, name, nil
}

// readBody reads at most limit+1 bytes of an answer. When the answer says
// its length, the buffer is allocated once at that size: io.ReadAll's
// growth would leave up to as much again unused, held with the source for
// the whole conversion of a large archive.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	r := io.LimitReader(resp.Body, limit+1)
	n := resp.ContentLength
	if n <= 0 || n > limit {
		return io.ReadAll(r)
	}
	// io.ReadAll's loop, from a buffer of the announced size (+1 for the
	// read that finds the end, or a longer body that passes the limit).
	b := make([]byte, 0, n+1)
	for {
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // longer than announced: grow
		}
	}
}

// isTimeout reports whether a fetch ran out of time.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func describeFetchError(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// decodeDataURL decodes a data: URL (RFC 2397), so that scripts can send
// content inline instead of hosting it.
func decodeDataURL(s string, limit int64) ([]byte, string, error) {
	rest := strings.TrimPrefix(s, "data:")
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, "", folio.FieldErrorf("url", "data URL has no comma before its data")
	}
	if int64(len(data)) > limit*4/3+4 {
		return nil, "", folio.Errorf(folio.TooLarge, "the imported content is larger than %d MiB", limit>>20)
	}
	var body []byte
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(data); err != nil {
				return nil, "", folio.FieldErrorf("url", "data URL is not valid base64")
			}
		}
		body = b
	} else {
		d, err := url.PathUnescape(data)
		if err != nil {
			return nil, "", folio.FieldErrorf("url", "data URL is not validly escaped")
		}
		body = []byte(d)
	}
	if int64(len(body)) > limit {
		return nil, "", folio.Errorf(folio.TooLarge, "the imported content is larger than %d MiB", limit>>20)
	}
	return body, "", nil
}

// NewImportClient returns the client of tenant-supplied URLs (imports,
// webhooks, scripts, OpenAPI and git): netguard's, with the import time
// limit; allowPrivate is the operator's --import-allow-private.
func NewImportClient(allowPrivate bool) *http.Client {
	return netguard.NewClient(DefaultImportFetchTimeout, allowPrivate)
}
