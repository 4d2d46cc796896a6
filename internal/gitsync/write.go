package gitsync

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
)

// WriteOptions say where to write and what the repository holds now.
type WriteOptions struct {
	ProjectDir string  // the folder holding .gitbook.yaml, "" for the repository root
	Existing   Files   // the repository tree at the commit being updated; nil for an empty repository
	Config     *Config // .gitbook.yaml to write; nil keeps the existing one, or writes a default one
	TreeURL    string  // the ReadOptions.TreeURL of the last import, so that unchanged pages are recognized
}

// Written is the outcome of WriteTree: the whole new repository tree and
// where each page and file went.
type Written struct {
	Files Files
	Pages map[string]content.GitSync // page id -> blob id and path relative to the docs root
	Blobs map[string]content.GitSync // file id -> blob id and path relative to the docs root
	// Reusable maps reusable content ids to their blob ids and paths.
	Reusable map[string]content.GitSync
}

// Write returns the whole new repository tree for snap; see WriteTree.
func Write(snap *content.Snapshot, opts WriteOptions) (Files, error) {
	w, err := WriteTree(snap, opts)
	if err != nil {
		return nil, err
	}
	return w.Files, nil
}

// WriteTree writes snap in GitBook's format over opts.Existing: files that
// are not docs (pages the existing SUMMARY.md or folders use, SUMMARY.md,
// .gitbook.yaml, files under .gitbook/assets/) are left as they are; docs
// are written from snap, and those of pages and files that no longer exist
// are removed. A page keeps its git path, and keeps its bytes when its
// existing file reads back to the same document and fields. Errors:
// Invalid for a tree that fails content.Tree.Validate or an existing
// .gitbook.yaml that does not parse; a plain error when a file's bytes are
// neither in snap.Blobs nor in Existing under its git path.
func WriteTree(snap *content.Snapshot, opts WriteOptions) (*Written, error) {
	if snap == nil || snap.Tree == nil {
		return nil, folio.Errorf(folio.Invalid, "nothing to write")
	}
	if err := snap.Tree.Validate(); err != nil {
		return nil, err
	}
	projectDir, err := cleanDir("repoProjectDirectory", opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	for p := range opts.Existing {
		if !safePath(p) {
			return nil, folio.Errorf(folio.Invalid, "repository path %s is not a clean relative path", strconv.Quote(safeName(p)))
		}
	}
	oldCfg := DefaultConfig()
	oldCfgBytes, hasOldCfg := opts.Existing[join(projectDir, configName)]
	if hasOldCfg {
		if oldCfg, err = ParseConfig(oldCfgBytes); err != nil {
			return nil, err
		}
	}
	cfg := oldCfg
	if opts.Config != nil {
		cfg = *opts.Config
		if cfg.Root, err = cleanDir("root", cfg.Root); err != nil {
			return nil, err
		}
		cfg.Readme, cfg.Summary = orDefault(cfg.Readme, defaultReadme), orDefault(cfg.Summary, defaultSummary)
	}
	w := &writer{snap: snap, opts: opts, cfg: cfg, root: join(projectDir, cfg.Root),
		out: make(Files, len(opts.Existing)), taken: map[string]bool{}, next: map[string]int{}, pagePath: map[string]string{},
		filePath: map[string]string{}, oldTitles: map[string]string{},
		result: &Written{Pages: map[string]content.GitSync{}, Blobs: map[string]content.GitSync{}, Reusable: map[string]content.GitSync{}}}
	for p, b := range opts.Existing {
		w.out[p] = b
	}
	oldSummary, err := w.removeDocs(join(projectDir, oldCfg.Root), oldCfg)
	if err != nil {
		return nil, err
	}
	if err := w.placeFiles(); err != nil {
		return nil, err
	}
	w.placePages()
	w.placeReusable()
	if err := w.writePages(snap.Tree.Pages); err != nil {
		return nil, err
	}
	if err := w.writeReusable(); err != nil {
		return nil, err
	}
	w.writeSummary(oldSummary)
	// .gitbook.yaml: kept byte for byte unless its meaning changes.
	cfgPath := join(projectDir, configName)
	switch {
	case hasOldCfg && (opts.Config == nil || oldCfg.equal(cfg)):
		w.out[cfgPath] = oldCfgBytes
	default:
		w.out[cfgPath] = cfg.marshal()
	}
	w.result.Files = w.out
	return w.result, nil
}

// writer is the state of one WriteTree.
type writer struct {
	snap     *content.Snapshot
	opts     WriteOptions
	cfg      Config
	root     string // the docs root in the repository
	out      Files
	taken    map[string]bool   // paths relative to root given to pages and files
	next     map[string]int    // wanted path -> the next suffix to try
	pagePath map[string]string // page id -> path relative to root
	filePath map[string]string // file id -> path relative to root
	// includePath maps reusable content ids to their files, relative to root.
	includePath map[string]string
	oldTitles   map[string]string // page file -> its title in the existing SUMMARY.md
	old         Files             // existing docs by path relative to the new root
	result      *Written
}

// removeDocs takes the existing docs out of the output: the pages the
// existing SUMMARY.md lists (or, without one, every Markdown file under the
// root), SUMMARY.md and the assets. It returns the parsed old summary.
func (w *writer) removeDocs(oldRoot string, oldCfg Config) ([]*summaryItem, error) {
	w.old = Files{}
	keep := func(repoPath string, data []byte) {
		if p, ok := under(w.root, repoPath); ok {
			w.old[p] = data
		}
		delete(w.out, repoPath)
	}
	summaryPath := join(oldRoot, oldCfg.Summary)
	data, hasSummary := w.opts.Existing[summaryPath]
	var items []*summaryItem
	if hasSummary {
		var err error
		if items, err = parseSummary(string(data), content.MaxPages); err != nil {
			return nil, err
		}
		keep(summaryPath, data)
		var walk func(items []*summaryItem)
		walk = func(items []*summaryItem) {
			for _, it := range items {
				if !it.group && it.target != "" && !isExternal(it.target) {
					if p, _, ok := resolvePath(dirOf(oldCfg.Summary), it.target); ok {
						for _, c := range []string{p, join(p, defaultReadme), p + ".md"} {
							if b, ok := w.opts.Existing[join(oldRoot, c)]; ok && isPageFile(c) {
								keep(join(oldRoot, c), b)
								if _, seen := w.oldTitles[c]; !seen {
									w.oldTitles[c] = it.title
								}
								break
							}
						}
					}
				}
				walk(it.children)
			}
		}
		walk(items)
	}
	for repoPath, b := range w.opts.Existing {
		p, ok := under(oldRoot, repoPath)
		if !ok {
			continue
		}
		if strings.HasPrefix(p, assetsDir+"/") || (strings.HasPrefix(p, includesDir+"/") && isPageFile(p)) ||
			(!hasSummary && isPageFile(p) && !hiddenPath(p)) {
			keep(repoPath, b)
		}
	}
	return items, nil
}

// claim reserves p (relative to root) unless a page, a file or a kept
// repository file already has it.
func (w *writer) claim(p string) bool {
	if p == "" || w.taken[p] || !safePath(p) {
		return false
	}
	if _, kept := w.out[join(w.root, p)]; kept {
		return false
	}
	if p == w.cfg.Summary {
		return false
	}
	w.taken[p] = true
	return true
}

// placeFiles gives every file a path under .gitbook/assets/ (its git path
// when it has one) and writes its bytes.
func (w *writer) placeFiles() error {
	files := w.snap.Tree.Files
	for _, f := range files {
		if f.Git != nil && strings.HasPrefix(f.Git.Path, assetsDir+"/") && w.claim(f.Git.Path) {
			w.filePath[f.ID] = f.Git.Path
		}
	}
	for _, f := range files {
		if _, ok := w.filePath[f.ID]; ok {
			continue
		}
		name := assetName(f.Name)
		ext := path.Ext(name)
		stem := strings.TrimSuffix(name, ext)
		p := assetsDir + "/" + name
		// next remembers the last suffix tried per name, so that many files
		// of one name stay linear.
		for n := max(w.next[p], 1); !w.claim(p); n++ {
			w.next[assetsDir+"/"+name] = n + 1
			p = fmt.Sprintf("%s/%s (%d)%s", assetsDir, stem, n, ext)
		}
		w.filePath[f.ID] = p
	}
	for _, f := range files {
		p := w.filePath[f.ID]
		data, ok := w.snap.Blobs[f.Blob]
		if !ok && f.Git != nil {
			if b, found := w.old[f.Git.Path]; found && BlobOID(b) == f.Git.OID {
				data, ok = b, true
			}
		}
		if !ok {
			return fmt.Errorf("gitsync: write file %s: bytes of blob %s missing", f.ID, f.Blob)
		}
		w.out[join(w.root, p)] = data
		w.result.Blobs[f.ID] = content.GitSync{OID: BlobOID(data), Path: p}
	}
	return nil
}

// assetName makes a file name safe as one path segment.
func assetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '-'
		}
		return r
	}, strings.TrimSpace(name))
	name = strings.TrimLeft(name, ".")
	if name == "" {
		return "file"
	}
	return name
}

