package gitsync

import (
	"encoding/json"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
)

// ReadOptions say where the docs are and what the space held before.
type ReadOptions struct {
	ProjectDir string          // repoProjectDirectory: the folder holding .gitbook.yaml, "" for the repository root
	TreeURL    string          // repoTreeURL: prefix for links to repository files that are neither pages nor assets; "" keeps them relative
	Previous   *content.Tree   // the space's tree at the last sync, or nil: pages and files with the same git path keep their ids
	Limits     importer.Limits // pages, asset files and bytes; zero fields take importer.DefaultLimits
	// Progress, when set, is called as page files, reusable contents and
	// assets are read: done of total so far (total grows once the assets
	// pages link to are known).
	Progress func(done, total int)
}

// Redirect is a redirect of .gitbook.yaml resolved to the page its file
// became.
type Redirect struct {
	Source string // the old path, as written
	Page   string // page id
}

// Result is a repository read into content.
type Result struct {
	Snapshot  *content.Snapshot
	Config    Config
	Redirects []Redirect // sorted by Source; redirects to files that are not pages are left out
}

// Read turns a repository tree in GitBook's format into a snapshot (see the
// package documentation). Errors are Invalid with a message naming the
// file: an unsafe path, .gitbook.yaml that is not valid YAML, a limit
// passed, a page that is not valid Markdown for markdown.ToDocument, or a
// tree that breaks content.Tree.Validate.
func Read(src Source, opts ReadOptions) (*Result, error) {
	projectDir, err := cleanDir("repoProjectDirectory", opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	paths := src.Paths()
	files := make(map[string]bool, len(paths))
	for _, p := range paths {
		if !safePath(p) {
			return nil, folio.Errorf(folio.Invalid, "repository path %s is not a clean relative path", strconv.Quote(safeName(p)))
		}
		files[p] = true
	}
	cfg := DefaultConfig()
	if cfgPath := join(projectDir, configName); files[cfgPath] {
		data, err := src.ReadFile(cfgPath)
		if err != nil {
			return nil, err
		}
		if cfg, err = ParseConfig(data); err != nil {
			return nil, err
		}
	}
	r := &reader{src: src, paths: paths, lim: opts.Limits.WithDefaults(), cfg: cfg, root: join(projectDir, cfg.Root),
		snap: content.NewSnapshot(), idx: newIndex(), prev: map[string]string{}, prevNames: map[string]string{}, used: map[string]bool{},
		pageSrc: map[string]bool{}, lowerSrc: map[string]string{}, firstOf: map[string]*node{},
		wanted: map[string]string{}, seenBlobs: map[string]bool{}, progress: opts.Progress}
	r.idx.fileID = r.wantFile
	r.fix = treeLinks(opts.TreeURL, r.root, files)
	r.remember(opts.Previous)
	top, err := r.run()
	if err != nil {
		return nil, err
	}
	r.snap.Tree.Pages = pagesOf(top)
	if err := r.snap.Tree.Validate(); err != nil {
		return nil, err
	}
	res := &Result{Snapshot: r.snap, Config: cfg}
	for from, to := range cfg.Redirects {
		if id, ok := r.idx.page(to); ok {
			res.Redirects = append(res.Redirects, Redirect{Source: from, Page: id})
		}
	}
	sort.Slice(res.Redirects, func(i, j int) bool { return res.Redirects[i].Source < res.Redirects[j].Source })
	return res, nil
}

// safePath reports a clean relative path: no "." or ".." segment, no
// empty segment, no leading slash, no NUL.
func safePath(p string) bool {
	if p == "" || strings.ContainsRune(p, 0) || strings.ContainsRune(p, '\\') {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// reader is the state of one Read.
type reader struct {
	src   Source
	paths []string // every path of src, sorted
	lim   importer.Limits
	cfg   Config
	root  string // the docs root, relative to the repository root
	snap  *content.Snapshot
	idx   *index
	fix   linkFixer
	prev  map[string]string // identity key -> previous id
	// prevNames holds the names of previous files by git path and blob id:
	// a file written as "logo (1).png" because another was named logo.png
	// keeps its own name while its bytes are unchanged.
	prevNames map[string]string
	used      map[string]bool // ids given out
	pageSrc   map[string]bool // Markdown files under the root, by path relative to it
	lowerSrc  map[string]string
	firstOf   map[string]*node // page file -> the document page made from it
	pages     int
	total     int64
	// wanted holds the assets pages and the summary link to, by path
	// relative to the root, with the id each file gets; only they are read.
	wanted    map[string]string
	seenBlobs map[string]bool // blob ids counted against MaxTotalBytes
	progress  func(done, total int)
	done      int
	tasks     int
}

// wantFile returns the id of the asset at p (relative to the root),
// marking it to be read and stored.
func (r *reader) wantFile(p string) string {
	if id, ok := r.wanted[p]; ok {
		return id
	}
	id := r.id("file:" + p)
	r.wanted[p] = id
	return id
}

// read reads a file relative to the root and reports progress.
func (r *reader) read(p string) ([]byte, error) {
	data, err := r.src.ReadFile(join(r.root, p))
	if err != nil {
		return nil, err
	}
	r.done++
	if r.progress != nil {
		r.progress(r.done, r.tasks)
	}
	return data, nil
}

// countBlob checks the byte limits for a file read, counting the bytes of
// a blob once however many files hold it.
func (r *reader) countBlob(p, oid string, n int) error {
	if r.seenBlobs[oid] {
		return nil
	}
	r.seenBlobs[oid] = true
	return r.count(p, n)
}

// node is a page being built.
type node struct {
	page     *content.Page
	path     string // its file, relative to the root; "" for none
	src      []byte
	hasSrc   bool
	slugName string // the name the slug comes from; "" for the title
	fallback string // title when neither SUMMARY.md nor the file gives one
	children []*node
}

// remember indexes the previous tree's ids by identity: a document page by
// its git path, a group by its title, a link page by its target, a file by
// its git path.
func (r *reader) remember(t *content.Tree) {
	if t == nil {
		return
	}
	content.Walk(t, func(n content.PageNode) bool {
		if key := prevKey(n.Page); key != "" {
			if _, dup := r.prev[key]; !dup {
				r.prev[key] = n.Page.ID
			}
		}
		return true
	})
	for _, rc := range t.ReusableContents {
		if rc.Git != nil && rc.Git.Path != "" {
			if _, dup := r.prev["include:"+rc.Git.Path]; !dup {
				r.prev["include:"+rc.Git.Path] = rc.ID
			}
		}
	}
	for _, f := range t.Files {
		if f.Git != nil && f.Git.Path != "" {
			if _, dup := r.prev["file:"+f.Git.Path]; !dup {
				r.prev["file:"+f.Git.Path] = f.ID
				r.prevNames[f.Git.Path+"\x00"+f.Git.OID] = f.Name
			}
		}
	}
}

func prevKey(p *content.Page) string {
	switch p.Type {
	case content.PageDocument:
		if p.Git != nil && p.Git.Path != "" {
			return "doc:" + p.Git.Path
		}
	case content.PageGroup:
		return "group:" + p.Title
	case content.PageLink:
		var v any
		if json.Unmarshal(p.Target, &v) == nil {
			b, _ := json.Marshal(v)
			return "link:" + string(b)
		}
	}
	return ""
}

// id returns the previous id for key when it is still free, else a new one.
func (r *reader) id(key string) string {
	if id, ok := r.prev[key]; ok && !r.used[id] {
		r.used[id] = true
		return id
	}
	id := folio.NewID()
	r.used[id] = true
	return id
}

// count checks the byte limits for one file read.
func (r *reader) count(p string, n int) error {
	if int64(n) > r.lim.MaxFileBytes {
		return folio.Errorf(folio.Invalid, "file %s exceeds the %d byte file limit", safeName(p), r.lim.MaxFileBytes)
	}
	if r.total += int64(n); r.total > r.lim.MaxTotalBytes {
		return folio.Errorf(folio.Invalid, "repository holds more than %d bytes of docs", r.lim.MaxTotalBytes)
	}
	return nil
}

func (r *reader) run() ([]*node, error) {
	var summary []byte
	hasSummary := false
	var assets, includes []string
	for _, repoPath := range r.paths {
		p, ok := under(r.root, repoPath)
		if !ok {
			continue
		}
		switch {
		case p == r.cfg.Summary:
			data, err := r.src.ReadFile(repoPath)
			if err != nil {
				return nil, err
			}
			summary, hasSummary = data, true
		case strings.HasPrefix(p, assetsDir+"/"):
			assets = append(assets, p)
		case strings.HasPrefix(p, includesDir+"/") && isPageFile(p):
			includes = append(includes, p)
		case hiddenPath(p) || !isPageFile(p):
		default:
			r.pageSrc[p] = true
		}
	}
	// Assets are indexed, not read: only those that pages or the summary
	// link to are (see wantFile and files).
	for _, p := range assets {
		r.idx.addFile(p, p)
	}
	paths := make([]string, 0, len(r.pageSrc))
	for p := range r.pageSrc {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, ok := r.lowerSrc[strings.ToLower(p)]; !ok {
			r.lowerSrc[strings.ToLower(p)] = p
		}
	}
	var top []*node
	var err error
	if hasSummary {
		if err := r.count(r.cfg.Summary, len(summary)); err != nil {
			return nil, err
		}
		items, err := parseSummary(string(importer.CleanText(summary)), r.lim.MaxPages)
		if err != nil {
			return nil, err
		}
		top, err = r.fromSummary(items, dirOf(r.cfg.Summary))
		if err != nil {
			return nil, err
		}
	} else if top, err = r.fromFolders(paths); err != nil {
		return nil, err
	}
	// Reusable contents get their ids first: pages include them.
	sort.Strings(includes)
	includeIDs := make(map[string]string, len(includes))
	for _, p := range includes {
		includeIDs[p] = r.id("include:" + p)
		r.idx.addInclude(p, includeIDs[p])
	}
	r.tasks = countSources(top) + len(includes)
	if err := r.fill(top); err != nil {
		return nil, err
	}
	if err := r.reusable(includes, includeIDs); err != nil {
		return nil, err
	}
	if err := r.files(); err != nil {
		return nil, err
	}
	return top, nil
}

// countSources counts the nodes read from a page file.
func countSources(nodes []*node) int {
	n := 0
	for _, nd := range nodes {
		if nd.hasSrc {
			n++
		}
		n += countSources(nd.children)
	}
	return n
}

// files reads the assets that pages, reusable contents and the summary
// link to, in path order, and adds them to the tree. Bytes count once per
// distinct blob, and each blob is stored once (content.Snapshot keys
// blobs by hash) whatever the number of names it has.
func (r *reader) files() error {
	if len(r.wanted) > r.lim.MaxFiles {
		return folio.Errorf(folio.Invalid, "the pages link to more than %d asset files", r.lim.MaxFiles)
	}
	assets := make([]string, 0, len(r.wanted))
	for p := range r.wanted {
		assets = append(assets, p)
	}
	sort.Strings(assets)
	r.tasks += len(assets)
	for _, p := range assets {
		data, err := r.read(p)
		if err != nil {
			return err
		}
		oid := BlobOID(data)
		if int64(len(data)) > r.lim.MaxFileBytes {
			return folio.Errorf(folio.Invalid, "file %s exceeds the %d byte file limit", safeName(p), r.lim.MaxFileBytes)
		}
		if err := r.countBlob(p, oid, len(data)); err != nil {
			return err
		}
		f := importer.NewFile(r.snap, path.Base(p), data)
		f.ID = r.wanted[p]
		f.Git = &content.GitSync{OID: oid, Path: p}
		if name, ok := r.prevNames[p+"\x00"+oid]; ok {
			f.Name = name
		}
		r.snap.Tree.Files = append(r.snap.Tree.Files, f)
	}
	return nil
}

// reusable reads the files under .gitbook/includes/ as reusable contents:
// front matter "title" (else the humanized file name) is the title, and
// the rest is read as a page's is, keeping a leading heading.
func (r *reader) reusable(paths []string, ids map[string]string) error {
	for _, p := range paths {
		if r.pages++; r.pages > r.lim.MaxPages {
			return folio.Errorf(folio.Invalid, "repository holds more than %d pages and reusable contents", r.lim.MaxPages)
		}
		data, err := r.read(p)
		if err != nil {
			return err
		}
		if err := r.count(p, len(data)); err != nil {
			return err
		}
		pp, err := parseFile(data, dirOf(p), resolver{idx: r.idx, dir: dirOf(p)}, r.fix, true)
		if err != nil {
			e := folio.Errorf(folio.Invalid, "reusable content %s: %s", safeName(join(r.root, p)), folio.MessageOf(err))
			e.Err = err
			return e
		}
		title := truncate(pp.fm.title, content.MaxTitleLength)
		if title == "" {
			title = truncate(titleName(p), content.MaxTitleLength)
		}
		if title == "" {
			title = "Untitled"
		}
		if pp.fm.description != "" || pp.fm.icon != "" || pp.fm.hidden || pp.fm.layout != nil {
			// Page fields have no place on reusable content: keep them as text.
			delete(pp.doc.Data, dataLayoutExtra)
			pp.doc.Data[dataFrontMatter] = pageFieldsText(pp.fm) + pp.fm.extra
			if len(pp.doc.Nodes) == 0 {
				pp.doc.Nodes = []content.Node{content.NewBlock(content.BlockParagraph, content.NewText(""))}
			}
		}
		r.snap.Tree.ReusableContents = append(r.snap.Tree.ReusableContents, content.ReusableContent{
			ID: ids[p], Title: title, Document: r.snap.AddDocument(pp.doc),
			Git: &content.GitSync{OID: BlobOID(data), Path: p},
		})
	}
	return nil
}

// pageFieldsText writes the page fields of front matter as YAML lines.
func pageFieldsText(fm frontMatter) string {
	head := writeFrontMatter(frontMatter{description: fm.description, icon: fm.icon, hidden: fm.hidden, layout: fm.layout, layoutExtra: fm.layoutExtra})
	return strings.TrimSuffix(strings.TrimPrefix(head, "---\n"), "---\n")
}

// newNode makes a page node, counting it against the page limit.
func (r *reader) newNode(typ, key string) (*node, error) {
	if r.pages++; r.pages > r.lim.MaxPages {
		return nil, folio.Errorf(folio.Invalid, "repository holds more than %d pages", r.lim.MaxPages)
	}
	return &node{page: &content.Page{ID: r.id(key), Type: typ}}, nil
}

// pageFile finds the page file a SUMMARY.md target names: the path, the
// README of the folder it names, or the path with .md added.
func (r *reader) pageFile(p string) (string, bool) {
	find := func(p string) (string, bool) {
		if r.pageSrc[p] {
			return p, true
		}
		q, ok := r.lowerSrc[strings.ToLower(p)]
		return q, ok
	}
	if q, ok := find(p); ok {
		return q, true
	}
	if path.Ext(p) == "" {
		if q, ok := find(join(p, defaultReadme)); ok {
			return q, true
		}
		return find(p + ".md")
	}
	return "", false
}

// fromSummary builds the tree SUMMARY.md describes; targets are relative
// to the summary's folder.
func (r *reader) fromSummary(items []*summaryItem, dir string) ([]*node, error) {
	var out []*node
	for _, it := range items {
		if it.group {
			title := truncate(collapse(it.title), content.MaxTitleLength)
			g, err := r.newNode(content.PageGroup, "group:"+title)
			if err != nil {
				return nil, err
			}
			g.page.Title = title
			if g.children, err = r.entries(it.children, dir); err != nil {
				return nil, err
			}
			out = append(out, g)
			continue
		}
		more, err := r.entries([]*summaryItem{it}, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// entries makes the pages of list entries and their children.
func (r *reader) entries(items []*summaryItem, dir string) ([]*node, error) {
	var out []*node
	for _, it := range items {
		n, err := r.entry(it, dir)
		if err != nil {
			return nil, err
		}
		children, err := r.entries(it.children, dir)
		if err != nil {
			return nil, err
		}
		switch {
		case n == nil:
			out = append(out, children...) // an entry without text: its children move up
		case n.page.Type == content.PageLink:
			out = append(out, n) // a link page holds no pages: its children follow it
			out = append(out, children...)
		default:
			n.children = children
			out = append(out, n)
		}
	}
	return out, nil
}

// entry makes the page of one SUMMARY.md entry.
func (r *reader) entry(it *summaryItem, dir string) (*node, error) {
	title := truncate(collapse(it.title), content.MaxTitleLength)
	target := strings.TrimSpace(it.target)
	switch {
	case target == "":
		if title == "" {
			return nil, nil
		}
		n, err := r.newNode(content.PageDocument, "")
		if err != nil {
			return nil, err
		}
		n.page.Title = title
		return n, nil
	case isExternal(target) && !strings.HasPrefix(target, "#"):
		return r.linkNode(title, target, map[string]string{"kind": "url", "url": target})
	}
	p, anchor, ok := resolvePath(dir, target)
	if !ok || p == "" {
		return r.linkNode(title, target, map[string]string{"kind": "url", "url": target})
	}
	if file, ok := r.pageFile(p); ok {
		if first := r.firstOf[file]; first != nil {
			ref := map[string]string{"kind": "page", "page": first.page.ID}
			if anchor != "" {
				ref = map[string]string{"kind": "anchor", "page": first.page.ID, "anchor": anchor}
			}
			return r.linkNode(title, target, ref)
		}
		n, err := r.newNode(content.PageDocument, "doc:"+file)
		if err != nil {
			return nil, err
		}
		n.page.Title = title
		n.path, n.hasSrc = file, true
		n.slugName, n.fallback = slugName(file), titleName(file)
		r.firstOf[file] = n
		r.idx.addPage(file, n.page.ID)
		return n, nil
	}
	if id, ok := r.idx.file(p); ok {
		return r.linkNode(title, target, map[string]string{"kind": "file", "file": id})
	}
	// A listed file that is missing becomes an empty page.
	n, err := r.newNode(content.PageDocument, "doc:"+p)
	if err != nil {
		return nil, err
	}
	n.page.Title = title
	n.slugName, n.fallback = slugName(p), titleName(p)
	r.idx.addPage(p, n.page.ID)
	return n, nil
}

func (r *reader) linkNode(title, target string, ref map[string]string) (*node, error) {
	raw, _ := json.Marshal(ref)
	n, err := r.newNode(content.PageLink, "link:"+string(raw))
	if err != nil {
		return nil, err
	}
	n.page.Target = raw
	n.page.Title = title
	if n.page.Title == "" {
		n.page.Title = truncate(target, content.MaxTitleLength)
	}
	return n, nil
}

// folder is a directory holding page files, directly or below.
type folder struct {
	name, path string
	files      []string
	dirs       map[string]*folder
}

// fromFolders builds the tree from the folders when there is no summary:
// the root README first, then files and folders in natural name order; a
// folder's README is its page.
func (r *reader) fromFolders(paths []string) ([]*node, error) {
	root := &folder{dirs: map[string]*folder{}}
	for _, p := range paths {
		d := root
		segs := strings.Split(p, "/")
		if len(segs) > content.MaxPageDepth {
			return nil, folio.Errorf(folio.Invalid, "page %s: folders nest at most %d levels deep", safeName(p), content.MaxPageDepth-1)
		}
		for _, seg := range segs[:len(segs)-1] {
			sub, ok := d.dirs[seg]
			if !ok {
				sub = &folder{name: seg, path: join(d.path, seg), dirs: map[string]*folder{}}
				d.dirs[seg] = sub
			}
			d = sub
		}
		d.files = append(d.files, p)
	}
	readme, children, err := r.folderPages(root, r.cfg.Readme)
	if err != nil {
		return nil, err
	}
	if readme != "" {
		n, err := r.fileNode(readme)
		if err != nil {
			return nil, err
		}
		n.slugName, n.fallback = "", "Introduction"
		children = append([]*node{n}, children...)
	}
	return children, nil
}

func (r *reader) fileNode(p string) (*node, error) {
	n, err := r.newNode(content.PageDocument, "doc:"+p)
	if err != nil {
		return nil, err
	}
	n.path, n.hasSrc = p, true
	n.slugName, n.fallback = slugName(p), titleName(p)
	r.idx.addPage(p, n.page.ID)
	return n, nil
}

// folderPages returns the README of d (readmePath at the root) and the
// pages of its other files and sub-folders in order.
func (r *reader) folderPages(d *folder, readmePath string) (string, []*node, error) {
	readme := ""
	for _, f := range d.files {
		if (d.path == "" && strings.EqualFold(f, readmePath)) || (d.path != "" && isReadme(f)) {
			readme = f
			break
		}
	}
	type item struct {
		name string
		file string
		dir  *folder
	}
	var items []item
	for _, f := range d.files {
		if f != readme {
			items = append(items, item{name: path.Base(f), file: f})
		}
	}
	for _, sub := range d.dirs {
		items = append(items, item{name: sub.name, dir: sub})
	}
	sort.Slice(items, func(i, j int) bool {
		a, b := strings.TrimSuffix(items[i].name, path.Ext(items[i].name)), strings.TrimSuffix(items[j].name, path.Ext(items[j].name))
		if c := importer.NaturalCompare(a, b); c != 0 {
			return c < 0
		}
		return items[i].file != "" && items[j].file == ""
	})
	var out []*node
	for _, it := range items {
		if it.file != "" {
			n, err := r.fileNode(it.file)
			if err != nil {
				return "", nil, err
			}
			out = append(out, n)
			continue
		}
		subReadme, children, err := r.folderPages(it.dir, "")
		if err != nil {
			return "", nil, err
		}
		var n *node
		if subReadme != "" {
			n, err = r.fileNode(subReadme)
		} else {
			n, err = r.newNode(content.PageDocument, "")
		}
		if err != nil {
			return "", nil, err
		}
		r.idx.addDir(it.dir.path, n.page.ID)
		n.slugName, n.fallback, n.children = it.dir.name, importer.Humanize(it.dir.name), children
		out = append(out, n)
	}
	return readme, out, nil
}

// slugName returns the name a page file's slug comes from: the file name
// without extension, the folder name for a README, "" for the root README.
func slugName(p string) string {
	if isReadme(p) {
		return path.Base(dirOf(p)) // "." at the root
	}
	base := path.Base(p)
	return strings.TrimSuffix(base, path.Ext(base))
}

func titleName(p string) string {
	name := slugName(p)
	if name == "." {
		return "Introduction"
	}
	return importer.Humanize(name)
}

// fill converts the page files and sets titles and slugs.
func (r *reader) fill(nodes []*node) error {
	taken := map[string]bool{}
	next := map[string]int{}
	for _, n := range nodes {
		if n.hasSrc {
			src, err := r.read(n.path)
			if err != nil {
				return err
			}
			n.src = src
			if err := r.count(n.path, len(n.src)); err != nil {
				return err
			}
			pp, err := parsePage(n.src, dirOf(n.path), resolver{idx: r.idx, dir: dirOf(n.path)}, r.fix)
			if err != nil {
				e := folio.Errorf(folio.Invalid, "page %s: %s", safeName(join(r.root, n.path)), folio.MessageOf(err))
				e.Err = err
				return e
			}
			applyFrontMatter(n.page, pp.fm)
			n.page.Document = r.snap.AddDocument(pp.doc)
			n.page.Git = &content.GitSync{OID: BlobOID(n.src), Path: n.path}
			if n.page.Title == "" {
				n.page.Title = truncate(pp.h1, content.MaxTitleLength)
			}
			n.src = nil
		}
		if n.page.Title == "" {
			n.page.Title = truncate(collapse(n.fallback), content.MaxTitleLength)
		}
		if n.page.Title == "" {
			n.page.Title = "Untitled"
		}
		if n.page.Type != content.PageLink {
			want := n.page.Title
			if n.slugName != "" && n.slugName != "." {
				want = n.slugName
			}
			n.page.Slug = uniqueSlug(taken, next, content.Slugify(want))
		}
		if err := r.fill(n.children); err != nil {
			return err
		}
	}
	return nil
}

// applyFrontMatter sets the page fields front matter gives; values the
// tree would refuse (an icon over content.MaxEmojiLength) are dropped and a
// description is cut to content.MaxDescriptionLength.
func applyFrontMatter(p *content.Page, fm frontMatter) {
	p.Description = truncate(fm.description, content.MaxDescriptionLength)
	if len([]rune(fm.icon)) <= content.MaxEmojiLength {
		p.Icon = fm.icon
	}
	p.Hidden = fm.hidden
	p.Layout = fm.layout
}

// uniqueSlug returns want, or want with the first free suffix -2, -3…
func uniqueSlug(taken map[string]bool, next map[string]int, want string) string {
	if want == "" {
		want = "page"
	}
	return importer.UniqueSlug(taken, next, want)
}

// pagesOf links the nodes into pages and returns the top level.
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
