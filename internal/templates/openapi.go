package templates

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/getkin/kin-openapi/openapi3"
)

// specField is the request field an OpenAPI document comes from: the
// template's params.contentRefs, which the app layer reads into Input.OpenAPI.
const specField = "params.contentRefs"

// defaultTag names the page of operations without a tag.
const defaultTag = "Default"

// placeholderHost stands in for servers that are missing or relative, so the
// curl examples stay runnable once the reader replaces it.
const placeholderHost = "https://api.example.com"

func specErrorf(format string, args ...any) error {
	return folio.FieldErrorf(specField, format, args...)
}

// buildFromSpec generates api-reference from an OpenAPI document: an
// Introduction page, one page per tag (in the order the document declares
// tags, then the undeclared ones, then Default) and a Webhooks page when the
// document has webhooks.
func buildFromSpec(in Input) (*content.Snapshot, error) {
	doc, err := loadSpec(in.OpenAPI)
	if err != nil {
		return nil, err
	}
	g := &generator{doc: doc, order: sourceOrder(in.OpenAPI, doc)}
	groups := g.groupByTag()
	if len(groups)+2 > content.MaxPages {
		return nil, specErrorf("the OpenAPI document has %d tags; at most %d fit in a space", len(groups), content.MaxPages-2)
	}

	snap := content.NewSnapshot()
	intro := &content.Page{ID: folio.NewID(), Type: content.PageDocument, Title: "Introduction",
		Emoji: emojiCode("👋"), Description: folio.Clip(introDescription(doc), content.MaxDescriptionLength)}
	titles := []string{intro.Title}
	slugs := []string{}
	intro.Slug = content.UniqueSlug(slugs, content.Slugify(intro.Title))
	slugs = append(slugs, intro.Slug)
	pages := []*content.Page{intro}
	newPage := func(title string) *content.Page {
		title = uniqueTitle(titles, folio.Clip(title, content.MaxTitleLength))
		titles = append(titles, title)
		p := &content.Page{ID: folio.NewID(), Type: content.PageDocument, Title: title}
		p.Slug = content.UniqueSlug(slugs, content.Slugify(title))
		slugs = append(slugs, p.Slug)
		pages = append(pages, p)
		return p
	}

	type rendered struct {
		page *content.Page
		md   string
		what string
	}
	var out []rendered
	for _, grp := range groups {
		p := newPage(grp.title)
		desc := strings.TrimSpace(grp.description)
		if desc != "" && !strings.Contains(desc, "\n") && utf8.RuneCountInString(desc) <= content.MaxDescriptionLength {
			p.Description, desc = desc, ""
		}
		grp.page = p
		out = append(out, rendered{p, g.tagPage(grp, desc), fmt.Sprintf("tag %q", grp.name)})
	}
	var webhooks *content.Page
	if len(doc.Webhooks) > 0 {
		webhooks = newPage("Webhooks")
		out = append(out, rendered{webhooks, g.webhooksPage(), "webhooks"})
	}
	out = append([]rendered{{intro, g.introPage(groups, webhooks), "info.description"}}, out...)

	for _, r := range out {
		d, err := markdown.ToDocument([]byte(r.md), nil)
		if err != nil {
			if folio.KindOf(err) == folio.Invalid {
				return nil, specErrorf("the page generated for %s is too large (%s); split the document's content", r.what, folio.MessageOf(err))
			}
			return nil, err
		}
		r.page.Document = snap.AddDocument(d)
	}
	snap.Tree.Pages = pages
	if err := check(snap); err != nil {
		return nil, internalf(APIReference, err)
	}
	return snap, nil
}

var reSwagger2 = regexp.MustCompile(`(?m)^["']?swagger["']?\s*:`)

// isSwagger2 reports whether data looks like a Swagger 2.0 document: a JSON
// object with a "swagger" key, or YAML with a top-level swagger field. Only
// the error message depends on it.
func isSwagger2(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) == nil {
		_, ok := top["swagger"]
		return ok
	}
	return reSwagger2.Match(data)
}

