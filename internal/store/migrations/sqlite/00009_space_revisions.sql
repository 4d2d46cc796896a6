-- +goose Up
-- Spaces created before content existed point at a revision id with no row
-- behind it. Give each of them a real empty revision (the empty tree,
-- {"pages":[]}, whose hash content.TreeObjects computes), so that their
-- content reads and writes work after an upgrade.
INSERT INTO objects (hash, kind, data, created_at)
VALUES ('29f64ed45ce64c0f58391ba637c6104dbebe6477d4ada4bae8e04c0052ff33c2', 'tree', '{"pages":[]}', 0)
ON CONFLICT (hash) DO NOTHING;

INSERT INTO revisions (id, space_id, tree_hash, parents, type, created_by, created_at)
SELECT s.revision, s.id, '29f64ed45ce64c0f58391ba637c6104dbebe6477d4ada4bae8e04c0052ff33c2', '[]', 'edits', '', s.created_at
FROM spaces s
WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = s.revision);

-- +goose Down
-- Nothing to undo: the rows are valid revisions.
SELECT 1;
