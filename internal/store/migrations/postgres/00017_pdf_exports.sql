-- +goose Up
-- PDF exports of revisions: one row per (space, revision, variant), where
-- the variant names what was printed (whole space, a page and its
-- subpages, one page alone, in a change request or not). The PDF itself
-- is in the blob store; status is pending, done or failed.
CREATE TABLE pdf_exports (
    space_id    TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    revision_id TEXT NOT NULL,
    variant     TEXT NOT NULL,
    status      TEXT NOT NULL,
    error       TEXT NOT NULL DEFAULT '',
    size        BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (space_id, revision_id, variant)
);

-- +goose Down
DROP TABLE pdf_exports;
