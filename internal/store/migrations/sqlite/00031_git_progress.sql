-- +goose Up
-- Progress of a running git operation (issue 24): the files it has to read
-- and has read so far, so getSpaceGitInfo shows a long import advancing.
ALTER TABLE git_operations ADD COLUMN tasks_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE git_operations ADD COLUMN tasks_total INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE git_operations DROP COLUMN tasks_total;
ALTER TABLE git_operations DROP COLUMN tasks_done;
