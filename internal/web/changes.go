package web

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/reader"
)

// crListView is the change requests tab: one status at a time.
type crListView struct {
	Status   string
	Statuses []statusTab
	Items    []crItem
	CanOpen  bool // the caller may open a change request
}

type statusTab struct {
	Status, Label, Href string
	Current             bool
}

type crItem struct {
	Number         int64
	Subject, Href  string
	Author, Status string
	Updated        time.Time
	Comments       int
}

var crStatuses = []struct{ status, label string }{
	{folio.ChangeRequestOpen, "Open"}, {folio.ChangeRequestDraft, "Draft"},
	{folio.ChangeRequestMerged, "Merged"}, {folio.ChangeRequestArchived, "Archived"},
}

func (h *Handler) changeRequests(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "changes")
	if err != nil {
		return err
	}
	status := r.URL.Query().Get("status")
	if status == "" {
		status = folio.ChangeRequestOpen
	}
	lv := crListView{Status: status, CanOpen: v.CanPropose}
	known := false
	for _, s := range crStatuses {
		lv.Statuses = append(lv.Statuses, statusTab{Status: s.status, Label: s.label, Href: v.Href + "/~/changes?status=" + s.status,
			Current: s.status == status})
		known = known || s.status == status
	}
	if !known {
		return folio.Errorf(folio.Invalid, "status must be open, draft, merged or archived")
	}
	l, err := h.app.ListChangeRequests(r.Context(), q.caller, v.Space.ID, folio.ChangeRequestFilter{Status: status},
		folio.ListOptions{Limit: 100})
	if err != nil {
		return err
	}
	for _, cr := range l.Items {
		it := crItem{Number: cr.Number, Subject: cr.Subject, Href: v.Href + "/~/changes/" + strconv.FormatInt(cr.Number, 10),
			Status: cr.Status, Updated: cr.UpdatedAt, Comments: cr.Comments}
		if cr.Creator != nil {
			it.Author = cr.Creator.DisplayName
		}
		if it.Subject == "" {
			it.Subject = "Change request #" + strconv.FormatInt(cr.Number, 10)
		}
		lv.Items = append(lv.Items, it)
	}
	v.Body = lv
	h.render(w, http.StatusOK, "changes", q, "Change requests · "+v.Space.Title, v)
	return nil
}

// crView is one change request: its description and page-by-page diff.
type crView struct {
	Number      int64
	Subject     string
	Status      string
	Author      string
	Created     time.Time
	Outdated    bool
	Description template.HTML
	Changes     []pageChange
	Discussion  *discussion // the threads on no block of the diff
	Reviews     *reviewPanel
	Actions     crActions
}

// pageChange is what a change request does to one page; for an edited
// document, its blocks marked added, removed or kept.
type pageChange struct {
	Kind, Title, Summary string
	PageID               string
	Blocks               []diffBlock
	TooLarge             *tooLarge // the versions are too different to show block by block
}

type diffBlock struct {
	Op   string // "added", "removed", "same"
	HTML template.HTML
	Key  string        // the block key in after ("" for removed blocks)
	C    *blockThreads // its comment threads and controls (comments.go)
}

