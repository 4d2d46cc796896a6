package jobs_test

import (
	"context"
	"errors"
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
