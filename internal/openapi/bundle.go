package openapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

// extKey is the entrypoint field that holds bundled documents, as in
// Scalar's bundler, which GitBook's parser uses: a $ref "pet.yaml#/Pet"
// becomes "#/x-ext/<key>/Pet".
const extKey = "x-ext"

// doc is one document taking part in a bundle.
type doc struct {
	url   string   // absolute, without fragment; "" for a text entrypoint
	u     *url.URL // parsed url, nil for a text entrypoint
	key   string   // name under x-ext; "" for the entrypoint
	name  string   // how messages name it: the $ref that first loaded it
	root  *node
	depth int // files between the entrypoint and this one
}

// bundler fetches the documents an entrypoint refers to and rewrites every
// $ref into a reference inside the entrypoint.
type bundler struct {
	ctx      context.Context
	fetch    Fetcher
	lim      Limits
	entry    *doc
	docs     map[string]*doc // by absolute URL
	order    []*doc          // bundled documents in discovery order
	keys     map[string]bool
	bytes    int
	nodes    int
	warnings []Problem
}

func newBundler(ctx context.Context, entryURL string, fetch Fetcher, lim Limits) (*bundler, error) {
	b := &bundler{ctx: ctx, fetch: fetch, lim: lim, docs: map[string]*doc{}, keys: map[string]bool{}}
	b.entry = &doc{name: "the specification"}
	if entryURL != "" {
		u, err := url.Parse(entryURL)
		if err != nil || !u.IsAbs() {
			return nil, newError(CodeFetchError, err, "the specification URL %q is not an absolute URL", folio.Clip(entryURL, 200))
		}
		u.Fragment, u.RawFragment = "", ""
		b.entry.u, b.entry.url = u, u.String()
	}
	return b, nil
}

// parse reads one document, counting its bytes and values against the
// limits of the whole bundle.
func (b *bundler) parse(data []byte, name string) (*node, error) {
	b.bytes += len(data)
	if b.bytes > b.lim.MaxBytes {
		return nil, newError(CodeParseError, nil, "%s and the files it refers to are larger than %d bytes", "the specification", b.lim.MaxBytes)
	}
	n, count, err := parseDocument(data, parseLimits{maxNodes: b.lim.MaxNodes - b.nodes, maxDepth: b.lim.MaxNest})
	if errors.Is(err, errTooManyNodes) {
		return nil, newError(CodeParseError, err, "%s and the files it refers to have more than %d values", "the specification", b.lim.MaxNodes)
	}
	if err != nil {
		return nil, newError(CodeParseError, err, "%s could not be read: %s", name, err.Error())
	}
	b.nodes += count
	return n, nil
}

// bundle fetches every document the entrypoint refers to, directly or
// through other documents, breadth first, and attaches them under x-ext.
// Each document is fetched once, so $ref cycles between files cost nothing.
func (b *bundler) bundle(root *node) error {
	b.entry.root = root
	queue := []*doc{b.entry}
	for i := 0; i < len(queue); i++ {
		next, err := b.rewrite(queue[i])
		if err != nil {
			return err
		}
		queue = append(queue, next...)
	}
	if len(b.order) == 0 {
		return nil
	}
	if root.get(extKey) != nil {
		b.warn("", "the specification's own %q field was replaced by the bundled files", extKey)
	}
	ext := &node{kind: kObject}
	for _, d := range b.order {
		ext.keys = append(ext.keys, d.key)
		ext.vals = append(ext.vals, d.root)
	}
	root.set(extKey, ext)
	return nil
}

func (b *bundler) warn(code, format string, args ...any) {
	if len(b.warnings) < b.lim.MaxIssues {
		b.warnings = append(b.warnings, Problem{Message: fmt.Sprintf(format, args...), Code: code})
	}
}

// sources returns the URLs of the bundled documents.
func (b *bundler) sources() []string {
	out := make([]string, 0, len(b.order))
	for _, d := range b.order {
		out = append(out, d.url)
	}
	return out
}

