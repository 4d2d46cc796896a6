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
}
