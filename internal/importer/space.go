package importer

import (
	"path"
	"strings"

	"github.com/foliodocs/folio/internal/content"
)

// Into places a single imported page in a space, so that its relative
// links to Markdown files ("../guide/setup.md#install") become references
// to the space's pages.
type Into struct {
	// Tree is the space's current content; nil resolves no links to pages.
	Tree *content.Tree
	// PageID is the page whose document the import replaces; "" for a new
	// page at the end of the top level.
	PageID string
}

// spaceResolver resolves the links of a single imported page against the
// pages of the space it goes into, by their paths: a document page at
// path p answers to p.md, p/README.md, p/ and p, and to the file it was
// synced from (Page.Git); the first document page answers to README.md as
// well, as in a git-synced repository. Targets are read relative to the
// imported page's own place, as Folio's git export would write it (a page
// with children is dir/README.md, a leaf dir/slug.md). A target climbing
// above the root stops there, as URL resolution does (RFC 3986, 5.2.4):
// the author's folders are not known.
type spaceResolver struct {
	idx  *index
	dir  string
	data *dataFiles
}

func newSpaceResolver(into Into, data *dataFiles) spaceResolver {
	r := spaceResolver{idx: newIndex(), data: data}
	if into.Tree == nil {
		return r
	}
	paths := content.Paths(into.Tree)
	first := true
	content.Walk(into.Tree, func(n content.PageNode) bool {
		p := n.Page
		if p.Type != content.PageDocument {
			return true
		}
		at := paths[p.ID]
		if first {
			r.idx.addPage("README.md", p.ID)
			first = false
		}
		r.idx.addPage(at+".md", p.ID)
		r.idx.addPage(at+"/README.md", p.ID)
		r.idx.addDir(at, p.ID)
		if p.Git != nil && p.Git.Path != "" {
			r.idx.addPage(strings.TrimPrefix(path.Clean("/"+p.Git.Path), "/"), p.ID)
		}
		if p.ID == into.PageID {
			switch {
			case p.Git != nil && p.Git.Path != "":
				r.dir = dirOf(strings.TrimPrefix(path.Clean("/"+p.Git.Path), "/"))
			case len(p.Pages) > 0:
				r.dir = at
			default:
				r.dir = dirOf(at)
			}
		}
		return true
	})
	return r
}

func (r spaceResolver) Page(target string) (string, string, bool) {
	p, anchor, ok := resolvePath(r.dir, target)
	if !ok {
		for p == ".." || strings.HasPrefix(p, "../") {
			p = strings.TrimPrefix(strings.TrimPrefix(p, ".."), "/")
		}
	}
	id, ok := r.idx.page(p)
	return id, anchor, ok
}

// File resolves nothing: a space's files have names, not paths.
func (r spaceResolver) File(string) (string, bool) { return "", false }

// Data implements markdown.DataResolver.
func (r spaceResolver) Data(u string) (string, bool) { return r.data.Data(u) }

func (r spaceResolver) failed() error { return r.data.failed() }
