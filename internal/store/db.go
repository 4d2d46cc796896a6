package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foliodocs/folio"
)

// Config selects and tunes a store.
type Config struct {
	// DatabaseURL is a postgres:// URL; empty selects SQLite in DataDir.
	DatabaseURL string
	// DataDir holds the SQLite database file.
	DataDir string
	// Clock gives the time recorded at the start of each transaction.
	Clock folio.Clock
	// Logger receives slow or failed housekeeping; nil discards.
	Logger *slog.Logger
	// MaxConns bounds the read pool (SQLite) or the whole pool
	// (PostgreSQL); 0 selects 8.
	MaxConns int
}

// DB is a migrated database of either dialect. Reads go to a pool of
// connections. On PostgreSQL writes are ordinary transactions of the same
// pool; on SQLite they run on one dedicated connection (see writer), so
// writers queue in Go instead of failing with SQLITE_BUSY.
type DB struct {
	d      dialect
	read   *pool
	write  *pool
	writer *writer // SQLite only
	clock  folio.Clock
	logger *slog.Logger
	dir    string // SQLite data folder
	url    string // PostgreSQL URL, for the jobs listener

	jobsWake     chan struct{} // signalled when a committed write added a due job
	jobsWakeOnce sync.Once

	writes atomic.Uint64 // write transactions committed through this DB
}

