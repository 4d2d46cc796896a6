// Package search turns page documents into what the search index and the
// link index store, and search boxes into queries both SQL engines accept.
// It is pure: no I/O, no context, no clock. The FTS5 and tsvector SQL itself
// lives in internal/store; this package only builds its inputs.
//
// Indexing. Sections splits a document at its headings into rows of
// (anchor, title, plain-text body), one per search result section of the
// GitBook API (SearchSectionResult). IndexText reduces text to the terms
// Terms would find in it, space-separated: feed it to to_tsvector('simple',
// ...) so that PostgreSQL's parser does not keep "example.com", "v1.2" or
// "a@b.org" as single tokens that a search for "example" could never match.
// FTS5's unicode61 tokenizer already splits that way, so FTS5 may index the
// raw text or IndexText's output alike.
//
// Queries. Terms normalizes a search box; FTS5Match and TSQuery build a
// MATCH expression and a to_tsquery('simple', ...) argument from it that
// cannot fail to parse whatever the user typed. All terms are required and
// the last one is a prefix, so results appear while the user is typing.
//
// Typo tolerance. Neither engine offers fuzzy matching without a vocabulary
// table, so a cheap fallback is used instead: when a query finds nothing, the
// caller runs it again with Relaxed(query), which cuts the last term to about
// half its length (at least 3 runes) and, being the last term, matches it as
// a prefix. "instalation" becomes "instal" and finds "installation"; typos in
// the first half of the word or in earlier terms are not forgiven.
//
// Ranking is left to the engines (bm25 on FTS5, ts_rank on PostgreSQL);
// TitleBoost says how much more a title match weighs than a body match.
// Snippet cuts the body excerpt shown with a result, replacing ts_headline,
// which re-parses every document and is too slow.
//
// Links. References lists every ContentRef and URL of a document in
// document order, for the links, backlinks and broken-link endpoints;
// IsAppURL decides the "in-app" status of URL links.
//
// Allowed imports: folio, internal/content and the standard library.
package search
