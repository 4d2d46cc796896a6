package gitsync

import (
	"crypto/sha1"
	"encoding/hex"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
)

// Files is a repository tree: slash-separated paths relative to the
// repository root mapped to the files' bytes. Folders are implied.
type Files map[string][]byte

// Source is a repository tree that Read reads on demand, so that only the
// files an import needs are read: the configuration, the summary, the page
// files, the reusable contents and the assets pages link to.
type Source interface {
	// Paths returns every file path, slash-separated and relative to the
	// repository root.
	Paths() []string
	// ReadFile returns the bytes of a file Paths listed; the slice is not
	// modified by Read. Its errors are returned by Read as they are.
	ReadFile(p string) ([]byte, error)
}

// Paths returns the paths of f, sorted.
func (f Files) Paths() []string {
	out := make([]string, 0, len(f))
	for p := range f {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ReadFile returns the bytes of the file at p (nil for a missing one).
func (f Files) ReadFile(p string) ([]byte, error) { return f[p], nil }

// BlobOID returns the git blob id of data: the hex SHA-1 of
// "blob <len>\x00" followed by data, as git hash-object computes it.
func BlobOID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Well-known names of GitBook's format.
const (
	configName     = ".gitbook.yaml"
	assetsDir      = ".gitbook/assets"
	includesDir    = ".gitbook/includes"
	defaultReadme  = "README.md"
	defaultSummary = "SUMMARY.md"
)

// cleanDir cleans a folder path given by a caller or .gitbook.yaml: slashes
// around it and "." are dropped, "" is the repository root. A path that
// climbs out of the repository or holds a NUL is Invalid.
func cleanDir(field, p string) (string, error) {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.ContainsRune(p, 0) {
		return "", folio.FieldErrorf(field, "%s must not hold NUL bytes", field)
	}
	p = strings.TrimLeft(strings.TrimSpace(p), "/")
	if p == "" {
		return "", nil
	}
	p = path.Clean(p)
	if strings.HasPrefix(p, "../") || p == ".." {
		return "", folio.FieldErrorf(field, "%s must stay inside the repository", field)
	}
	if p == "." {
		return "", nil
	}
	return strings.TrimSuffix(p, "/"), nil
}

// join joins a folder ("" for the root) and a relative path.
func join(dir, p string) string {
	if dir == "" {
		return p
	}
	if p == "" {
		return dir
	}
	return dir + "/" + p
}

// under returns p relative to dir and whether p lies inside dir.
func under(dir, p string) (string, bool) {
	if dir == "" {
		return p, true
	}
	if strings.HasPrefix(p, dir+"/") {
		return p[len(dir)+1:], true
	}
	return "", false
}

// dirOf returns the folder of p, "" at the root.
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// relPath returns the relative link from a file in folder from to the
// path to ("../x/y.md" style).
func relPath(from, to string) string {
	if from == "" {
		return to
	}
	fs := strings.Split(from, "/")
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	var b strings.Builder
	for range fs[i:] {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(ts[i:], "/"))
	return b.String()
}

// safeName makes a repository path safe to put in a message: no control
// characters, valid UTF-8, at most 200 characters.
func safeName(p string) string {
	p = strings.ToValidUTF8(p, "?")
	p = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, p)
	if len(p) > 200 {
		cut := 200
		for cut > 0 && !isRuneStart(p[cut]) {
			cut--
		}
		p = p[:cut] + "…"
	}
	return p
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// pathSet returns the paths of f as a set.
func pathSet(f Files) map[string]bool {
	out := make(map[string]bool, len(f))
	for p := range f {
		out[p] = true
	}
	return out
}
