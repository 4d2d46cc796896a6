-- +goose Up
-- default_level is 'inherit', a role, or 'none'. position orders siblings.
CREATE TABLE collections (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections (id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    default_level   TEXT NOT NULL DEFAULT 'inherit',
    position        BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX collections_org ON collections (organization_id, created_at, id);
CREATE INDEX collections_parent ON collections (parent_id, position, id);

CREATE TABLE spaces (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    emoji           TEXT NOT NULL DEFAULT '',
    language        TEXT NOT NULL DEFAULT '',
    edit_mode       TEXT NOT NULL DEFAULT 'live',
    default_level   TEXT NOT NULL DEFAULT 'inherit',
    merge_rules     TEXT NOT NULL,
    visibility      TEXT NOT NULL,
    revision        TEXT NOT NULL,
    position        BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    deleted_at      BIGINT
);
CREATE INDEX spaces_org ON spaces (organization_id, created_at, id);
CREATE INDEX spaces_parent ON spaces (parent_id, position, id);

-- Roles granted on a space or collection to a user or a team.
CREATE TABLE content_grants (
    target_id       TEXT NOT NULL,
    target_kind     TEXT NOT NULL CHECK (target_kind IN ('space', 'collection')),
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    principal_kind  TEXT NOT NULL CHECK (principal_kind IN ('user', 'team')),
    principal_id    TEXT NOT NULL,
    role            TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    PRIMARY KEY (target_id, principal_kind, principal_id)
);
CREATE INDEX content_grants_principal ON content_grants (organization_id, principal_kind, principal_id);

-- +goose Down
DROP TABLE content_grants;
DROP TABLE spaces;
DROP TABLE collections;
