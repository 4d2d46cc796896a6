-- +goose Up
-- OpenID Connect identity providers of organizations (docs/operations.md
-- "OpenID Connect sign-in"). client_secret is sealed with the server key
-- (package seal, context "oidc-provider:<id>"), '' when none was given.
-- scopes are the extra scopes, space-separated.
CREATE TABLE oidc_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    issuer          TEXT NOT NULL,
    client_id       TEXT NOT NULL,
    client_secret   TEXT NOT NULL DEFAULT '',
    scopes          TEXT NOT NULL DEFAULT '',
    default_role    TEXT,
    created_at      BIGINT NOT NULL
);
CREATE INDEX oidc_providers_org ON oidc_providers (organization_id, created_at, id);

-- Sign-ins started at a provider and not finished yet, by the hash of
-- their state: the nonce the id_token must carry and the PKCE verifier the
-- token request sends. A row is used once.
CREATE TABLE oidc_logins (
    state_hash  TEXT PRIMARY KEY,
    provider_id TEXT NOT NULL REFERENCES oidc_providers (id) ON DELETE CASCADE,
    nonce       TEXT NOT NULL,
    verifier    TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE oidc_logins;
DROP TABLE oidc_providers;