// pool is a database/sql pool with a cache of prepared statements: most
// queries are the same few strings, and preparing each time costs more than
// running them on the SQLite hot path.
type pool struct {
	db    *sql.DB
	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

func newPool(db *sql.DB) *pool { return &pool{db: db, stmts: make(map[string]*sql.Stmt)} }

// stmt returns the prepared form of query, keyed by its text before rebind
// so the hot path neither rebinds nor allocates.
func (p *pool) stmt(ctx context.Context, query string, rebind func(string) string) (*sql.Stmt, error) {
	p.mu.RLock()
	s := p.stmts[query]
	p.mu.RUnlock()
	if s != nil {
		return s, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.stmts[query]; s != nil {
		return s, nil
	}
	s, err := p.db.PrepareContext(ctx, rebind(query))
	if err != nil {
		return nil, err
	}
	p.stmts[query] = s
	return s, nil
}

func (p *pool) close() error {
	p.mu.Lock()
	for _, s := range p.stmts {
		s.Close()
	}
	p.stmts = nil
	p.mu.Unlock()
	return p.db.Close()
}

// Open connects to the configured store and applies pending migrations.
// A database migrated by a newer Folio is refused with a clear error.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.DatabaseURL == "" && cfg.DataDir != "" {
		unlock, err := lockSQLite(ctx, cfg.DataDir)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	db, err := Connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Connect opens the store without migrating it.
func Connect(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.Clock == nil {
		cfg.Clock = folio.SystemClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 8
	}
	var (
		db  *DB
		err error
	)
	if cfg.DatabaseURL != "" {
		db, err = openPostgres(ctx, cfg)
	} else {
		db, err = openSQLite(ctx, cfg)
	}
	if err != nil {
		return nil, err
	}
	db.clock = cfg.Clock
	db.logger = cfg.Logger
	if cfg.DatabaseURL == "" {
		db.dir = cfg.DataDir
	}
	return db, nil
}

// Close releases every connection.
func (db *DB) Close() error {
	err := db.read.close()
	if db.writer != nil {
		err = errors.Join(err, db.writer.close())
	}
	if db.write != db.read {
		err = errors.Join(err, db.write.close())
	}
	return err
}

// DataDir is the folder of the SQLite database, empty for PostgreSQL.
func (db *DB) DataDir() string { return db.dir }

// Dialect names the store: "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.d.name() }

// Ping checks that the database answers, for health checks.
func (db *DB) Ping(ctx context.Context) error {
	return db.read.db.PingContext(ctx)
}

// Tx runs queries of one unit of work. Inside Write it wraps a transaction;
// inside Read it runs each query on its own (no snapshot across queries,
// which keeps hot reads cheap). Now is the time recorded when it started.
type Tx struct {
	db  *DB
	p   *pool
	tx  *sql.Tx
	w   *writer // the SQLite writer, inside its transaction
	Now time.Time

	// oneOff marks queries whose text varies with their input (IN lists of
	// any length): they are not kept in the statement caches.
	oneOff bool

	// addedJobs is set when the transaction enqueued a job: the job
	// runners are woken once it commits.
	addedJobs *bool
}

// once returns the Tx for a query whose text varies with its input.
func (t *Tx) once() *Tx {
	c := *t
	c.oneOff = true
	return &c
}

// Read runs fn with a read-only Tx outside any transaction.
func (db *DB) Read(ctx context.Context, fn func(*Tx) error) error {
	return fn(&Tx{db: db, p: db.read, Now: db.clock.Now()})
}

// Write runs fn in one transaction, committed when fn returns nil and
// rolled back otherwise. Writers are serialized on SQLite.
func (db *DB) Write(ctx context.Context, fn func(*Tx) error) (err error) {
	if db.writer != nil {
		return db.writer.write(ctx, db, fn)
	}
	stx, err := db.write.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	t := &Tx{db: db, p: db.write, tx: stx, Now: db.clock.Now(), addedJobs: new(bool)}
	defer func() {
		if p := recover(); p != nil {
			stx.Rollback()
			panic(p)
		}
	}()
	if err := fn(t); err != nil {
		stx.Rollback()
		return err
	}
	if err := stx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", db.d.translate(err))
	}
	db.writes.Add(1)
	if *t.addedJobs {
		db.wakeJobs()
	}
	return nil
}

// Writes counts the write transactions this DB has committed. A value read
// before a read that is still current after it says that no write through
// this DB committed in between, so a cache of what the read found is as
// fresh as the read for this process's own writes (other processes sharing
// the database are not counted).
func (db *DB) Writes() uint64 { return db.writes.Load() }

// exec runs a statement that returns no rows and reports the rows affected.
// Reads and SQLite writes use cached prepared statements; PostgreSQL
// transactions run statements directly (pgx caches them per connection).
func (t *Tx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	var (
		res sql.Result
		err error
	)
	switch {
	case t.w != nil && t.oneOff:
		res, err = t.w.conn.ExecContext(ctx, query, args...)
	case t.w != nil:
		var s *sql.Stmt
		if s, err = t.w.stmt(ctx, query); err == nil {
			res, err = s.ExecContext(ctx, args...)
		}
	case t.tx != nil:
		res, err = t.tx.ExecContext(ctx, t.db.d.rebind(query), args...)
	case t.oneOff || !t.db.d.cachesStatements():
		res, err = t.p.db.ExecContext(ctx, t.db.d.rebind(query), args...)
	default:
		var s *sql.Stmt
		if s, err = t.p.stmt(ctx, query, t.db.d.rebind); err == nil {
			res, err = s.ExecContext(ctx, args...)
		}
	}
	if err != nil {
		return 0, t.db.d.translate(err)
	}
	return res.RowsAffected()
}

// query runs a statement returning rows and calls scan for each row.
func (t *Tx) query(ctx context.Context, query string, args []any, scan func(*sql.Rows) error) error {
	var (
		rows *sql.Rows
		err  error
	)
	switch {
	case t.w != nil && t.oneOff:
		rows, err = t.w.conn.QueryContext(ctx, query, args...)
	case t.w != nil:
		var s *sql.Stmt
		if s, err = t.w.stmt(ctx, query); err == nil {
			rows, err = s.QueryContext(ctx, args...)
		}
	case t.tx != nil:
		rows, err = t.tx.QueryContext(ctx, t.db.d.rebind(query), args...)
	case t.oneOff || !t.db.d.cachesStatements():
		rows, err = t.p.db.QueryContext(ctx, t.db.d.rebind(query), args...)
	default:
		var s *sql.Stmt
		if s, err = t.p.stmt(ctx, query, t.db.d.rebind); err == nil {
			rows, err = s.QueryContext(ctx, args...)
		}
	}
	if err != nil {
		return t.db.d.translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return t.db.d.translate(err)
	}
	return nil
}

// one runs a statement expected to return at most one row and calls scan
// on it; it returns sql.ErrNoRows when there is none. It always steps the
// statement to its end: SQLite only checkpoints the WAL after a statement
// completes, and database/sql's QueryRow resets an UPDATE ... RETURNING
// after its first row, which lets the WAL grow without bound.
func (t *Tx) one(ctx context.Context, query string, args []any, scan func(*sql.Rows) error) error {
	found := false
	err := t.query(ctx, query, args, func(rows *sql.Rows) error {
		if found {
			return nil
		}
		found = true
		return scan(rows)
	})
	if err != nil {
		return err
	}
	if !found {
		return sql.ErrNoRows
	}
	return nil
}

// get is one that scans the row into dest.
func (t *Tx) get(ctx context.Context, query string, args []any, dest ...any) error {
	return t.one(ctx, query, args, func(rows *sql.Rows) error { return rows.Scan(dest...) })
}

// notFound turns sql.ErrNoRows into a folio.NotFound error with msg and
// wraps every other error with the operation's name.
func notFound(err error, op, msg string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return folio.Errorf(folio.NotFound, "%s", msg)
	}
	if folio.KindOf(err) != folio.Internal {
		return err
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// wrap names the operation of a failed query, keeping translated kinds.
func wrap(err error, op string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// micros converts a time to the stored form: microseconds since the epoch,
// which both dialects store, compare and index the same way.
func micros(t time.Time) int64 { return t.UnixMicro() }

// fromMicros converts a stored time back.
func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullMicros converts an optional stored time.
func nullMicros(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMicros(n.Int64)
	return &t
}

// maxCachedInList is the longest IN list whose query is kept prepared.
const maxCachedInList = 256

// padIn returns the values of an IN list padded with repeats of its last
// value to the next power of two, which an IN list ignores, and the Tx to
// query with: the query text then takes few forms, which the statement
// caches keep; a longer (or empty) list runs unprepared on t.once().
func padIn[T any](t *Tx, vals []T) (*Tx, []T) {
	n := 1
	for n < len(vals) {
		n <<= 1
	}
	if len(vals) == 0 || n > maxCachedInList {
		return t.once(), vals
	}
	out := make([]T, n)
	for i := range out {
		out[i] = vals[min(i, len(vals)-1)]
	}
	return t, out
}

// maxListParams is the longest list sent as one argument per value; a
// longer one travels as a single JSON array argument (inList), so that no
// list, whatever its length, meets the drivers' parameter limits (SQLite
// 32,766, PostgreSQL 65,535).
const maxListParams = 500

// inList returns the right-hand side of an IN condition over vals, with its
// arguments: "(?, ?, ?)" for short lists, and a subquery over one JSON array
// argument for long ones. Queries built with it run unprepared (t.once()),
// as their text depends on the list's length.
func inList[T ~string](t *Tx, vals []T) (string, []any) {
	if len(vals) <= maxListParams {
		return "(" + placeholders(len(vals)) + ")", toAny(vals)
	}
	b, _ := json.Marshal(vals) // strings always encode
	return t.db.d.jsonList(), []any{string(b)}
}

// placeholders returns "?, ?, ?" for n arguments.
func placeholders(n int) string {
	if n == 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}
