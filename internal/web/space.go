package web

import (
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/reader"
)

// spaceView is the frame of every space page: the space, what the caller
// may do in it, its page tree and which tab is shown.
type spaceView struct {
	Space   folio.SpaceView
	Href    string // "/s/{space}"
	Tab     string // "pages", "changes", "history", "comments"
	Tree    []*pageItem
	CanEdit bool // page tree and content (live, not locked)
	// CanPropose: the caller may open and edit change requests, in live
	// and locked spaces alike (a locked space's edits go there).
	CanPropose bool
	Locked     bool
	Perms      folio.SpacePermissions
	Page       *pageView
	Body       any // the tab's own data
}

// pageItem is a page of the tree.
type pageItem struct {
	ID, Title, Emoji, Href, Type string
	Current                      bool
	Closed                       bool // has subpages, not shown
	Children                     []*pageItem
}

// pageView is the page shown, with what its menu offers.
type pageView struct {
	ID, Title, Emoji, Type, Href string
	HTML                         template.HTML
	Empty                        bool
	CanUp, CanDown, CanIndent    bool
	CanOutdent, HasChildren      bool
	// blocks are HTML's top-level blocks, and keys their block keys.
	blocks []template.HTML
	keys   []string
}

// spaceFrame loads a space's current content and builds the frame.
func (h *Handler) spaceFrame(r *http.Request, q *req, tab string) (*spaceView, *app.Content, error) {
	c, err := h.app.GetContent(r.Context(), q.caller, r.PathValue("space"), "")
	if err != nil {
		return nil, nil, err
	}
	sv := c.Space
	perms := sv.Permissions()
	v := &spaceView{Space: *sv, Href: "/s/" + sv.ID, Tab: tab, Perms: perms,
		Locked: sv.EditMode == folio.EditModeLocked}
	v.CanEdit = perms.Edit && !v.Locked
	v.CanPropose = perms.Edit
	v.Tree = h.tree(c, v.Href, "")
	return v, c, nil
}

// tree builds the page tree shown beside a space: every top-level page,
// and the subpages of the current page and of its ancestors, so a space of
// thousands of pages shows a few hundred links (the rest open as one
// navigates, like a docs site's sidebar).
func (h *Handler) tree(c *app.Content, spaceHref, current string) []*pageItem {
	paths := c.Paths()
	open := map[string]bool{}
	for id := current; id != ""; {
		open[id] = true
		n, ok := c.Node(id)
		if !ok {
			break
		}
		id = n.Parent
	}
	var build func(pages []*content.Page) []*pageItem
	build = func(pages []*content.Page) []*pageItem {
		out := make([]*pageItem, 0, len(pages))
		for _, p := range pages {
			if p.Type == content.PageLink {
				continue
			}
			it := &pageItem{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Type: p.Type,
				Href: spaceHref + "/" + escapePath(paths[p.ID]), Current: p.ID == current, Closed: len(p.Pages) > 0 && !open[p.ID]}
			if open[p.ID] {
				it.Children = build(p.Pages)
			}
			out = append(out, it)
		}
		return out
	}
	return build(c.Tree.Pages)
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return strings.Join(parts, "/")
}

// spacePage shows a space: the page at the path, or its first document.
func (h *Handler) spacePage(w http.ResponseWriter, r *http.Request, q *req) error {
	v, c, err := h.spaceFrame(r, q, "pages")
	if err != nil {
		return err
	}
	path := strings.Trim(r.PathValue("rest"), "/")
	var node content.PageNode
	if path != "" {
		if node, err = content.FindByPath(c.Tree, path); err != nil {
			return err
		}
	} else {
		content.Walk(c.Tree, func(n content.PageNode) bool {
			if node.Page == nil && n.Page.Type == content.PageDocument {
				node = n
			}
			return node.Page == nil
		})
	}
	title := v.Space.Title
	if node.Page != nil {
		if v.Page, err = h.pageOf(r, q, c, node, v.Href); err != nil {
			return err
		}
		title = node.Page.Title + " · " + v.Space.Title
		v.Tree = h.tree(c, v.Href, node.Page.ID)
		if !v.Page.Empty {
			if v.Body, err = h.pageThreads(r, q, v, c, v.Page); err != nil {
				return err
			}
		}
	}
	var extra pageAssets
	if v.CanEdit {
		extra.Scripts = []string{assetsByKey["tree.js"].url} // drag and drop in the page tree
	}
	h.renderPage(w, http.StatusOK, "space", q, title, v, extra)
	return nil
}

