-- +goose Up
-- The audit log: administrative changes, written in their transaction.
CREATE TABLE audit_log (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    actor           TEXT NOT NULL,
    action          TEXT NOT NULL,
    target_type     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    fields          TEXT NOT NULL DEFAULT '{}',
    request_id      TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL
);
CREATE INDEX audit_log_organization ON audit_log (organization_id, created_at, id);
CREATE INDEX audit_log_created ON audit_log (created_at);

-- +goose Down
DROP TABLE audit_log;