func (h *Handler) changeRequest(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "changes")
	if err != nil {
		return err
	}
	ref := r.PathValue("number")
	cr, err := h.app.GetChangeRequest(r.Context(), q.caller, v.Space.ID, ref)
	if err != nil {
		return err
	}
	cv := crView{Number: cr.Number, Subject: cr.Subject, Status: cr.Status, Created: cr.CreatedAt, Outdated: cr.Outdated()}
	if cr.Creator != nil {
		cv.Author = cr.Creator.DisplayName
	}
	if cv.Subject == "" {
		cv.Subject = "Change request #" + ref
	}
	if len(cr.Description) > 0 && string(cr.Description) != "null" {
		var d content.Document
		if err := json.Unmarshal(cr.Description, &d); err == nil {
			cv.Description, _ = reader.RenderDocument(&d, func(string) string { return "" }, func(string, string) string { return "" })
		}
	}
	ch, err := h.app.GetChangeRequestChanges(r.Context(), q.caller, v.Space.ID, ref)
	if err != nil {
		return err
	}
	for _, c := range ch.Changes {
		if c.PageID == "" {
			continue // files: part 2 shows them
		}
		pc := pageChange{Kind: string(c.Kind), PageID: c.PageID}
		page := c.Page
		if page == nil { // removed: the page as it was (as history compare does)
			if n, ok := ch.Base.Node(c.PageID); ok {
				page = n.Page
			}
		}
		if page != nil {
			pc.Title = page.Title
		}
		switch c.Kind {
		case content.Added:
			pc.Summary = "New page"
		case content.Removed:
			pc.Summary = "Page removed"
		case content.Moved:
			pc.Summary = "Page moved"
		case content.Modified:
			pc.Summary = "Page changed"
			if c.Fields.Has(content.FieldMetadata) {
				pc.Summary = "Title or settings changed"
			}
		}
		removedDoc := c.Kind == content.Removed && page != nil && page.Type == content.PageDocument
		if c.Kind == content.Added || c.Kind == content.Modified && c.Fields.Has(content.FieldDocument) || removedDoc {
			var before, after *content.Document
			if c.Kind != content.Added {
				if before, err = h.document(r, q, v.Space.ID, ch.Base.Revision.ID, c.PageID); err != nil {
					return err
				}
			}
			if c.Kind != content.Removed {
				if after, err = h.document(r, q, v.Space.ID, ch.Head.Revision.ID, c.PageID); err != nil {
					return err
				}
			}
			// Pages are <h3> here: their documents' headings start at <h4>.
			d, err := diffDocuments(before, after, ch.Base, ch.Head, v.Href, 4)
			if err != nil {
				return err
			}
			from, to := ch.Base.Revision.ID, ch.Head.Revision.ID
			if before == nil {
				from = ""
			}
			if after == nil {
				to = ""
			}
			pc.Blocks, pc.TooLarge = d.Blocks, d.note(v.Href, from, to, c.PageID)
			if c.Kind == content.Modified {
				pc.Summary = "Content changed"
			}
		}
		cv.Changes = append(cv.Changes, pc)
	}
	if err := h.crThreads(r, q, v, cr, &cv, ch.Head); err != nil {
		return err
	}
	if cv.Actions, err = h.crActionsFor(r, q, v, cr, ch.Head); err != nil {
		return err
	}
	if cv.Reviews, err = h.reviewPanelFor(r, q, v, cr); err != nil {
		return err
	}
	v.Body = cv
	h.render(w, http.StatusOK, "changerequest", q, cv.Subject+" · "+v.Space.Title, v)
	return nil
}

// docDiff is two versions of a page compared block by block.
type docDiff struct {
	Blocks []diffBlock
	// TooLarge: the versions differ in more than maxDiffEdits blocks and
	// Blocks is empty; Before and After count their top-level blocks.
	TooLarge      bool
	Before, After int
}

// tooLarge is a page whose versions differ in too many blocks to show
// them one by one: the page counts their blocks and links to both
// versions.
type tooLarge struct {
	Before, After         int
	BeforeHref, AfterHref string // "" when the page is not in that version
}

// note returns the tooLarge of a diff that is too large, nil otherwise.
// from and to are the revisions of before and after ("" for none).
func (d docDiff) note(spaceHref, from, to, pageID string) *tooLarge {
	if !d.TooLarge {
		return nil
	}
	n := &tooLarge{Before: d.Before, After: d.After}
	if from != "" {
		n.BeforeHref = spaceHref + "/~/revisions/" + from + "/pages/" + pageID
	}
	if to != "" {
		n.AfterHref = spaceHref + "/~/revisions/" + to + "/pages/" + pageID
	}
	return n
}

