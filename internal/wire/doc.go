// Package wire holds the GitBook API v1 JSON shapes and pure converters from
// folio types to them: no context, no queries, no rules. Keeping the wire
// format apart from the schema lets either change without the other.
//
// Allowed imports: folio and the standard library.
package wire
