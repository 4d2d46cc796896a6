package importer

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// builder turns the entries of an archive into a snapshot.
type builder struct {
	a         *archive
	s         *content.Snapshot
	idx       *index
	pageFiles map[string]*entry // page file path -> entry
	lowerPage map[string]*entry
	converted map[*entry]page // a file listed twice in SUMMARY.md is read once
	data      *dataFiles      // images given as data: URLs
	pages     int             // pages made so far
}

// node is a page of the tree being built, before slugs and documents.
type node struct {
	page     *content.Page
	src      *entry // the page's file; nil for folders, groups, links and missing files
	slug     string // the name the slug comes from; "" to use the title
	fallback string // title when neither SUMMARY.md nor the file gives one
	children []*node
}

// run reads the files, builds the tree from SUMMARY.md or the folders,
// converts the pages and checks the result.
func (b *builder) run() (*content.Snapshot, error) {
	var summary *entry
	var pageEntries []*entry
	files := 0
	for _, e := range b.a.entries {
		switch {
		case strings.EqualFold(e.path, "SUMMARY.md"):
			summary = e
		case pageKind(e.path) != "":
			pageEntries = append(pageEntries, e)
		default:
			if files++; files > b.a.lim.MaxFiles {
				return nil, folio.Errorf(folio.Invalid, "archive holds more than %d files", b.a.lim.MaxFiles)
			}
		}
	}
	b.data = newDataFiles(b.s, b.a.lim.MaxFiles)
	b.data.left -= files // the archive's own files come first
	b.pageFiles = make(map[string]*entry, len(pageEntries))
	b.lowerPage = make(map[string]*entry, len(pageEntries))
	for _, e := range pageEntries {
		b.pageFiles[e.path] = e
		if _, ok := b.lowerPage[strings.ToLower(e.path)]; !ok {
			b.lowerPage[strings.ToLower(e.path)] = e
		}
	}
	// Files first, so that pages can link to them.
	for _, e := range b.a.entries {
		if e == summary || pageKind(e.path) != "" {
			continue
		}
		data, err := b.a.read(e)
		if err != nil {
			return nil, err
		}
		f := newFile(b.s, path.Base(e.path), data)
		b.s.Tree.Files = append(b.s.Tree.Files, f)
		b.idx.addFile(e.path, f.ID)
	}
	var top []*node
	var err error
	if summary != nil {
		top, err = b.fromSummary(summary)
	} else {
		top, err = b.fromFolders(pageEntries)
	}
	if err != nil {
		return nil, err
	}
	if b.pages == 0 {
		return nil, folio.Errorf(folio.Invalid, "zip archive holds no Markdown or HTML pages")
	}
	if err := b.fill(top); err != nil {
		return nil, err
	}
	b.s.Tree.Pages = pagesOf(top)
	if err := b.s.Tree.Validate(); err != nil {
		return nil, err
	}
	return b.s, nil
}

// newNode makes a page; src may be nil. Its id is registered for p, the
// archive path the page stands for ("" for none).
func (b *builder) newNode(typ, p string, src *entry) (*node, error) {
	if b.pages++; b.pages > b.a.lim.MaxPages {
		return nil, folio.Errorf(folio.Invalid, "archive holds more than %d pages", b.a.lim.MaxPages)
	}
	n := &node{page: &content.Page{ID: folio.NewID(), Type: typ}, src: src}
	if p != "" {
		b.idx.addPage(p, n.page.ID)
		if isReadme(p) {
			b.idx.addDir(dirOf(p), n.page.ID)
		}
	}
	return n, nil
}

// pageEntry finds the page file a SUMMARY.md target names: the path itself,
// the README of the folder it names, or the path with .md added.
func (b *builder) pageEntry(p string) *entry {
	find := func(p string) *entry {
		if e, ok := b.pageFiles[p]; ok {
			return e
		}
		return b.lowerPage[strings.ToLower(p)]
	}
	if e := find(p); e != nil {
		return e
	}
	if path.Ext(p) == "" {
		if e := find(path.Join(p, "README.md")); e != nil {
			return e
		}
		return find(p + ".md")
	}
	return nil
}

