// Package store holds all SQL of Folio. One implementation serves both
// SQLite (modernc.org/sqlite, the embedded default) and PostgreSQL (pgx
// through database/sql): queries are written in the subset both dialects
// understand, with "?" placeholders rebound for PostgreSQL, and the few
// dialect differences live in small methods of the dialect type.
//
// Store functions take a *Tx, run one query each and return folio types.
// They hold no rules and no authorization; "not found" is reported as a
// folio.NotFound error, constraint violations as folio.Conflict or
// folio.Invalid (see translateError), everything else as a wrapped error.
//
// Allowed imports: the standard library, folio, the two drivers and goose.
package store
