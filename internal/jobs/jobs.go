// Package jobs runs durable background work stored in the jobs table: each
// server claims due jobs with a lease, runs the handler registered for
// their kind on a few workers, and renews the lease while a handler runs
// (a heartbeat). A job whose server dies runs again when its lease
// expires, so work survives restarts.
//
// Jobs that share a concurrency key run one at a time across all servers,
// in the order they were added (a space's git syncs, say). A job can be
// cancelled: one waiting ends at once, a running one sees its context
// cancelled at its next heartbeat. Schedules enqueue a job every interval,
// once across all servers. Runners wake as soon as a job is added (on
// PostgreSQL through LISTEN/NOTIFY, so another server's job is picked up
// too) and poll besides, for jobs that become due with time.
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
	"sync"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// Handler runs one job of a kind. Its context ends when the job is
// cancelled or the server stops.
type Handler = func(ctx context.Context, payload string) error

// Outcome is how a run of a job ended, as Observer hears it.
type Outcome string

// Outcomes of a run.
const (
	Succeeded Outcome = "succeeded"
	Retried   Outcome = "retried"   // failed, will run again
	Failed    Outcome = "failed"    // failed for good
	Cancelled Outcome = "cancelled" // stopped by CancelJob
)

// Observer hears of every run that ends (for metrics).
type Observer func(kind string, outcome Outcome, took time.Duration)

// Runner claims and runs due jobs.
type Runner struct {
	db       *store.DB
	handlers map[string]Handler
	logger   *slog.Logger
	lease    time.Duration
	poll     time.Duration
	workers  int
	observe  Observer
	giveUp   map[string]GiveUp

	mu      sync.Mutex
	running int
	alive   time.Time // when the loop last went round
}

// NewRunner returns a runner with the given handlers by job kind: two
// workers, a lease of ten minutes renewed every third of it, and a poll
// every five seconds.
func NewRunner(db *store.DB, logger *slog.Logger, handlers map[string]Handler) *Runner {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{db: db, handlers: handlers, logger: logger, lease: 10 * time.Minute, poll: 5 * time.Second,
		workers: 2, observe: func(string, Outcome, time.Duration) {}, alive: time.Now()}
}

// WithWorkers sets how many jobs this runner runs at once (at least one).
func (r *Runner) WithWorkers(n int) *Runner { r.workers = max(n, 1); return r }

// WithLease sets the lease a claim takes; the heartbeat renews it every
// third of it while the handler runs.
func (r *Runner) WithLease(d time.Duration) *Runner { r.lease = d; return r }

// WithPoll sets how often the runner looks for due jobs without being woken.
func (r *Runner) WithPoll(d time.Duration) *Runner { r.poll = d; return r }

// GiveUp is told that a job of its kind ended for good without
// succeeding (failed permanently, out of attempts, or cancelled), with the
// job's payload and why, so that what the job stood for (an operation shown
// to users) ends too. It runs after the outcome is recorded.
type GiveUp = func(ctx context.Context, payload, reason string)

// WithGiveUp sets the GiveUp hooks by job kind.
func (r *Runner) WithGiveUp(hooks map[string]GiveUp) *Runner { r.giveUp = hooks; return r }

// WithObserver sets the function told of every run that ends.
func (r *Runner) WithObserver(o Observer) *Runner { r.observe = o; return r }

// Alive reports when the runner's loop last went round (its creation
// before Run),
// for health checks: a loop stuck for much longer than the poll interval
// is not picking up work.
func (r *Runner) Alive() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alive
}

// Running reports how many jobs this runner runs now.
func (r *Runner) Running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running
}

// Run claims and runs jobs on the runner's workers until ctx ends, then
// waits for the running handlers to return.
func (r *Runner) Run(ctx context.Context) {
	lctx, stopListen := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { r.db.ListenJobs(lctx) })
	done := make(chan struct{}, 1)
	t := time.NewTicker(r.poll)
	defer func() {
		t.Stop()
		stopListen()
		wg.Wait()
	}()
	for {
		r.mu.Lock()
		r.alive = time.Now()
		r.mu.Unlock()
		if err := r.schedules(ctx); err != nil && ctx.Err() == nil {
			r.logger.Error("jobs: schedules", "error", err.Error())
		}
		// Fill the free workers.
		for r.Running() < r.workers && ctx.Err() == nil {
			j, err := r.claim(ctx)
			if folio.IsNotFound(err) {
				break
			}
			if err != nil {
				if ctx.Err() == nil {
					r.logger.Error("jobs: claim", "error", err.Error())
				}
				break
			}
			r.mu.Lock()
			r.running++
			r.mu.Unlock()
			wg.Go(func() {
				r.run(ctx, j)
				r.mu.Lock()
				r.running--
				r.mu.Unlock()
				select { // a wake-up hint: one pending is enough
				case done <- struct{}{}:
				default:
				}
			})
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.db.JobWakeups():
		case <-done:
		}
	}
}