// placePages gives every document page its file: its git path when it has
// one and the path is free, else a path from the slugs (the first page
// README.md, a page with children dir/README.md, a leaf slug.md, a group's
// pages under the group's slug).
func (w *writer) placePages() {
	content.Walk(w.snap.Tree, func(n content.PageNode) bool {
		p := n.Page
		if p.Type == content.PageDocument && p.Git != nil && isPageFile(p.Git.Path) && !hiddenPath(p.Git.Path) && w.claim(p.Git.Path) {
			w.pagePath[p.ID] = p.Git.Path
		}
		return true
	})
	first := true
	var place func(pages []*content.Page, dir string)
	place = func(pages []*content.Page, dir string) {
		for _, p := range pages {
			switch p.Type {
			case content.PageGroup:
				place(p.Pages, join(dir, p.Slug))
				continue
			case content.PageLink:
				continue
			}
			wasFirst := first
			first = false
			got, ok := w.pagePath[p.ID]
			if !ok {
				switch {
				case wasFirst && w.claim(w.cfg.Readme):
					got = w.cfg.Readme
				case len(p.Pages) > 0:
					got = w.free(join(dir, p.Slug), "/"+defaultReadme)
				default:
					got = w.free(join(dir, p.Slug), ".md")
				}
				w.pagePath[p.ID] = got
			}
			childDir := dirOf(got)
			if !isReadme(got) {
				childDir = join(dirOf(got), strings.TrimSuffix(path.Base(got), path.Ext(got)))
			}
			if wasFirst && got == w.cfg.Readme {
				childDir = dir
			}
			place(p.Pages, childDir)
		}
	}
	place(w.snap.Tree.Pages, "")
}

