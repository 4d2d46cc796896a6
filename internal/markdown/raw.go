package markdown

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/foliodocs/folio/internal/content"
)

// Markdown that has no Document form (unknown {% tags %}, raw HTML,
// footnotes, link reference definitions...) or whose Document form would
// not write back the same (GitBook's anchors and colour marks in headings,
// &#x20; entities, soft line breaks...) is kept in the document's data, so
// that an unedited block is written back byte for byte:
//
//	data["markdownRaw"] = {key: {"md": source, "sum": digest}}
//
// key is the block's node key (RawKeyPrefix and a digest of the source); digest is the
// SHA-256 of the block's JSON when it was read. FromDocument writes source
// in place of a block whose key has an entry and whose JSON still has that
// digest; an edited block is written from its content instead. A construct
// without a Document form becomes a paragraph holding its source as text,
// so that it stays visible and editable. A content-ref keeps the label of
// its link in the same map as {"label": label}.

// DataRaw is the document data property holding the Markdown kept for
// blocks; see the package documentation.
const DataRaw = "markdownRaw"

// RawKeyPrefix starts the node keys ToDocument gives the blocks it keeps
// Markdown for.
const RawKeyPrefix = "md-"

// rawKeeper collects the Markdown kept while converting one source.
type rawKeeper struct {
	seen    map[string]int // keys given, by source digest
	entries map[string]map[string]any
}

// keep gives n a key and records source for it.
func (k *rawKeeper) keep(n *content.Node, source string) {
	k.set(n, "md\x00"+source, map[string]any{"md": source})
}

// label gives n a key and records a content-ref label for it.
func (k *rawKeeper) label(n *content.Node, label string) {
	k.set(n, "label\x00"+label, map[string]any{"label": label})
}

// set gives n a key derived from seed, so that the same source gets the
// same key in every import and merges pair the blocks, and records e.
func (k *rawKeeper) set(n *content.Node, seed string, e map[string]any) {
	if k.entries == nil {
		k.entries = map[string]map[string]any{}
	}
	if k.seen == nil {
		k.seen = map[string]int{}
	}
	sum := sha256.Sum256([]byte(seed))
	key := RawKeyPrefix + hex.EncodeToString(sum[:6])
	k.seen[key]++
	if c := k.seen[key]; c > 1 {
		key += "-" + strconv.Itoa(c)
	}
	n.Key = key
	k.entries[key] = e
}

// finish stores the entries in doc's data, with the digest of each kept
// block as it now is (normalized).
func (k *rawKeeper) finish(doc *content.Document) {
	if len(k.entries) == 0 {
		return
	}
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for i := range nodes {
			n := &nodes[i]
			if e, ok := k.entries[n.Key]; ok && n.Key != "" {
				if _, ok := e["md"]; ok {
					e["sum"] = digest(n)
				}
			}
			if n.Object == content.ObjectBlock {
				walk(n.Nodes)
				for j := range n.Fragments {
					walk(n.Fragments[j].Nodes)
				}
			}
		}
	}
	walk(doc.Nodes)
	out := map[string]any{}
	for key, e := range k.entries {
		if _, ok := e["md"]; ok {
			if _, ok := e["sum"]; !ok {
				continue // the block did not survive (flattened)
			}
		}
		out[key] = e
	}
	if len(out) > 0 {
		doc.Data[DataRaw] = out
	}
}

// digest returns the hex SHA-256 of n's content (its JSON without keys
// and meta, content.BareJSON), or "" when it has none: keys and heading
// anchors that a stored document gets after the import do not make a
// block edited.
func digest(n *content.Node) string {
	b, err := content.BareJSON(n)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// unedited reports whether n still has the digest sum recorded when its
// Markdown was kept. Documents stored before digests left out keys and
// meta recorded the digest of the whole JSON: that one matches too.
func unedited(n *content.Node, sum string) bool {
	if sum == "" {
		return false
	}
	if digest(n) == sum {
		return true
	}
	b, err := n.MarshalJSON()
	if err != nil {
		return false
	}
	full := sha256.Sum256(b)
	return hex.EncodeToString(full[:16]) == sum
}

// rawEntries reads data["markdownRaw"] of a document.
func rawEntries(doc *content.Document) map[string]map[string]any {
	m, _ := doc.Data[DataRaw].(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]map[string]any, len(m))
	for k, v := range m {
		if e, ok := v.(map[string]any); ok {
			out[k] = e
		}
	}
	return out
}

// keptSource returns the Markdown kept for n when n is unchanged since it
// was read.
func (w *writer) keptSource(n *content.Node) (string, bool) {
	if n.Key == "" || w.raw == nil {
		return "", false
	}
	e, ok := w.raw[n.Key]
	if !ok {
		return "", false
	}
	md, ok1 := e["md"].(string)
	sum, ok2 := e["sum"].(string)
	if !ok1 || !ok2 || !unedited(n, sum) {
		return "", false
	}
	return md, true
}

// keptLabel returns the link label kept for content-ref n.
func (w *writer) keptLabel(n *content.Node) (string, bool) {
	if n.Key == "" || w.raw == nil {
		return "", false
	}
	s, ok := w.raw[n.Key]["label"].(string)
	return s, ok
}

// PruneKept drops from doc's DataRaw the entries of blocks that no longer
// exist or were edited since their Markdown was kept, and DataRaw itself
// when nothing is left; callers that store edited documents may use it so
// that kept Markdown does not outlive its blocks.
func PruneKept(doc *content.Document) {
	if doc == nil {
		return
	}
	entries := rawEntries(doc)
	if entries == nil {
		return
	}
	live := map[string]bool{}
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for i := range nodes {
			n := &nodes[i]
			if e, ok := entries[n.Key]; ok && n.Key != "" {
				sum, _ := e["sum"].(string)
				_, isLabel := e["label"]
				live[n.Key] = isLabel || unedited(n, sum)
			}
			if n.Object == content.ObjectBlock {
				walk(n.Nodes)
				for j := range n.Fragments {
					walk(n.Fragments[j].Nodes)
				}
			}
		}
	}
	walk(doc.Nodes)
	kept := map[string]any{}
	for k, e := range entries {
		if live[k] {
			kept[k] = e
		}
	}
	if len(kept) == 0 {
		delete(doc.Data, DataRaw)
		return
	}
	doc.Data[DataRaw] = kept
}
