package translate

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// skippedBlocks are never translated, children and data alike: code
// (except the bodies of its annotations), formulas, embedded specifications
// and references to other content.
var skippedBlocks = map[string]bool{
	content.BlockCode: true, content.BlockCodeLine: true, content.BlockMath: true,
	content.BlockOpenAPI: true, content.BlockOpenAPIOperation: true, content.BlockOpenAPISchemas: true,
	content.BlockOpenAPIWebhook: true, content.BlockContentRef: true, content.BlockIntegration: true,
	content.BlockReusableContent: true, content.BlockDrawing: true,
}

// dataTexts lists the plain-text data properties that readers see: image
// alternative text and captions, file and embed captions, tab and step
// titles. Table column titles are handled apart.
var dataTexts = map[string][]string{
	content.BlockImage:       {"alt", "caption"},
	content.BlockFile:        {"caption"},
	content.BlockEmbed:       {"caption"},
	content.BlockTabsItem:    {"title"},
	content.BlockStepperStep: {"title"},
}

// unit is one segment: a block's inline content, or one plain string.
type unit struct {
	nodes  []content.Node       // the content as it is now
	apply  func([]content.Node) // stores the translated content
	markup string               // the encoded segment, trimmed
	lead   string               // whitespace cut before markup
	trail  string               // whitespace cut after markup
	elems  []elem
	rank   map[string]int
	orders map[string][]string
	words  int
}

// job gathers the units of one call.
type job struct {
	gl    *glossary
	units []*unit
}

func (j *job) add(nodes []content.Node, apply func([]content.Node)) {
	e := &encoder{rank: map[string]int{}, orders: map[string][]string{}, gl: j.gl}
	e.nodes(nodes, -1)
	u := &unit{nodes: nodes, apply: apply, elems: e.elems, rank: e.rank, orders: e.orders, words: CountWords(e.plain.String())}
	if u.words == 0 {
		return
	}
	s := e.b.String()
	trimmed := strings.TrimLeftFunc(s, unicode.IsSpace)
	u.lead = s[:len(s)-len(trimmed)]
	u.markup = strings.TrimRightFunc(trimmed, unicode.IsSpace)
	u.trail = trimmed[len(u.markup):]
	j.units = append(j.units, u)
}

// addString adds a plain string, written back through set.
func (j *job) addString(s string, set func(string)) {
	j.add([]content.Node{content.NewText(s)}, func(ns []content.Node) { set(textOf(ns)) })
}

func textOf(ns []content.Node) string {
	var b strings.Builder
	for _, n := range ns {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
	}
	return b.String()
}

// blocks walks a list of blocks of the cloned document.
func (j *job) blocks(ns []content.Node) {
	for i := range ns {
		if ns[i].Object == content.ObjectBlock {
			j.block(&ns[i])
		}
	}
}

func (j *job) block(n *content.Node) {
	if n.Type == content.BlockCode {
		// Code stays, but the bodies of its annotations are prose.
		for i := range n.Nodes {
			j.inlineFragments(n.Nodes[i].Nodes)
		}
		return
	}
	if skippedBlocks[n.Type] {
		return
	}
	for _, name := range dataTexts[n.Type] {
		if s, ok := n.Data[name].(string); ok && strings.TrimSpace(s) != "" {
			j.addString(s, func(t string) { n.Data[name] = t })
		}
	}
	if n.Type == content.BlockTable {
		j.tableTitles(n)
	}
	if len(n.Nodes) > 0 && !slices.ContainsFunc(n.Nodes, func(c content.Node) bool { return c.Object == content.ObjectBlock }) {
		j.add(n.Nodes, func(ns []content.Node) { n.Nodes = ns })
		j.inlineFragments(n.Nodes)
	} else {
		j.blocks(n.Nodes)
	}
	for i := range n.Fragments {
		j.blocks(n.Fragments[i].Nodes)
	}
}

