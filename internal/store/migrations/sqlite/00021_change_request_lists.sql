-- +goose Up
-- Change request lists filter by status (and by space, or by the spaces of
-- an organization) and read newest first by (created_at, id): these
-- indexes give that order without sorting every change request of the
-- space or of the organization.
CREATE INDEX change_requests_space_created ON change_requests (space_id, status, created_at, id);
CREATE INDEX change_requests_status_created ON change_requests (status, created_at, id);

-- +goose Down
DROP INDEX change_requests_status_created;
DROP INDEX change_requests_space_created;
