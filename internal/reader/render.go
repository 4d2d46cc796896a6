package reader

import (
	"bytes"
	"html/template"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/foliodocs/folio/internal/content"
)

// block is one rendered block for the templates: Kind selects its
// template, the other fields are what that kind uses. Every string is
// escaped by html/template; Code alone is trusted HTML, chroma's output,
// which escapes the source it highlights.
type block struct {
	Kind     string
	Level    int
	ID       string
	Inlines  []inline
	Children []block
	Items    []block // list items, tabs, images
	Checked  bool
	Start    int
	Code     template.HTML
	Lang     string
	Text     string
	Href     string
	Src      string
	Alt      string
	Style    string
	Title    []inline
	Header   []string
	Rows     [][][]block
	Op       *opView // an OpenAPI operation (openapi.go)
	// Label is an accessible name (a heading's anchor, a table's or a
	// code block's scrolling box), in the site's language.
	Label         string
	DarkSrc       string        // an image's variant for the dark theme
	Width, Height int           // an image's size, when the file has it
	Numbered      bool          // a code block shows line numbers
	Wrap          bool          // a code block wraps long lines
	MathML        template.HTML // math converted from its TeX (texToMathML), else ""
}

// inline is a run of text with its marks, or an inline node.
type inline struct {
	Kind                                 string // "text", "link", "math", "image", "break"
	Text                                 string
	Bold, Italic, Code, Strike, Sub, Sup bool
	Href                                 string
	MathML                               template.HTML // math converted from its TeX (texToMathML), else ""
	Children                             []inline
}

// heading is an entry of the table of contents.
type heading struct {
	ID    string
	Text  string
	Level int
}

// renderer turns a Document into blocks, resolving references against the
// revision (files by signed URL, pages by reader URL).
type renderer struct {
	file     func(id string) string // signed download URL, "" when unknown
	size     func(id string) (w, h int)
	title    func(pageID string) string // a page's title, "" when unknown
	t        strs                       // interface strings; English when nil
	page     func(id, anchor string) string
	openapi  *opResolver // nil: OpenAPI blocks show their method and path only
	headings []heading
	ids      map[string]int
	tabs     int // tab sets so far
	// shift lifts every heading of a document whose highest heading is
	// below heading-1, so that the article's headings start at <h2>
	// (heading order) and the outline at its first level.
	shift int
	// static renders for a diff (RenderDiffBlocks): no ids, every tab
	// shown, headings lift levels lower than the reader's.
	static bool
	lift   int
}

// s returns an interface string of the renderer's language.
func (r *renderer) s(key string) string {
	if r.t == nil {
		return tr("en")[key]
	}
	return r.t[key]
}

func (r *renderer) document(d *content.Document) []block {
	if d == nil {
		return nil
	}
	r.shift = 0
	if top := topHeading(d.Nodes); top < 4 {
		r.shift = top - 1
	}
	return r.blocks(d.Nodes)
}

// topHeading is the highest heading level (1–3) among nodes and their
// descendants, 4 when there is none.
func topHeading(nodes []content.Node) int {
	top := 4
	var walk func([]content.Node)
	walk = func(nodes []content.Node) {
		for i := range nodes {
			n := &nodes[i]
			switch n.Type {
			case content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
				top = min(top, int(n.Type[len(n.Type)-1]-'0'))
			}
			walk(n.Nodes)
			for j := range n.Fragments {
				walk(n.Fragments[j].Nodes)
			}
		}
	}
	walk(nodes)
	return top
}

