-- +goose Up
-- A token issued by an organization's single sign-on works only in that
-- organization and expires; other tokens have neither (NULL).
ALTER TABLE api_tokens ADD COLUMN organization_id TEXT REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE api_tokens ADD COLUMN expires_at BIGINT;

-- Team titles folded to lower case by Folio, so that title searches ignore
-- case the same way on both stores.
ALTER TABLE teams ADD COLUMN title_folded TEXT NOT NULL DEFAULT '';
UPDATE teams SET title_folded = LOWER(title);

-- +goose Down
ALTER TABLE teams DROP COLUMN title_folded;
ALTER TABLE api_tokens DROP COLUMN expires_at;
ALTER TABLE api_tokens DROP COLUMN organization_id;