// loadSpec parses and loosely validates an OpenAPI 3.x document. External
// $refs are refused (the loader's default), so a spec cannot make the server
// read files or URLs. Validation covers what the pages need: a 3.x version
// and an info object with a title. kin-openapi's full Validate is not run: it
// rejects common, harmless mistakes (an undeclared path parameter, a bad
// example) that should not stop a team from getting its reference pages.
func loadSpec(data []byte) (doc *openapi3.T, err error) {
	defer func() {
		// The parser sees arbitrary input; a panic there is the document's
		// fault as far as the caller can tell, and must not take the server down.
		if r := recover(); r != nil {
			doc, err = nil, specErrorf("the OpenAPI document could not be read")
		}
	}()
	swagger := isSwagger2(data)
	loader := openapi3.NewLoader()
	loader.Context = context.Background()
	loader.IncludeOrigin = true // source lines give YAML documents' path order
	doc, err = loader.LoadFromData(data)
	switch {
	case err != nil && swagger:
		return nil, specErrorf("the document is Swagger 2.0; convert it to OpenAPI 3.0 or later first")
	case err != nil:
		return nil, specErrorf("the OpenAPI document could not be read: %s", folio.Clip(err.Error(), 300))
	case doc.OpenAPI == "" && swagger:
		return nil, specErrorf("the document is Swagger 2.0; convert it to OpenAPI 3.0 or later first")
	case doc.OpenAPI == "":
		return nil, specErrorf(`the OpenAPI document has no "openapi" version field`)
	case !strings.HasPrefix(doc.OpenAPI, "3."):
		return nil, specErrorf("OpenAPI version %q is not supported; use 3.0, 3.1 or 3.2", folio.Clip(doc.OpenAPI, 20))
	case doc.Info == nil || strings.TrimSpace(doc.Info.Title) == "":
		return nil, specErrorf("the OpenAPI document needs info.title")
	}
	return doc, nil
}

// specOrder ranks paths and methods as the source document lists them.
type specOrder struct {
	paths   map[string]int
	methods map[string]map[string]int // path -> lowercase method -> rank
}

// sourceOrder recovers the order of paths and operations, which kin-openapi
// keeps in maps: from the JSON token stream for JSON documents, else from the
// source lines the YAML loader records. What neither gives falls back to
// sorted paths and the usual method order.
func sourceOrder(data []byte, doc *openapi3.T) specOrder {
	if o, ok := jsonOrder(data); ok {
		return o
	}
	o := specOrder{paths: map[string]int{}, methods: map[string]map[string]int{}}
	for path, item := range doc.Paths.Map() {
		if item == nil {
			continue
		}
		if item.Origin != nil && item.Origin.Key != nil && item.Origin.Key.Line > 0 {
			o.paths[path] = item.Origin.Key.Line
		}
		m := map[string]int{}
		for method, op := range item.Operations() {
			if op != nil && op.Origin != nil && op.Origin.Key != nil && op.Origin.Key.Line > 0 {
				m[strings.ToLower(method)] = op.Origin.Key.Line
			}
		}
		o.methods[path] = m
	}
	return o
}

// jsonOrder reads the keys of "paths" and of each path item in order; ok is
// false when data is not a JSON object.
func jsonOrder(data []byte) (specOrder, bool) {
	o := specOrder{paths: map[string]int{}, methods: map[string]map[string]int{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return o, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return o, false
		}
		if key != "paths" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return o, false
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return o, false
		}
		for dec.More() {
			pt, err := dec.Token()
			path, ok := pt.(string)
			if err != nil || !ok {
				return o, false
			}
			if _, dup := o.paths[path]; !dup {
				o.paths[path] = len(o.paths)
			}
			var item json.RawMessage
			if err := dec.Decode(&item); err != nil {
				return o, false
			}
			o.methods[path] = keyOrder(item)
		}
		return o, true
	}
	return o, true
}

// keyOrder ranks the lowercase keys of a JSON object in order of appearance.
func keyOrder(raw []byte) map[string]int {
	out := map[string]int{}
	if len(raw) == 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return out
	}
	for dec.More() {
		key, err := dec.Token()
		k, ok := key.(string)
		if err != nil || !ok {
			return out
		}
		if _, dup := out[strings.ToLower(k)]; !dup {
			out[strings.ToLower(k)] = len(out)
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return out
		}
	}
	return out
}
