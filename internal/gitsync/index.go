package gitsync

import (
	"path"
	"strings"

	"github.com/foliodocs/folio/internal/importer"
)

// index maps paths relative to the docs root to the pages and files made
// from them. Lookups try the exact path, then a case-insensitive match,
// since links written on macOS and Windows often disagree on case.
type index struct {
	pages, dirs, files                map[string]string
	lowerPages, lowerDirs, lowerFiles map[string]string
	includes, lowerIncludes           map[string]string // reusable contents by file
	// fileID turns what files holds into a file id: the identity when it
	// holds ids (Write); Read stores asset paths and gives a looked-up
	// asset its id, so that only assets something links to are stored.
	fileID func(p string) string
}

func newIndex() *index {
	return &index{pages: map[string]string{}, dirs: map[string]string{}, files: map[string]string{},
		lowerPages: map[string]string{}, lowerDirs: map[string]string{}, lowerFiles: map[string]string{},
		includes: map[string]string{}, lowerIncludes: map[string]string{},
		fileID: func(v string) string { return v }}
}

func (x *index) addInclude(p, id string) { add(x.includes, x.lowerIncludes, p, id) }

func add(m, lower map[string]string, p, id string) {
	if _, ok := m[p]; !ok {
		m[p] = id
	}
	if _, ok := lower[strings.ToLower(p)]; !ok {
		lower[strings.ToLower(p)] = id
	}
}

func lookup(m, lower map[string]string, p string) (string, bool) {
	if id, ok := m[p]; ok {
		return id, true
	}
	id, ok := lower[strings.ToLower(p)]
	return id, ok
}

// addPage records the page of a file; a README also stands for its folder.
func (x *index) addPage(p, id string) {
	add(x.pages, x.lowerPages, p, id)
	if isReadme(p) {
		add(x.dirs, x.lowerDirs, dirOf(p), id)
	}
}

func (x *index) addDir(p, id string)  { add(x.dirs, x.lowerDirs, p, id) }
func (x *index) addFile(p, id string) { add(x.files, x.lowerFiles, p, id) }

// page finds the page of a path: the file, the folder it names, or the
// file without its .md extension.
func (x *index) page(p string) (string, bool) {
	if id, ok := lookup(x.pages, x.lowerPages, p); ok {
		return id, true
	}
	if id, ok := lookup(x.dirs, x.lowerDirs, strings.TrimSuffix(p, "/")); ok {
		return id, true
	}
	if p != "" && path.Ext(p) == "" {
		return lookup(x.pages, x.lowerPages, p+".md")
	}
	return "", false
}

func (x *index) file(p string) (string, bool) {
	if q, ok := lookup(x.files, x.lowerFiles, p); ok {
		return x.fileID(q), true
	}
	if i := strings.LastIndex(p, assetsDir+"/"); i > 0 {
		return x.assetFile(p[i:])
	}
	return "", false
}

// assetFile finds an asset by its path under the root.
func (x *index) assetFile(p string) (string, bool) {
	q, ok := lookup(x.files, x.lowerFiles, p)
	if !ok {
		return "", false
	}
	return x.fileID(q), true
}

// resolver is the markdown.Resolver of one page file: targets are relative
// to the file's folder, or to the docs root when they start with "/".
type resolver struct {
	idx *index
	dir string
}

func (r resolver) Page(target string) (string, string, bool) {
	if isExternal(target) {
		return "", "", false
	}
	p, anchor, ok := resolvePath(r.dir, target)
	if !ok {
		return "", "", false
	}
	id, ok := r.idx.page(p)
	return id, anchor, ok
}

// Reusable resolves the target of {% include %} to the reusable content
// read from that file under .gitbook/includes/.
func (r resolver) Reusable(target string) (string, bool) {
	if isExternal(target) {
		return "", false
	}
	p, _, ok := resolvePath(r.dir, target)
	if !ok {
		if i := strings.LastIndex(p, includesDir+"/"); i >= 0 {
			return lookup(r.idx.includes, r.idx.lowerIncludes, p[i:])
		}
		return "", false
	}
	return lookup(r.idx.includes, r.idx.lowerIncludes, p)
}

func (r resolver) File(target string) (string, bool) {
	if isExternal(target) {
		return "", false
	}
	p, _, ok := resolvePath(r.dir, target)
	if !ok {
		// Exports often get the depth of ../.gitbook/assets/ wrong; the
		// name under the assets folder is still unique.
		if i := strings.LastIndex(p, assetsDir+"/"); i >= 0 {
			return r.idx.assetFile(p[i:])
		}
		return "", false
	}
	return r.idx.file(p)
}

// isExternal reports targets with a scheme or a host ("https://",
// "mailto:", "//cdn"), and anchors within the page.
func isExternal(t string) bool {
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || t == "" {
		return true
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == ':':
			return i > 0
		case c == '/' || c == '?' || c == '#':
			return false
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')):
			return false
		}
	}
	return false
}

// resolvePath is importer.ResolvePath: targets relative to the file's
// folder, or to the docs root when they start with "/".
func resolvePath(dir, target string) (p, anchor string, ok bool) {
	return importer.ResolvePath(dir, target)
}

// isReadme reports a folder's page file.
func isReadme(p string) bool { return strings.EqualFold(path.Base(p), defaultReadme) }

// isPageFile reports Markdown files.
func isPageFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// hiddenPath reports a path with a segment starting with ".".
func hiddenPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
