package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

func enqueue(t *testing.T, db *store.DB, kind string, at time.Time) {
	t.Helper()
	err := db.Write(context.Background(), func(tx *store.Tx) error {
		return store.EnqueueJob(context.Background(), tx, kind, `{}`, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestEachJobRunsOnceAcrossRunners(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var runs atomic.Int64
		h := map[string]jobs.Handler{"count": func(context.Context, string) error { runs.Add(1); return nil }}
		for range 20 {
			enqueue(t, db, "count", time.Now().Add(-time.Second))
		}
		enqueue(t, db, "count", time.Now().Add(time.Hour)) // not due
		var wg sync.WaitGroup
		for range 4 { // four servers
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := jobs.NewRunner(db, nil, h).RunDue(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if runs.Load() != 20 {
			t.Fatalf("ran %d jobs, want 20", runs.Load())
		}
	})
}

func TestFailuresRetryOrStop(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var transient, permanent atomic.Int64
		h := map[string]jobs.Handler{
			"flaky": func(context.Context, string) error { transient.Add(1); return errors.New("database down") },
			"bad": func(context.Context, string) error {
				permanent.Add(1)
				return folio.Errorf(folio.Invalid, "bad payload")
			},
			"panic": func(context.Context, string) error { panic("boom") },
		}
		for _, k := range []string{"flaky", "bad", "panic", "unknown"} {
			enqueue(t, db, k, time.Now().Add(-time.Second))
		}
		r := jobs.NewRunner(db, nil, h)
		if n, err := r.RunDue(context.Background()); err != nil || n != 4 {
			t.Fatalf("first pass ran %d: %v", n, err)
		}
		// Retries wait for their backoff; permanent failures never come back.
		if n, _ := r.RunDue(context.Background()); n != 0 {
			t.Fatalf("second pass ran %d jobs before any backoff ended", n)
		}
		if transient.Load() != 1 || permanent.Load() != 1 {
			t.Fatalf("runs: transient %d, permanent %d", transient.Load(), permanent.Load())
		}
	})
}

func enqueueKeyed(t *testing.T, db *store.DB, kind, key, payload string) folio.ID {
	t.Helper()
	var id folio.ID
	err := db.Write(context.Background(), func(tx *store.Tx) (err error) {
		id, err = store.EnqueueKeyedJob(context.Background(), tx, kind, key, payload, tx.Now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func getJob(t *testing.T, db *store.DB, id folio.ID) *folio.Job {
	t.Helper()
	var j *folio.Job
	if err := db.Read(context.Background(), func(tx *store.Tx) (err error) { j, err = store.GetJob(context.Background(), tx, id); return err }); err != nil {
		t.Fatal(err)
	}
	return j
}

// waitFor polls cond until it holds; it fails the test after a minute (a
// safety net against a hang, not a measure of speed).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestKeyedJobsRunOneAtATimeInOrder runs three servers of three workers
// each over two keys: a key's jobs never overlap and run in the order
// they were added, while the two keys run side by side.
func TestKeyedJobsRunOneAtATimeInOrder(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var (
			mu      sync.Mutex
			active  = map[string]int{}
			order   = map[string][]string{}
			overlap atomic.Bool
			total   atomic.Int64
		)
		h := map[string]jobs.Handler{"sync": func(_ context.Context, payload string) error {
			key, n, _ := strings.Cut(payload, "/")
			mu.Lock()
			active[key]++
			if active[key] > 1 {
				overlap.Store(true)
			}
			order[key] = append(order[key], n)
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			active[key]--
			mu.Unlock()
			total.Add(1)
			return nil
		}}
		var want []string
		for i := range 8 {
			want = append(want, fmt.Sprint(i))
			for _, key := range []string{"space:a", "space:b"} {
				enqueueKeyed(t, db, "sync", key, key+"/"+fmt.Sprint(i))
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() { jobs.NewRunner(db, nil, h).WithWorkers(3).WithPoll(20 * time.Millisecond).Run(ctx) })
		}
		waitFor(t, "16 jobs", func() bool { return total.Load() == 16 })
		cancel()
		wg.Wait()
		if overlap.Load() {
			t.Fatal("two jobs of one key ran at once")
		}
		for _, key := range []string{"space:a", "space:b"} {
			if got := strings.Join(order[key], ","); got != strings.Join(want, ",") {
				t.Fatalf("%s ran in order %s", key, got)
			}
		}
	})
}

// TestKeyedRetryHoldsLaterJobs: a keyed job waiting for its retry keeps
// the key's later jobs from overtaking it.
func TestKeyedRetryHoldsLaterJobs(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var ran []string
		h := map[string]jobs.Handler{"sync": func(_ context.Context, payload string) error {
			ran = append(ran, payload)
			if payload == "first" {
				return errors.New("remote unavailable")
			}
			return nil
		}}
		enqueueKeyed(t, db, "sync", "space:a", "first")
		enqueueKeyed(t, db, "sync", "space:a", "second")
		enqueueKeyed(t, db, "sync", "space:b", "other")
		if _, err := jobs.NewRunner(db, nil, h).RunDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ran, ","); got != "first,other" {
			t.Fatalf("ran %s, want first,other (second waits for first's retry)", got)
		}
	})
}

// TestWakeupWithoutPolling: with a poll of an hour, a job added on this
// server, and on PostgreSQL one added through another server's
// connection, still runs at once.
func TestWakeupWithoutPolling(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			cfg := storetest.Location(t, kind, store.Config{})
			db, err := store.Open(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var runs atomic.Int64
			h := map[string]jobs.Handler{"ping": func(context.Context, string) error { runs.Add(1); return nil }}
			ctx, cancel := context.WithCancel(context.Background())
			r := jobs.NewRunner(db, nil, h).WithPoll(time.Hour)
			since := r.Alive()
			var wg sync.WaitGroup
			wg.Go(func() { r.Run(ctx) })
			defer func() { cancel(); wg.Wait() }()
			waitFor(t, "the runner to start", func() bool { return r.Alive().After(since) })
			enqueueKeyed(t, db, "ping", "", "{}")
			waitFor(t, "the local job", func() bool { return runs.Load() == 1 })
			if kind != "postgres" {
				return
			}
			other, err := store.Open(context.Background(), cfg) // a second server
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			// The listener may still be connecting: send until heard.
			waitFor(t, "the other server's job", func() bool {
				if runs.Load() >= 2 {
					return true
				}
				enqueueKeyed(t, other, "ping", "", "{}")
				time.Sleep(200 * time.Millisecond)
				return runs.Load() >= 2
			})
		})
	}
}

