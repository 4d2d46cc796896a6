package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/foliodocs/folio/internal/reader"
)

//go:embed templates/*.html templates/parts/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// asset is an embedded file served under a name holding its content hash,
// so it can be cached for ever and a new version is a new URL.
type asset struct {
	name, url, contentType string
	body                   []byte
}

var (
	assets      = map[string]*asset{} // by hashed URL path
	assetsByKey = map[string]*asset{} // by file name
	stylesheets []string              // the URLs of the stylesheets, in order
)

func addAsset(name string, body []byte) {
	sum := sha256.Sum256(body)
	ext := path.Ext(name)
	a := &asset{name: name, body: body, contentType: map[string]string{".css": "text/css; charset=utf-8",
		".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}[ext]}
	a.url = "/assets/" + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
	assets[a.url] = a
	assetsByKey[name] = a
}

// codeCSS is the reader's stylesheet of highlighted code for the light
// theme, and chroma's dark GitHub style under the dark theme.
func codeCSS() []byte {
	var b bytes.Buffer
	b.WriteString("/* Highlighted code: the reader's light style, and a dark one; each only\n   under its theme, so no colour of one leaks into the other. */\n")
	b.WriteString("@media not (prefers-color-scheme: dark) {\n")
	b.WriteString(reader.CodeCSS())
	b.WriteString("}\n@media (prefers-color-scheme: dark) {\n")
	_ = chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&b, styles.Get("github-dark"))
	b.WriteString("}\n")
	return b.Bytes()
}

func init() {
	entries, err := fs.ReadDir(staticFS, "static")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := staticFS.ReadFile("static/" + e.Name())
		if err != nil {
			panic(err)
		}
		addAsset(e.Name(), b)
	}
	addAsset("code.css", codeCSS())
	stylesheets = []string{assetsByKey["app.css"].url, assetsByKey["code.css"].url}
	loadTemplates()
}

func assetURLs() []string { return stylesheets }

// serveAsset serves an embedded asset by its hashed URL.
func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request, q *req) error {
	a, ok := assets[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return nil
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
	return nil
}

// pages are the templates of each page, each with the layout and the
// shared partials.
var pages = map[string]*template.Template{}

var funcs = template.FuncMap{
	"add": func(a, b int) int { return a + b },
}

// loadTemplates parses each page (templates/*.html) with the layout, the
// shared partials and only the area partials (templates/parts/*.html) it
// calls, directly or through another partial: html/template keeps a copy
// of every definition in each page's set, so parsing every part into every
// page held about 10 MB for nothing.
func loadTemplates() {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	parts, err := fs.Glob(templateFS, "templates/parts/*.html")
	if err != nil {
		panic(err)
	}
	definedIn := map[string]string{} // template name → part file
	for _, p := range parts {
		for _, m := range defineRE.FindAllStringSubmatch(readTemplate(p), -1) {
			definedIn[m[1]] = p
		}
	}
	common := readTemplate("templates/layout.html") + readTemplate("templates/partials.html")
	for _, n := range names {
		base := strings.TrimSuffix(path.Base(n), ".html")
		if base == "layout" || base == "partials" {
			continue
		}
		files := []string{"templates/layout.html", "templates/partials.html", n}
		seen := map[string]bool{}
		queue := []string{common + readTemplate(n)}
		for len(queue) > 0 {
			text := queue[0]
			queue = queue[1:]
			for _, m := range callRE.FindAllStringSubmatch(text, -1) {
				if p, ok := definedIn[m[1]]; ok && !seen[p] {
					seen[p] = true
					files = append(files, p)
					queue = append(queue, readTemplate(p))
				}
			}
		}
		pages[base] = template.Must(template.New(base).Funcs(funcs).ParseFS(templateFS, files...))
	}
}

var (
	defineRE = regexp.MustCompile(`\{\{-?\s*define\s+"([^"]+)"`)
	callRE   = regexp.MustCompile(`\{\{-?\s*(?:template|block)\s+"([^"]+)"`)
)

func readTemplate(name string) string {
	b, err := templateFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}
