-- +goose Up
-- A space's git sync keeps the credentials of its repository (issue 28,
-- part 2): the user information of the URL, sealed with the server key
-- under a context bound to the space and the URL (never in clear), used by
-- the next operations on the same URL that give none. NULL: none kept.
ALTER TABLE git_syncs ADD COLUMN credentials TEXT;

-- +goose Down
ALTER TABLE git_syncs DROP COLUMN credentials;
