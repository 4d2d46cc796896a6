// Package content is Folio's content model: GitBook's JSON documents now, and
// later the revision tree, diff and three-way merge built on them. Everything
// here is pure: no I/O, no context, no clock, so every rule is table-tested.
//
// A Document is a tree of generic Nodes (blocks, inlines and text) whose
// type-specific data is kept as decoded JSON, so documents round-trip without
// loss. schema.go holds the one table of node types, void-ness and containment
// rules taken from the GitBook OpenAPI reference; Validate enforces it.
//
// Allowed imports: folio and the standard library.
package content