// fromSummary builds the tree that SUMMARY.md describes. Headings start
// top-level groups, except a heading-1 before the first list (the title of
// the table of contents). Markdown files it does not list are left out.
func (b *builder) fromSummary(summary *entry) ([]*node, error) {
	src, err := b.a.read(summary)
	if err != nil {
		return nil, err
	}
	doc, err := markdown.ToDocument(cleanText(src), nil)
	if err != nil {
		return nil, invalid(err, "zip entry %s: %s", display(summary.path), folio.MessageOf(err))
	}
	var top []*node
	var group *node
	seenList := false
	for _, n := range doc.Nodes {
		switch n.Type {
		case content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
			if n.Type == content.BlockHeading1 && !seenList && group == nil {
				continue
			}
			title := collapse(plainText(n))
			if title == "" {
				continue
			}
			if group, err = b.newNode(content.PageGroup, "", nil); err != nil {
				return nil, err
			}
			group.fallback = title
			top = append(top, group)
		case content.BlockListUnordered, content.BlockListOrdered, content.BlockListTasks:
			seenList = true
			items, err := b.summaryList(n)
			if err != nil {
				return nil, err
			}
			if group != nil {
				group.children = append(group.children, items...)
			} else {
				top = append(top, items...)
			}
		}
	}
	return top, nil
}

// summaryList converts the items of one SUMMARY.md list.
func (b *builder) summaryList(list content.Node) ([]*node, error) {
	var out []*node
	for _, item := range list.Nodes {
		var children []*node
		var label *content.Node
		for i := range item.Nodes {
			ch := &item.Nodes[i]
			switch ch.Type {
			case content.BlockListUnordered, content.BlockListOrdered, content.BlockListTasks:
				more, err := b.summaryList(*ch)
				if err != nil {
					return nil, err
				}
				children = append(children, more...)
			case content.BlockParagraph, content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
				if label == nil {
					label = ch
				}
			}
		}
		n, err := b.summaryItem(label)
		if err != nil {
			return nil, err
		}
		switch {
		case n == nil:
			// An item without text: its children move up.
			out = append(out, children...)
		case n.page.Type == content.PageLink:
			// Link pages cannot hold pages: the children follow it.
			out = append(out, n)
			out = append(out, children...)
		default:
			n.children = children
			out = append(out, n)
		}
	}
	return out, nil
}

// summaryItem makes the page of one SUMMARY.md entry: a link page for an
// absolute URL, else the page of the linked file (empty when the file is
// missing), else an empty page titled by the item's text.
func (b *builder) summaryItem(label *content.Node) (*node, error) {
	if label == nil {
		return nil, nil
	}
	link := firstLink(label.Nodes)
	var title string
	if link != nil {
		title = inlineText(link.Nodes)
	} else {
		title = inlineText(label.Nodes)
	}
	target := ""
	if link != nil {
		if ref, _ := link.Data["ref"].(map[string]any); ref["kind"] == "url" {
			target, _ = ref["url"].(string)
		}
	}
	switch {
	case target != "" && !isRelative(target):
		n, err := b.newNode(content.PageLink, "", nil)
		if err != nil {
			return nil, err
		}
		n.page.Target, _ = json.Marshal(map[string]string{"kind": "url", "url": target})
		n.page.Title = firstTitle(title, target)
		return n, nil
	case target != "":
		p, _, ok := resolvePath("", target)
		if ok && p != "" {
			src := b.pageEntry(p)
			if src != nil {
				p = src.path
			}
			n, err := b.newNode(content.PageDocument, p, src)
			if err != nil {
				return nil, err
			}
			n.page.Title = title
			n.slug, n.fallback = slugName(p), titleName(p)
			return n, nil
		}
	}
	if title == "" {
		return nil, nil
	}
	n, err := b.newNode(content.PageDocument, "", nil)
	if err != nil {
		return nil, err
	}
	n.page.Title = title
	return n, nil
}

// firstLink returns the first link among inline nodes, or nil.
func firstLink(nodes []content.Node) *content.Node {
	for i := range nodes {
		if nodes[i].Type == content.InlineLink {
			return &nodes[i]
		}
	}
	return nil
}

// dir is a folder of the archive holding page files, directly or below.
type dir struct {
	name  string
	path  string
	files []*entry
	dirs  map[string]*dir
}