// free claims base+suffix, or base-2+suffix, base-3+suffix…
func (w *writer) free(base, suffix string) string {
	if w.claim(base + suffix) {
		return base + suffix
	}
	for n := max(w.next[base+suffix], 2); ; n++ {
		if p := base + "-" + strconv.Itoa(n) + suffix; w.claim(p) {
			w.next[base+suffix] = n + 1
			return p
		}
	}
}

// linkTarget writes references of the page file in folder dir as
// relative paths.
type linkTarget struct {
	w   *writer
	dir string
}

func (t linkTarget) PagePath(pageID, anchor string) string {
	p, ok := t.w.pagePath[pageID]
	if !ok {
		return "#"
	}
	out := relPath(t.dir, p)
	if anchor != "" {
		out += "#" + anchor
	}
	return out
}

// ReusablePath is the include target of a reusable content.
func (t linkTarget) ReusablePath(id string) string {
	p, ok := t.w.includePath[id]
	if !ok {
		return "reusable:" + id
	}
	return relPath(t.dir, p)
}

func (t linkTarget) FilePath(fileID string) string {
	p, ok := t.w.filePath[fileID]
	if !ok {
		return "#"
	}
	return relPath(t.dir, p)
}

// pageIndex indexes the new paths, to read existing files back.
func (w *writer) pageIndex() *index {
	idx := newIndex()
	for id, p := range w.pagePath {
		idx.addPage(p, id)
	}
	for id, p := range w.filePath {
		idx.addFile(p, id)
	}
	for id, p := range w.includePath {
		idx.addInclude(p, id)
	}
	return idx
}

// writePages writes the file of every document page.
func (w *writer) writePages(pages []*content.Page) error {
	idx := w.pageIndex()
	fix := treeLinks(w.opts.TreeURL, w.root, pathSet(w.opts.Existing))
	var err error
	content.Walk(w.snap.Tree, func(n content.PageNode) bool {
		if err != nil {
			return false
		}
		p := n.Page
		file, ok := w.pagePath[p.ID]
		if !ok {
			return true
		}
		data := w.keptBytes(p, file, idx, fix)
		if data == nil {
			data, err = w.render(p, file)
		}
		w.out[join(w.root, file)] = data
		w.result.Pages[p.ID] = content.GitSync{OID: BlobOID(data), Path: file}
		return true
	})
	return err
}

