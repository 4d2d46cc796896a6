-- +goose Up
-- A space's connection to a git repository (never its credentials) and
-- how far syncing got: the newest trigger timestamp processed, and the
-- commit and revision that were equal at the last sync (the base that
-- tells whether both sides changed since).
CREATE TABLE git_syncs (
    space_id       TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    ref            TEXT NOT NULL,
    project_dir    TEXT NOT NULL DEFAULT '',
    provider       TEXT NOT NULL DEFAULT '',
    tree_url       TEXT NOT NULL DEFAULT '',
    commit_url     TEXT NOT NULL DEFAULT '',
    repo_cache_id  TEXT NOT NULL DEFAULT '',
    last_event_at  BIGINT,
    last_commit    TEXT NOT NULL DEFAULT '',
    last_revision  TEXT NOT NULL DEFAULT '',
    config         TEXT NOT NULL DEFAULT '',
    deleted        BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at     BIGINT NOT NULL
);

-- The space's Git info as its reads show it (Space.gitSync), kept beside
-- the space's other columns so that space reads need no join.
ALTER TABLE spaces ADD COLUMN git_sync TEXT;

-- One row per import or export. credentials holds the URL's user
-- information sealed with the server key while the operation waits to
-- run, and is cleared when it ends.
CREATE TABLE git_operations (
    id             TEXT PRIMARY KEY,
    space_id       TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    direction      TEXT NOT NULL,
    state          TEXT NOT NULL,
    stage          TEXT NOT NULL DEFAULT '',
    url            TEXT NOT NULL,
    ref            TEXT NOT NULL,
    params         TEXT NOT NULL,
    credentials    TEXT NOT NULL DEFAULT '',
    event_at       BIGINT NOT NULL,
    force          BOOLEAN NOT NULL DEFAULT FALSE,
    standalone     BOOLEAN NOT NULL DEFAULT FALSE,
    outcome        TEXT NOT NULL DEFAULT '',
    commit_oid     TEXT NOT NULL DEFAULT '',
    revision_id    TEXT NOT NULL DEFAULT '',
    change_request TEXT NOT NULL DEFAULT '',
    error          TEXT NOT NULL DEFAULT '',
    created_by     TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    started_at     BIGINT,
    updated_at     BIGINT NOT NULL,
    completed_at   BIGINT
);
CREATE INDEX git_operations_space ON git_operations (space_id, created_at, id);

-- The internal event log: what happened, for integrations to subscribe
-- to (deliveries come with integrations). Events are written in the
-- transaction of the change they describe.
CREATE TABLE events (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    space_id        TEXT NOT NULL DEFAULT '',
    type            TEXT NOT NULL,
    payload         TEXT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX events_space ON events (space_id, created_at, id);
CREATE INDEX events_organization ON events (organization_id, created_at, id);

-- +goose Down
DROP TABLE events;
DROP TABLE git_operations;
ALTER TABLE spaces DROP COLUMN git_sync;
DROP TABLE git_syncs;
