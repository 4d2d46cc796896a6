package editor

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

//go:embed static/editor.js static/editor.css
var static embed.FS

// CSP is the Content-Security-Policy a page hosting the editor may send:
// scripts and styles from the page's own origin only, images also as
// blob: URLs and from https (image blocks may point anywhere).
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data: https:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// asset is one served file with its precomputed gzip form.
type asset struct {
	name  string // editor-<hash>.js
	ctype string
	body  []byte
	gz    []byte
	etag  string
}

var (
	loadOnce sync.Once
	assets   map[string]*asset // by extension: "js", "css"
)

func load() {
	assets = map[string]*asset{}
	for ext, ctype := range map[string]string{"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"} {
		b, err := static.ReadFile("static/editor." + ext)
		if err != nil {
			panic("editor: embedded bundle missing: " + err.Error())
		}
		sum := sha256.Sum256(b)
		hash := hex.EncodeToString(sum[:])[:16]
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(b)
		w.Close()
		assets[ext] = &asset{name: "editor-" + hash + "." + ext, ctype: ctype, body: b, gz: gz.Bytes(), etag: `"` + hash + `"`}
	}
}

func get(ext string) *asset {
	loadOnce.Do(load)
	return assets[ext]
}

// Assets serves the editor's script and stylesheet under a path prefix.
type Assets struct {
	prefix string
}

// New returns the assets served under prefix, such as "/assets/"; the
// host routes requests for ScriptURL and StyleURL to it.
func New(prefix string) *Assets {
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return &Assets{prefix: prefix}
}

// ScriptURL is the path of the editor's script, named by its content hash.
func (a *Assets) ScriptURL() string { return a.prefix + get("js").name }

// StyleURL is the path of the editor's stylesheet, named by its content hash.
func (a *Assets) StyleURL() string { return a.prefix + get("css").name }

// ServeHTTP answers GET and HEAD for the two hashed names with a year of
// caching, gzipped when the client accepts it, and 404 for anything else.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, a.prefix)
	var f *asset
	for _, ext := range []string{"js", "css"} {
		if c := get(ext); ok && name == c.name {
			f = c
		}
	}
	if f == nil {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// Sizes reports the script's and stylesheet's sizes, raw and gzipped.
func Sizes() (js, jsGzip, css, cssGzip int) {
	j, c := get("js"), get("css")
	return len(j.body), len(j.gz), len(c.body), len(c.gz)
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip
// with a quality above zero.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(enc), "gzip") {
			continue
		}
		q, found := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
