-- +goose Up
-- A trigram index of user names and emails, so that searching members for
-- a substring does not read every row. PostgreSQL searches with ILIKE.
CREATE VIRTUAL TABLE users_search USING fts5(user_id UNINDEXED, display_name, email, tokenize = 'trigram');
INSERT INTO users_search (user_id, display_name, email) SELECT id, display_name, email FROM users;

-- +goose StatementBegin
CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_search (user_id, display_name, email) VALUES (new.id, new.display_name, new.email);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER users_search_update AFTER UPDATE OF display_name, email ON users
WHEN old.display_name IS NOT new.display_name OR old.email IS NOT new.email BEGIN
    DELETE FROM users_search WHERE user_id = old.id;
    INSERT INTO users_search (user_id, display_name, email) VALUES (new.id, new.display_name, new.email);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
    DELETE FROM users_search WHERE user_id = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER users_search_delete;
DROP TRIGGER users_search_update;
DROP TRIGGER users_search_insert;
DROP TABLE users_search;
