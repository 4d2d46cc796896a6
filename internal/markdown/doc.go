// Package markdown is Markdown <-> GitBook Document conversion on goldmark;
// pure, no I/O. ToDocument reads GitBook-flavored Markdown into a
// content.Document that passes Validate; FromDocument writes a Document back
// in the same flavor, so Markdown -> Document -> Markdown -> Document is
// stable (the golden tests check it on testdata/corpus).
//
// Mapping (both directions):
//
//	paragraph                          paragraph
//	# / ## / ### to ######             heading-1 / heading-2 / heading-3 (4-6 become 3)
//	- item, 1. item                    list-unordered, list-ordered (data.start when not 1)
//	- [ ] / - [x] (GFM)                list-tasks, list-item data.checked
//	``` lang / indented code           code data.syntax, one code-line per line
//	> quote                            blockquote
//	{% hint style="info" %}            hint data.style (info, success, warning, danger)
//	GFM table                          table: data.view (grid), data.definition (text
//	                                   columns c0..), data.records (r0.. with orderIndex,
//	                                   values naming fragments r<row>c<col>), one
//	                                   paragraph per cell fragment
//	![alt](src "title") alone          images > image: data.ref, data.alt, caption fragment from title
//	![alt](src) in text                inline-image: data.ref, data.alt, data.caption
//	{% file src="x" %}cap{% endfile %} file: data.ref {kind: file}, data.caption
//	[text](target)                     link data.ref: url, page, anchor (with page for
//	                                   page#anchor), file; resolved by Resolver
//	**b** *i* ~~s~~ `c`                marks bold, italic, strikethrough, code
//	---                                divider
//	$$ block $$, inline $$x$$          math / inline-math data.formula
//	<details><summary>                 expandable: expandable-title, expandable-body fragments
//	{% tabs %}{% tab title="A" %}      tabs > tabs-item data.title
//	YAML front matter                  code block with syntax "yaml"
//
// Without a Resolver or LinkTarget, references are written as "page:ID",
// "page:ID#anchor" and "file:ID", and ToDocument reads those back as
// references.
//
// Lossy cases: headings 4-6 become heading-3; raw HTML, footnotes, link
// reference definitions' names, {% embed %}, {% content-ref %} and any other
// unknown syntax become paragraph text (the text is kept, not the meaning);
// soft line breaks become spaces; table header cells keep only their plain
// text (column titles are strings); code block info beyond the language and
// GitBook's {% code %} wrapper are not kept; a file block whose target does
// not resolve to a file becomes a link; images in Markdown's <figure> HTML
// form are text. Where the schema forbids a block in a container (code or
// tables in a quote or hint, an expandable in an expandable, tabs in tabs...)
// the block is degraded to paragraphs carrying its text (fit.go), and
// containers nested deeper than content.MaxDepth allows are flattened to
// text; a single line opening more than MaxLineNesting lists or quotes is
// refused (limits.go), since goldmark's cost for it is quadratic. FromDocument writes marks other than bold, italic, strikethrough and
// code as plain text, and blocks with no Markdown form (embed, drawing,
// OpenAPI, stepper, columns...) as their plain text; emphasis whose
// delimiters CommonMark cannot place (a mark ending right after punctuation
// before a letter) may read back as literal asterisks.
//
// Liquid blocks are split out of the source line by line before goldmark
// sees it (segment.go), outside fenced code; tags indented four spaces or
// more, such as inside list items, are not recognized. Each segment is
// parsed on its own, so link reference definitions do not reach across a
// hint or tab boundary. Unknown, misplaced or unclosed tags stay text: user
// content never causes an error or a panic.
//
// Allowed imports: folio, internal/content, goldmark, standard library.
package markdown