func TestCancel(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		cancelJob := func(id folio.ID) (ended bool, err error) {
			err = db.Write(ctx, func(tx *store.Tx) (err error) { ended, err = store.CancelJob(ctx, tx, id); return err })
			return ended, err
		}
		var runs atomic.Int64
		started := make(chan struct{})
		h := map[string]jobs.Handler{
			"never": func(context.Context, string) error { runs.Add(1); return nil },
			"long": func(ctx context.Context, _ string) error {
				close(started)
				<-ctx.Done()
				return ctx.Err()
			},
		}
		// A waiting job ends at once and never runs.
		id := enqueueKeyed(t, db, "never", "", "{}")
		if ended, err := cancelJob(id); err != nil || !ended {
			t.Fatalf("cancel waiting job: ended %v, %v", ended, err)
		}
		if j := getJob(t, db, id); j.Done == nil || j.LastError != folio.ErrJobCancelled {
			t.Fatalf("cancelled job %+v", j)
		}
		if _, err := cancelJob(id); folio.KindOf(err) != folio.Conflict {
			t.Fatalf("second cancel: %v, want Conflict", err)
		}
		if _, err := cancelJob(folio.NewID()); !folio.IsNotFound(err) {
			t.Fatalf("cancel unknown job: %v, want NotFound", err)
		}
		// A running job's context ends at its next heartbeat.
		long := enqueueKeyed(t, db, "long", "space:a", "{}")
		next := enqueueKeyed(t, db, "never", "space:a", "{}")
		r := jobs.NewRunner(db, nil, h).WithLease(300 * time.Millisecond)
		done := make(chan error, 1)
		go func() { _, err := r.RunDue(ctx); done <- err }()
		<-started
		if ended, err := cancelJob(long); err != nil || ended {
			t.Fatalf("cancel running job: ended %v, %v", ended, err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if j := getJob(t, db, long); j.Done == nil || j.LastError != folio.ErrJobCancelled {
			t.Fatalf("cancelled running job %+v", j)
		}
		// The key is free again: the next job of the key ran.
		if runs.Load() != 1 || getJob(t, db, next).Done == nil {
			t.Fatalf("the key's next job did not run after the cancel (runs %d)", runs.Load())
		}
	})
}

