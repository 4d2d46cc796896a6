package markdown

import (
	"html"
	"regexp"
	"strconv"
	"strings"
)

// figure is one image of GitBook's HTML image form:
// <figure><img src="S" alt="A" width="W"><figcaption><p>C</p></figcaption></figure>.
type figure struct {
	src, alt, caption string
	width             string // "" for none, else digits
}

var (
	reFigure  = regexp.MustCompile(`^<figure><img src="([^"<>]*)" alt="([^"<>]*)"(?: width="([0-9]{1,6})")?><figcaption>(?:<p>([^<>]*)</p>)?</figcaption></figure>`)
	reDivOpen = regexp.MustCompile(`^<div(?: align="(left|center|right)")?>`)
)

// maxFigures bounds the images one line of figures may hold.
const maxFigures = 100

// parseFigures reads a line holding one <figure> or a <div> of figures
// separated by single spaces, exactly as GitBook writes them; anything
// else (other attributes, markup in the caption) is not ok and stays HTML.
func parseFigures(line string) (figs []figure, align string, ok bool) {
	rest := line
	div := false
	if m := reDivOpen.FindStringSubmatch(rest); m != nil {
		div, align = true, m[1]
		rest = rest[len(m[0]):]
	}
	for len(figs) < maxFigures {
		m := reFigure.FindStringSubmatch(rest)
		if m == nil {
			return nil, "", false
		}
		figs = append(figs, figure{src: html.UnescapeString(m[1]), alt: html.UnescapeString(m[2]), width: m[3],
			caption: html.UnescapeString(m[4])})
		rest = rest[len(m[0]):]
		if !div || !strings.HasPrefix(rest, " <figure>") {
			break
		}
		rest = rest[1:]
	}
	switch {
	case div && rest == "</div>":
		return figs, align, true
	case !div && rest == "" && len(figs) == 1:
		return figs, "", true
	}
	return nil, "", false
}

// writeFigures writes images in GitBook's HTML form.
func writeFigures(figs []figure, align string) string {
	var b strings.Builder
	div := len(figs) > 1 || align != ""
	if div {
		b.WriteString("<div")
		if align != "" {
			b.WriteString(` align="` + align + `"`)
		}
		b.WriteString(">")
	}
	for i, f := range figs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(`<figure><img src="` + escapeHTML(f.src) + `" alt="` + escapeHTML(oneLine(f.alt)) + `"`)
		if f.width != "" {
			b.WriteString(` width="` + f.width + `"`)
		}
		b.WriteString("><figcaption>")
		if c := oneLine(f.caption); c != "" {
			b.WriteString("<p>" + escapeHTML(c) + "</p>")
		}
		b.WriteString("</figcaption></figure>")
	}
	if div {
		b.WriteString("</div>")
	}
	return b.String()
}

// escapeHTML escapes text for an attribute or element as GitBook does,
// with hexadecimal character references.
var escapeHTML = strings.NewReplacer("&", "&#x26;", "<", "&#x3C;", ">", "&#x3E;", `"`, "&#x22;").Replace

// codeAttrs are the attributes of GitBook's {% code %} tag, in the order
// GitBook writes them.
var codeAttrs = []string{"title", "overflow", "lineNumbers", "fullWidth"}

var reAttr = regexp.MustCompile(`([A-Za-z]+)="([^"]*)"`)

// parseCodeAttrs reads the attributes of a {% code %} tag into code block
// data; ok is false for an unknown attribute or value, so that the tag is
// kept as raw text instead.
func parseCodeAttrs(s string) (map[string]any, bool) {
	data := map[string]any{}
	for _, m := range reAttr.FindAllStringSubmatch(s, len(codeAttrs)+1) {
		if _, dup := data[m[1]]; dup {
			return nil, false
		}
		switch m[1] {
		case "title":
			data["title"] = m[2]
		case "overflow":
			if m[2] != "wrap" && m[2] != "scroll" {
				return nil, false
			}
			data["overflow"] = m[2]
		case "lineNumbers", "fullWidth":
			b, err := strconv.ParseBool(m[2])
			if err != nil || (m[2] != "true" && m[2] != "false") {
				return nil, false
			}
			data[m[1]] = b
		default:
			return nil, false
		}
	}
	if len(data) != len(reAttr.FindAllString(s, -1)) {
		return nil, false
	}
	return data, true
}

// codeTag returns the {% code %} tag for code block data, or "" when the
// data needs none.
func codeTag(data map[string]any) string {
	var b strings.Builder
	for _, k := range codeAttrs {
		var v string
		switch x := data[k].(type) {
		case string:
			if k == "overflow" && x != "wrap" {
				continue // scroll is the default
			}
			v = strings.ReplaceAll(oneLine(x), `"`, "'")
		case bool:
			v = strconv.FormatBool(x)
		default:
			continue
		}
		b.WriteString(" " + k + `="` + v + `"`)
	}
	if b.Len() == 0 {
		return ""
	}
	return "{% code" + b.String() + " %}"
}

// attrValue returns s fit for a double-quoted tag attribute.
func attrValue(s string) string { return strings.ReplaceAll(oneLine(s), `"`, "%22") }

// openAPIAttrs reads the attributes of GitBook's OpenAPI tags: spec, path
// and method for {% openapi-operation %}, src, path and method for the
// older {% openapi %}; ok is false for any other tag or attribute set.
func openAPIAttrs(name, tag string) (map[string]string, bool) {
	var want []string
	switch name {
	case "openapi-operation":
		want = []string{"spec", "path", "method"}
	case "openapi":
		want = []string{"src", "path", "method"}
	default:
		return nil, false
	}
	attrs := map[string]string{}
	for _, m := range reAttr.FindAllStringSubmatch(tag, len(want)+1) {
		attrs[m[1]] = html.UnescapeString(m[2])
	}
	if len(attrs) != len(want) {
		return nil, false
	}
	for _, k := range want {
		if _, ok := attrs[k]; !ok {
			return nil, false
		}
	}
	return attrs, true
}