// inlineFragments walks the fragments of inlines, such as annotation bodies.
// The rebuilt inline shares its Fragments with the one walked here.
func (j *job) inlineFragments(ns []content.Node) {
	for i := range ns {
		n := &ns[i]
		if n.Object != content.ObjectInline {
			continue
		}
		for k := range n.Fragments {
			j.blocks(n.Fragments[k].Nodes)
		}
		j.inlineFragments(n.Nodes)
	}
}

// tableTitles adds the column titles of a table's definition.
func (j *job) tableTitles(n *content.Node) {
	def, _ := n.Data["definition"].(map[string]any)
	keys := make([]string, 0, len(def))
	for k := range def {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		col, _ := def[k].(map[string]any)
		if s, ok := col["title"].(string); ok && strings.TrimSpace(s) != "" {
			j.addString(s, func(t string) { col["title"] = t })
		}
	}
}

// run translates every unit: all as markup in one engine call (the engine
// batches), then, for units whose markup came back broken, leaf by leaf as
// plain text. It returns the words of the units translated.
func (j *job) run(ctx context.Context, e Engine, req Request) (int, error) {
	if len(j.units) == 0 {
		return 0, nil
	}
	// A unit whose words are all glossary terms needs no engine: its own
	// markup is its translation.
	var segs []string
	for _, u := range j.units {
		if CountWords(tagPattern.ReplaceAllString(u.markup, " ")) > 0 {
			segs = append(segs, u.markup)
		}
	}
	sent, err := translateAll(ctx, e, req, FormatMarkup, segs)
	if err != nil {
		return 0, err
	}
	out := make([]string, len(j.units))
	for i, u := range j.units {
		if CountWords(tagPattern.ReplaceAllString(u.markup, " ")) > 0 {
			out[i], sent = sent[0], sent[1:]
		} else {
			out[i] = u.markup
		}
	}
	var broken []*unit
	words := 0
	for i, u := range j.units {
		words += u.words
		items, ok := parseMarkup(strings.TrimSpace(out[i]), u.elems)
		if !ok {
			broken = append(broken, u)
			continue
		}
		if u.lead != "" {
			items = append([]item{{id: -1, text: u.lead}}, items...)
		}
		if u.trail != "" {
			items = append(items, item{id: -1, text: u.trail})
		}
		r := &rebuilder{elems: u.elems, rank: u.rank, orders: u.orders}
		u.apply(r.build(items, u.nodes))
	}
	if len(broken) > 0 {
		if err := j.fallback(ctx, e, req, broken); err != nil {
			return 0, err
		}
	}
	return words, nil
}

// tagPattern matches the tags of encoded markup.
var tagPattern = regexp.MustCompile(`<[^>]*>`)

// part is a piece of a leaf's text in the fallback: sent to the engine, or
// kept (whitespace, glossary targets).
type part struct {
	text string
	seg  int // index into the fallback segments, or -1
}

// fallback translates each leaf of the broken units on its own, as plain
// text, so marks and inline nodes stay exactly where they were.
func (j *job) fallback(ctx context.Context, e Engine, req Request, units []*unit) error {
	type leafParts struct {
		leaf  *content.Leaf
		parts []part
	}
	var leaves []leafParts
	var segs []string
	var visit func(ns []content.Node)
	visit = func(ns []content.Node) {
		for i := range ns {
			n := &ns[i]
			if n.Object == content.ObjectInline {
				if translatedInline(n) {
					visit(n.Nodes)
				}
				continue
			}
			for k := range n.Leaves {
				l := &n.Leaves[k]
				if l.Text == "" || slices.ContainsFunc(l.Marks, func(m content.Mark) bool { return keptMarks[m.Type] }) {
					continue
				}
				leaves = append(leaves, leafParts{leaf: l, parts: splitParts(l.Text, j.gl, &segs)})
			}
		}
	}
	for _, u := range units {
		visit(u.nodes)
	}
	out, err := translateAll(ctx, e, req, FormatText, segs)
	if err != nil {
		return err
	}
	for _, lp := range leaves {
		var b strings.Builder
		for _, p := range lp.parts {
			if p.seg >= 0 {
				b.WriteString(strings.TrimSpace(out[p.seg]))
			} else {
				b.WriteString(p.text)
			}
		}
		lp.leaf.Text = b.String()
	}
	for _, u := range units {
		u.apply(u.nodes)
	}
	return nil
}

