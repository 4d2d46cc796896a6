package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/openapi"
	"github.com/foliodocs/folio/internal/store"
)

// Computed pages of OpenAPI specifications (the reference's
// ComputedContentSourceDocumentOpenAPI): a page whose computed source is
//
//	{"type": "builtin:openapi",
//	 "props": {"doc": "operations", "page": "<tag>"} | {"doc": "info", "page": "info"} | {"doc": "models"},
//	 "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "<slug>"}}}}
//
// has its document computed, whenever it is read with computed content (the
// default), from the latest version of the specification of its
// organization: so it follows new versions with no new revision. The
// operations of a tag (its first tag, "default" for none) become
// openapi-operation blocks, the information the specification's title,
// version and description, the models one openapi-schemas block.

// ComputedOpenAPI is the builtin:openapi type of computed content.
const ComputedOpenAPI = "builtin:openapi"

// openAPIComputed is a page's builtin:openapi computed source.
type openAPIComputed struct {
	Type  string `json:"type"`
	Props struct {
		Doc  string `json:"doc"`
		Page string `json:"page"`
	} `json:"props"`
	Dependencies struct {
		Spec struct {
			Ref struct {
				Kind string `json:"kind"`
				Spec string `json:"spec"`
			} `json:"ref"`
		} `json:"spec"`
	} `json:"dependencies"`
}

// parseOpenAPIComputed reads a page's computed source; ok is false for any
// other kind of computed content.
func parseOpenAPIComputed(raw json.RawMessage) (c openAPIComputed, ok bool) {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(ComputedOpenAPI)) {
		return c, false
	}
	if json.Unmarshal(raw, &c) != nil || c.Type != ComputedOpenAPI || c.Dependencies.Spec.Ref.Spec == "" {
		return c, false
	}
	return c, true
}

// pageDocument returns a document page's document: computed from its
// source when it has one and computed is true, else the stored one (nil
// for an empty page).
func (a *App) pageDocument(ctx context.Context, tx *store.Tx, orgID folio.ID, page *content.Page, computed bool) (*content.Document, error) {
	if computed {
		if c, ok := parseOpenAPIComputed(page.Computed); ok {
			d, err := a.openAPIDocument(ctx, tx, orgID, c)
			return upgradeComputed(d), err
		}
	}
	if page.Document.IsZero() {
		return nil, nil
	}
	return a.loadDocument(ctx, tx, page.Document)
}

// pageDocumentJSON is pageDocument as JSON (an empty document for none).
func (a *App) pageDocumentJSON(ctx context.Context, tx *store.Tx, orgID folio.ID, page *content.Page, computed bool) ([]byte, error) {
	if computed {
		if c, ok := parseOpenAPIComputed(page.Computed); ok {
			d, err := a.openAPIDocument(ctx, tx, orgID, c)
			if err != nil {
				return nil, err
			}
			return upgradeComputed(d).MarshalJSON()
		}
	}
	return a.loadDocumentJSON(ctx, tx, page.Document)
}

