-- +goose Up
-- Sites publish spaces. hostname is unique across the server (NULL when
-- none); proxy_origin is NULL when no proxy is set. customization is the
-- site's SiteCustomizationSettings document as validated JSON, NULL for the
-- defaults.
CREATE TABLE sites (
    id                   TEXT PRIMARY KEY,
    organization_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    type                 TEXT NOT NULL,
    title                TEXT NOT NULL,
    visibility           TEXT NOT NULL,
    hostname             TEXT UNIQUE,
    basename             TEXT,
    proxy_origin         TEXT,
    published            BOOLEAN NOT NULL DEFAULT FALSE,
    agents_context       TEXT NOT NULL DEFAULT 'included',
    adaptive_content     BOOLEAN NOT NULL DEFAULT FALSE,
    default_site_section TEXT,
    customization        TEXT,
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL
);
CREATE INDEX sites_organization ON sites (organization_id, created_at, id);

-- The spaces a site publishes. section_id is NULL at the site's root; the
-- sections themselves (and the invariants between sections and their site
-- spaces) come with the site structure. is_default marks the one default
-- site space among its siblings. condition is NULL when none is set;
-- customization holds the site space's overrides of the site's
-- customization (a JSON merge patch), NULL when none.
CREATE TABLE site_spaces (
    id            TEXT PRIMARY KEY,
    site_id       TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    space_id      TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    section_id    TEXT,
    path          TEXT NOT NULL,
    position      BIGINT NOT NULL,
    is_default    BOOLEAN NOT NULL DEFAULT FALSE,
    hidden        BOOLEAN NOT NULL DEFAULT FALSE,
    condition     TEXT,
    customization TEXT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX site_spaces_site ON site_spaces (site_id, section_id, position, id);
CREATE INDEX site_spaces_space ON site_spaces (space_id);

-- Share links of share-link sites. The key is kept as is: the reference
-- returns it on every read, inside the link's published URL.
CREATE TABLE site_share_links (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    share_key  TEXT NOT NULL UNIQUE,
    active     BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);

-- Redirects of old paths of a site to its content. destination is the
-- reference's SiteRedirectDestination, as JSON.
CREATE TABLE site_redirects (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    source      TEXT NOT NULL,
    destination TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (site_id, source)
);

-- +goose Down
DROP TABLE site_redirects;
DROP TABLE site_share_links;
DROP TABLE site_spaces;
DROP TABLE sites;