// splitParts cuts s at glossary terms (replaced by their targets) and
// around the whitespace at the ends of each piece, adding the pieces with
// words to segs.
func splitParts(s string, gl *glossary, segs *[]string) []part {
	var parts []part
	plain := func(t string) {
		if t == "" {
			return
		}
		core := strings.TrimFunc(t, unicode.IsSpace)
		if CountWords(core) == 0 {
			parts = append(parts, part{text: t, seg: -1})
			return
		}
		lead := t[:strings.Index(t, core)]
		trail := t[len(lead)+len(core):]
		if lead != "" {
			parts = append(parts, part{text: lead, seg: -1})
		}
		parts = append(parts, part{seg: len(*segs)})
		*segs = append(*segs, core)
		if trail != "" {
			parts = append(parts, part{text: trail, seg: -1})
		}
	}
	pos := 0
	for _, m := range gl.find(s) {
		plain(s[pos:m.start])
		parts = append(parts, part{text: m.target, seg: -1})
		pos = m.end
	}
	plain(s[pos:])
	return parts
}

// translateAll sends segs in one engine call and checks the answer's length.
func translateAll(ctx context.Context, e Engine, req Request, format string, segs []string) ([]string, error) {
	if len(segs) == 0 {
		return nil, nil
	}
	r := req
	r.Segments, r.Format = segs, format
	out, err := e.Translate(ctx, r)
	if err != nil {
		return nil, err
	}
	if len(out) != len(segs) {
		return nil, folio.Errorf(folio.Unavailable, "translation engine %s returned %d translations for %d segments", e.Name(), len(out), len(segs))
	}
	return out, nil
}

// prepare checks req and compiles its glossary.
func prepare(e Engine, req Request) (*job, error) {
	if e == nil {
		return nil, ErrNoEngine
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	gl, err := newGlossary(req.Glossary)
	if err != nil {
		return nil, err
	}
	return &job{gl: gl}, nil
}

// TranslateDocument returns a translated copy of doc and the number of
// source words translated. Only text runs are translated: code blocks,
// inline code and keys, formulas, link targets, expressions, emoji, mentions
// and references stay as they are, and so do marks and the node structure
// (see doc.go). doc is not modified. Errors are Invalid for a bad request
// and the engine's errors otherwise (usually Unavailable).
func TranslateDocument(ctx context.Context, e Engine, doc *content.Document, req Request) (*content.Document, int, error) {
	j, err := prepare(e, req)
	if err != nil {
		return nil, 0, err
	}
	out, err := clone(doc)
	if err != nil {
		return nil, 0, err
	}
	j.blocks(out.Nodes)
	words, err := j.run(ctx, e, req)
	if err != nil {
		return nil, 0, err
	}
	return out, words, nil
}

// TranslateText translates plain strings such as page titles and
// descriptions, respecting the glossary, and returns them with the number of
// source words. Strings without words come back unchanged.
func TranslateText(ctx context.Context, e Engine, texts []string, req Request) ([]string, int, error) {
	j, err := prepare(e, req)
	if err != nil {
		return nil, 0, err
	}
	out := slices.Clone(texts)
	for i := range out {
		j.addString(out[i], func(t string) { out[i] = t })
	}
	words, err := j.run(ctx, e, req)
	if err != nil {
		return nil, 0, err
	}
	return out, words, nil
}

// clone deep-copies a document through its lossless JSON form.
func clone(doc *content.Document) (*content.Document, error) {
	if doc == nil {
		return nil, folio.Errorf(folio.Invalid, "no document to translate")
	}
	b, err := doc.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("translate: copy document: %w", err)
	}
	var out content.Document
	if err := out.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("translate: copy document: %w", err)
	}
	return &out, nil
}