// specDocument is what computed pages read of a specification's bundled
// document.
type specDocument struct {
	Info struct {
		Title       string `json:"title"`
		Version     string `json:"version"`
		Description string `json:"description"`
	} `json:"info"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
}

// openAPIDocument computes the document of a builtin:openapi page from the
// latest version of its specification; a missing specification or version
// gives a document saying so, not an error.
func (a *App) openAPIDocument(ctx context.Context, tx *store.Tx, orgID folio.ID, c openAPIComputed) (*content.Document, error) {
	slug := c.Dependencies.Spec.Ref.Spec
	unavailable := func() *content.Document {
		return content.NewDocument(fmt.Sprintf("The OpenAPI specification %s is not available yet.", slug))
	}
	spec, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
	if folio.IsNotFound(err) {
		return unavailable(), nil
	}
	if err != nil {
		return nil, err
	}
	if spec.LastVersion == "" {
		return unavailable(), nil
	}
	ref := map[string]any{"kind": "openapi", "spec": slug}
	doc := &content.Document{Object: content.ObjectDocument, Data: map[string]any{}}
	if c.Props.Doc == "operations" {
		// The operations of a version are cached by version id: a page
		// read costs one parse per version, not one per read.
		ops, ok := a.openAPIOps.Get(spec.LastVersion)
		if !ok {
			raw, err := store.GetOpenAPIContent(ctx, tx, spec.ID, spec.LastVersion)
			if folio.IsNotFound(err) {
				return unavailable(), nil
			}
			if err != nil {
				return nil, err
			}
			if ops, err = buildSpecOps(raw); err != nil {
				return nil, fmt.Errorf("app: operations of OpenAPI version %s: %w", spec.LastVersion, err)
			}
			a.openAPIOps.Add(spec.LastVersion, ops)
		}
		for _, op := range ops.ops {
			tag := "default"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			if !strings.EqualFold(tag, c.Props.Page) {
				continue
			}
			doc.Nodes = append(doc.Nodes, content.Node{Object: content.ObjectBlock, Type: content.BlockOpenAPIOperation, IsVoid: true,
				Data: map[string]any{"ref": ref, "method": strings.ToLower(op.Method), "path": op.Path},
				Meta: map[string]any{"id": strings.ToLower(op.Method) + "-" + op.Path}})
		}
		if len(doc.Nodes) == 0 {
			return content.NewDocument(fmt.Sprintf("No operation of %s is tagged %s.", slug, c.Props.Page)), nil
		}
		doc.Normalize()
		return doc, nil
	}
	raw, err := store.GetOpenAPIContent(ctx, tx, spec.ID, spec.LastVersion)
	if folio.IsNotFound(err) {
		return unavailable(), nil
	}
	if err != nil {
		return nil, err
	}
	var files []openapi.File
	if err := json.Unmarshal([]byte(raw.Filesystem), &files); err != nil {
		return nil, fmt.Errorf("decode OpenAPI version %s: %w", spec.LastVersion, err)
	}
	switch c.Props.Doc {
	case "info", "models":
		var sd specDocument
		for _, f := range files {
			if f.IsEntrypoint {
				_ = json.Unmarshal(f.Specification, &sd)
			}
		}
		if c.Props.Doc == "models" {
			names := slices.Sorted(func(yield func(string) bool) {
				for n := range sd.Components.Schemas {
					if !yield(n) {
						return
					}
				}
			})
			if len(names) == 0 {
				return content.NewDocument(fmt.Sprintf("%s defines no models.", slug)), nil
			}
			doc.Nodes = append(doc.Nodes, content.Node{Object: content.ObjectBlock, Type: content.BlockOpenAPISchemas, IsVoid: true,
				Data: map[string]any{"ref": ref, "schemas": anySlice(names), "grouped": true},
				Meta: map[string]any{"id": "models"}})
			break
		}
		paras := []string{strings.TrimSpace(sd.Info.Title + " " + sd.Info.Version)}
		for _, p := range strings.Split(sd.Info.Description, "\n\n") {
			if p = strings.TrimSpace(p); p != "" {
				paras = append(paras, p)
			}
		}
		if len(paras) > 50 {
			paras = paras[:50]
		}
		return content.NewDocument(paras...), nil
	default:
		return content.NewDocument(fmt.Sprintf("This page is computed from %s with an unknown kind of document (%s).", slug, c.Props.Doc)), nil
	}
	doc.Normalize()
	return doc, nil
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// computedOpenAPIPages returns the pages of the api-reference template over
// a specification of the organization: an introduction, one page per tag of
// its latest version (in order of first use), and models, each computed
// from the specification.
func (a *App) computedOpenAPIPages(ctx context.Context, orgID folio.ID, slug string) (*content.Snapshot, error) {
	var files []openapi.File
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		spec, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
		if folio.IsNotFound(err) {
			return folio.FieldErrorf("params.contentRefs", "no OpenAPI specification %s in this organization", slug)
		}
		if err != nil {
			return err
		}
		if spec.LastVersion == "" {
			return folio.FieldErrorf("params.contentRefs", "the OpenAPI specification %s has no processed version yet", slug)
		}
		raw, err := store.GetOpenAPIContent(ctx, tx, spec.ID, spec.LastVersion)
		if err != nil {
			return err
		}
		return json.Unmarshal([]byte(raw.Filesystem), &files)
	})
	if err != nil {
		return nil, err
	}
	var tags []string
	seen := map[string]bool{}
	for _, op := range openapi.Operations(&openapi.Result{Filesystem: files}) {
		tag := "default"
		if len(op.Tags) > 0 {
			tag = op.Tags[0]
		}
		if !seen[strings.ToLower(tag)] && len(tags) < content.MaxPages/2 {
			seen[strings.ToLower(tag)] = true
			tags = append(tags, tag)
		}
	}
	computed := func(doc, page string) json.RawMessage {
		props := map[string]any{"doc": doc}
		if page != "" {
			props["page"] = page
		}
		b, _ := json.Marshal(map[string]any{"type": ComputedOpenAPI, "props": props,
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": slug}}}})
		return b
	}
	snap := content.NewSnapshot()
	page := func(title, doc, p string) *content.Page {
		return &content.Page{ID: folio.NewID(), Type: content.PageDocument, Title: clampTitle(title), Computed: computed(doc, p)}
	}
	snap.Tree.Pages = append(snap.Tree.Pages, page("Introduction", "info", "info"))
	for _, t := range tags {
		snap.Tree.Pages = append(snap.Tree.Pages, page(t, "operations", t))
	}
	snap.Tree.Pages = append(snap.Tree.Pages, page("Models", "models", ""))
	return snap, nil
}
