package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/foliodocs/folio"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

type postgresDialect struct {
	rebound sync.Map // query with ? → query with $n

	statsMu sync.Mutex
	stats   *termStats
}

// termStats are the most common lexemes of search_sections.tsv and the
// number of sections holding each, from the planner's statistics.
type termStats struct {
	at     time.Time
	counts map[string]float64
}

// termStatsTTL is how long the statistics are reused before being read
// again; ANALYZE (automatic, or after large imports) refreshes them.
const termStatsTTL = time.Minute

func (*postgresDialect) name() string      { return "postgres" }
func (*postgresDialect) forUpdate() string { return " FOR UPDATE" }

// cachesStatements is false: pgx prepares and caches each statement per
// connection by itself, and database/sql's Stmt layer only adds locking.
func (*postgresDialect) cachesStatements() bool { return false }

func (d *postgresDialect) userSearch(idCol, term string) (string, []any) {
	return likeUsers(d, idCol, term)
}

func (*postgresDialect) ilike(expr string) string { return expr + ` ILIKE ? ESCAPE '\'` }

func (*postgresDialect) jsonList() string { return `(SELECT jsonb_array_elements_text(?::jsonb))` }

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
	return &DB{d: &postgresDialect{}, read: p, write: p, url: cfg.DatabaseURL}, nil
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
func (*postgresDialect) searchCandidates(in string, inArgs []any, match string, limit int, ranked, titles bool) (string, []any) {
	col, rank, order := "tsv", "ts_rank('{0.1, 0.2, 0.4, 1.0}', tsv, q)", " ORDER BY 2 DESC"
	if titles {
		col = "title_tsv"
	}
	if !ranked {
		rank, order = "0.0::real", ""
	}
	args := append([]any{match}, inArgs...)
	return `SELECT id, ` + rank + `, space_id, page_id, section_id, ord, page_title, title
		FROM search_sections, to_tsquery('simple', ?) q
		WHERE ` + col + ` @@ q AND space_id IN ` + in + order + ` LIMIT ?`, append(args, limit)
}

// termMatch is the query text of one term alone.
func (*postgresDialect) termMatch(term string, prefix bool) string {
	if prefix {
		return term + ":*"
	}
	return term
}

func (*postgresDialect) analyzeContent() []string {
	return []string{
		"SELECT gin_clean_pending_list('search_sections_tsv'::regclass)",
		"SELECT gin_clean_pending_list('search_sections_title_tsv'::regclass)",
		"ANALYZE search_sections, content_links",
	}
}

// mergeContent has nothing to do: GIN indexes have no segments, and their
// pending lists are merged by analyzeContent's statements and by vacuum.
func (*postgresDialect) mergeContent(context.Context, *DB) (int, error) { return 0, nil }

// termFrequency estimates the sections holding a term from the planner's
// statistics of search_sections.tsv (pg_stats.most_common_elems, kept by
// ANALYZE): counting in the GIN index would read the term's whole posting
// list, which for a common word costs more than the search. A term absent
// from the most common ones is rarer than all of them: 0.
func (d *postgresDialect) termFrequency(ctx context.Context, t *Tx, term string, prefix bool, _ int) (int, error) {
	st, err := d.termStats(ctx, t)
	if err != nil {
		return 0, err
	}
	if !prefix {
		return int(st.counts[term]), nil
	}
	n := 0.0
	for lexeme, c := range st.counts {
		if strings.HasPrefix(lexeme, term) {
			n += c
		}
	}
	return int(n), nil
}

func (d *postgresDialect) termStats(ctx context.Context, t *Tx) (*termStats, error) {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	if d.stats != nil && time.Since(d.stats.at) < termStatsTTL {
		return d.stats, nil
	}
	st := &termStats{at: time.Now(), counts: map[string]float64{}}
	var elems, freqs sql.NullString
	var rows float64
	err := t.get(ctx, `SELECT s.most_common_elems::text, s.most_common_elem_freqs::text, c.reltuples
		FROM pg_stats s
		JOIN pg_namespace n ON n.nspname = s.schemaname
		JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename
		WHERE s.schemaname = current_schema() AND s.tablename = 'search_sections' AND s.attname = 'tsv'`,
		nil, &elems, &freqs, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap(err, "read search statistics")
	}
	if elems.Valid && freqs.Valid {
		// Lexemes are letters and digits (search.IndexText): no quoting.
		es := strings.Split(strings.Trim(elems.String, "{}"), ",")
		fs := strings.Split(strings.Trim(freqs.String, "{}"), ",")
		for i, e := range es {
			if i >= len(fs) {
				break
			}
			f, err := strconv.ParseFloat(fs[i], 64)
			if err == nil {
				st.counts[strings.Trim(e, `"`)] = f * rows
			}
		}
	}
	d.stats = st
	return st, nil
}
