-- +goose Up
-- OpenAPI specifications of an organization and their versions. A version
-- is made when processing yields content whose hash differs from the
-- latest one; content holds the bundled files (JSON), raw the entry
-- document as fetched or given.
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT NOT NULL DEFAULT '',
    source_text       TEXT NOT NULL DEFAULT '',
    visibility        TEXT NOT NULL,
    processing_state  TEXT NOT NULL,
    last_version      TEXT NOT NULL DEFAULT '',
    last_processed_at BIGINT,
    last_error_code   TEXT NOT NULL DEFAULT '',
    last_errors       TEXT NOT NULL DEFAULT '[]',
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE UNIQUE INDEX openapi_specs_slug ON openapi_specs (organization_id, slug);
CREATE INDEX openapi_specs_source ON openapi_specs (organization_id, source_url, created_at, id);

CREATE TABLE openapi_versions (
    id         TEXT PRIMARY KEY,
    spec_id    TEXT NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    content    TEXT NOT NULL,
    raw        TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX openapi_versions_spec ON openapi_versions (spec_id, created_at, id);

-- +goose Down
DROP TABLE openapi_versions;
DROP TABLE openapi_specs;
