-- +goose Up
-- Change requests: branches of a space's content (docs/content-design.md).
-- number is allocated from the space's counter, incremented in the creating
-- transaction (UPDATE ... RETURNING locks the space's row on PostgreSQL), so
-- that servers sharing the database never hand out one number twice; the
-- UNIQUE constraint backs that up. Counts and "outdated" are computed from
-- these rows, never stored.
ALTER TABLE spaces ADD COLUMN change_request_counter BIGINT NOT NULL DEFAULT 0;

CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    space_id                 TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    number                   BIGINT NOT NULL,
    subject                  TEXT NOT NULL DEFAULT '',
    description              TEXT,
    status                   TEXT NOT NULL,
    created_by               TEXT NOT NULL,
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL,
    revision_initial         TEXT NOT NULL,
    revision                 TEXT NOT NULL,
    revision_merged_ancestor TEXT NOT NULL DEFAULT '',
    revision_merged          TEXT NOT NULL DEFAULT '',
    merged_at                BIGINT,
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_status ON change_requests (space_id, status, number);
CREATE INDEX change_requests_creator ON change_requests (created_by);
CREATE INDEX change_requests_merged ON change_requests (space_id, revision_merged);

-- Users who wrote revisions in a change request.
CREATE TABLE change_request_contributors (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL,
    first_at          BIGINT NOT NULL,
    last_at           BIGINT NOT NULL,
    revisions         BIGINT NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id);

-- Reviews submitted on a change request, each against the head of the time.
-- A review's comment is a row of comments naming it (review_id).
CREATE TABLE change_request_reviews (
    id                TEXT PRIMARY KEY,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    reviewer_id       TEXT NOT NULL,
    requested_by      TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL,
    revision          TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews (change_request_id, created_at, id);

-- Users asked to review a change request.
CREATE TABLE change_request_reviewers (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL,
    requested_by      TEXT NOT NULL,
    revision          TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_reviewers_user ON change_request_reviewers (user_id);

-- +goose Down
DROP TABLE change_request_reviewers;
DROP TABLE change_request_reviews;
DROP TABLE change_request_contributors;
DROP TABLE change_requests;
ALTER TABLE spaces DROP COLUMN change_request_counter;
