package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// EnqueueJob adds a job to run at or after runAt, in the caller's transaction.
func EnqueueJob(ctx context.Context, t *Tx, kind, payload string, runAt time.Time) error {
	_, err := t.exec(ctx, `INSERT INTO jobs (id, kind, payload, run_at, created_at) VALUES (?, ?, ?, ?, ?)`,
		folio.NewID(), kind, payload, micros(runAt), micros(t.Now))
	return wrap(err, "enqueue job")
}

// StartJob adds a job that the caller runs at once: it is claimed for lease
// from the start, so the job runner takes it only if the caller does not
// record its outcome within the lease.
func StartJob(ctx context.Context, t *Tx, kind, payload string, lease time.Duration) (folio.ID, error) {
	id := folio.NewID()
	_, err := t.exec(ctx, `INSERT INTO jobs (id, kind, payload, run_at, attempts, locked_until, created_at) VALUES (?, ?, ?, ?, 1, ?, ?)`,
		id, kind, payload, micros(t.Now), micros(t.Now.Add(lease)), micros(t.Now))
	return id, wrap(err, "start job")
}

// ClaimJob takes the oldest due job that nobody holds, for lease. Of two
// servers claiming at once only one gets a job: the lock condition is
// checked again on the row itself. It returns NotFound when none is due.
func ClaimJob(ctx context.Context, t *Tx, lease time.Duration) (*folio.Job, error) {
	now := micros(t.Now)
	var (
		j     folio.Job
		runAt int64
	)
	err := t.get(ctx, `UPDATE jobs SET locked_until = ?, attempts = attempts + 1
		WHERE id = (SELECT id FROM jobs WHERE done_at IS NULL AND run_at <= ? AND attempts < max_attempts
			AND (locked_until IS NULL OR locked_until < ?) ORDER BY run_at LIMIT 1)
		AND done_at IS NULL AND (locked_until IS NULL OR locked_until < ?)
		RETURNING id, kind, payload, run_at, attempts, max_attempts, last_error`,
		[]any{now + lease.Microseconds(), now, now, now}, &j.ID, &j.Kind, &j.Payload, &runAt, &j.Attempts, &j.MaxAttempts, &j.LastError)
	if err != nil {
		return nil, notFound(err, "claim job", "no job is due")
	}
	j.RunAt = fromMicros(runAt)
	return &j, nil
}

// FinishJob records that a job is done. Its payload, which may hold what
// a user sent (an import's URL or data), is not kept.
func FinishJob(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `UPDATE jobs SET done_at = ?, locked_until = NULL, payload = '{}' WHERE id = ?`, micros(t.Now), id)
	return wrap(err, "finish job")
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
	return wrap(err, "fail job")
}
