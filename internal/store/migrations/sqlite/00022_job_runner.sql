-- +goose Up
-- What the job runner needs beyond a queue: a concurrency key (jobs that
-- share one run one at a time, across servers: a space's git syncs, say),
-- cancellation, and durable schedules.
ALTER TABLE jobs ADD COLUMN concurrency_key TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN cancel_requested_at BIGINT;
ALTER TABLE jobs ADD COLUMN started_at BIGINT;
CREATE INDEX jobs_concurrency_key ON jobs (concurrency_key, created_at, id) WHERE done_at IS NULL AND concurrency_key <> '';

-- job_keys holds the key of each running keyed job: its primary key is the
-- lock two servers race for, and it expires with the job's lease.
CREATE TABLE job_keys (
    key          TEXT PRIMARY KEY,
    job_id       TEXT NOT NULL,
    locked_until BIGINT NOT NULL
);

-- A schedule enqueues a job of its kind every interval; next_run_at moves
-- forward in the same transaction as the enqueue, so one server enqueues
-- each run.
CREATE TABLE job_schedules (
    name        TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    every_us    BIGINT NOT NULL,
    next_run_at BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE job_schedules;
DROP TABLE job_keys;
DROP INDEX jobs_concurrency_key;
ALTER TABLE jobs DROP COLUMN started_at;
ALTER TABLE jobs DROP COLUMN cancel_requested_at;
ALTER TABLE jobs DROP COLUMN concurrency_key;