// fromFolders builds the tree from the folders: the root README first, then
// every page file and folder by natural name order.
func (b *builder) fromFolders(entries []*entry) ([]*node, error) {
	root := &dir{dirs: map[string]*dir{}}
	for _, e := range entries {
		d := root
		segs := strings.Split(e.path, "/")
		for _, seg := range segs[:len(segs)-1] {
			sub, ok := d.dirs[seg]
			if !ok {
				sub = &dir{name: seg, path: path.Join(d.path, seg), dirs: map[string]*dir{}}
				d.dirs[seg] = sub
			}
			d = sub
		}
		d.files = append(d.files, e)
	}
	readme, children, err := b.folder(root)
	if err != nil {
		return nil, err
	}
	if readme != nil {
		n, err := b.newNode(content.PageDocument, readme.path, readme)
		if err != nil {
			return nil, err
		}
		n.fallback = "Introduction"
		children = append([]*node{n}, children...)
	}
	return children, nil
}

// folder returns the README of d, if any, and the pages of its other files
// and sub-folders in order.
func (b *builder) folder(d *dir) (*entry, []*node, error) {
	var readme *entry
	rank := len(readmeNames)
	for _, f := range d.files {
		for i, name := range readmeNames {
			if i < rank && strings.EqualFold(path.Base(f.path), name) {
				readme, rank = f, i
			}
		}
	}
	type item struct {
		name string
		file *entry
		dir  *dir
	}
	var items []item
	stems := map[string]*entry{} // lowercase file name without extension -> file
	for _, f := range d.files {
		if f != readme {
			stem := stemOf(f.path)
			items = append(items, item{name: stem, file: f})
			if _, ok := stems[strings.ToLower(stem)]; !ok {
				stems[strings.ToLower(stem)] = f
			}
		}
	}
	// A folder without README takes the file of the same name beside it
	// (guide.md next to guide/) as its page.
	adopted := map[*dir]*entry{}
	isAdopted := map[*entry]bool{}
	for _, sub := range d.dirs {
		items = append(items, item{name: sub.name, dir: sub})
		if f := stems[strings.ToLower(sub.name)]; f != nil && !hasReadme(sub) && !isAdopted[f] {
			adopted[sub], isAdopted[f] = f, true
		}
	}
	sort.Slice(items, func(i, j int) bool {
		if c := naturalCompare(items[i].name, items[j].name); c != 0 {
			return c < 0
		}
		return items[i].file != nil && items[j].file == nil
	})
	var out []*node
	for _, it := range items {
		var n *node
		var err error
		switch {
		case it.file != nil && isAdopted[it.file]:
			continue // made with its folder
		case it.file != nil:
			if n, err = b.newNode(content.PageDocument, it.file.path, it.file); err != nil {
				return nil, nil, err
			}
			n.slug, n.fallback = it.name, humanize(it.name)
		default:
			if n, err = b.folderNode(it.dir, adopted[it.dir]); err != nil {
				return nil, nil, err
			}
		}
		out = append(out, n)
	}
	return readme, out, nil
}

// folderNode makes the page of a sub-folder: its README, else src (the
// file of the same name beside it, or nil), else an empty page, holding the
// folder's pages.
func (b *builder) folderNode(sub *dir, src *entry) (*node, error) {
	readme, children, err := b.folder(sub)
	if err != nil {
		return nil, err
	}
	if readme != nil {
		src = readme
	}
	p := ""
	if src != nil {
		p = src.path
	}
	n, err := b.newNode(content.PageDocument, p, src)
	if err != nil {
		return nil, err
	}
	b.idx.addDir(sub.path, n.page.ID)
	n.slug, n.fallback, n.children = sub.name, humanize(sub.name), children
	return n, nil
}

// readmeNames are the files that stand for their folder, best first.
var readmeNames = []string{"README.md", "README.markdown", "README.html", "README.htm", "index.html", "index.htm"}

func hasReadme(d *dir) bool {
	for _, f := range d.files {
		if isReadme(f.path) {
			return true
		}
	}
	return false
}