// RunDue runs, one after the other, every job that is due now (after
// enqueuing the due schedules' jobs) and returns how many ran. Tests and
// one-off commands use it; servers use Run.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	if err := r.schedules(ctx); err != nil {
		return 0, err
	}
	n := 0
	for ctx.Err() == nil {
		j, err := r.claim(ctx)
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

func (r *Runner) claim(ctx context.Context) (j *folio.Job, err error) {
	err = r.db.Write(ctx, func(tx *store.Tx) (err error) {
		j, err = store.ClaimJob(ctx, tx, r.lease)
		return err
	})
	return j, err
}

func (r *Runner) schedules(ctx context.Context) error {
	return r.db.Write(ctx, func(tx *store.Tx) error {
		_, err := store.EnqueueDueSchedules(ctx, tx)
		return err
	})
}

// run executes one claimed job, renewing its lease while it runs, and
// records its outcome.
func (r *Runner) run(ctx context.Context, j *folio.Job) {
	start := time.Now()
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu        sync.Mutex
		cancelled bool
	)
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		r.heartbeat(jctx, j, func() {
			mu.Lock()
			cancelled = true
			mu.Unlock()
			cancel()
		})
	}()
	h, ok := r.handlers[j.Kind]
	var err error
	if !ok {
		err = folio.Errorf(folio.Invalid, "no handler for job kind %q", j.Kind)
	} else {
		err = safeRun(jctx, h, j.Payload)
	}
	cancel()
	<-beat
	mu.Lock()
	wasCancelled := cancelled
	mu.Unlock()
	if ctx.Err() != nil && !wasCancelled && err != nil {
		// The server is stopping and cut the job off: leave it to its
		// lease, so it runs again here or elsewhere.
		return
	}
	outcome := Succeeded
	ctx = context.WithoutCancel(ctx)
	werr := r.db.Write(ctx, func(tx *store.Tx) error {
		switch {
		case wasCancelled:
			outcome = Cancelled
			return store.FailJob(ctx, tx, j.ID, folio.ErrJobCancelled, tx.Now, true)
		case err == nil:
			return store.FinishJob(ctx, tx, j.ID)
		}
		k := folio.KindOf(err)
		permanent := k == folio.Invalid || k == folio.NotFound || k == folio.Forbidden || j.Attempts >= j.MaxAttempts
		outcome = Retried
		if permanent {
			outcome = Failed
		}
		backoff := time.Duration(1<<min(j.Attempts, 10)) * time.Second
		return store.FailJob(ctx, tx, j.ID, err.Error(), tx.Now.Add(backoff), permanent)
	})
	r.observe(j.Kind, outcome, time.Since(start))
	if hook := r.giveUp[j.Kind]; hook != nil && werr == nil && (outcome == Failed || outcome == Cancelled) {
		reason := folio.ErrJobCancelled
		if outcome == Failed {
			reason = err.Error()
		}
		hook(ctx, j.Payload, reason)
	}
	if err != nil && !wasCancelled {
		r.logger.Warn("jobs: job failed", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "error", err.Error())
	}
	if werr != nil {
		r.logger.Error("jobs: record outcome", "job", j.ID, "error", werr.Error())
	}
}

// heartbeat renews the job's lease every third of it until ctx ends, and
// calls cancel when the job's cancellation was asked for.
func (r *Runner) heartbeat(ctx context.Context, j *folio.Job, cancel func()) {
	t := time.NewTicker(max(r.lease/3, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var stop bool
		err := r.db.Write(ctx, func(tx *store.Tx) (err error) {
			stop, err = store.ExtendJob(ctx, tx, j.ID, tx.Now.Add(r.lease))
			return err
		})
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			r.logger.Warn("jobs: heartbeat", "job", j.ID, "error", err.Error())
		case stop:
			cancel()
			return
		}
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
