package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// jobsChannel is the PostgreSQL notification channel that tells every
// server's job runner that a job was added.
const jobsChannel = "folio_jobs"

// jobsAdded records that the transaction enqueued a job. On PostgreSQL it
// also sends a notification, which PostgreSQL delivers to the other
// servers' listeners when (and only if) the transaction commits.
func (t *Tx) jobsAdded(ctx context.Context) error {
	if t.addedJobs != nil {
		*t.addedJobs = true
	}
	if t.db.d.name() != "postgres" || t.tx == nil {
		return nil
	}
	_, err := t.exec(ctx, `SELECT pg_notify('`+jobsChannel+`', '')`)
	return wrap(err, "notify job runners")
}

func (db *DB) jobsWakeChan() chan struct{} {
	db.jobsWakeOnce.Do(func() { db.jobsWake = make(chan struct{}, 1) })
	return db.jobsWake
}

// wakeJobs signals the job runner of this process without blocking; a
// signal already pending is enough.
func (db *DB) wakeJobs() {
	select {
	case db.jobsWakeChan() <- struct{}{}:
	default:
	}
}

// JobWakeups is signalled when a job was added on this server or, on
// PostgreSQL while ListenJobs runs, on another one.
func (db *DB) JobWakeups() <-chan struct{} { return db.jobsWakeChan() }

// ListenJobs relays PostgreSQL's notifications of added jobs to
// JobWakeups until ctx ends, on a connection of its own (outside the
// pool), reconnecting after failures. On SQLite, where one process holds
// the database, it returns at once.
func (db *DB) ListenJobs(ctx context.Context) {
	if db.url == "" {
		return
	}
	backoff := time.Second
	for ctx.Err() == nil {
		err := db.listenJobs(ctx)
		if ctx.Err() != nil {
			return
		}
		db.logger.Warn("jobs: listener lost its connection", "error", err.Error(), "retry_in", backoff.String())
		// A notification may have been missed meanwhile: look for work.
		db.wakeJobs()
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Minute)
	}
}

func (db *DB) listenJobs(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, db.url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+jobsChannel); err != nil {
		return err
	}
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		db.wakeJobs()
	}
}
