package store

import "context"

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
	// jsonList is the right-hand side of an IN condition over the values of
	// one "?" argument holding a JSON array of strings.
	jsonList() string
	// cachesStatements reports whether reads should use the store's own
	// prepared-statement cache; pgx keeps one per connection already.
	cachesStatements() bool
	// searchSyntax names the query text search expects: "fts5" or "tsquery".
	searchSyntax() string
	// searchColumns lists the extra columns of a search_sections insert.
	searchColumns() string
	// searchRow returns one VALUES tuple of a search_sections insert.
	searchRow(s SearchSection) (string, []any)
	// searchCandidates returns a query of up to limit sections of some
	// spaces (in, an inList over their ids, and its arguments) matching match (in their titles only when titles is set): the
	// best ones when ranked, else the first found; and its arguments. Rows:
	// id, rank (0 unranked), space_id, page_id, section_id, ord, page_title,
	// title.
	searchCandidates(in string, inArgs []any, match string, limit int, ranked, titles bool) (string, []any)
	// termFrequency tells, exactly up to limit or by estimate, how many
	// sections hold a term (as a prefix when prefix is set).
	termFrequency(ctx context.Context, t *Tx, term string, prefix bool, limit int) (int, error)
	// termMatch is the query text of one term, as a word or a prefix.
	termMatch(term string, prefix bool) string
	// analyzeContent lists the statements that refresh the planner's
	// statistics of the content indexes and merge their pending entries;
	// none when the dialect needs none.
	analyzeContent() []string
	// mergeContent merges full-text index segments after a large change and
	// returns the merge steps that did work (0 when the dialect has none).
	mergeContent(ctx context.Context, db *DB) (int, error)
}