// pageOf renders a page of the content as the reader renders it.
func (h *Handler) pageOf(r *http.Request, q *req, c *app.Content, n content.PageNode, spaceHref string) (*pageView, error) {
	p := n.Page
	pv := &pageView{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Type: p.Type, Href: spaceHref + "/" + escapePath(c.Paths()[p.ID])}
	siblings := c.Tree.Pages
	if n.Parent != "" {
		if pn, ok := c.Node(n.Parent); ok {
			siblings = pn.Page.Pages
		}
	}
	pv.CanUp, pv.CanDown = n.Index > 0, n.Index < len(siblings)-1
	pv.CanIndent = n.Index > 0 && siblings[n.Index-1].Type != content.PageLink
	pv.CanOutdent, pv.HasChildren = n.Parent != "", len(p.Pages) > 0
	if p.Type != content.PageDocument {
		pv.Empty = true
		return pv, nil
	}
	doc, err := h.document(r, q, c.Space.ID, c.Revision.ID, p.ID)
	if err != nil {
		return nil, err
	}
	if doc == nil || len(doc.Nodes) == 0 {
		pv.Empty = true
		return pv, nil
	}
	if pv.blocks, err = reader.RenderBlocks(doc, fileURL(c), pageURL(c, spaceHref)); err != nil {
		return nil, err
	}
	var b strings.Builder
	for i, h := range pv.blocks {
		b.WriteString(string(h))
		pv.keys = append(pv.keys, doc.Nodes[i].Key)
	}
	pv.HTML = template.HTML(b.String()) //nolint:gosec // the renderer's escaped output
	return pv, nil
}

// document loads a page's document at a revision; nil when it has none.
func (h *Handler) document(r *http.Request, q *req, spaceID, revisionID folio.ID, pageID string) (*content.Document, error) {
	pc, err := h.app.GetPage(r.Context(), q.caller, spaceID, revisionID, pageID, "", folio.PageOptions{Format: folio.FormatDocument})
	if err != nil {
		return nil, err
	}
	if len(pc.Document) == 0 {
		return nil, nil
	}
	var doc content.Document
	if err := json.Unmarshal(pc.Document, &doc); err != nil {
		return nil, err
	}
	return &doc, nil
}

// fileURL gives the app's views the path of a space's file on this
// server (as localFileURL does for the edit view), so that its images load
// whatever host the app is reached at.
func fileURL(c *app.Content) func(string) string {
	return func(id string) string {
		if f, ok := c.File(id); ok {
			return localFileURL(c.FileURL(f))
		}
		return ""
	}
}

func pageURL(c *app.Content, spaceHref string) func(string, string) string {
	return func(id, anchor string) string {
		p, ok := c.Paths()[id]
		if !ok {
			return ""
		}
		u := spaceHref + "/" + escapePath(p)
		if anchor != "" {
			u += "#" + url.PathEscape(anchor)
		}
		return u
	}
}

// pageByID redirects to a page's path (after creating or moving it).
func (h *Handler) pageByID(w http.ResponseWriter, r *http.Request, q *req) error {
	c, err := h.app.GetContent(r.Context(), q.caller, r.PathValue("space"), "")
	if err != nil {
		return err
	}
	p, ok := c.Paths()[r.PathValue("page")]
	if !ok {
		return folio.Errorf(folio.NotFound, "page not found")
	}
	http.Redirect(w, r, "/s/"+c.Space.ID+"/"+escapePath(p), http.StatusSeeOther)
	return nil
}

// createPage adds a page or group from the "New page" form.
func (h *Handler) createPage(w http.ResponseWriter, r *http.Request, q *req) error {
	spaceID := r.PathValue("space")
	id, err := h.app.CreatePage(r.Context(), q.caller, spaceID, pageInput(r))
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+spaceID+"/~/pages/"+id, http.StatusSeeOther)
	return nil
}

// pageAction runs one action of a page's menu: rename, up, down, indent
// (into the page above), outdent (after its parent), delete.
func (h *Handler) pageAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	spaceID, pageID := r.PathValue("space"), r.PathValue("page")
	back := "/s/" + spaceID + "/~/pages/" + pageID
	action := r.PathValue("action")
	switch action {
	case "rename":
		if err := h.app.RenamePage(ctx, q.caller, spaceID, pageID, r.PostForm.Get("title")); err != nil {
			return err
		}
	case "delete":
		if r.PostForm.Get("confirm") != "yes" {
			return folio.FieldErrorf("confirm", "tick the box to confirm deleting the page")
		}
		if err := h.app.DeletePage(ctx, q.caller, spaceID, pageID); err != nil {
			return err
		}
		back = "/s/" + spaceID
	case "up", "down", "indent", "outdent":
		c, err := h.app.GetContent(ctx, q.caller, spaceID, "")
		if err != nil {
			return err
		}
		n, ok := c.Node(pageID)
		if !ok {
			return folio.Errorf(folio.NotFound, "page not found")
		}
		siblings := c.Tree.Pages
		if n.Parent != "" {
			pn, _ := c.Node(n.Parent)
			siblings = pn.Page.Pages
		}
		parent, index := n.Parent, n.Index
		switch action {
		case "up":
			index--
		case "down":
			index++
		case "indent":
			if n.Index == 0 {
				return folio.Errorf(folio.Invalid, "the first page has no page above it to move into")
			}
			parent, index = siblings[n.Index-1].ID, -1
		case "outdent":
			if n.Parent == "" {
				return folio.Errorf(folio.Invalid, "the page is already at the top level")
			}
			pn, _ := c.Node(n.Parent)
			parent, index = pn.Parent, pn.Index+1
		}
		if index < 0 && action != "indent" || action == "down" && index >= len(siblings) {
			return folio.Errorf(folio.Invalid, "the page cannot move further %s", action)
		}
		if err := h.app.MovePage(ctx, q.caller, spaceID, pageID, parent, index); err != nil {
			return err
		}
	default:
		return folio.Errorf(folio.NotFound, "no such page action")
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}
