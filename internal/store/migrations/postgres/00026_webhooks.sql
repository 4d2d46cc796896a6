-- +goose Up
-- Organization webhooks (their secret sealed with the server key) and
-- their deliveries, written in the transaction of the event they carry
-- (an outbox): delivery is at least once.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    secret          TEXT NOT NULL,
    events          TEXT NOT NULL,
    active          BOOLEAN NOT NULL DEFAULT TRUE,
    disabled_reason TEXT NOT NULL DEFAULT '',
    failures        INTEGER NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (organization_id, created_at, id);

CREATE TABLE webhook_deliveries (
    id           TEXT PRIMARY KEY,
    webhook_id   TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id     TEXT NOT NULL,
    event_type   TEXT NOT NULL,
    state        TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_status  INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    last_millis  BIGINT NOT NULL DEFAULT 0,
    next_attempt BIGINT,
    created_at   BIGINT NOT NULL,
    delivered_at BIGINT
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, id);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
