-- +goose Up
-- Translations of spaces, the source of each page they translated last
-- (so that later runs translate only what changed), and the glossary.
CREATE TABLE translations (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source_space    TEXT NOT NULL,
    source_language TEXT NOT NULL,
    language        TEXT NOT NULL,
    instructions    TEXT NOT NULL DEFAULT '',
    result_space    TEXT NOT NULL DEFAULT '',
    result_revision TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL,
    stats           TEXT NOT NULL,
    last_error      TEXT NOT NULL DEFAULT '',
    last_run_at     BIGINT,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX translations_org ON translations (organization_id, created_at, id);

CREATE TABLE translation_pages (
    translation_id TEXT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    page_id        TEXT NOT NULL,
    source_key     TEXT NOT NULL,
    PRIMARY KEY (translation_id, page_id)
);

CREATE TABLE glossary_entries (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    translations    TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX glossary_entries_org ON glossary_entries (organization_id, created_at, id);

-- +goose Down
DROP TABLE glossary_entries;
DROP TABLE translation_pages;
DROP TABLE translations;
