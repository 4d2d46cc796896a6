package reader

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"sort"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// The reader's stylesheet and script are embedded, built once at start
// and served under the site's base with a hash of their content in the
// query (?v=), so browsers may keep them for a year: a new build changes
// the URL. The script is one file per concern in static/js, joined in
// name order into one response; no build tool is involved.

//go:embed static/reader.css static/js/*.js
var staticFS embed.FS

const (
	stylePath  = "~/reader.css"
	scriptPath = "~/reader.js"
)

// Code highlighting colours: chroma's GitHub styles, with every colour
// checked against the code background of its theme and darkened or
// lightened until it reaches WCAG AA (4.5:1).
const (
	lightCodeStyle, darkCodeStyle = "github", "github-dark"
	lightCodeBG, darkCodeBG       = "#f6f8fa", "#161b22"
	lightBG, darkBG               = "#ffffff", "#0d1117"
	minContrast                   = 4.5
)

var (
	readerCSS = buildCSS()
	readerJS  = buildJS()
	// cssVersion and jsVersion are short hashes of the two assets.
	cssVersion = version(readerCSS)
	jsVersion  = version(readerJS)
	// The assets compressed once, for browsers that accept gzip.
	gzipped = map[*byte][]byte{&readerCSS[0]: gzipOf(readerCSS), &readerJS[0]: gzipOf(readerJS)}
)

func gzipOf(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

func version(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

func buildCSS() []byte {
	base, err := staticFS.ReadFile("static/reader.css")
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	b.Write(base)
	b.WriteString("\n@layer code {\n")
	b.WriteString(codeRules(styles.Get(lightCodeStyle), lightCodeBG, "", false))
	b.WriteString(codeRules(styles.Get(darkCodeStyle), darkCodeBG, `[data-theme="dark"] `, true))
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	b.WriteString(codeRules(styles.Get(darkCodeStyle), darkCodeBG, `[data-theme="system"] `, true))
	b.WriteString("}\n}\n")
	return []byte(b.String())
}

func buildJS() []byte {
	names, err := fs.Glob(staticFS, "static/js/*.js")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		src, err := staticFS.ReadFile(n)
		if err != nil {
			panic(err)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// codeRules writes one CSS rule per token class of a chroma style: its
// colour made readable on bg, and its weight and slant. Dark rules (after
// a prefix) name every class, so that no light colour shows through.
func codeRules(s *chroma.Style, bg, prefix string, all bool) string {
	var b strings.Builder
	types := make([]chroma.TokenType, 0, len(chroma.StandardTypes))
	for t := range chroma.StandardTypes {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	for _, t := range types {
		class := chroma.StandardTypes[t]
		if class == "" || t < chroma.Keyword && t != chroma.Error {
			continue // whole-block and line classes: the stylesheet's own
		}
		e := s.Get(t)
		var decl []string
		if e.Colour.IsSet() {
			decl = append(decl, "color:"+readable(e.Colour.String(), bg))
		} else if all {
			decl = append(decl, "color:inherit")
		}
		switch {
		case e.Bold == chroma.Yes:
			decl = append(decl, "font-weight:600")
		case all:
			decl = append(decl, "font-weight:inherit")
		}
		switch {
		case e.Italic == chroma.Yes:
			decl = append(decl, "font-style:italic")
		case all:
			decl = append(decl, "font-style:inherit")
		}
		if len(decl) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s.chroma .%s{%s}\n", prefix, class, strings.Join(decl, ";"))
	}
	return b.String()
}

// acceptsGzip reports whether a request's Accept-Encoding lists gzip
// (without q=0).
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(e), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(params, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// rgb parses #rgb or #rrggbb.
func rgb(hex string) (c [3]float64, ok bool) {
	h := strings.TrimPrefix(hex, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 {
		return c, false
	}
	for i := range 3 {
		var v int
		if _, err := fmt.Sscanf(h[2*i:2*i+2], "%02x", &v); err != nil {
			return c, false
		}
		c[i] = float64(v)
	}
	return c, true
}

func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.03928 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// readable returns fg, mixed step by step towards black on a light
// background or white on a dark one, until its contrast with bg reaches
// minContrast (with a little margin for rounding).
func readable(fg, bg string) string { return readableAt(fg, bg, minContrast+0.1) }

// readableAt is readable for a wanted contrast. Links and accents ask for
// more than AA on the page's background, so that they stay readable on
// the tinted backgrounds of hints and the current page's link.
func readableAt(fg, bg string, want float64) string {
	f, ok1 := rgb(fg)
	b, ok2 := rgb(bg)
	if !ok1 || !ok2 {
		return fg
	}
	target := 0.0
	if luminance(b) < 0.2 {
		target = 255
	}
	c := f
	for step := 0; step <= 20 && contrast(c, b) < want; step++ {
		w := float64(step) / 20
		for i := range 3 {
			c[i] = math.Round(f[i]*(1-w) + target*w)
		}
	}
	return fmt.Sprintf("#%02x%02x%02x", int(c[0]), int(c[1]), int(c[2]))
}

// asset serves the stylesheet or the script, compressed when the browser
// accepts gzip.
func (h *Handler) asset(q *request, body []byte, contentType string) {
	q.w.Header().Set("Content-Type", contentType)
	q.w.Header().Set("X-Content-Type-Options", "nosniff")
	q.w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	q.w.Header().Set("Vary", "Accept-Encoding")
	if gz, ok := gzipped[&body[0]]; ok && acceptsGzip(q.r) {
		q.w.Header().Set("Content-Encoding", "gzip")
		body = gz
	}
	if q.r.Method != http.MethodHead {
		_, _ = q.w.Write(body)
	}
}
