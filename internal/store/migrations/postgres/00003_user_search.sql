-- +goose Up
-- SQLite adds a trigram index of user names and emails in this version;
-- PostgreSQL searches them with ILIKE and needs nothing. The migration keeps
-- both stores at the same version number.
SELECT 1;

-- +goose Down
SELECT 1;
