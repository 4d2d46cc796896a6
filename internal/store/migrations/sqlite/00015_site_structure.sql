-- +goose Up
-- Section groups nest through parent_id (NULL at the site's root). Groups
-- and sections share one ordering among the children of a parent: position.
CREATE TABLE site_section_groups (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    parent_id  TEXT REFERENCES site_section_groups (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    icon       TEXT,
    position   BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups (site_id, parent_id, position);

-- Sections of a site; their site spaces name them in site_spaces.section_id.
-- group_id is NULL at the site's root. The site's default section is
-- sites.default_site_section. Paths are unique in the site.
CREATE TABLE site_sections (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id    TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title       TEXT NOT NULL,
    path        TEXT NOT NULL,
    icon        TEXT,
    description TEXT,
    condition   TEXT,
    position    BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    UNIQUE (site_id, path)
);
CREATE INDEX site_sections_site ON site_sections (site_id, group_id, position);

-- Paths of site spaces are unique among siblings: the site spaces of one
-- section, or of the site's root.
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, COALESCE(section_id, ''), path);

-- The adaptive-content schema of a site, as validated JSON.
CREATE TABLE site_adaptive_schemas (
    site_id     TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    json_schema TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE site_adaptive_schemas;
DROP INDEX site_spaces_path;
DROP TABLE site_sections;
DROP TABLE site_section_groups;
