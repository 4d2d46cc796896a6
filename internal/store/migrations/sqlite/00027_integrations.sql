-- +goose Up
-- Published integrations: the manifest, the script, asset names (the files
-- are in the blob store) and the secrets sealed with the server key.
CREATE TABLE integrations (
    name            TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    version         INTEGER NOT NULL,
    runtime         TEXT NOT NULL,
    title           TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    summary         TEXT NOT NULL DEFAULT '',
    visibility      TEXT NOT NULL,
    target          TEXT NOT NULL,
    scopes          TEXT NOT NULL DEFAULT '[]',
    categories      TEXT NOT NULL DEFAULT '[]',
    blocks          TEXT NOT NULL DEFAULT '[]',
    content_sources TEXT NOT NULL DEFAULT '[]',
    configurations  TEXT NOT NULL DEFAULT '{}',
    external_links  TEXT NOT NULL DEFAULT '[]',
    csp             TEXT,
    script          TEXT NOT NULL DEFAULT '',
    icon            TEXT NOT NULL DEFAULT '',
    preview_images  TEXT NOT NULL DEFAULT '[]',
    secrets         TEXT NOT NULL DEFAULT '',
    dev_tunnel_url  TEXT NOT NULL DEFAULT '',
    dev_all         BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX integrations_organization ON integrations (organization_id);
CREATE INDEX integrations_visibility ON integrations (visibility, name);

-- Installations of an integration on an organization, and on its spaces
-- and sites.
CREATE TABLE integration_installations (
    id               TEXT PRIMARY KEY,
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    space_selection  TEXT NOT NULL,
    site_selection   TEXT NOT NULL,
    configuration    TEXT NOT NULL DEFAULT '{}',
    external_ids     TEXT NOT NULL DEFAULT '[]',
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    UNIQUE (integration_name, organization_id)
);
CREATE INDEX integration_installations_organization ON integration_installations (organization_id, created_at, id);

CREATE TABLE integration_target_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL, -- space or site
    target_id       TEXT NOT NULL,
    status          TEXT NOT NULL,
    configuration   TEXT NOT NULL DEFAULT '{}',
    external_ids    TEXT NOT NULL DEFAULT '[]',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (installation_id, kind, target_id)
);
CREATE INDEX integration_target_installations_target ON integration_target_installations (kind, target_id);

-- Integration events: what an installation was told, its status and the
-- trace of its delivery (log entries as JSON).
CREATE TABLE integration_events (
    id               TEXT PRIMARY KEY,
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    installation_id  TEXT NOT NULL DEFAULT '',
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,
    status           TEXT NOT NULL,
    logs             TEXT NOT NULL DEFAULT '[]',
    attempts         INTEGER NOT NULL DEFAULT 0,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX integration_events_integration ON integration_events (integration_name, created_at, id);

-- +goose Down
DROP TABLE integration_events;
DROP TABLE integration_target_installations;
DROP TABLE integration_installations;
DROP TABLE integrations;
