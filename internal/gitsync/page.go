package gitsync

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
	"github.com/foliodocs/folio/internal/markdown"
)

// parsedPage is a page file read: its front matter, the text of its
// leading "# Title" (removed from the document) and its document.
type parsedPage struct {
	fm  frontMatter
	h1  string
	doc *content.Document
}

// linkFixer rewrites the URL of a link that names a repository file which
// is neither a page nor an asset; nil leaves URLs alone.
type linkFixer func(dir, target string) (string, bool)

// parsePage reads one page file. Front matter is split off before
// markdown.ToDocument; the unknown parts of it are kept in the document's
// data, and a page whose only content is such front matter gets an empty
// paragraph so that it still has a document to keep them in.
func parsePage(src []byte, dir string, res markdown.Resolver, fix linkFixer) (parsedPage, error) {
	return parseFile(src, dir, res, fix, false)
}

// parseFile is parsePage; withTitle reads a "title" key from the front
// matter, as reusable content files have one.
func parseFile(src []byte, dir string, res markdown.Resolver, fix linkFixer, withTitle bool) (parsedPage, error) {
	src = importer.CleanText(src)
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	fm, body := splitFrontMatterOf(string(src), withTitle)
	doc, err := markdown.ToDocument([]byte(body), res)
	if err != nil {
		return parsedPage{}, err
	}
	p := parsedPage{fm: fm, doc: doc}
	if !withTitle && len(doc.Nodes) > 0 && doc.Nodes[0].Type == content.BlockHeading1 {
		if t := collapse(nodeText(&doc.Nodes[0])); t != "" {
			p.h1 = t
			doc.Nodes = doc.Nodes[1:]
		}
	}
	if fm.extra != "" {
		doc.Data[dataFrontMatter] = fm.extra
	}
	if fm.layoutExtra != "" {
		doc.Data[dataLayoutExtra] = fm.layoutExtra
	}
	if len(doc.Nodes) == 0 && (fm.extra != "" || fm.layoutExtra != "") {
		doc.Nodes = []content.Node{content.NewBlock(content.BlockParagraph, content.NewText(""))}
	}
	if fix != nil {
		fixLinks(doc.Nodes, dir, fix)
	}
	doc.Normalize()
	return p, nil
}

// fixLinks applies fix to every url reference of the nodes.
func fixLinks(nodes []content.Node, dir string, fix linkFixer) {
	for i := range nodes {
		n := &nodes[i]
		if ref, ok := n.Data["ref"].(map[string]any); ok && ref["kind"] == "url" {
			if u, ok := ref["url"].(string); ok {
				if v, ok := fix(dir, u); ok {
					ref["url"] = v
				}
			}
		}
		fixLinks(n.Nodes, dir, fix)
		for j := range n.Fragments {
			fixLinks(n.Fragments[j].Nodes, dir, fix)
		}
	}
}

// treeLinks returns the linkFixer that points links at repository files
// (outside the pages and assets) to treeURL followed by the file's path
// from the repository root.
func treeLinks(treeURL, root string, files map[string]bool) linkFixer {
	if treeURL == "" {
		return nil
	}
	if !strings.HasSuffix(treeURL, "/") {
		treeURL += "/"
	}
	return func(dir, target string) (string, bool) {
		if isExternal(target) {
			return "", false
		}
		p, anchor, ok := resolvePath(dir, target)
		if !ok || p == "" {
			return "", false
		}
		repoPath := join(root, p)
		if !files[repoPath] {
			return "", false
		}
		u := treeURL + repoPath
		if anchor != "" {
			u += "#" + anchor
		}
		return u, true
	}
}

// nodeText returns the text of a node's leaves.
func nodeText(n *content.Node) string {
	var b strings.Builder
	var walk func(n *content.Node)
	walk = func(n *content.Node) {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		for i := range n.Nodes {
			walk(&n.Nodes[i])
		}
	}
	walk(n)
	return b.String()
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}
