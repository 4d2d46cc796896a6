-- +goose Up
-- The web application's sign-in (internal/web, docs/decisions.md "Web app
-- sign-in"). Passwords are argon2id hashes whose parameters are part of the
-- stored string. Sessions and one-time sign-in links are kept by the SHA-256
-- of their secret, so a copy of the database signs no one in; several
-- servers share them.
CREATE TABLE user_passwords (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- organization_id confines a session to one organization (a SAML sign-in).
CREATE TABLE web_sessions (
    hash            TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    organization_id TEXT REFERENCES organizations (id) ON DELETE CASCADE,
    created_at      BIGINT NOT NULL,
    last_seen_at    BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);

CREATE TABLE sign_in_links (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE sign_in_links;
DROP TABLE web_sessions;
DROP TABLE user_passwords;
