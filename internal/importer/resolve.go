package importer

import (
	"net/url"
	"path"
	"strings"
)

// index maps archive paths to the ids of the pages and files made from them.
// Lookups try the exact path first, then a case-insensitive match, because
// archives made on macOS and Windows often disagree with their links on case.
type index struct {
	pages      map[string]string // page file path -> page id
	dirs       map[string]string // folder path -> the folder's page id
	files      map[string]string // file path -> file id
	lowerPages map[string]string
	lowerDirs  map[string]string
	lowerFiles map[string]string
}

func newIndex() *index {
	return &index{pages: map[string]string{}, dirs: map[string]string{}, files: map[string]string{},
		lowerPages: map[string]string{}, lowerDirs: map[string]string{}, lowerFiles: map[string]string{}}
}

// add records id under p in m and its lowercase twin, keeping the first.
func add(m, lower map[string]string, p, id string) {
	if _, ok := m[p]; !ok {
		m[p] = id
	}
	if _, ok := lower[strings.ToLower(p)]; !ok {
		lower[strings.ToLower(p)] = id
	}
}

func (x *index) addPage(p, id string) { add(x.pages, x.lowerPages, p, id) }
func (x *index) addDir(p, id string)  { add(x.dirs, x.lowerDirs, p, id) }
func (x *index) addFile(p, id string) { add(x.files, x.lowerFiles, p, id) }

func lookup(m, lower map[string]string, p string) (string, bool) {
	if id, ok := m[p]; ok {
		return id, true
	}
	id, ok := lower[strings.ToLower(p)]
	return id, ok
}

// page finds the page of an archive path: the page file itself, the folder
// it names, or the file it names without its .md extension.
func (x *index) page(p string) (string, bool) {
	if id, ok := lookup(x.pages, x.lowerPages, p); ok {
		return id, true
	}
	if id, ok := lookup(x.dirs, x.lowerDirs, p); ok {
		return id, true
	}
	if p != "" && path.Ext(p) == "" {
		return lookup(x.pages, x.lowerPages, p+".md")
	}
	return "", false
}

func (x *index) file(p string) (string, bool) {
	if id, ok := lookup(x.files, x.lowerFiles, p); ok {
		return id, true
	}
	// A nested folder's assets may be linked as if at the root, or the
	// other way round.
	if i := strings.LastIndex(p, ".gitbook/assets/"); i > 0 {
		return lookup(x.files, x.lowerFiles, p[i:])
	}
	return "", false
}

// resolver is the markdown.Resolver of one page file: targets are relative
// to the file's folder, or to the archive root when they start with "/".
type resolver struct {
	idx  *index
	dir  string     // folder of the linking file, "" at the root
	data *dataFiles // images given as data: URLs
}

// Data implements markdown.DataResolver.
func (r resolver) Data(u string) (string, bool) { return r.data.Data(u) }

func (r resolver) failed() error { return r.data.failed() }

func (r resolver) Page(target string) (string, string, bool) {
	p, anchor, ok := resolvePath(r.dir, target)
	if !ok {
		return "", "", false
	}
	id, ok := r.idx.page(p)
	return id, anchor, ok
}

func (r resolver) File(target string) (string, bool) {
	p, _, ok := resolvePath(r.dir, target)
	if !ok {
		// Exports often get the depth of ../.gitbook/assets/ wrong, even
		// climbing above the root; the name under the assets folder is
		// still unique.
		if i := strings.LastIndex(p, ".gitbook/assets/"); i >= 0 {
			return lookup(r.idx.files, r.idx.lowerFiles, p[i:])
		}
		return "", false
	}
	return r.idx.file(p)
}

// resolvePath turns a link target into a cleaned archive path ("" for the
// root) and its anchor; ok is false for a path that leaves the archive,
// which is still returned (starting with "../").
func resolvePath(dir, target string) (p, anchor string, ok bool) {
	t := target
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t, anchor = t[:i], t[i+1:]
	}
	if i := strings.IndexByte(t, '?'); i >= 0 {
		t = t[:i]
	}
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	t = strings.ReplaceAll(t, `\`, "/")
	if strings.HasPrefix(t, "/") {
		p = path.Clean(strings.TrimLeft(t, "/"))
	} else {
		p = path.Join(dir, t)
	}
	if p == "." {
		p = ""
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return p, anchor, false
	}
	return p, anchor, true
}