// TestHeartbeatKeepsTheLease: a job that runs longer than its lease is
// not taken by another server while its heartbeat renews the lease.
func TestHeartbeatKeepsTheLease(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var runs atomic.Int64
		release := make(chan struct{})
		h := map[string]jobs.Handler{"slow": func(context.Context, string) error {
			runs.Add(1)
			<-release
			return nil
		}}
		enqueueKeyed(t, db, "slow", "", "{}")
		lease := 200 * time.Millisecond
		go jobs.NewRunner(db, nil, h).WithLease(lease).RunDue(context.Background())
		waitFor(t, "the job to start", func() bool { return runs.Load() == 1 })
		other := jobs.NewRunner(db, nil, h).WithLease(lease)
		for range 5 {
			time.Sleep(lease)
			if n, err := other.RunDue(context.Background()); err != nil || n != 0 {
				t.Fatalf("another server claimed a job whose lease is renewed: %d, %v", n, err)
			}
		}
		close(release)
	})
}

func TestSchedules(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var runs atomic.Int64
		h := map[string]jobs.Handler{"gc": func(context.Context, string) error { runs.Add(1); return nil }}
		put := func(every time.Duration) {
			t.Helper()
			err := db.Write(ctx, func(tx *store.Tx) error {
				return store.PutJobSchedule(ctx, tx, folio.JobSchedule{Name: "gc", Kind: "gc", Payload: "{}", Every: every,
					NextRun: tx.Now.Add(-time.Minute)})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		put(time.Hour)
		// Two servers at once: one run.
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				if _, err := jobs.NewRunner(db, nil, h).RunDue(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if runs.Load() != 1 {
			t.Fatalf("schedule ran %d times, want 1", runs.Load())
		}
		// Not due again within the hour; putting it again unchanged keeps
		// its next run.
		put(time.Hour)
		if n, _ := jobs.NewRunner(db, nil, h).RunDue(ctx); n != 0 {
			t.Fatalf("schedule ran again within its interval")
		}
		// A new interval starts from the new next run.
		put(2 * time.Hour)
		if n, _ := jobs.NewRunner(db, nil, h).RunDue(ctx); n != 1 || runs.Load() != 2 {
			t.Fatalf("changed schedule: ran %d (total %d)", n, runs.Load())
		}
		err := db.Write(ctx, func(tx *store.Tx) error {
			if err := store.PutJobSchedule(ctx, tx, folio.JobSchedule{Name: "bad", Kind: "gc", Every: 0}); folio.KindOf(err) != folio.Invalid {
				t.Errorf("zero interval: %v", err)
			}
			return store.DeleteJobSchedule(ctx, tx, "gc")
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestJobStats(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		h := map[string]jobs.Handler{"bad": func(context.Context, string) error { return folio.Errorf(folio.Invalid, "no") }}
		enqueue(t, db, "bad", time.Now().Add(-time.Minute))
		enqueue(t, db, "later", time.Now().Add(time.Hour))
		enqueue(t, db, "waiting", time.Now().Add(-time.Second))
		var s folio.JobStats
		read := func() {
			t.Helper()
			if err := db.Read(ctx, func(tx *store.Tx) (err error) { s, err = store.JobStats(ctx, tx); return err }); err != nil {
				t.Fatal(err)
			}
		}
		read()
		if s.Queued != 3 || s.Running != 0 || s.Failed != 0 || s.OldestDue < time.Minute {
			t.Fatalf("stats before: %+v", s)
		}
		// Run only the failing job: claim it by hand through RunDue with
		// just its handler (the others fail as unknown kinds, for good).
		jobs.NewRunner(db, nil, h).RunDue(ctx)
		read()
		if s.Queued != 1 || s.Failed != 2 || s.OldestDue != 0 {
			t.Fatalf("stats after: %+v", s)
		}
		var pruned int64
		err := db.Write(ctx, func(tx *store.Tx) (err error) {
			pruned, err = store.PruneJobs(ctx, tx, tx.Now.Add(time.Second))
			return err
		})
		if err != nil || pruned != 2 {
			t.Fatalf("pruned %d: %v", pruned, err)
		}
	})
}

// TestGiveUpHooks: a job that fails for good, or is cancelled, tells its
// kind's hook, with its payload; one that will be retried does not.
func TestGiveUpHooks(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		var mu sync.Mutex
		var got []string
		hook := func(_ context.Context, payload, reason string) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, payload+": "+reason)
		}
		h := map[string]jobs.Handler{
			"bad":   func(context.Context, string) error { return folio.Errorf(folio.Invalid, "bad payload") },
			"flaky": func(context.Context, string) error { return errors.New("database down") },
		}
		enqueueKeyed(t, db, "bad", "", `{"n":1}`)
		enqueueKeyed(t, db, "flaky", "", `{"n":2}`)
		r := jobs.NewRunner(db, nil, h).WithGiveUp(map[string]jobs.GiveUp{"bad": hook, "flaky": hook})
		if _, err := r.RunDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 || got[0] != `{"n":1}: bad payload` {
			t.Fatalf("hooks told %q", got)
		}
	})
}
