package web

import (
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/reader"
)

// historyRoutes are the pages and forms of a space's history: comparing
// two revisions, a page as it was and restoring it, bringing main into a
// change request, archiving and reopening one, and moving pages by drag
// and drop.
func (h *Handler) historyRoutes() {
	h.handle("GET /s/{space}/~/revisions/compare", signedIn, h.compareRevisions)
	h.handle("GET /s/{space}/~/revisions/{revision}/pages/{page}", signedIn, h.revisionPage)
	h.handle("POST /s/{space}/~/revisions/{revision}/pages/{page}/restore", signedIn, h.restorePage)
	h.handle("POST /s/{space}/~/changes/{number}/update", signedIn, h.updateFromMain)
	h.handle("POST /s/{space}/~/changes/{number}/status", signedIn, h.setChangeRequestStatus)
	h.handle("POST /s/{space}/~/changes/{number}/pages/{page}/take-main", signedIn, h.takeMainVersion)
	h.handle("POST /s/{space}/~/pages/{page}/move", signedIn, h.movePageTo)
}

// revisionOption is a revision offered in the compare form.
type revisionOption struct {
	ID, Label, Author string
	When              time.Time
	Selected          bool
}

// revisionSide is one end of a comparison.
type revisionSide struct {
	ID, Href, Label, Author string
	When                    time.Time
}

// compareView compares two revisions page by page.
type compareView struct {
	From, To   revisionSide
	FromOpts   []revisionOption
	ToOpts     []revisionOption
	Changes    []pageDiff
	Same       bool
	Restorable bool // the caller may restore pages (links offered)
}

// pageDiff is what happened to one page between two versions; for
// documents, its blocks marked added, removed, changed or kept.
type pageDiff struct {
	ID, Kind, Title, Summary string
	Href, HrefLabel          string // the page as it was in the "to" revision (the "from" one when removed)
	Blocks                   []cmpBlock
	TooLarge                 *tooLarge // the versions are too different to show block by block
}

// cmpBlock is a top-level block of a compared document. A changed block
// holds its old version in Old.
type cmpBlock struct {
	Op   string // "added", "removed", "changed", "same"
	HTML template.HTML
	Old  template.HTML
}

// compareRevisions shows what changed from one revision to another: the
// form (two selects, default the two latest) and the page-by-page diff.
func (h *Handler) compareRevisions(w http.ResponseWriter, r *http.Request, q *req) error {
	v, _, err := h.spaceFrame(r, q, "history")
	if err != nil {
		return err
	}
	hist, err := h.app.ListHistory(r.Context(), q.caller, v.Space.ID, historyLimit)
	if err != nil {
		return err
	}
	from, to := r.URL.Query().Get("from"), r.URL.Query().Get("to")
	if from == "" && to == "" && len(hist) > 1 {
		from, to = hist[1].ID, hist[0].ID
	}
	if from == "" || to == "" {
		return folio.Errorf(folio.Invalid, "choose two revisions to compare")
	}
	a, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, from)
	if err != nil {
		return err
	}
	b, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, to)
	if err != nil {
		return err
	}
	cv := compareView{Restorable: v.CanEdit}
	labels := map[folio.ID]revisionSide{}
	for _, e := range hist {
		s := revisionSide{ID: e.ID, Label: revisionLabel(e.Type), When: e.CreatedAt}
		if e.Author != nil {
			s.Author = e.Author.DisplayName
		}
		labels[e.ID] = s
		cv.FromOpts = append(cv.FromOpts, revisionOption{ID: e.ID, Label: s.Label, Author: s.Author, When: s.When, Selected: e.ID == from})
		cv.ToOpts = append(cv.ToOpts, revisionOption{ID: e.ID, Label: s.Label, Author: s.Author, When: s.When, Selected: e.ID == to})
	}
	side := func(c *app.Content) revisionSide {
		s, ok := labels[c.Revision.ID]
		if !ok { // not on the main line (a change request's), or older
			s = revisionSide{ID: c.Revision.ID, Label: revisionLabel(c.Revision.Type), When: c.Revision.CreatedAt}
			if u, err := h.app.GetUser(r.Context(), q.caller, c.Revision.CreatedBy); err == nil {
				s.Author = u.DisplayName
			}
		}
		s.Href = v.Href + "/~/revisions/" + c.Revision.ID
		return s
	}
	cv.From, cv.To = side(a), side(b)
	for _, s := range []revisionSide{cv.From, cv.To} {
		if _, ok := labels[s.ID]; !ok {
			o := revisionOption{ID: s.ID, Label: s.Label, Author: s.Author, When: s.When}
			cv.FromOpts = append(cv.FromOpts, o)
			cv.ToOpts = append(cv.ToOpts, o)
			cv.FromOpts[len(cv.FromOpts)-1].Selected = s.ID == from
			cv.ToOpts[len(cv.ToOpts)-1].Selected = s.ID == to
		}
	}
	if cv.Changes, err = h.pageDiffs(r, q, v.Href, a, b); err != nil {
		return err
	}
	cv.Same = len(cv.Changes) == 0
	v.Body = cv
	h.render(w, http.StatusOK, "historycompare", q, "Compare revisions · "+v.Space.Title, v)
	return nil
}

