package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// writer runs SQLite write transactions on one connection that it keeps,
// with a cache of statements prepared on it. SQLite allows one writer at a
// time anyway; holding the connection lets prepared statements live across
// transactions, which roughly halves the cost of a small write, and the
// mutex queues writers in Go rather than in SQLite's busy handler.
type writer struct {
	mu    sync.Mutex
	pool  *sql.DB
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

func newWriter(pool *sql.DB) *writer { return &writer{pool: pool, stmts: make(map[string]*sql.Stmt)} }

// write runs fn inside BEGIN IMMEDIATE ... COMMIT.
func (w *writer) write(ctx context.Context, db *DB, fn func(*Tx) error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil {
		c, err := w.pool.Conn(ctx)
		if err != nil {
			return fmt.Errorf("store: writer connection: %w", err)
		}
		w.conn = c
	}
	if _, err := w.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		// A broken connection is replaced on the next write.
		w.reset()
		return fmt.Errorf("store: begin: %w", db.d.translate(err))
	}
	t := &Tx{db: db, w: w, Now: db.clock.Now(), addedJobs: new(bool)}
	committed := false
	defer func() {
		if !committed {
			// Roll back even when ctx is done: the connection must not be
			// left inside a transaction.
			if _, err := w.conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
				w.reset()
			}
		}
	}()
	if err := fn(t); err != nil {
		return err
	}
	if _, err := w.conn.ExecContext(context.WithoutCancel(ctx), "COMMIT"); err != nil {
		return fmt.Errorf("store: commit: %w", db.d.translate(err))
	}
	committed = true
	db.writes.Add(1)
	if *t.addedJobs {
		db.wakeJobs()
	}
	return nil
}

// stmt returns query prepared on the writer connection; the caller holds mu.
func (w *writer) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s := w.stmts[query]; s != nil {
		return s, nil
	}
	s, err := w.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	w.stmts[query] = s
	return s, nil
}

// reset drops the connection and its statements.
func (w *writer) reset() {
	for _, s := range w.stmts {
		s.Close()
	}
	clear(w.stmts)
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
}

func (w *writer) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reset()
	return nil
}
