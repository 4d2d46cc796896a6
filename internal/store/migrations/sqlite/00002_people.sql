-- +goose Up
CREATE INDEX members_org_joined ON members (organization_id, joined_at, user_id);
CREATE INDEX members_org_seen ON members (organization_id, last_seen_at, user_id);

CREATE TABLE teams (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX teams_org ON teams (organization_id, created_at, id);

-- Team members are organization members: leaving the organization leaves its teams.
CREATE TABLE team_members (
    team_id         TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('owner', 'member')),
    added_at        BIGINT NOT NULL,
    PRIMARY KEY (team_id, user_id),
    FOREIGN KEY (organization_id, user_id) REFERENCES members (organization_id, user_id) ON DELETE CASCADE
);
CREATE INDEX team_members_member ON team_members (organization_id, user_id);
CREATE INDEX team_members_team ON team_members (team_id, added_at, user_id);

-- Link invites: whoever holds the id may join with the role (NULL: guest).
CREATE TABLE invite_links (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role            TEXT,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX invite_links_org ON invite_links (organization_id, created_at, id);

CREATE TABLE saml_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    entity_id       TEXT NOT NULL DEFAULT '',
    sso_url         TEXT NOT NULL DEFAULT '',
    certificate     TEXT NOT NULL DEFAULT '',
    default_team    TEXT REFERENCES teams (id) ON DELETE SET NULL,
    default_role    TEXT,
    sp_key          TEXT NOT NULL,
    sp_cert         TEXT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers (organization_id, created_at, id);

-- Logins started at a provider and not finished yet: the RelayState names
-- the row, which holds the AuthnRequest id the response must answer. A row
-- is used once.
CREATE TABLE saml_logins (
    state       TEXT PRIMARY KEY,
    provider_id TEXT NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
    request_id  TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);

CREATE TABLE agent_instructions (
    organization_id TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    document        TEXT NOT NULL,
    updated_at      BIGINT NOT NULL,
    updated_by      TEXT NOT NULL
);

-- Server-wide secrets (signing keys), created on first use by whichever
-- server needs one first.
CREATE TABLE secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE secrets;
DROP TABLE agent_instructions;
DROP TABLE saml_logins;
DROP TABLE saml_providers;
DROP TABLE invite_links;
DROP TABLE team_members;
DROP TABLE teams;
DROP INDEX members_org_seen;
DROP INDEX members_org_joined;
