-- +goose Up
-- Content-addressed, immutable objects of revisions (docs/content-design.md):
-- documents, page nodes, child chunks, trees and file lists, by the hex
-- SHA-256 of their canonical encoding.
CREATE TABLE objects (
    hash       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Immutable snapshots of a space's content; parents is a JSON array of ids.
CREATE TABLE revisions (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    tree_hash  TEXT NOT NULL,
    parents    TEXT NOT NULL DEFAULT '[]',
    type       TEXT NOT NULL,
    git        TEXT,
    created_by TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX revisions_space ON revisions (space_id, created_at, id);

-- +goose Down
DROP TABLE revisions;
DROP TABLE objects;
