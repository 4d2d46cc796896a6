// Package markdown is Markdown <-> GitBook Document conversion on goldmark;
// pure, no I/O. ToDocument reads GitBook-flavored Markdown into a
// content.Document that passes Validate; FromDocument writes a Document back
// in the form GitBook itself writes in git-synced repositories, so that a
// page in that form reads and writes back byte for byte
// (testdata/corpus/gitbook.md), and whatever FromDocument writes is a fixed
// point: written, read and written again, it is the same (FuzzToDocument).
//
// Mapping, with the canonical form written (both directions):
//
//	paragraph                          paragraph
//	# / ## / ###, #### to ######       heading-1 / heading-2 / heading-3 (4-6 become 3)
//	* item, 1. item                    list-unordered, list-ordered (data.start when not 1);
//	                                   "*" is GitBook's bullet, "-" (or ")") separates adjacent lists
//	* [ ] / * [x] (GFM)                list-tasks, list-item data.checked
//	``` lang / indented code           code data.syntax, one code-line per line
//	{% code title="t" overflow="wrap" lineNumbers="true" fullWidth="true" %}
//	```lang ... ```                    code data.title, overflow, lineNumbers, fullWidth;
//	{% endcode %}                      attributes in that order, no blank lines inside
//	> quote                            blockquote
//	> [!NOTE] (TIP, IMPORTANT,         hint info (success, info, warning, danger), read
//	> WARNING, CAUTION) then content   only at the top level (alert.go); written back as
//	                                   read while unedited (DataRaw), else as a hint tag
//	{% hint style="info" %}            hint data.style (info, success, warning, danger);
//	...                                content right after the tag and right before the end
//	{% endhint %}                      tag, blank lines only between its blocks
//	GFM table                          table: data.view (grid), data.definition (text
//	                                   columns c0..), data.records (r0.. with orderIndex,
//	                                   values naming fragments r<row>c<col>), one
//	                                   paragraph per cell fragment; columns padded
//	                                   to their widest cell as GitBook writes them
//	<figure><img src="s" alt="a" width="300"><figcaption><p>c</p></figcaption></figure>
//	                                   images > image: data.ref, data.alt, data.width,
//	                                   caption fragment; several images or data.align:
//	                                   <div align="left"><figure>…</figure> <figure>…</figure></div>;
//	                                   "&" "<" ">" '"' as &#x26; &#x3C; &#x3E; &#x22;
//	![alt](src "title") alone          read as images > image (caption from title), written as a figure
//	![alt](src) in text                inline-image: data.ref, data.alt, data.caption
//	![alt](data:image/png;base64,…)    a file reference through DataResolver, else a URL
//	{% file src="x" %}                 file: data.ref {kind: file}, data.caption
//	caption
//	{% endfile %}
//	{% embed url="u" %}                embed data.url; with a caption (data.caption):
//	                                   {% embed url="u" %}\ncaption\n{% endembed %}
//	{% content-ref url="p.md" %}       content-ref data.ref: a page (Resolver.Page) or
//	[label](p.md)                      {kind: url}; a label other than the url is kept
//	{% endcontent-ref %}               in DataRaw as {"label": label}
//	{% include "../.gitbook/includes/x.md" %}
//	                                   reusable-content data.ref {kind: reusable-content,
//	                                   reusableContent} through ReusableResolver; written
//	                                   through ReusableTarget, else as "reusable:ID"
//	{% stepper %}{% step %}…{% endstep %}
//	{% endstepper %}                   stepper > stepper-step, laid out as tabs
//	{% tabs %}{% tab title="A" %}      tabs > tabs-item data.title: {% tabs %}, then each
//	…{% endtab %}{% endtabs %}         tab as tag, content, end tag on their own lines,
//	                                   tabs separated by a blank line, then {% endtabs %}
//	{% openapi-operation spec="s" path="/p" method="get" %}…{% endopenapi-operation %}
//	                                   openapi-operation data.ref {kind: openapi, spec},
//	                                   data.path, data.method
//	{% openapi src="f" path="/p" method="get" %}\n[f](f)\n{% endopenapi %}
//	                                   swagger data.ref (url or file), path, method
//	[text](target)                     link data.ref: url, page, anchor (with page for
//	                                   page#anchor), file; resolved by Resolver
//	**b** *i* ~~s~~ `c`                marks bold, italic, strikethrough, code
//	***                                divider
//	$$\nformula\n$$, inline $$x$$      math / inline-math data.formula
//	<details>\n\n<summary>T</summary>\n\nbody\n\n</details>
//	                                   expandable: expandable-title, expandable-body fragments
//	YAML front matter                  code block with syntax "yaml" (gitsync strips it first)
//
// Without a Resolver or LinkTarget, references are written as "page:ID",
// "page:ID#anchor", "file:ID" and "reusable:ID", and ToDocument reads those
// back as references.
//
// Kept Markdown (raw.go). Markdown with no Document form — unknown
// {% tags %} up to their end tag ({% updates %}, {% swagger %}, …), raw HTML
// blocks, footnote and link reference definitions, a figure with markup in
// its caption, a {% file %} that does not resolve, an OpenAPI tag's link
// line — and top-level paragraphs and headings that FromDocument would not
// write back as read (heading anchors <a id>, <mark> colours, &#x20;,
// headings 4-6, soft line breaks, "_" emphasis, reference links…) are kept
// in the document data: data["markdownRaw"] (DataRaw) maps a node key
// (RawKeyPrefix and a digest of the source, so a re-import gives the same
// key) to {"md": source, "sum": digest of the block's JSON}. Constructs
// without a Document form become a paragraph holding the source as text.
// FromDocument writes the source in place of a block whose JSON still has
// that digest; an edited block is written from its content (its text
// escaped). Blocks that link to pages or files are never kept, so that an
// export writes their current paths. Lines Folio gives a meaning to but
// finds misplaced, malformed or unclosed ({% endtab %} alone, an unknown
// hint style, "$$" without its end) stay plain text and are written
// escaped: written as they were, they could take a meaning in their new
// place. The raw text of an unknown tag never reaches over a tag Folio
// reads, so it cannot take the end tag of a block around it.
//
// Lossy cases: headings 4-6 become heading-3 (their source is kept at the
// top level); soft line breaks become spaces (likewise); table header cells
// keep only their plain text; code block info beyond the language is not
// kept; lists, quotes and table cells keep no source, so inline HTML or
// footnote references there are written escaped; a block a container cannot
// hold (code or tables in a quote or hint, an expandable in an expandable,
// tabs in tabs...) is degraded to paragraphs carrying its text (fit.go),
// except the tags that become one void block (embed, content-ref, include,
// file, figures, OpenAPI), whose source is kept as a paragraph instead;
// containers nested deeper than content.MaxDepth allows are flattened to
// text, and block tags nested deeper than that stay text; a single line
// opening more than MaxLineNesting lists or quotes is refused (limits.go),
// since goldmark's cost for it is quadratic. FromDocument writes marks other
// than bold, italic, strikethrough and code as plain text, and blocks with
// no Markdown form (drawing, columns, integrations...) as their plain text;
// emphasis whose delimiters CommonMark cannot place (a mark ending right
// after punctuation before a letter) may read back as literal asterisks.
//
// Liquid blocks are split out of the source line by line before goldmark
// sees it (segment.go), outside fenced code (also fences opened in a quote
// or list item); tags indented four spaces or more, such as inside list
// items, are not recognized. Each segment is parsed on its own, so link
// reference definitions do not reach across a hint or tab boundary. User
// content never causes an error or a panic, and work stays linear in the
// size of the input (perf_test.go, BenchmarkAdversarial).
//
// Allowed imports: folio, internal/content, goldmark, standard library.
package markdown