// rewrite visits every $ref of d in document order and returns the
// documents seen for the first time, already fetched and parsed. The
// recursion is as deep as the document, which parsing bounded by MaxNest.
func (b *bundler) rewrite(d *doc) ([]*doc, error) {
	var found []*doc
	var walk func(n *node) error
	walk = func(n *node) error {
		for i, v := range n.vals {
			if n.kind == kObject && n.keys[i] == "$ref" && v.kind == kString {
				t, err := b.target(d, v)
				if err != nil {
					return err
				}
				if t != nil {
					found = append(found, t)
				}
				continue
			}
			if v.kind == kObject || v.kind == kArray {
				if err := walk(v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(d.root); err != nil {
		return nil, err
	}
	return found, nil
}

// target rewrites the $ref value v found in d and returns the document it
// made known, if it is new.
func (b *bundler) target(d *doc, v *node) (*doc, error) {
	ref := v.s
	loc, frag, _ := strings.Cut(ref, "#")
	if frag != "" && !strings.HasPrefix(frag, "/") {
		// A plain-name fragment ($anchor) cannot be rebased onto x-ext;
		// the renderer resolves it or shows the reference unresolved.
		if loc != "" || d != b.entry {
			b.warn("unsupported-ref", "$ref %q in %s uses a named anchor and was not bundled", folio.Clip(ref, 200), d.name)
		}
		return nil, nil
	}
	if loc == "" {
		if d != b.entry {
			v.s = "#/" + extKey + "/" + d.key + frag
		}
		return nil, nil
	}
	rel, err := url.Parse(loc)
	if err != nil {
		return nil, newError(CodeParseError, err, "$ref %q in %s is not a valid reference", folio.Clip(ref, 200), d.name)
	}
	var abs *url.URL
	switch {
	case rel.IsAbs():
		abs = rel
	case d.u == nil:
		return nil, newError(CodeFetchError, nil, "$ref %q refers to another file, which needs the specification to be given by URL rather than as text", folio.Clip(ref, 200))
	default:
		abs = d.u.ResolveReference(rel)
	}
	if abs.Scheme != "http" && abs.Scheme != "https" {
		return nil, newError(CodeFetchError, nil, "$ref %q in %s is not an http or https URL", folio.Clip(ref, 200), d.name)
	}
	abs.Fragment, abs.RawFragment = "", ""
	key := abs.String()
	if key == b.entry.url {
		v.s = "#" + frag
		return nil, nil
	}
	if t, ok := b.docs[key]; ok {
		v.s = "#/" + extKey + "/" + t.key + frag
		return nil, nil
	}
	if d.depth+1 > b.lim.MaxDepth {
		return nil, newError(CodeParseError, nil, "$ref %q in %s: files refer to files more than %d levels deep", folio.Clip(ref, 200), d.name, b.lim.MaxDepth)
	}
	if len(b.docs)+2 > b.lim.MaxFiles {
		return nil, newError(CodeParseError, nil, "the specification refers to more than %d files", b.lim.MaxFiles-1)
	}
	if err := b.ctx.Err(); err != nil {
		return nil, fmt.Errorf("openapi: bundle: %w", err)
	}
	name := fmt.Sprintf("%q", folio.Clip(ref, 200))
	data, err := fetchDoc(b.ctx, b.fetch, key, name, b.lim.MaxBytes-b.bytes)
	if err != nil {
		return nil, err
	}
	root, err := b.parse(data, name)
	if err != nil {
		return nil, err
	}
	t := &doc{url: key, u: abs, key: b.newKey(key), name: name, root: root, depth: d.depth + 1}
	b.docs[key] = t
	b.order = append(b.order, t)
	v.s = "#/" + extKey + "/" + t.key + frag
	return t, nil
}

// newKey names a bundled document after a hash of its URL, so the name is
// stable across runs and safe inside a JSON pointer.
func (b *bundler) newKey(u string) string {
	sum := sha256.Sum256([]byte(u))
	h := hex.EncodeToString(sum[:])
	for n := 8; n < len(h); n += 8 {
		if !b.keys[h[:n]] {
			b.keys[h[:n]] = true
			return h[:n]
		}
	}
	b.keys[h] = true
	return h
}

// resolvePointer follows a JSON pointer ("/a/b~1c/0", percent-encoded as in
// a URI fragment) from root; nil when it leads nowhere.
func resolvePointer(root *node, ptr string) *node {
	if ptr == "" {
		return root
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	n := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		if strings.Contains(tok, "%") {
			if t, err := url.PathUnescape(tok); err == nil {
				tok = t
			}
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n.kind {
		case kObject:
			n = n.get(tok)
		case kArray:
			i := 0
			for _, c := range tok {
				if c < '0' || c > '9' || i > len(n.vals) {
					return nil
				}
				i = i*10 + int(c-'0')
			}
			if tok == "" || i >= len(n.vals) {
				return nil
			}
			n = n.vals[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}
