-- +goose Up
-- The client address of the request that made an audit entry (behind
-- trusted proxies, the forwarded one; docs/operations.md).
ALTER TABLE audit_log ADD COLUMN address TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE audit_log DROP COLUMN address;
