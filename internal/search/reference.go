package search

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/foliodocs/folio/internal/content"
)

// Kinds of ContentRef in the GitBook reference.
const (
	RefURL             = "url"
	RefFile            = "file"
	RefPage            = "page"
	RefAnchor          = "anchor"
	RefUser            = "user"
	RefCollection      = "collection"
	RefSpace           = "space"
	RefReusableContent = "reusable-content"
	RefOpenAPI         = "openapi"
)

// Relations of a reference to its target (ContentReferenceRelation).
const (
	RelationReference = "reference" // the content links to the target
	RelationDependsOn = "dependsOn" // the content renders the target
)

// refKinds is the set of ContentRef kinds.
var refKinds = map[string]bool{
	RefURL: true, RefFile: true, RefPage: true, RefAnchor: true, RefUser: true,
	RefCollection: true, RefSpace: true, RefReusableContent: true, RefOpenAPI: true,
}

// dependsOn lists the node types that render their target rather than link
// to it: images, files, drawings, embeds, integrations, reusable content and
// OpenAPI blocks.
var dependsOn = map[string]bool{
	content.BlockImage: true, content.InlineImage: true, content.BlockFile: true,
	content.BlockDrawing: true, content.BlockEmbed: true, content.BlockIntegration: true,
	content.BlockReusableContent: true, content.BlockOpenAPI: true,
	content.BlockOpenAPIOperation: true, content.BlockOpenAPISchemas: true,
	content.BlockOpenAPIWebhook: true,
}

// Reference is one ContentRef or URL found in a document. The target fields
// are those of the ContentRef; which are set depends on Kind (an anchor ref
// may carry Page and Space, a page ref Space).
type Reference struct {
	Kind            string // a Ref* constant
	URL             string
	Page            string
	Anchor          string
	File            string
	Space           string
	User            string
	Collection      string
	ReusableContent string
	Spec            string         // slug of an OpenAPI specification
	Raw             map[string]any // the ref object itself, shared with the document; nil for plain URLs
	Node            string         // key, else meta.id, of the node carrying it; "" if it has neither
	NodeType        string         // type of the node carrying it, such as "link" or "image"
	Relation        string         // RelationReference or RelationDependsOn
}

// References returns every content reference and URL of doc, in document
// order: within a node its data (in key order: "ref" before "refDark"),
// then its children, then its fragments (captions, cells, expandable and
// annotation bodies). Any object in node data with a string "kind" naming a
// ContentRef kind counts, wherever it sits (link, mention and button refs,
// images, files, drawings, content-ref, reusable-content and OpenAPI blocks,
// table record values); so do the plain "url" of embeds and integrations and
// the legacy "src" of images, as Kind url with Raw nil.
func References(doc *content.Document) []Reference {
	if doc == nil {
		return nil
	}
	var w refWalker
	w.nodes(doc.Nodes)
	return w.out
}

// ParseRef reads a ContentRef object, as found in documents or in a link
// page's target; it reports false unless m["kind"] is a ContentRef kind.
// Missing fields stay empty: a page ref without a page is still returned,
// for the caller to report as broken.
func ParseRef(m map[string]any) (Reference, bool) {
	kind, _ := m["kind"].(string)
	if !refKinds[kind] {
		return Reference{}, false
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	return Reference{
		Kind:            kind,
		URL:             str("url"),
		Page:            str("page"),
		Anchor:          str("anchor"),
		File:            str("file"),
		Space:           str("space"),
		User:            str("user"),
		Collection:      str("collection"),
		ReusableContent: str("reusableContent"),
		Spec:            str("spec"),
		Raw:             m,
	}, true
}

type refWalker struct {
	out []Reference
}

func (w *refWalker) nodes(nodes []content.Node) {
	for i := range nodes {
		n := &nodes[i]
		if n.Object != content.ObjectText {
			w.data(n)
		}
		w.nodes(n.Nodes)
		for _, f := range n.Fragments {
			w.nodes(f.Nodes)
		}
	}
}

func (w *refWalker) data(n *content.Node) {
	if len(n.Data) == 0 {
		return
	}
	at := Reference{Node: nodeID(n), NodeType: n.Type, Relation: RelationReference}
	if dependsOn[n.Type] {
		at.Relation = RelationDependsOn
	}
	for _, k := range []string{"url", "src"} {
		if u, _ := n.Data[k].(string); u != "" && plainURLField(n.Type, k) {
			r := at
			r.Kind, r.URL = RefURL, u
			w.out = append(w.out, r)
		}
	}
	w.value(n.Data, at)
}

// plainURLField reports whether data[key] of a node of type typ is a URL
// the node points to, outside any ContentRef.
func plainURLField(typ, key string) bool {
	switch key {
	case "url":
		return typ == content.BlockEmbed || typ == content.BlockIntegration
	case "src":
		return typ == content.BlockImage || typ == content.InlineImage
	}
	return false
}

// value appends the refs held anywhere in v, a decoded JSON value.
func (w *refWalker) value(v any, at Reference) {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := ParseRef(v); ok {
			r.Node, r.NodeType, r.Relation = at.Node, at.NodeType, at.Relation
			w.out = append(w.out, r)
			return
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			w.value(v[k], at)
		}
	case []any:
		for _, e := range v {
			w.value(e, at)
		}
	}
}

// nodeID names a node for ContentLocationPageNode: its key, else meta.id.
func nodeID(n *content.Node) string {
	if n.Key != "" {
		return n.Key
	}
	id, _ := n.Meta["id"].(string)
	return id
}

// IsAppURL reports whether the URL u points at a location of the Folio web
// application served at appBase (such as "https://docs.example.com"): its
// path, below appBase's path, starts with /o/ (organizations) or /s/
// (spaces), and it is either on appBase's host (any scheme of http and
// https, default ports ignored) or a path without a host. Such links get the
// "in-app" status. Other URLs on the same host (API, published sites) and
// URLs that do not parse are not app locations.
func IsAppURL(u, appBase string) bool {
	target, err := url.Parse(strings.TrimSpace(u))
	if err != nil || target.Opaque != "" {
		return false
	}
	base, err := url.Parse(appBase)
	if err != nil || base.Host == "" {
		return false
	}
	switch {
	case target.Host == "" && target.Scheme == "":
		if !strings.HasPrefix(target.Path, "/") {
			return false
		}
	case target.Scheme != "" && target.Scheme != "http" && target.Scheme != "https":
		return false
	case !strings.EqualFold(target.Hostname(), base.Hostname()) || explicitPort(target) != explicitPort(base):
		return false
	}
	rest, ok := strings.CutPrefix(target.Path, strings.TrimSuffix(base.Path, "/"))
	return ok && (strings.HasPrefix(rest, "/o/") || strings.HasPrefix(rest, "/s/"))
}

// explicitPort returns u's port, or "" when it is absent or the default of
// http or https.
func explicitPort(u *url.URL) string {
	switch p := u.Port(); p {
	case "80", "443":
		return ""
	default:
		return p
	}
}
