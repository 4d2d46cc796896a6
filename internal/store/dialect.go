package store

// dialect holds the few things that differ between SQLite and PostgreSQL.
type dialect interface {
	name() string
	// rebind rewrites "?" placeholders into the dialect's form.
	rebind(query string) string
	// translate maps driver errors (constraints, busy) to folio kinds.
	translate(err error) error
	// forUpdate is the row-locking suffix of a SELECT inside a write
	// transaction; SQLite needs none, as its writer holds the database lock.
	forUpdate() string
	// ilike is a case-insensitive LIKE of expr against one "?" pattern,
	// with "\" as the escape character.
	ilike(expr string) string
	// userSearch returns a condition on the user id column idCol that keeps
	// users whose display name or email contains term (any case), and its
	// arguments.
	userSearch(idCol, term string) (string, []any)
	// cachesStatements reports whether reads should use the store's own
	// prepared-statement cache; pgx keeps one per connection already.
	cachesStatements() bool
	// searchSyntax names the query text search expects: "fts5" or "tsquery".
	searchSyntax() string
	// searchColumns lists the extra columns of a search_sections insert.
	searchColumns() string
	// searchRow returns one VALUES tuple of a search_sections insert.
	searchRow(s SearchSection) (string, []any)
	// searchQuery returns the ranked search of sections in some spaces:
	// its arguments are the match text, then the space ids, then the limit.
	searchQuery(spaces int, match string) (string, []any)
}
