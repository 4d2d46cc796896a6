package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

// movePageTo moves a page next to, or into, another page of the tree: the
// form the page tree's drag and drop (static/tree.js) posts, with target
// (a page id) and position ("before", "after" or "inside": at the end of
// its subpages). It goes back to the page shown when the form was sent
// (current, a page id: its path may have changed), else to the moved page.
func (h *Handler) movePageTo(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	spaceID, pageID := r.PathValue("space"), r.PathValue("page")
	target, position := r.PostForm.Get("target"), r.PostForm.Get("position")
	if target == "" {
		return folio.FieldErrorf("target", "choose the page to move it next to or into")
	}
	if target == pageID {
		return folio.FieldErrorf("target", "a page cannot move next to or into itself")
	}
	c, err := h.app.GetContent(ctx, q.caller, spaceID, "")
	if err != nil {
		return err
	}
	n, ok := c.Node(pageID)
	if !ok {
		return folio.Errorf(folio.NotFound, "page not found")
	}
	t, ok := c.Node(target)
	if !ok {
		return folio.FieldErrorf("target", "the page to move it next to is not in the space any more: reload the page")
	}
	var parent string
	var index int
	switch position {
	case "before", "after":
		parent, index = t.Parent, t.Index
		if position == "after" {
			index++
		}
		// The index counts the parent's pages once the page left them.
		if n.Parent == t.Parent && n.Index < index {
			index--
		}
	case "inside":
		parent, index = target, -1
	default:
		return folio.FieldErrorf("position", "position must be before, after or inside")
	}
	if err := h.app.MovePage(ctx, q.caller, spaceID, pageID, parent, index); err != nil {
		return err
	}
	back := "/s/" + spaceID + "/~/pages/" + url.PathEscape(pageID)
	if cur := r.PostForm.Get("current"); cur != "" {
		back = "/s/" + spaceID + "/~/pages/" + url.PathEscape(cur)
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}

// MoveTargets lists the pages of the tree shown beside the page (indented
// by depth), but the page itself, for the page menu's "Move to" form:
// the keyboard's way to do what dragging does.
func (v *spaceView) MoveTargets() []pageOption {
	var out []pageOption
	var walk func(items []*pageItem, depth int)
	walk = func(items []*pageItem, depth int) {
		for _, it := range items {
			if v.Page != nil && it.ID == v.Page.ID {
				continue // nor its subpages: it cannot move into them
			}
			out = append(out, pageOption{ID: it.ID, Title: strings.Repeat("– ", depth) + it.Title})
			walk(it.Children, depth+1)
		}
	}
	walk(v.Tree, 0)
	return out
}
