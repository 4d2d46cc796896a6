// Package jobs runs durable background work stored in the jobs table: each
// server polls for due jobs, claims one at a time with a lease, and runs the
// handler registered for its kind. A job whose server dies runs again when
// the lease expires, so work survives restarts.
//
// Error kinds decide what happens after a failure: Invalid, NotFound and
// Forbidden fail the job for good; anything else is retried with backoff.
//
// Allowed imports: folio, store, the standard library.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// Handler runs one job of a kind.
type Handler = func(ctx context.Context, payload string) error

// Runner claims and runs due jobs.
type Runner struct {
	db       *store.DB
	handlers map[string]Handler
	logger   *slog.Logger
	lease    time.Duration
	poll     time.Duration
}

// NewRunner returns a runner with the given handlers by job kind.
func NewRunner(db *store.DB, logger *slog.Logger, handlers map[string]Handler) *Runner {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{db: db, handlers: handlers, logger: logger, lease: 10 * time.Minute, poll: 5 * time.Second}
}

// Run polls until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	t := time.NewTicker(r.poll)
	defer t.Stop()
	for {
		if _, err := r.RunDue(ctx); err != nil && ctx.Err() == nil {
			r.logger.Error("jobs: run", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunDue runs every job that is due now and returns how many ran.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		var j *folio.Job
		err := r.db.Write(ctx, func(tx *store.Tx) (err error) {
			j, err = store.ClaimJob(ctx, tx, r.lease)
			return err
		})
		if folio.IsNotFound(err) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
		r.run(ctx, j)
	}
	return n, ctx.Err()
}

// run executes one claimed job and records its outcome.
func (r *Runner) run(ctx context.Context, j *folio.Job) {
	h, ok := r.handlers[j.Kind]
	var err error
	if !ok {
		err = folio.Errorf(folio.Invalid, "no handler for job kind %q", j.Kind)
	} else {
		err = safeRun(ctx, h, j.Payload)
	}
	werr := r.db.Write(ctx, func(tx *store.Tx) error {
		if err == nil {
			return store.FinishJob(ctx, tx, j.ID)
		}
		k := folio.KindOf(err)
		permanent := k == folio.Invalid || k == folio.NotFound || k == folio.Forbidden || j.Attempts >= j.MaxAttempts
		backoff := time.Duration(1<<min(j.Attempts, 10)) * time.Second
		return store.FailJob(ctx, tx, j.ID, err.Error(), tx.Now.Add(backoff), permanent)
	})
	if err != nil {
		r.logger.Warn("jobs: job failed", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "error", err.Error())
	}
	if werr != nil {
		r.logger.Error("jobs: record outcome", "job", j.ID, "error", werr.Error())
	}
}

func safeRun(ctx context.Context, h Handler, payload string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job panicked: %v", p)
		}
	}()
	return h(ctx, payload)
}
