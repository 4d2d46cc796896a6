-- +goose Up
-- Garbage collection (docs/garbage-collection.md). An object's time is now
-- the last time a writer stored or reused it, not only its first write:
-- the sweep removes an unreachable object only when that time is older
-- than its grace period, so a commit that reuses an object keeps it.
ALTER TABLE objects RENAME COLUMN created_at TO touched_at;

-- Claims on the bucket's content-addressed keys (files' bytes, integration
-- assets), the handshake between writers and the sweep: a commit claims
-- the keys it references in its transaction ('live', touched now) and
-- gives up on a key the sweep holds ('deleting'); the sweep deletes bytes
-- only under a 'deleting' claim it took from an old or absent claim, and
-- drops the claim after.
CREATE TABLE blob_claims (
    key        TEXT PRIMARY KEY,
    state      TEXT NOT NULL,
    touched_at BIGINT NOT NULL
);

-- History pruned by age.
CREATE INDEX events_created ON events (created_at);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
CREATE INDEX integration_events_created ON integration_events (created_at);

-- +goose Down
DROP TABLE blob_claims;
DROP INDEX integration_events_created;
DROP INDEX webhook_deliveries_created;
DROP INDEX events_created;
ALTER TABLE objects RENAME COLUMN touched_at TO created_at;
