-- +goose Up
-- The next position at an organization's top level (store.NextPosition,
-- for every space or collection created, moved or transferred there) is
-- the last one of these indexes, instead of a walk over the organization's
-- spaces: PostgreSQL cannot read position in order after "parent_id IS
-- NULL" in the other indexes, so the condition is in the index. With id,
-- they also give a move the neighbours of its place (store.Neighbours) in
-- (position, id) order without sorting the level.
CREATE INDEX spaces_top_level ON spaces (organization_id, position, id) WHERE parent_id IS NULL AND deleted_at IS NULL;
CREATE INDEX collections_top_level ON collections (organization_id, position, id) WHERE parent_id IS NULL;

-- +goose Down
DROP INDEX collections_top_level;
DROP INDEX spaces_top_level;
