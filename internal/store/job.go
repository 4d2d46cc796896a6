package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// EnqueueJob adds a job to run at or after runAt, in the caller's transaction.
func EnqueueJob(ctx context.Context, t *Tx, kind, payload string, runAt time.Time) error {
	_, err := EnqueueKeyedJob(ctx, t, kind, "", payload, runAt)
	return err
}

// EnqueueKeyedJob adds a job to run at or after runAt, in the caller's
// transaction. Of the jobs sharing a non-empty key, one runs at a time
// (see ClaimJob). Once the transaction commits, job runners are woken
// (this server's at once, other servers' through PostgreSQL's NOTIFY), so
// a due job does not wait for the next poll.
func EnqueueKeyedJob(ctx context.Context, t *Tx, kind, key, payload string, runAt time.Time) (folio.ID, error) {
	id := folio.NewID()
	_, err := t.exec(ctx, `INSERT INTO jobs (id, kind, concurrency_key, payload, run_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		id, kind, key, payload, micros(runAt), micros(t.Now))
	if err != nil {
		return "", wrap(err, "enqueue job")
	}
	if err := t.jobsAdded(ctx); err != nil {
		return "", err
	}
	return id, nil
}

// StartJob adds a job that the caller runs at once: it is claimed for lease
// from the start, so the job runner takes it only if the caller does not
// record its outcome within the lease.
func StartJob(ctx context.Context, t *Tx, kind, payload string, lease time.Duration) (folio.ID, error) {
	id := folio.NewID()
	_, err := t.exec(ctx, `INSERT INTO jobs (id, kind, payload, run_at, attempts, locked_until, started_at, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
		id, kind, payload, micros(t.Now), micros(t.Now.Add(lease)), micros(t.Now), micros(t.Now))
	return id, wrap(err, "start job")
}

// claimCandidates bounds how many due jobs one claim looks at: enough to
// step over the jobs whose key another server holds.
const claimCandidates = 32

// ClaimJob takes the oldest due job that nobody holds, for lease. Of two
// servers claiming at once only one gets a job: the lock condition is
// checked again on the row itself. A keyed job is taken only with its key
// (a row of job_keys, whose primary key two servers cannot both insert),
// so jobs sharing a key run one at a time, oldest first. It returns
// NotFound when none can run now.
func ClaimJob(ctx context.Context, t *Tx, lease time.Duration) (*folio.Job, error) {
	now := micros(t.Now)
	until := now + lease.Microseconds()
	type candidate struct{ id, key string }
	var cands []candidate
	err := t.query(ctx, `SELECT id, concurrency_key FROM jobs WHERE done_at IS NULL AND run_at <= ? AND attempts < max_attempts
		AND (locked_until IS NULL OR locked_until < ?) ORDER BY run_at, id LIMIT ?`,
		[]any{now, now, claimCandidates}, func(r *sql.Rows) error {
			var c candidate
			if err := r.Scan(&c.id, &c.key); err != nil {
				return err
			}
			cands = append(cands, c)
			return nil
		})
	if err != nil {
		return nil, wrap(err, "claim job")
	}
	tried := map[string]bool{}
	for _, c := range cands {
		if c.key != "" {
			// A key's jobs run in the order they were added: only its
			// oldest job that has not ended may run, so a job waiting to
			// retry holds back the later ones.
			if tried[c.key] {
				continue
			}
			tried[c.key] = true
			var first string
			if err := t.get(ctx, `SELECT id FROM jobs WHERE concurrency_key = ? AND done_at IS NULL ORDER BY created_at, id LIMIT 1`,
				[]any{c.key}, &first); err != nil {
				return nil, wrap(err, "claim job order")
			}
			if first != c.id {
				continue
			}
			n, err := t.exec(ctx, `INSERT INTO job_keys (key, job_id, locked_until) VALUES (?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET job_id = excluded.job_id, locked_until = excluded.locked_until
				WHERE job_keys.locked_until < ?`, c.key, c.id, until, now)
			if err != nil {
				return nil, wrap(err, "claim job key")
			}
			if n == 0 {
				continue // another job of the key runs
			}
		}
		j, err := claimRow(ctx, t, c.id, now, until)
		if err == nil {
			return j, nil
		}
		if !folio.IsNotFound(err) {
			return nil, err
		}
		if c.key != "" {
			if _, err := t.exec(ctx, `DELETE FROM job_keys WHERE key = ? AND job_id = ?`, c.key, c.id); err != nil {
				return nil, wrap(err, "release job key")
			}
		}
	}
	return nil, folio.Errorf(folio.NotFound, "no job is due")
}

func claimRow(ctx context.Context, t *Tx, id string, now, until int64) (*folio.Job, error) {
	var (
		j     folio.Job
		runAt int64
	)
	err := t.get(ctx, `UPDATE jobs SET locked_until = ?, attempts = attempts + 1, started_at = ?
		WHERE id = ? AND done_at IS NULL AND (locked_until IS NULL OR locked_until < ?)
		RETURNING id, kind, concurrency_key, payload, run_at, attempts, max_attempts, last_error`,
		[]any{until, now, id, now}, &j.ID, &j.Kind, &j.Key, &j.Payload, &runAt, &j.Attempts, &j.MaxAttempts, &j.LastError)
	if err != nil {
		return nil, notFound(err, "claim job", "job already taken")
	}
	j.RunAt = fromMicros(runAt)
	started := fromMicros(now)
	j.Started = &started
	return &j, nil
}

// ExtendJob renews the lease of a running job (and of its key) until
// until, and reports whether its cancellation was asked for. It returns
// NotFound when the job has ended.
func ExtendJob(ctx context.Context, t *Tx, id folio.ID, until time.Time) (cancel bool, err error) {
	var requested sql.NullInt64
	var key string
	err = t.get(ctx, `UPDATE jobs SET locked_until = ? WHERE id = ? AND done_at IS NULL
		RETURNING concurrency_key, cancel_requested_at`, []any{micros(until), id}, &key, &requested)
	if err != nil {
		return false, notFound(err, "extend job", "job has ended")
	}
	if key != "" {
		if _, err := t.exec(ctx, `UPDATE job_keys SET locked_until = ? WHERE key = ? AND job_id = ?`, micros(until), key, id); err != nil {
			return false, wrap(err, "extend job key")
		}
	}
	return requested.Valid, nil
}

// FinishJob records that a job is done. Its payload, which may hold what
// a user sent (an import's URL or data), is not kept.
func FinishJob(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `UPDATE jobs SET done_at = ?, locked_until = NULL, payload = '{}' WHERE id = ?`, micros(t.Now), id)
	if err != nil {
		return wrap(err, "finish job")
	}
	return releaseKey(ctx, t, id)
}

