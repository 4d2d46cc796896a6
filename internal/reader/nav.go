package reader

import (
	"strings"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// Navigation of a page: the top-level pages of its site space, with the
// branches leading to the page expanded (its ancestors' children, and its
// own) and every other branch collapsed to its link, as GitBook shows
// the tree when it opens on a page. Groups, which GitBook shows as
// headings, are always open. A page thus carries the few hundred links a
// reader can use, not the whole tree: on 10,000 pages that would be a
// megabyte of HTML per page. Previous and next walk the tree from the
// page. All of it costs the depth of the page times the width of the
// lists on its path, not the size of the space.

// navOf returns the navigation of the page of node.
func navOf(c *app.Content, node content.PageNode, pageURL func(*content.Page) string, ref func(any) string, label func(string) string) []navItem {
	open := map[string]bool{node.Page.ID: true}
	for id := node.Parent; id != ""; {
		n, ok := c.Node(id)
		if !ok {
			break
		}
		open[n.Page.ID] = true
		id = n.Parent
	}
	var nav func(pages []*content.Page) []navItem
	nav = func(pages []*content.Page) []navItem {
		var out []navItem
		for _, p := range pages {
			if p.Hidden {
				continue
			}
			it := navItem{Title: p.Title, Current: p.ID == node.Page.ID, Group: p.Type == content.PageGroup, Emoji: emoji(p.Emoji), Icon: pageIcon(p.Icon)}
			switch p.Type {
			case content.PageDocument:
				it.Href = pageURL(p)
			case content.PageLink:
				var target any
				_ = decodeJSON(p.Target, &target)
				it.Href = ref(target)
			}
			if open[p.ID] || p.Type == content.PageGroup {
				it.Children = nav(p.Pages)
			}
			if !it.Group {
				it.Branch = hasVisible(p.Pages)
				it.Open = it.Branch && len(it.Children) > 0
				if it.Open {
					it.Label = label(p.Title)
				}
			}
			var class []string
			if it.Branch {
				class = append(class, "branch")
				if !it.Open {
					class = append(class, "closed")
				}
			}
			if it.Current {
				class = append(class, "current")
			}
			it.Class = strings.Join(class, " ")
			out = append(out, it)
		}
		return out
	}
	return nav(c.Tree.Pages)
}

// hasVisible reports whether a list has a page that is not hidden.
func hasVisible(pages []*content.Page) bool {
	for _, p := range pages {
		if !p.Hidden {
			return true
		}
	}
	return false
}

// shown reports whether a page is in the navigation: neither it nor an
// ancestor is hidden.
func shown(c *app.Content, node content.PageNode) bool {
	for n, ok := node, true; ok; n, ok = c.Node(n.Parent) {
		if n.Page.Hidden {
			return false
		}
		if n.Parent == "" {
			return true
		}
	}
	return false
}

// siblings returns the list a node is in.
func siblings(c *app.Content, node content.PageNode) []*content.Page {
	if node.Parent == "" {
		return c.Tree.Pages
	}
	p, ok := c.Node(node.Parent)
	if !ok {
		return nil
	}
	return p.Page.Pages
}

// lastDocument is the last document page of a subtree in reading order
// (depth first, hidden subtrees left out).
func lastDocument(p *content.Page) (*content.Page, bool) {
	if p.Hidden {
		return nil, false
	}
	for i := len(p.Pages) - 1; i >= 0; i-- {
		if d, ok := lastDocument(p.Pages[i]); ok {
			return d, true
		}
	}
	if p.Type == content.PageDocument {
		return p, true
	}
	return nil, false
}

// prevNext returns the document pages before and after node in reading
// order, the order of the navigation; none for a page not in it.
func prevNext(c *app.Content, node content.PageNode) (prev, next *content.Page) {
	if !shown(c, node) || node.Page.Type != content.PageDocument {
		return nil, nil
	}
	// Next: the first document under the page, else after it or after
	// one of its ancestors.
	if d, ok := firstUnder(node.Page.Pages); ok {
		next = d
	}
	for n, ok := node, true; next == nil && ok; n, ok = c.Node(n.Parent) {
		list := siblings(c, n)
		if n.Index+1 < len(list) {
			if d, ok := firstUnder(list[n.Index+1:]); ok {
				next = d
				break
			}
		}
		if n.Parent == "" {
			break
		}
	}
	// Previous: the last document before the page among its siblings,
	// else its parent when that is a document, and so on upwards.
	for n, ok := node, true; ok; n, ok = c.Node(n.Parent) {
		list := siblings(c, n)
		for i := min(n.Index, len(list)) - 1; i >= 0; i-- {
			if d, ok := lastDocument(list[i]); ok {
				return d, next
			}
		}
		if n.Parent == "" {
			break
		}
		if p, ok := c.Node(n.Parent); ok && p.Page.Type == content.PageDocument {
			return p.Page, next
		}
	}
	return nil, next
}

// firstUnder is the first document page of a list in reading order: the
// first visible document, looking into groups and under documents.
func firstUnder(pages []*content.Page) (*content.Page, bool) {
	for _, p := range pages {
		if p.Hidden {
			continue
		}
		if p.Type == content.PageDocument {
			return p, true
		}
		if d, ok := firstUnder(p.Pages); ok {
			return d, true
		}
	}
	return nil, false
}