// pageDiffs lists what changed in the pages from content a to content b,
// with the blocks of every document that changed.
func (h *Handler) pageDiffs(r *http.Request, q *req, spaceHref string, a, b *app.Content) ([]pageDiff, error) {
	var out []pageDiff
	for _, c := range content.Diff(a.Tree, b.Tree) {
		if c.PageID == "" {
			continue // files
		}
		pd := pageDiff{ID: c.PageID, Kind: string(c.Kind)}
		page := c.Page
		if page == nil {
			if n, ok := a.Node(c.PageID); ok {
				page = n.Page
			}
		}
		if page != nil {
			pd.Title = page.Title
			if page.Type == content.PageLink {
				continue
			}
		}
		pd.Href, pd.HrefLabel = spaceHref+"/~/revisions/"+b.Revision.ID+"/pages/"+c.PageID, "This page as it was in the “to” revision"
		if c.Kind == content.Removed {
			pd.Href, pd.HrefLabel = spaceHref+"/~/revisions/"+a.Revision.ID+"/pages/"+c.PageID, "This page as it was in the “from” revision"
		}
		var before, after *content.Document
		var err error
		switch c.Kind {
		case content.Added:
			pd.Summary = "New page"
		case content.Removed:
			pd.Summary = "Page removed"
		case content.Moved:
			pd.Summary = "Page moved"
		case content.Modified:
			pd.Summary = "Page changed"
			switch {
			case c.Fields.Has(content.FieldDocument):
				pd.Summary = "Content changed"
			case c.Fields.Has(content.FieldMetadata):
				pd.Summary = "Title or settings changed"
			case c.Fields.Has(content.FieldPosition):
				pd.Summary = "Page moved"
			}
		}
		if page != nil && page.Type == content.PageDocument {
			if c.Kind == content.Removed || c.Kind != content.Added && c.Fields.Has(content.FieldDocument) {
				if before, err = h.document(r, q, a.Space.ID, a.Revision.ID, c.PageID); err != nil {
					return nil, err
				}
			}
			if c.Kind == content.Added || c.Kind != content.Removed && c.Fields.Has(content.FieldDocument) {
				if after, err = h.document(r, q, b.Space.ID, b.Revision.ID, c.PageID); err != nil {
					return nil, err
				}
			}
			if before != nil || after != nil {
				// Pages are <h2> here: their documents' headings start at <h3>.
				d, err := diffDocuments(before, after, a, b, spaceHref, 3)
				if err != nil {
					return nil, err
				}
				from, to := a.Revision.ID, b.Revision.ID
				if before == nil {
					from = ""
				}
				if after == nil {
					to = ""
				}
				pd.Blocks, pd.TooLarge = pairChanged(d.Blocks), d.note(spaceHref, from, to, c.PageID)
			}
		}
		out = append(out, pd)
	}
	return out, nil
}