func isReadme(p string) bool {
	base := path.Base(p)
	for _, name := range readmeNames {
		if strings.EqualFold(base, name) {
			return true
		}
	}
	return false
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// stemOf returns the file name of p without its extension.
func stemOf(p string) string {
	base := path.Base(p)
	return strings.TrimSuffix(base, path.Ext(base))
}

// slugName returns the name a page file's slug comes from: the file name
// without extension, the folder name for a README, "" for the root README.
func slugName(p string) string {
	if isReadme(p) {
		return path.Base(dirOf(p)) // "." for the root README
	}
	return stemOf(p)
}

// titleName returns the fallback title of a page file.
func titleName(p string) string {
	name := slugName(p)
	if name == "." {
		return "Introduction"
	}
	return humanize(name)
}

// fill reads and converts the page files, then sets titles and slugs.
func (b *builder) fill(nodes []*node) error {
	taken := map[string]bool{}
	next := map[string]int{}
	for _, n := range nodes {
		if n.src != nil {
			conv, ok := b.converted[n.src]
			if !ok {
				var err error
				if conv, err = b.convert(n.src); err != nil {
					return err
				}
				b.converted[n.src] = conv
			}
			n.page.Document = b.s.AddDocument(conv.doc)
			n.page.Description = cleanDescription(conv.description)
			n.page.Icon = cleanIcon(conv.icon)
			if collapse(n.page.Title) == "" {
				n.page.Title = conv.title
			}
		}
		n.page.Title = firstTitle(n.page.Title, n.fallback, "Untitled")
		if n.page.Type != content.PageLink {
			want := n.page.Title
			if n.slug != "" && n.slug != "." {
				want = n.slug
			}
			n.page.Slug = uniqueSlug(taken, next, content.Slugify(want))
		}
		if err := b.fill(n.children); err != nil {
			return err
		}
	}
	return nil
}

// convert reads one page file into a document, resolving its links.
func (b *builder) convert(e *entry) (page, error) {
	data, err := b.a.read(e)
	if err != nil {
		return page{}, err
	}
	res := resolver{idx: b.idx, dir: dirOf(e.path), data: b.data}
	var p page
	switch pageKind(e.path) {
	case "markdown":
		p, err = convertMarkdown(data, res)
	default:
		p, err = convertHTML(data, res)
	}
	if err != nil {
		if folio.KindOf(err) == folio.Invalid {
			return page{}, invalid(err, "zip entry %s: %s", display(e.path), folio.MessageOf(err))
		}
		return page{}, fmt.Errorf("importer: convert %s: %w", e.path, err)
	}
	return p, nil
}

// uniqueSlug returns want, or want with the first free suffix -2, -3… when
// a sibling has it, as content.UniqueSlug does; next remembers the last
// suffix tried per slug so that many clashing names stay linear.
func uniqueSlug(taken map[string]bool, next map[string]int, want string) string {
	if !taken[want] {
		taken[want] = true
		return want
	}
	for n := max(next[want], 2); ; n++ {
		suffix := "-" + strconv.Itoa(n)
		base := want
		if len(base)+len(suffix) > content.MaxSlugLength {
			base = strings.TrimRight(base[:content.MaxSlugLength-len(suffix)], "-")
		}
		if s := base + suffix; !taken[s] {
			taken[s] = true
			next[want] = n + 1
			return s
		}
	}
}

// pagesOf links the pages of nodes into a tree and returns the top level.
func pagesOf(nodes []*node) []*content.Page {
	out := make([]*content.Page, 0, len(nodes))
	for _, n := range nodes {
		if len(n.children) > 0 {
			n.page.Pages = pagesOf(n.children)
		}
		out = append(out, n.page)
	}
	return out
}

// naturalCompare orders names case-insensitively with runs of digits
// compared by value, so "2-setup" sorts before "10-deploy".
func naturalCompare(a, b string) int {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	i, j := 0, 0
	for i < len(la) && j < len(lb) {
		ca, cb := la[i], lb[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(la) && isDigit(la[i]) {
				i++
			}
			for j < len(lb) && isDigit(lb[j]) {
				j++
			}
			na := strings.TrimLeft(la[si:i], "0")
			nb := strings.TrimLeft(lb[sj:j], "0")
			if len(na) != len(nb) {
				return cmpInt(len(na), len(nb))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return cmpInt(int(ca), int(cb))
		}
		i++
		j++
	}
	if c := cmpInt(len(la)-i, len(lb)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
