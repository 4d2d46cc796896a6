-- +goose Up
-- The visitor authentication of a site (publishing/auth): the key that signs
-- its visitors' JWTs, sealed with the server key (internal/seal), never
-- stored in clear. key_id names the current key, which site API tokens
-- issued for a visitor carry: regenerating the key closes them at once.
CREATE TABLE site_publishing_auth (
    site_id      TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    backend      TEXT NOT NULL,
    sealed_key   TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    fallback_url TEXT,
    updated_at   BIGINT NOT NULL
);

-- +goose Down
DROP TABLE site_publishing_auth;