func (r *renderer) blocks(nodes []content.Node) []block {
	out := make([]block, 0, len(nodes))
	for i := range nodes {
		out = append(out, r.block(&nodes[i]))
	}
	return out
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func (r *renderer) block(n *content.Node) block {
	if n.Object != content.ObjectBlock {
		return block{Kind: "p", Inlines: r.inlines([]content.Node{*n})}
	}
	switch n.Type {
	case content.BlockParagraph:
		return block{Kind: "p", Inlines: r.inlines(n.Nodes)}
	case content.BlockHeading1, content.BlockHeading2, content.BlockHeading3:
		level := int(n.Type[len(n.Type)-1]-'0') - r.shift
		if r.static {
			return block{Kind: "hs", Level: min(max(level+1+r.lift, 2), 6), Inlines: r.inlines(n.Nodes)}
		}
		text := plain(n.Nodes)
		id := r.anchor(n, text)
		r.headings = append(r.headings, heading{ID: id, Text: text, Level: level})
		return block{Kind: "h", Level: level + 1, ID: id, Inlines: r.inlines(n.Nodes), Label: r.s("linkToSection")}
	case content.BlockListOrdered, content.BlockListUnordered, content.BlockListTasks:
		b := block{Kind: map[string]string{content.BlockListOrdered: "ol", content.BlockListUnordered: "ul",
			content.BlockListTasks: "tasks"}[n.Type], Start: 1}
		if f, ok := n.Data["start"].(float64); ok && f >= 0 && f < 1e9 {
			b.Start = int(f)
		}
		for i := range n.Nodes {
			it := &n.Nodes[i]
			checked, _ := it.Data["checked"].(bool)
			b.Items = append(b.Items, block{Kind: "li", Checked: checked, Children: r.blocks(it.Nodes)})
		}
		return b
	case content.BlockDivider:
		return block{Kind: "hr"}
	case content.BlockQuote:
		return block{Kind: "quote", Children: r.blocks(n.Nodes)}
	case content.BlockHint:
		style := str(n.Data, "style")
		switch style {
		case "info", "warning", "danger", "success":
		default:
			style = "info"
		}
		return block{Kind: "hint", Style: style, Children: r.blocks(n.Nodes)}
	case content.BlockCode:
		lines := make([]string, 0, len(n.Nodes))
		for i := range n.Nodes {
			lines = append(lines, plain(n.Nodes[i].Nodes))
		}
		lang := str(n.Data, "syntax")
		numbered, _ := n.Data["lineNumbers"].(bool)
		return block{Kind: "code", Lang: lang, Text: str(n.Data, "title"), Label: r.s("code"), Numbered: numbered,
			Wrap: str(n.Data, "overflow") == "wrap", Code: highlight(strings.Join(lines, "\n"), lang, numbered)}
	case content.BlockMath:
		f := str(n.Data, "formula")
		m, _ := texToMathML(f)
		return block{Kind: "math", Text: f, MathML: m}
	case content.BlockImages:
		b := block{Kind: "images"}
		for i := range n.Nodes {
			b.Items = append(b.Items, r.image(&n.Nodes[i]))
		}
		return b
	case content.BlockImage:
		return block{Kind: "images", Items: []block{r.image(n)}}
	case content.BlockFile:
		href := r.ref(n.Data["ref"])
		text := str(n.Data, "caption")
		if text == "" {
			text = r.s("download")
		}
		return block{Kind: "link", Href: href, Text: text}
	case content.BlockEmbed, content.BlockContentRef:
		href := r.ref(n.Data["ref"])
		if href == "" {
			href = safeURL(str(n.Data, "url"))
		}
		text := str(n.Data, "caption")
		if ref, _ := n.Data["ref"].(map[string]any); text == "" && str(ref, "kind") == "page" && r.title != nil {
			text = r.title(str(ref, "page"))
		}
		if text == "" {
			text = href
		}
		return block{Kind: "link", Href: href, Text: text}
	case content.BlockExpandable:
		var title, body []content.Node
		for _, f := range n.Fragments {
			switch {
			case f.Fragment == content.FragmentExpandableTitle || f.Type == content.FragmentExpandableTitle:
				title = f.Nodes
			case f.Fragment == content.FragmentExpandableBody || f.Type == content.FragmentExpandableBody:
				body = f.Nodes
			}
		}
		var t []inline
		for i := range title {
			t = append(t, r.inlines(title[i].Nodes)...)
		}
		return block{Kind: "details", Title: t, Children: r.blocks(body)}
	case content.BlockTabs:
		// Ids number the page's tab sets, so that tabs and panels name
		// each other (the same on every render of the page).
		if r.static {
			b := block{Kind: "tabs-all"}
			for i := range n.Nodes {
				b.Items = append(b.Items, block{Kind: "tab", Text: str(n.Nodes[i].Data, "title"), Children: r.blocks(n.Nodes[i].Nodes)})
			}
			return b
		}
		r.tabs++
		b := block{Kind: "tabs", ID: "tabs-" + strconv.Itoa(r.tabs)}
		for i := range n.Nodes {
			it := &n.Nodes[i]
			b.Items = append(b.Items, block{Kind: "tab", ID: b.ID + "-" + strconv.Itoa(i), Start: i, Text: str(it.Data, "title"),
				Children: r.blocks(it.Nodes)})
		}
		return b
	case content.BlockTable:
		return r.table(n)
	case content.BlockOpenAPIOperation, content.BlockOpenAPI:
		return r.openAPIBlock(n)
	}
	// Unknown or not yet rendered blocks (OpenAPI schemas, integrations, ...)
	// show their text, and their children.
	if len(n.Nodes) > 0 {
		return block{Kind: "div", Children: r.blocks(n.Nodes)}
	}
	var frags []block
	for _, f := range n.Fragments {
		frags = append(frags, r.blocks(f.Nodes)...)
	}
	return block{Kind: "div", Children: frags}
}

// image is an image of an images block: its file's URL and size, and
// its dark-theme variant (data.refDark) when it has one.
func (r *renderer) image(n *content.Node) block {
	b := block{Kind: "image", Src: r.ref(n.Data["ref"]), Alt: str(n.Data, "alt"), Text: captionOf(n),
		DarkSrc: r.ref(n.Data["refDark"])}
	if ref, _ := n.Data["ref"].(map[string]any); str(ref, "kind") == "file" && r.size != nil {
		b.Width, b.Height = r.size(str(ref, "file"))
	}
	return b
}

func captionOf(n *content.Node) string {
	if c := str(n.Data, "caption"); c != "" {
		return c
	}
	for _, f := range n.Fragments {
		if f.Fragment == content.FragmentCaption {
			d := content.Document{Nodes: f.Nodes}
			return d.PlainText()
		}
	}
	return ""
}

func (r *renderer) table(n *content.Node) block {
	defs, _ := n.Data["definition"].(map[string]any)
	var cols []string
	if view, ok := n.Data["view"].(map[string]any); ok {
		cs, _ := view["columns"].([]any)
		for _, c := range cs {
			if s, ok := c.(string); ok {
				cols = append(cols, s)
			}
		}
	}
	if cols == nil {
		for id := range defs {
			cols = append(cols, id)
		}
		sort.Strings(cols)
	}
	b := block{Kind: "table", Label: r.s("table")}
	for _, id := range cols {
		def, _ := defs[id].(map[string]any)
		b.Header = append(b.Header, str(def, "title"))
	}
	frags := map[string][]content.Node{}
	for _, f := range n.Fragments {
		if f.Fragment != "" {
			frags[f.Fragment] = f.Nodes
		} else if f.Key != "" {
			frags[f.Key] = f.Nodes
		}
	}
	records, _ := n.Data["records"].(map[string]any)
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}
	order := func(id string) string { rm, _ := records[id].(map[string]any); return str(rm, "orderIndex") }
	sort.Slice(ids, func(i, j int) bool {
		if oi, oj := order(ids[i]), order(ids[j]); oi != oj {
			return oi < oj
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		rm, _ := records[id].(map[string]any)
		values, _ := rm["values"].(map[string]any)
		row := make([][]block, 0, len(cols))
		for _, c := range cols {
			var cell []block
			switch v := values[c].(type) {
			case string:
				if nodes, ok := frags[v]; ok {
					cell = r.blocks(nodes)
				} else {
					cell = []block{{Kind: "p", Inlines: []inline{{Kind: "text", Text: v}}}}
				}
			case float64:
				cell = []block{{Kind: "p", Inlines: []inline{{Kind: "text", Text: strconv.FormatFloat(v, 'g', -1, 64)}}}}
			case bool:
				cell = []block{{Kind: "p", Inlines: []inline{{Kind: "text", Text: strconv.FormatBool(v)}}}}
			}
			row = append(row, cell)
		}
		b.Rows = append(b.Rows, row)
	}
	return b
}

// anchor is a heading's id: its meta.id, the anchor Folio stores with
// every heading (content.Finish) and that GitBook's renderer uses too, so
// that links work with both. A document without one (never from the
// store: reads upgrade it) falls back to a slug of the text made unique.
func (r *renderer) anchor(n *content.Node, text string) string {
	if r.ids == nil {
		r.ids = map[string]int{}
	}
	if id, _ := n.Meta["id"].(string); id != "" {
		r.ids[id]++
		return id
	}
	base := content.HeadingAnchor(text)
	id := base
	for i := 1; r.ids[id] > 0; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	r.ids[id]++
	return id
}

func (r *renderer) inlines(nodes []content.Node) []inline {
	var out []inline
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == content.ObjectText:
			for _, l := range n.Leaves {
				in := inline{Kind: "text", Text: l.Text}
				for _, m := range l.Marks {
					switch m.Type {
					case content.MarkBold:
						in.Bold = true
					case content.MarkItalic:
						in.Italic = true
					case content.MarkCode, content.MarkKeyboard:
						in.Code = true
					case content.MarkStrikethrough:
						in.Strike = true
					case content.MarkSubscript:
						in.Sub = true
					case content.MarkSuperscript:
						in.Sup = true
					}
				}
				out = append(out, in)
			}
		case n.Type == content.InlineLink:
			out = append(out, inline{Kind: "link", Href: r.ref(n.Data["ref"]), Children: r.inlines(n.Nodes)})
		case n.Type == content.InlineMath:
			f := str(n.Data, "formula")
			m, _ := texToMathML(f)
			out = append(out, inline{Kind: "math", Text: f, MathML: m})
		case n.Type == content.InlineImage:
			out = append(out, inline{Kind: "image", Href: r.ref(n.Data["ref"]), Text: str(n.Data, "alt")})
		case n.Type == content.InlineEmoji:
			out = append(out, inline{Kind: "text", Text: emoji(str(n.Data, "code"))})
		case n.Type == content.InlineMention, n.Type == content.InlineButton:
			text := str(n.Data, "label")
			if text == "" {
				text = plain(n.Nodes)
			}
			out = append(out, inline{Kind: "link", Href: r.ref(n.Data["ref"]), Children: []inline{{Kind: "text", Text: text}}})
		default:
			out = append(out, r.inlines(n.Nodes)...)
		}
	}
	return out
}

