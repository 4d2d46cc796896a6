-- +goose Up
-- Durable background work: a job runs at or after run_at, on whichever
-- server claims it first; a claim expires, so a job of a server that died
-- runs again elsewhere.
CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    run_at       BIGINT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 10,
    locked_until BIGINT,
    last_error   TEXT NOT NULL DEFAULT '',
    done_at      BIGINT,
    created_at   BIGINT NOT NULL
);
CREATE INDEX jobs_due ON jobs (done_at, run_at);

-- +goose Down
DROP TABLE jobs;
