-- +goose Up
-- The site content API finds a site behind a proxy by its origin (host and
-- path prefix) on each URL lookup.
CREATE INDEX sites_proxy_origin ON sites (proxy_origin);

-- +goose Down
DROP INDEX sites_proxy_origin;
