-- +goose Up
-- Times are microseconds since the Unix epoch (UTC) in both dialects.
CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    display_name   TEXT NOT NULL,
    photo_url      TEXT NOT NULL DEFAULT '',
    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     BIGINT NOT NULL
);

CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    hash         TEXT NOT NULL UNIQUE,
    label        TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at, id);

CREATE TABLE organizations (
    id              TEXT PRIMARY KEY,
    title           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    email_domains   TEXT NOT NULL DEFAULT '[]',
    hostname        TEXT UNIQUE,
    type            TEXT NOT NULL,
    use_case        TEXT NOT NULL DEFAULT '',
    community_type  TEXT NOT NULL DEFAULT '',
    default_role    TEXT,
    default_content TEXT,
    logo            TEXT NOT NULL DEFAULT '',
    sso             BOOLEAN NOT NULL DEFAULT FALSE,
    ai              BOOLEAN NOT NULL DEFAULT FALSE,
    invite_links    BOOLEAN NOT NULL DEFAULT TRUE,
    merge_rules     TEXT NOT NULL
);
CREATE INDEX organizations_created ON organizations (created_at, id);

-- A member row with a NULL role is a guest.
CREATE TABLE members (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT,
    joined_at       BIGINT NOT NULL,
    last_seen_at    BIGINT,
    sso             BOOLEAN NOT NULL DEFAULT FALSE,
    disabled        BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

-- One row once the first admin has been created, so that two servers
-- starting together on an empty database bootstrap it once.
CREATE TABLE instance (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    bootstrapped_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE instance;
DROP TABLE members;
DROP TABLE organizations;
DROP TABLE api_tokens;
DROP TABLE users;
