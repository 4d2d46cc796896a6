-- +goose Up
-- Indexes of each space's current revision (docs/content-design.md), kept
-- up to date from the diff when a revision becomes current.

-- One row per section of each indexed page; search_fts indexes them. The
-- page title is on the page's first section (ord 0) only. Prefixes of 2 to
-- 4 characters are indexed, so that searching as one types does not merge
-- the lists of every word sharing a short prefix.
CREATE TABLE search_sections (
    id         INTEGER PRIMARY KEY,
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id    TEXT NOT NULL,
    section_id TEXT NOT NULL,
    ord        INTEGER NOT NULL,
    page_title TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);

CREATE VIRTUAL TABLE search_fts USING fts5(
    page_title, title, body,
    content = 'search_sections', content_rowid = 'id',
    prefix = '2 3 4',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- The titles alone, so that title matches of common words are found
-- without reading every section that holds them.
CREATE VIRTUAL TABLE search_titles USING fts5(
    page_title, title,
    content = 'search_sections', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Merge index segments in larger, rarer steps than the default (4): each
-- commit then spends less time merging, for slightly more segments to read.
INSERT INTO search_fts (search_fts, rank) VALUES ('automerge', 8);

-- +goose StatementBegin
CREATE TRIGGER search_sections_insert AFTER INSERT ON search_sections BEGIN
    INSERT INTO search_fts (rowid, page_title, title, body) VALUES (new.id, new.page_title, new.title, new.body);
    INSERT INTO search_titles (rowid, page_title, title) VALUES (new.id, new.page_title, new.title);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_sections_delete AFTER DELETE ON search_sections BEGIN
    INSERT INTO search_fts (search_fts, rowid, page_title, title, body)
    VALUES ('delete', old.id, old.page_title, old.title, old.body);
    INSERT INTO search_titles (search_titles, rowid, page_title, title) VALUES ('delete', old.id, old.page_title, old.title);
END;
-- +goose StatementEnd

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
DROP TRIGGER search_sections_delete;
DROP TRIGGER search_sections_insert;
DROP TABLE search_titles;
DROP TABLE search_fts;
DROP TABLE search_sections;
