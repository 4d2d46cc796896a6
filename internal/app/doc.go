// Package app holds one method per API operation. Each method takes the
// caller explicitly, loads what it needs, checks the caller's permissions
// through the folio permission tables, validates input and runs its writes
// in one store transaction. Handlers in httpapi and the cmd/folio commands
// call it; it never sees HTTP.
//
// Allowed imports: folio, store and the standard library (later: content,
// markdown, gitsync, openapi, search, sso).
package app