// pairChanged turns each run of removed blocks followed by added ones into
// changed blocks (old and new side by side), pair by pair; what is left
// stays removed or added.
func pairChanged(in []diffBlock) []cmpBlock {
	var out []cmpBlock
	for i := 0; i < len(in); {
		if in[i].Op != "removed" {
			out = append(out, cmpBlock{Op: in[i].Op, HTML: in[i].HTML})
			i++
			continue
		}
		j := i
		for j < len(in) && in[j].Op == "removed" {
			j++
		}
		k := j
		for k < len(in) && in[k].Op == "added" {
			k++
		}
		removed, added := in[i:j], in[j:k]
		n := min(len(removed), len(added))
		for x := range n {
			out = append(out, cmpBlock{Op: "changed", Old: removed[x].HTML, HTML: added[x].HTML})
		}
		for _, b := range removed[n:] {
			out = append(out, cmpBlock{Op: "removed", HTML: b.HTML})
		}
		for _, b := range added[n:] {
			out = append(out, cmpBlock{Op: "added", HTML: b.HTML})
		}
		i = k
	}
	return out
}

// revisionPageView is a page as it was in a revision, with the restore
// form when the caller may restore it.
type revisionPageView struct {
	Revision revisionSide
	Current  bool // the revision is the space's current one
	PageID   string
	Title    string
	Emoji    string
	HTML     template.HTML
	Empty    bool
	Group    bool
	// Restore form: offered to editors of an unlocked space.
	CanRestore  bool
	RestoreHref string
	LiveOK      bool // the page differs from the live one
	Targets     []pageOption
	LockedNote  bool
}

// revisionPage shows a document page as it was in a revision, and offers
// to restore it.
func (h *Handler) revisionPage(w http.ResponseWriter, r *http.Request, q *req) error {
	v, cur, err := h.spaceFrame(r, q, "history")
	if err != nil {
		return err
	}
	c, err := h.app.GetContent(r.Context(), q.caller, v.Space.ID, r.PathValue("revision"))
	if err != nil {
		return err
	}
	pageID := r.PathValue("page")
	n, ok := c.Node(pageID)
	if !ok || n.Page.Type == content.PageLink {
		return folio.Errorf(folio.NotFound, "page not found")
	}
	pv := revisionPageView{Current: c.Revision.ID == cur.Revision.ID, PageID: pageID, Title: n.Page.Title, Emoji: n.Page.Emoji,
		Revision: revisionSide{ID: c.Revision.ID, Href: v.Href + "/~/revisions/" + c.Revision.ID, Label: revisionLabel(c.Revision.Type),
			When: c.Revision.CreatedAt}}
	if u, err := h.app.GetUser(r.Context(), q.caller, c.Revision.CreatedBy); err == nil {
		pv.Revision.Author = u.DisplayName
	}
	if n.Page.Type == content.PageDocument {
		doc, err := h.document(r, q, v.Space.ID, c.Revision.ID, pageID)
		if err != nil {
			return err
		}
		if doc != nil && len(doc.Nodes) > 0 {
			if pv.HTML, err = reader.RenderDocument(doc, fileURL(c), pageURL(c, v.Href)); err != nil {
				return err
			}
		}
	}
	pv.Empty, pv.Group = pv.HTML == "", n.Page.Type == content.PageGroup
	pv.LockedNote = v.Locked && v.Space.CallerRole.AtLeast(folio.RoleEdit)
	if v.CanEdit && n.Page.Type == content.PageDocument {
		pv.CanRestore = true
		pv.RestoreHref = r.URL.Path + "/restore"
		live, ok := cur.Node(pageID)
		pv.LiveOK = !ok || live.Page.Document != n.Page.Document || live.Page.Title != n.Page.Title || live.Page.Emoji != n.Page.Emoji
		for _, status := range []string{folio.ChangeRequestOpen, folio.ChangeRequestDraft} {
			l, err := h.app.ListChangeRequests(r.Context(), q.caller, v.Space.ID, folio.ChangeRequestFilter{Status: status},
				folio.ListOptions{Limit: 50})
			if err != nil {
				return err
			}
			for _, cr := range l.Items {
				n := strconv.FormatInt(cr.Number, 10)
				title := "#" + n + " " + cr.Subject
				if cr.Subject == "" {
					title = "#" + n + " Change request"
				}
				pv.Targets = append(pv.Targets, pageOption{ID: n, Title: title})
			}
		}
	}
	v.Body = pv
	h.render(w, http.StatusOK, "historypage", q, n.Page.Title+" (earlier version) · "+v.Space.Title, v)
	return nil
}