// emoji converts a code point in hex (the reference's emoji code) to text.
func emoji(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		v, err := strconv.ParseUint(part, 16, 32)
		if err != nil {
			return ""
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}

// ref resolves a content reference to a URL the reader may link to;
// "" for anything else.
func (r *renderer) ref(v any) string {
	m, _ := v.(map[string]any)
	switch str(m, "kind") {
	case "url":
		return safeURL(str(m, "url"))
	case "file":
		return r.file(str(m, "file"))
	case "page":
		return r.page(str(m, "page"), "")
	case "anchor":
		if str(m, "page") == "" {
			return "#" + str(m, "anchor")
		}
		return r.page(str(m, "page"), str(m, "anchor"))
	}
	return ""
}

// safeURL keeps http, https and mailto URLs and relative ones; anything
// else (javascript:, data:, ...) becomes "". html/template would defuse
// such URLs too; this keeps them from becoming links at all.
func safeURL(s string) string {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return u.String()
	case "":
		if u.Host != "" || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "?") || !strings.Contains(s, ":") {
			return u.String()
		}
	}
	return ""
}

func plain(nodes []content.Node) string {
	var b strings.Builder
	var walk func([]content.Node)
	walk = func(ns []content.Node) {
		for i := range ns {
			for _, l := range ns[i].Leaves {
				b.WriteString(l.Text)
			}
			walk(ns[i].Nodes)
		}
	}
	walk(nodes)
	return b.String()
}

var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// highlight renders code with chroma, whose HTML formatter escapes every
// token's text; on any failure the code is escaped as plain text.
// Numbered code has each line's number before it (class ln, which is
// neither selected nor copied) and its text in a span of class cl.
func highlight(code, lang string, numbered bool) template.HTML {
	lexer := lexers.Get(lang)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, code)
	if err == nil {
		var buf bytes.Buffer
		style := styles.Get("github")
		if !numbered {
			err = codeFormatter.Format(&buf, style, it)
		} else {
			for i, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
				buf.WriteString(`<span class="ln" aria-hidden="true">` + strconv.Itoa(i+1) + `</span><span class="cl">`)
				if err = codeFormatter.Format(&buf, style, chroma.Literator(line...)); err != nil {
					break
				}
				buf.WriteString("</span>")
			}
		}
		if err == nil {
			return template.HTML(buf.String()) //nolint:gosec // chroma escapes token text
		}
	}
	return template.HTML(template.HTMLEscapeString(code))
}

// codeCSS is the stylesheet of highlighted code.
func codeCSS() string {
	var buf bytes.Buffer
	_ = codeFormatter.WriteCSS(&buf, styles.Get("github"))
	return buf.String()
}