// FailJob records a failure: the job runs again at retryAt, or never when
// permanent is true (and then, as for FinishJob, its payload is dropped).
func FailJob(ctx context.Context, t *Tx, id folio.ID, msg string, retryAt time.Time, permanent bool) error {
	var done sql.NullInt64
	if permanent {
		done = sql.NullInt64{Int64: micros(t.Now), Valid: true}
	}
	_, err := t.exec(ctx, `UPDATE jobs SET last_error = ?, run_at = ?, locked_until = NULL, done_at = ?,
		payload = CASE WHEN ? THEN '{}' ELSE payload END WHERE id = ?`,
		msg, micros(retryAt), done, permanent, id)
	if err != nil {
		return wrap(err, "fail job")
	}
	// The key is released; a retried job still comes first among its
	// key's jobs (ClaimJob runs a key's jobs in the order they were added).
	return releaseKey(ctx, t, id)
}

func releaseKey(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM job_keys WHERE job_id = ?`, id)
	return wrap(err, "release job key")
}

// CancelJob asks for a job's cancellation. A job that is not running ends
// at once (cancelled reports true); a running one is told through its
// lease renewal (ExtendJob) and ends when its handler returns. A job that
// has already ended is a Conflict; an unknown one NotFound.
func CancelJob(ctx context.Context, t *Tx, id folio.ID) (cancelled bool, err error) {
	j, err := GetJob(ctx, t, id)
	if err != nil {
		return false, err
	}
	if j.Done != nil {
		return false, folio.Errorf(folio.Conflict, "the job has already ended")
	}
	now := micros(t.Now)
	n, err := t.exec(ctx, `UPDATE jobs SET done_at = ?, cancel_requested_at = ?, last_error = ?, locked_until = NULL, payload = '{}'
		WHERE id = ? AND done_at IS NULL AND (locked_until IS NULL OR locked_until < ?)`, now, now, folio.ErrJobCancelled, id, now)
	if err != nil {
		return false, wrap(err, "cancel job")
	}
	if n == 1 {
		return true, releaseKey(ctx, t, id)
	}
	_, err = t.exec(ctx, `UPDATE jobs SET cancel_requested_at = COALESCE(cancel_requested_at, ?) WHERE id = ? AND done_at IS NULL`, now, id)
	return false, wrap(err, "cancel job")
}

const jobColumns = `id, kind, concurrency_key, payload, run_at, attempts, max_attempts, last_error, done_at, started_at, cancel_requested_at`

// GetJob returns a job by id, or NotFound.
func GetJob(ctx context.Context, t *Tx, id folio.ID) (*folio.Job, error) {
	var (
		j                        folio.Job
		runAt                    int64
		done, started, cancelled sql.NullInt64
	)
	err := t.get(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, []any{id},
		&j.ID, &j.Kind, &j.Key, &j.Payload, &runAt, &j.Attempts, &j.MaxAttempts, &j.LastError, &done, &started, &cancelled)
	if err != nil {
		return nil, notFound(err, "get job", "job not found")
	}
	j.RunAt = fromMicros(runAt)
	j.Done, j.Started, j.CancelRequested = nullMicros(done), nullMicros(started), nullMicros(cancelled)
	return &j, nil
}

// PutJobSchedule creates or replaces a schedule. A new schedule first runs
// at s.NextRun; replacing one keeps its next run unless the interval
// changed.
func PutJobSchedule(ctx context.Context, t *Tx, s folio.JobSchedule) error {
	if s.Every <= 0 {
		return folio.Errorf(folio.Invalid, "a schedule needs a positive interval")
	}
	_, err := t.exec(ctx, `INSERT INTO job_schedules (name, kind, payload, every_us, next_run_at, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, payload = excluded.payload, every_us = excluded.every_us,
			next_run_at = CASE WHEN job_schedules.every_us = excluded.every_us THEN job_schedules.next_run_at ELSE excluded.next_run_at END`,
		s.Name, s.Kind, s.Payload, s.Every.Microseconds(), micros(s.NextRun), micros(t.Now))
	return wrap(err, "put job schedule")
}

// DeleteJobSchedule removes a schedule; jobs it already enqueued stay.
func DeleteJobSchedule(ctx context.Context, t *Tx, name string) error {
	_, err := t.exec(ctx, `DELETE FROM job_schedules WHERE name = ?`, name)
	return wrap(err, "delete job schedule")
}

// ScheduleKey is the concurrency key of a schedule's jobs: two runs of one
// schedule never overlap.
func ScheduleKey(name string) string { return "schedule:" + name }

// EnqueueDueSchedules enqueues one job for each schedule whose time has
// come and moves its next run past now (runs missed while no server ran
// are not made up). The move is conditional on the next run read, so of
// two servers only one enqueues a run. A schedule whose previous job has
// not ended is skipped for this run. It returns how many jobs it enqueued.
func EnqueueDueSchedules(ctx context.Context, t *Tx) (int, error) {
	now := micros(t.Now)
	var due []folio.JobSchedule
	err := t.query(ctx, `SELECT name, kind, payload, every_us, next_run_at FROM job_schedules WHERE next_run_at <= ?`, []any{now},
		func(r *sql.Rows) error {
			var (
				s           folio.JobSchedule
				every, next int64
			)
			if err := r.Scan(&s.Name, &s.Kind, &s.Payload, &every, &next); err != nil {
				return err
			}
			s.Every, s.NextRun = time.Duration(every)*time.Microsecond, fromMicros(next)
			due = append(due, s)
			return nil
		})
	if err != nil {
		return 0, wrap(err, "due schedules")
	}
	n := 0
	for _, s := range due {
		every := s.Every.Microseconds()
		prev := micros(s.NextRun)
		next := prev + ((now-prev)/every+1)*every
		moved, err := t.exec(ctx, `UPDATE job_schedules SET next_run_at = ? WHERE name = ? AND next_run_at = ?`, next, s.Name, prev)
		if err != nil {
			return n, wrap(err, "move schedule")
		}
		if moved == 0 {
			continue // another server took this run
		}
		var pending int
		if err := t.get(ctx, `SELECT COUNT(*) FROM jobs WHERE concurrency_key = ? AND done_at IS NULL`,
			[]any{ScheduleKey(s.Name)}, &pending); err != nil {
			return n, wrap(err, "schedule pending")
		}
		if pending > 0 {
			continue
		}
		if _, err := EnqueueKeyedJob(ctx, t, s.Kind, ScheduleKey(s.Name), s.Payload, t.Now); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// JobStats reads the queue's figures: the jobs that have not ended (an
// index range), and the failures of the last day.
func JobStats(ctx context.Context, t *Tx) (folio.JobStats, error) {
	now := micros(t.Now)
	var (
		s      folio.JobStats
		oldest sql.NullInt64
	)
	err := t.get(ctx, `SELECT
			COALESCE(SUM(CASE WHEN locked_until IS NULL OR locked_until < ? THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN locked_until >= ? THEN 1 ELSE 0 END), 0),
			MIN(CASE WHEN run_at <= ? AND (locked_until IS NULL OR locked_until < ?) THEN run_at END)
		FROM jobs WHERE done_at IS NULL AND attempts < max_attempts`, []any{now, now, now, now}, &s.Queued, &s.Running, &oldest)
	if err != nil {
		return s, wrap(err, "job stats")
	}
	if oldest.Valid {
		s.OldestDue = time.Duration(now-oldest.Int64) * time.Microsecond
	}
	err = t.get(ctx, `SELECT COUNT(*) FROM jobs WHERE done_at >= ? AND last_error <> '' AND last_error <> ?`,
		[]any{now - (24 * time.Hour).Microseconds(), folio.ErrJobCancelled}, &s.Failed)
	return s, wrap(err, "job stats")
}

// PruneJobs deletes the jobs that ended before before, and reports how
// many it deleted.
func PruneJobs(ctx context.Context, t *Tx, before time.Time) (int64, error) {
	n, err := t.exec(ctx, `DELETE FROM jobs WHERE done_at < ?`, micros(before))
	return n, wrap(err, "prune jobs")
}

// WaitingKeyedJobs counts the jobs of a concurrency key that have not
// started (queued, or waiting for a retry).
func WaitingKeyedJobs(ctx context.Context, t *Tx, key string) (n int, err error) {
	err = t.get(ctx, `SELECT COUNT(*) FROM jobs WHERE concurrency_key = ? AND done_at IS NULL
		AND (locked_until IS NULL OR locked_until < ?)`, []any{key, micros(t.Now)}, &n)
	return n, wrap(err, "count waiting keyed jobs")
}