// keptBytes returns the existing bytes of the page's file when they read
// back to the page as it is, else nil.
func (w *writer) keptBytes(p *content.Page, file string, idx *index, fix linkFixer) []byte {
	old, ok := w.old[file]
	if !ok {
		return nil
	}
	pp, err := parsePage(old, dirOf(file), resolver{idx: idx, dir: dirOf(file)}, fix)
	if err != nil {
		return nil
	}
	var probe content.Page
	applyFrontMatter(&probe, pp.fm)
	if content.HashDocument(docOrNil(pp.doc)) != p.Document || probe.Description != p.Description ||
		probe.Icon != p.Icon || probe.Hidden != p.Hidden || !sameLayout(probe.Layout, p.Layout) {
		return nil
	}
	if pp.h1 != "" && pp.h1 != p.Title && w.oldTitles[file] != p.Title {
		return nil
	}
	return old
}

// docOrNil returns nil for a document Snapshot.AddDocument would not keep.
func docOrNil(d *content.Document) *content.Document {
	if d == nil || len(d.Nodes) == 0 {
		return nil
	}
	return d
}

func sameLayout(a, b *content.Layout) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// render writes a page file: front matter, "# Title" (unless the document
// starts with a heading-1 of its own) and the document as Markdown.
func (w *writer) render(p *content.Page, file string) ([]byte, error) {
	var doc *content.Document
	if !p.Document.IsZero() {
		doc = w.snap.Documents[p.Document]
		if doc == nil {
			return nil, fmt.Errorf("gitsync: write page %s: document %s missing", p.ID, p.Document)
		}
	}
	fm := frontMatter{description: p.Description, icon: p.Icon, hidden: p.Hidden, layout: p.Layout}
	if doc != nil {
		fm.extra, _ = doc.Data[dataFrontMatter].(string)
		fm.layoutExtra, _ = doc.Data[dataLayoutExtra].(string)
		if fm.layoutExtra != "" && fm.layout == nil {
			fm.layout = &content.Layout{Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true}
		}
	}
	var b strings.Builder
	if head := writeFrontMatter(fm); head != "" {
		b.WriteString(head)
		b.WriteString("\n")
	}
	body := ""
	if doc != nil {
		md, err := markdown.FromDocument(doc, linkTarget{w: w, dir: dirOf(file)})
		if err != nil {
			return nil, fmt.Errorf("gitsync: write page %s: %w", p.ID, err)
		}
		body = strings.TrimRight(string(md), "\n")
		if body != "" {
			body += "\n"
		}
	}
	if doc == nil || len(doc.Nodes) == 0 || doc.Nodes[0].Type != content.BlockHeading1 {
		b.WriteString("# " + escapeHeading(p.Title) + "\n")
		if body != "" {
			b.WriteString("\n")
		}
	}
	b.WriteString(body)
	return []byte(b.String()), nil
}

