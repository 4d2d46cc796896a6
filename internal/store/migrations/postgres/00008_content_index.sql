-- +goose Up
-- Indexes of each space's current revision (docs/content-design.md), kept
-- up to date from the diff when a revision becomes current.

-- One row per section of each indexed page. tsv weighs the page title A, the
-- section title B and the body D, over search.IndexText's terms. The page
-- title is on the page's first section (ord 0) only.
CREATE TABLE search_sections (
    id         BIGSERIAL PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id    TEXT NOT NULL,
    section_id TEXT NOT NULL,
    ord        INTEGER NOT NULL,
    page_title TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    tsv        TSVECTOR NOT NULL,
    title_tsv  TSVECTOR NOT NULL
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);
CREATE INDEX search_sections_tsv ON search_sections USING GIN (tsv);
-- The titles alone, so that title matches of common words are found without
-- reading every section that holds them.
CREATE INDEX search_sections_title_tsv ON search_sections USING GIN (title_tsv);

-- Every content reference and URL of each page, in document order. target_space
-- is the referenced space, the page's own space when the reference names none.
CREATE TABLE content_links (
    space_id     TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id      TEXT NOT NULL,
    ord          INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    target_space TEXT NOT NULL DEFAULT '',
    target_page  TEXT NOT NULL DEFAULT '',
    target_file  TEXT NOT NULL DEFAULT '',
    target_key   TEXT NOT NULL,
    relation     TEXT NOT NULL,
    ref          TEXT NOT NULL,
    PRIMARY KEY (space_id, page_id, ord)
);
CREATE INDEX content_links_page_target ON content_links (target_space, target_page) WHERE target_page <> '';
CREATE INDEX content_links_file_target ON content_links (target_space, target_file) WHERE target_file <> '';

-- +goose Down
DROP TABLE content_links;
DROP TABLE search_sections;