// diffDocuments renders the top-level blocks of two versions of a page
// (reader.RenderDiffBlocks: the documents' highest heading at <h{level}>,
// no ids) and marks them by a shortest edit script of their HTML
// (blockDiff): blocks only in before are removed, only in after added (a
// changed block shows as its old version removed and its new one added).
func diffDocuments(before, after *content.Document, base, head *app.Content, spaceHref string, level int) (docDiff, error) {
	top := min(reader.TopHeading(before), reader.TopHeading(after))
	a, err := reader.RenderDiffBlocks(before, top, level, fileURL(base), pageURL(base, spaceHref))
	if err != nil {
		return docDiff{}, err
	}
	b, err := reader.RenderDiffBlocks(after, top, level, fileURL(head), pageURL(head, spaceHref))
	if err != nil {
		return docDiff{}, err
	}
	edits, ok := blockDiff(a, b, maxDiffEdits)
	if !ok {
		return docDiff{TooLarge: true, Before: len(a), After: len(b)}, nil
	}
	out := make([]diffBlock, len(edits))
	for x, e := range edits {
		switch e.op {
		case '=':
			out[x] = diffBlock{Op: "same", HTML: a[e.i], Key: after.Nodes[e.j].Key}
		case '-':
			out[x] = diffBlock{Op: "removed", HTML: a[e.i]}
		default:
			out[x] = diffBlock{Op: "added", HTML: b[e.j], Key: after.Nodes[e.j].Key}
		}
	}
	return docDiff{Blocks: out, Before: len(a), After: len(b)}, nil
}

// historyView is the space's history: revisions with author and time.
type historyView struct {
	Entries []historyEntry
}

type historyEntry struct {
	ID, Href, Type, Author string
	When                   time.Time
	Current                bool
}

const historyLimit = 100

func (h *Handler) history(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "history")
	if err != nil {
		return err
	}
	l, err := h.app.ListHistory(r.Context(), q.caller, v.Space.ID, historyLimit)
	if err != nil {
		return err
	}
	var hv historyView
	for i, e := range l {
		he := historyEntry{ID: e.ID, Href: v.Href + "/~/revisions/" + e.ID, Type: revisionLabel(e.Type), When: e.CreatedAt, Current: i == 0}
		if e.Author != nil {
			he.Author = e.Author.DisplayName
		}
		hv.Entries = append(hv.Entries, he)
	}
	v.Body = hv
	h.render(w, http.StatusOK, "history", q, "History · "+v.Space.Title, v)
	return nil
}

func revisionLabel(t string) string {
	switch t {
	case folio.RevisionMerge:
		return "Merged a change request"
	case folio.RevisionRollback:
		return "Restored an earlier version"
	case folio.RevisionUpdate:
		return "Updated"
	}
	return "Edited"
}

// revisionView is one revision: its page tree, read-only.
type revisionView struct {
	ID     string
	Author string
	When   time.Time
	Pages  []*pageItem
}

func (h *Handler) revision(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "history")
	if err != nil {
		return err
	}
	c, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, r.PathValue("revision"))
	if err != nil {
		return err
	}
	rv := revisionView{ID: c.Revision.ID, When: c.Revision.CreatedAt}
	if u, err := h.app.GetUser(r.Context(), q.caller, c.Revision.CreatedBy); err == nil {
		rv.Author = u.DisplayName
	}
	var build func(pages []*content.Page) []*pageItem
	build = func(pages []*content.Page) []*pageItem {
		var out []*pageItem
		for _, p := range pages {
			it := &pageItem{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Type: p.Type, Children: build(p.Pages)}
			if p.Type == content.PageDocument {
				it.Href = v.Href + "/~/revisions/" + c.Revision.ID + "/pages/" + p.ID
			}
			out = append(out, it)
		}
		return out
	}
	rv.Pages = build(c.Tree.Pages)
	v.Body = rv
	h.render(w, http.StatusOK, "revision", q, "Revision · "+v.Space.Title, v)
	return nil
}