// escapeHeading writes a title as heading text: white space collapsed and
// what Markdown or Liquid would read as formatting, math, entities or a
// closing "#" escaped.
func escapeHeading(s string) string {
	s = collapse(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>{}#$~&|", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// writeSummary writes SUMMARY.md from the tree, keeping the existing bytes
// when they list the same entries.
func (w *writer) writeSummary(old []*summaryItem) {
	items := w.summaryItems(w.snap.Tree.Pages)
	repoPath := join(w.root, w.cfg.Summary)
	if data, ok := w.opts.Existing[repoPath]; ok && old != nil && sameSummary(normalizeTargets(old), normalizeTargets(items)) {
		w.out[repoPath] = data
		return
	}
	w.out[repoPath] = writeSummary(items)
}

// normalizeTargets returns items with targets cleaned for comparison.
func normalizeTargets(items []*summaryItem) []*summaryItem {
	out := make([]*summaryItem, len(items))
	for i, it := range items {
		c := *it
		if !isExternal(c.target) {
			if p, anchor, ok := resolvePath("", c.target); ok {
				c.target = p
				if anchor != "" {
					c.target += "#" + anchor
				}
			}
		}
		c.children = normalizeTargets(it.children)
		out[i] = &c
	}
	return out
}

// summaryItems lists the tree as SUMMARY.md entries; targets are relative
// to the summary's folder.
func (w *writer) summaryItems(pages []*content.Page) []*summaryItem {
	dir := dirOf(w.cfg.Summary)
	var out []*summaryItem
	for _, p := range pages {
		it := &summaryItem{title: p.Title}
		switch p.Type {
		case content.PageGroup:
			it.group = true
		case content.PageDocument:
			it.target = relPath(dir, w.pagePath[p.ID])
		case content.PageLink:
			t, ok := w.linkTarget(p.Target, dir)
			if !ok {
				continue
			}
			it.target = t
		}
		it.children = w.summaryItems(p.Pages)
		out = append(out, it)
	}
	return out
}

// linkTarget writes a link page's ContentRef as a SUMMARY.md target; refs
// with no place in a repository (spaces, collections…) are left out.
func (w *writer) linkTarget(raw json.RawMessage, dir string) (string, bool) {
	var ref map[string]string
	if json.Unmarshal(raw, &ref) != nil {
		return "", false
	}
	switch ref["kind"] {
	case "url":
		return ref["url"], ref["url"] != ""
	case "page", "anchor":
		p, ok := w.pagePath[ref["page"]]
		if !ok {
			return "", false
		}
		t := relPath(dir, p)
		if ref["anchor"] != "" {
			t += "#" + ref["anchor"]
		}
		return t, true
	case "file":
		p, ok := w.filePath[ref["file"]]
		return relPath(dir, p), ok
	}
	return "", false
}

// writeReusable writes every reusable content under .gitbook/includes/:
// its git path when it has one, else its title's slug. Existing bytes are
// kept when they read back to the same title and document.
// placeReusable gives every reusable content its file under
// .gitbook/includes/ (its git path when it has one), before pages are
// written: their {% include %} blocks name these files.
func (w *writer) placeReusable() {
	rcs := w.snap.Tree.ReusableContents
	w.includePath = make(map[string]string, len(rcs))
	for _, rc := range rcs {
		if rc.Git != nil && strings.HasPrefix(rc.Git.Path, includesDir+"/") && isPageFile(rc.Git.Path) && w.claim(rc.Git.Path) {
			w.includePath[rc.ID] = rc.Git.Path
		}
	}
	for _, rc := range rcs {
		if w.includePath[rc.ID] == "" {
			w.includePath[rc.ID] = w.free(includesDir+"/"+orDefault(content.Slugify(rc.Title), "include"), ".md")
		}
	}
}

func (w *writer) writeReusable() error {
	rcs := w.snap.Tree.ReusableContents
	idx := w.pageIndex()
	fix := treeLinks(w.opts.TreeURL, w.root, pathSet(w.opts.Existing))
	for _, rc := range rcs {
		file := w.includePath[rc.ID]
		var doc *content.Document
		if !rc.Document.IsZero() {
			if doc = w.snap.Documents[rc.Document]; doc == nil {
				return fmt.Errorf("gitsync: write reusable content %s: document %s missing", rc.ID, rc.Document)
			}
		}
		data := w.keptReusable(rc, file, idx, fix)
		if data == nil {
			fm := frontMatter{title: rc.Title, hasTitle: true}
			if doc != nil {
				fm.extra, _ = doc.Data[dataFrontMatter].(string)
			}
			var b strings.Builder
			b.WriteString(writeFrontMatter(fm))
			if doc != nil {
				md, err := markdown.FromDocument(doc, linkTarget{w: w, dir: dirOf(file)})
				if err != nil {
					return fmt.Errorf("gitsync: write reusable content %s: %w", rc.ID, err)
				}
				if body := strings.TrimRight(string(md), "\n"); body != "" {
					b.WriteString("\n" + body + "\n")
				}
			}
			data = []byte(b.String())
		}
		w.out[join(w.root, file)] = data
		w.result.Reusable[rc.ID] = content.GitSync{OID: BlobOID(data), Path: file}
	}
	return nil
}

func (w *writer) keptReusable(rc content.ReusableContent, file string, idx *index, fix linkFixer) []byte {
	old, ok := w.old[file]
	if !ok {
		return nil
	}
	pp, err := parseFile(old, dirOf(file), resolver{idx: idx, dir: dirOf(file)}, fix, true)
	if err != nil || pp.fm.description != "" || pp.fm.icon != "" || pp.fm.hidden || pp.fm.layout != nil {
		return nil
	}
	if content.HashDocument(docOrNil(pp.doc)) != rc.Document || pp.fm.title != rc.Title {
		return nil
	}
	return old
}
