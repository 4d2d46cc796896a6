-- +goose Up
-- PostgreSQL bounds its GIN pending lists in this version; SQLite's FTS5
-- indexes have no such list (their segments are merged by
-- store.MergeContentIndex).
SELECT 1;

-- +goose Down
SELECT 1;
