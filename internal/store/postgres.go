package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/foliodocs/folio"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

type postgresDialect struct {
	rebound sync.Map // query with ? → query with $n
}

func (*postgresDialect) name() string      { return "postgres" }
func (*postgresDialect) forUpdate() string { return " FOR UPDATE" }

// cachesStatements is false: pgx prepares and caches each statement per
// connection by itself, and database/sql's Stmt layer only adds locking.
func (*postgresDialect) cachesStatements() bool { return false }

func (d *postgresDialect) userSearch(idCol, term string) (string, []any) {
	return likeUsers(d, idCol, term)
}

func (*postgresDialect) ilike(expr string) string { return expr + ` ILIKE ? ESCAPE '\'` }

// rebind turns "?" placeholders into PostgreSQL's "$n". Queries never hold a
// literal question mark.
func (d *postgresDialect) rebind(q string) string {
	if v, ok := d.rebound.Load(q); ok {
		return v.(string)
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	out := b.String()
	d.rebound.Store(q, out)
	return out
}

// translate maps PostgreSQL constraint errors to folio kinds.
func (*postgresDialect) translate(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case "23505":
		return &folio.Error{Kind: folio.Conflict, Message: "a resource with the same unique value already exists", Err: err}
	case "23503":
		return &folio.Error{Kind: folio.Invalid, Message: "a referenced resource does not exist", Err: err}
	case "40001", "40P01":
		return &folio.Error{Kind: folio.Unavailable, Message: "the database is busy, try again", Err: err}
	}
	return err
}

func openPostgres(ctx context.Context, cfg Config) (*DB, error) {
	db, err := sql.Open("pgx", cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db.SetMaxOpenConns(cfg.MaxConns)
	db.SetMaxIdleConns(cfg.MaxConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to postgres: %w", err)
	}
	p := newPool(db)
	return &DB{d: &postgresDialect{}, read: p, write: p}, nil
}

func (*postgresDialect) searchSyntax() string  { return "tsquery" }
func (*postgresDialect) searchColumns() string { return ", tsv, title_tsv" }

// searchRow builds the tsvector from the caller's normalized terms
// (search.IndexText), so that documents and queries split words alike.
func (*postgresDialect) searchRow(s SearchSection) (string, []any) {
	return `(?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'D'), to_tsvector('simple', ?))`,
		[]any{s.SpaceID, s.PageID, s.SectionID, s.Ord, s.PageTitle, s.Title, s.Body, s.Terms[0], s.Terms[1], s.Terms[2], s.Terms[0] + " " + s.Terms[1]}
}

// searchCandidates ranks with ts_rank, weighing page titles (A) 1.0,
// section titles (B) 0.4 and bodies (D) 0.1, and returns the best; ts_rank
// reads every matching section, so queries too common to rank (searchPlan)
// take their first matches. Title searches read title_tsv.
func (*postgresDialect) searchCandidates(spaceIDs []string, match string, limit int, ranked, titles bool) (string, []any) {
	col, rank, order := "tsv", "ts_rank('{0.1, 0.2, 0.4, 1.0}', tsv, q)", " ORDER BY 2 DESC"
	if titles {
		col = "title_tsv"
	}
	if !ranked {
		rank, order = "0.0::real", ""
	}
	args := append([]any{match}, toAny(spaceIDs)...)
	return `SELECT id, ` + rank + `, space_id, page_id, section_id, ord, page_title, title
		FROM search_sections, to_tsquery('simple', ?) q
		WHERE ` + col + ` @@ q AND space_id IN (` + placeholders(len(spaceIDs)) + `)` + order + ` LIMIT ?`, append(args, limit)
}

// termCount counts, up to limit, the sections holding a term.
func (*postgresDialect) termCount(term string, prefix bool) string {
	_ = prefix
	return `SELECT count(*) FROM (SELECT 1 FROM search_sections WHERE tsv @@ to_tsquery('simple', ?) LIMIT ?) x`
}

// termMatch is the query text of one term alone.
func (*postgresDialect) termMatch(term string, prefix bool) string {
	if prefix {
		return term + ":*"
	}
	return term
}

func (*postgresDialect) analyzeContent() string { return "ANALYZE search_sections, content_links" }
