-- +goose Up
-- Comments and their replies in one table: a reply has parent_id set. A
-- comment on a change request has change_request_id set; NULL is the
-- space's main content. page_title and page_path keep what the target page
-- was called when the comment was posted, for when a later revision
-- removes it. status is 'open' or 'resolved' (replies stay 'open'). A
-- comment posted with a review of its change request has review_id set.
CREATE TABLE comments (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT REFERENCES change_requests (id) ON DELETE CASCADE,
    parent_id         TEXT REFERENCES comments (id) ON DELETE CASCADE,
    review_id         TEXT REFERENCES change_request_reviews (id) ON DELETE CASCADE,
    author_id         TEXT NOT NULL REFERENCES users (id),
    body              TEXT NOT NULL,
    revision          TEXT NOT NULL,
    node_id           TEXT NOT NULL DEFAULT '',
    page_id           TEXT NOT NULL DEFAULT '',
    page_title        TEXT NOT NULL DEFAULT '',
    page_path         TEXT NOT NULL DEFAULT '',
    table_record      TEXT NOT NULL DEFAULT '',
    table_definition  TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL DEFAULT 'open',
    resolved_at       BIGINT,
    resolved_by       TEXT,
    posted_at         BIGINT NOT NULL,
    edited_at         BIGINT
);
CREATE INDEX comments_space ON comments (space_id, change_request_id, posted_at, id) WHERE parent_id IS NULL;
CREATE INDEX comments_change_request ON comments (change_request_id, status) WHERE parent_id IS NULL;
CREATE INDEX comments_open ON comments (space_id, status) WHERE parent_id IS NULL;
CREATE INDEX comments_parent ON comments (parent_id, posted_at, id);
CREATE INDEX comments_review ON comments (review_id) WHERE review_id IS NOT NULL;

-- One row per user and emoji on a comment or reply.
CREATE TABLE comment_reactions (
    comment_id TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    emoji      TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    reacted_at BIGINT NOT NULL,
    PRIMARY KEY (comment_id, emoji, user_id)
);

-- +goose Down
DROP TABLE comment_reactions;
DROP TABLE comments;
