// Package translate is Folio's machine translation layer: engines behind one
// small interface, and the translation of documents and strings that
// translation runs call. It keeps no state; the run job, its store and its
// statistics live in app.
//
// Engines (New, chosen by server configuration):
//   - libretranslate: a LibreTranslate-compatible API, POST {url}/translate
//     with q as an array, source, target, format "text" or "html" and
//     api_key; the documented default for self-hosting. Codes pt-br, no and
//     yue are sent as pb, nb and zt, as self-hosted servers list them.
//   - deepl: POST {url}/v2/translate with text[], upper-case source_lang
//     and target_lang (EN-US, PT-PT and PT-BR as targets), the key in
//     "Authorization: DeepL-Auth-Key", tag_handling "xml" for markup.
//   - openai: any OpenAI-compatible POST {url}/chat/completions. The system
//     prompt holds the task, the tag rules, the glossary and the run's
//     instructions; the user message is a JSON array, and the answer must be
//     a JSON array of as many strings (a wrong count is retried segment by
//     segment, then is an error).
//   - apertium: Debian's apertium command (apertium -u -f html eng-spa),
//     or an APy service when a URL is set. Reference codes map to the ISO
//     639-3 names of Apertium's pairs (en -> eng, es -> spa, pt-br ->
//     por_BR...), with the two-letter names of older packages as a second
//     choice; a pair that is not installed is an Invalid error naming it.
//
// Every engine batches (Config.MaxBatch segments and about 24 KB a call),
// applies Config.Timeout to each call, and returns *folio.Error values whose
// messages name the engine but never its URL or key: Unavailable for
// timeouts, unreachable engines, 429 and 5xx answers and malformed answers
// (worth a retry), Invalid for other refusals and configuration mistakes.
// With no engine configured New returns ErrNoEngine (Invalid).
//
// Marks and placeholders. Each block whose children are text and inlines
// (paragraph, heading, list item text, table cell paragraph, caption...)
// becomes one segment, so the engine sees whole sentences. Its content is
// written as HTML-escaped text with two tags, in the manner of XLIFF:
//
//	<g id="N">…</g>  a mark (bold, italic, color...) or an inline whose
//	                 text is translated (link, annotation); the mark or the
//	                 node, with its URL and data, is kept under N
//	<x id="N"/>      something that must not change: a leaf with the code
//	                 or keyboard mark, an inline node (emoji, expression,
//	                 inline math, mention, icon, inline image, button), or
//	                 a glossary term
//
// so "Click **Save** to `store` it" is sent as
// `Click <g id="0">Save</g> to <x id="1"/> it`. Marks that span several
// leaves open once, longest first. Engines translate in HTML/XML mode,
// which keeps tags. The answer is parsed back and checked: every id exactly
// once, of its kind, inside the same link or annotation as before, and no
// inline node inside a mark. The text then becomes leaves with the marks of
// the enclosing <g> tags (ordered as in the source), <x/> tags become the
// kept leaf or node again, and text nodes are regrouped, keeping the
// editor's normal form (text at both ends and between inlines) when the
// source had it. If the check fails, that block is translated leaf by leaf
// as plain text instead, which keeps structure and marks exactly at some
// cost in fluency.
//
// Untouched: code blocks (apart from the bodies of their annotations), math, OpenAPI blocks, content references,
// integrations, reusable content and drawings are skipped whole; all node
// data (link and file references, expressions, conditions) is kept, except
// the reader-visible strings image alt and caption, file and embed captions,
// tab and step titles, and table column titles, which are translated as
// plain strings.
//
// Glossary: source terms are found case-insensitively as whole words
// (longest term first) and replaced by <x/> tags before translation, then
// by their target terms, so every engine respects them (a segment that is
// only glossary terms is not sent at all); the openai engine
// also lists the glossary in its prompt. A term split across two leaves is
// not found.
//
// Words are counted with CountWords over the source text of the segments
// sent (glossary terms included, code and other kept content excluded).
//
// Allowed imports: folio, content and the standard library.
package translate
