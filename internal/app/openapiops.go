package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/openapi"
	"github.com/foliodocs/folio/internal/store"
)

// The published reader renders the openapi-operation and swagger blocks of
// a page from the operations of the specification they name. These
// methods check no caller: the reader calls them only for content the
// organization published (the page's space belongs to orgID), and a
// published page that names a specification shows it to whoever may read
// the page, as GitBook's published sites do whatever the specification's
// visibility (visibility governs the raw URL and the API). They only ever
// look at specifications of orgID.

// Bounds of the operations cache and of one lookup of versions.
const (
	// openAPIOpsBytes bounds the estimated memory of cached operations;
	// an entry costs at least openAPIOpsEntryBytes, so the cache holds at
	// most 2,048 versions.
	openAPIOpsBytes      = 8 << 20
	openAPIOpsEntryBytes = 4 << 10
	// MaxOpenAPIRefs bounds the specifications one OpenAPILatestVersions
	// call looks up.
	MaxOpenAPIRefs = 20
)

// specOps is the operations of one version, indexed by "METHOD path".
type specOps struct {
	ops   []openapi.Operation
	index map[string]int
	size  int
}

func opKey(method, path string) string { return strings.ToUpper(method) + " " + path }

// OpenAPIOperations is the operations of a specification's latest
// version. Operations is shared with the cache: callers must not change it.
type OpenAPIOperations struct {
	Spec       folio.ID
	Slug       string
	Version    folio.ID
	Operations []openapi.Operation
	index      map[string]int
}

// Find returns the operation with a method (any case) and path, or false.
func (o *OpenAPIOperations) Find(method, path string) (*openapi.Operation, bool) {
	i, ok := o.index[opKey(method, path)]
	if !ok {
		return nil, false
	}
	return &o.Operations[i], true
}

// isSpecURL reports whether a block's spec reference is an absolute http
// or https URL (the older swagger blocks' src) rather than a slug.
func isSpecURL(ref string) bool {
	u, err := url.Parse(ref)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// findOpenAPISpec returns the specification of orgID a block names: by
// slug, or, for an absolute URL, the oldest one whose source URL it is (an
// indexed lookup). NotFound otherwise.
func findOpenAPISpec(ctx context.Context, tx *store.Tx, orgID folio.ID, ref string) (*folio.OpenAPISpec, error) {
	if !isSpecURL(ref) {
		if ref == "" || len(ref) > folio.MaxOpenAPISlug || !folio.OpenAPISlugPattern.MatchString(ref) {
			return nil, errOpenAPINotFound
		}
		return store.GetOpenAPISpec(ctx, tx, orgID, ref)
	}
	return store.GetOpenAPISpecBySourceURL(ctx, tx, orgID, ref)
}

// OpenAPIOperations returns the operations of the latest version of the
// organization's specification named by ref: its slug or, for the older
// swagger blocks, its source URL. NotFound when there is no such
// specification or it has no version yet. Operations are cached per
// version, so a new version is read once and an unchanged one never again.
func (a *App) OpenAPIOperations(ctx context.Context, orgID folio.ID, ref string) (*OpenAPIOperations, error) {
	var (
		spec *folio.OpenAPISpec
		ops  *specOps
	)
	cache := a.openAPIOps
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if spec, err = findOpenAPISpec(ctx, tx, orgID, ref); err != nil {
			return err
		}
		if spec.LastVersion == "" {
			return folio.Errorf(folio.NotFound, "no matching OpenAPI specification version found")
		}
		if o, ok := cache.Get(spec.LastVersion); ok {
			ops = o
			return nil
		}
		c, err := store.GetOpenAPIContent(ctx, tx, spec.ID, spec.LastVersion)
		if err != nil {
			return err
		}
		if ops, err = buildSpecOps(c); err != nil {
			return fmt.Errorf("app: operations of OpenAPI version %s: %w", spec.LastVersion, err)
		}
		cache.Add(spec.LastVersion, ops)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &OpenAPIOperations{Spec: spec.ID, Slug: spec.Slug, Version: spec.LastVersion, Operations: ops.ops, index: ops.index}, nil
}

// OpenAPIOperation returns one operation (method in any case, path as the
// specification writes it) of the latest version of the organization's
// specification named by slug (or source URL, see OpenAPIOperations).
// NotFound when the specification, its latest version or the operation is
// missing.
func (a *App) OpenAPIOperation(ctx context.Context, orgID folio.ID, slug, method, path string) (*openapi.Operation, error) {
	ops, err := a.OpenAPIOperations(ctx, orgID, slug)
	if err != nil {
		return nil, err
	}
	op, ok := ops.Find(method, path)
	if !ok {
		return nil, folio.Errorf(folio.NotFound, "no operation %s %s in the OpenAPI specification", strings.ToUpper(method), path)
	}
	return op, nil
}

// OpenAPILatestVersions returns, for each specification reference (slug
// or source URL), the id of the latest version of the organization's
// specification it names, "" when there is none: the reader keys the
// pages it caches with them, so a new version is shown at once. One read
// transaction; at most MaxOpenAPIRefs references (Invalid beyond).
func (a *App) OpenAPILatestVersions(ctx context.Context, orgID folio.ID, refs []string) ([]folio.ID, error) {
	if len(refs) > MaxOpenAPIRefs {
		return nil, folio.Errorf(folio.Invalid, "at most %d OpenAPI specifications can be looked up at once", MaxOpenAPIRefs)
	}
	out := make([]folio.ID, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		for i, ref := range refs {
			s, err := findOpenAPISpec(ctx, tx, orgID, ref)
			if folio.IsNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
			out[i] = s.LastVersion
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// buildSpecOps rebuilds the operations of a stored version from its
// filesystem, the way internal/openapi documents (Operations reads the
// entrypoint file of a Result holding only a Filesystem).
func buildSpecOps(c *folio.OpenAPIContent) (*specOps, error) {
	var files []openapi.File
	if err := json.Unmarshal([]byte(c.Filesystem), &files); err != nil {
		return nil, err
	}
	ops := openapi.Operations(&openapi.Result{Filesystem: files})
	o := &specOps{ops: ops, index: make(map[string]int, len(ops)), size: openAPIOpsEntryBytes}
	for i := range ops {
		op := &ops[i]
		k := opKey(op.Method, op.Path)
		if _, dup := o.index[k]; !dup {
			o.index[k] = i
		}
		o.size += opSize(op)
	}
	return o, nil
}

// opSize estimates the bytes an operation holds.
func opSize(op *openapi.Operation) int {
	n := 256 + 2*len(op.Path) + len(op.OperationID) + len(op.Summary) + len(op.Description)
	for _, t := range op.Tags {
		n += 16 + len(t)
	}
	for _, p := range op.Parameters {
		n += 96 + len(p.Name) + len(p.In) + len(p.Description) + len(p.Schema)
	}
	if b := op.RequestBody; b != nil {
		n += 96 + len(b.Description) + len(b.Schema) + len(b.Example)
		for _, t := range b.ContentTypes {
			n += 16 + len(t)
		}
	}
	for _, r := range op.Responses {
		n += 96 + len(r.Status) + len(r.Description) + len(r.Schema) + len(r.Example)
		for _, t := range r.ContentTypes {
			n += 16 + len(t)
		}
	}
	return n
}
