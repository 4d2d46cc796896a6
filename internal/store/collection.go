package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/foliodocs/folio"
)

const collectionColumns = `c.id, c.organization_id, c.parent_id, c.title, c.description, c.default_level, c.position,
	c.created_at, c.updated_at`

func scanCollection(rows *sql.Rows, c *folio.Collection) error {
	var (
		parent           sql.NullString
		level            string
		created, updated int64
	)
	err := rows.Scan(&c.ID, &c.OrganizationID, &parent, &c.Title, &c.Description, &level, &c.Position, &created, &updated)
	c.Parent, c.DefaultLevel = parent.String, folio.LevelFromString(level)
	c.CreatedAt, c.UpdatedAt = fromMicros(created), fromMicros(updated)
	return err
}

// CreateCollection inserts a collection at the end of its parent.
func CreateCollection(ctx context.Context, t *Tx, c *folio.Collection) error {
	pos, err := nextPosition(ctx, t, c.OrganizationID, c.Parent)
	if err != nil {
		return err
	}
	c.Position = pos
	_, err = t.exec(ctx, `INSERT INTO collections (id, organization_id, parent_id, title, description, default_level, position,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.OrganizationID, nullString(c.Parent), c.Title,
		c.Description, c.DefaultLevel.String(), c.Position, micros(c.CreatedAt), micros(c.UpdatedAt))
	return wrap(err, "create collection")
}

// GetCollection returns a collection, or NotFound.
func GetCollection(ctx context.Context, t *Tx, id folio.ID) (*folio.Collection, error) {
	var c folio.Collection
	err := t.one(ctx, `SELECT `+collectionColumns+` FROM collections c WHERE c.id = ?`, []any{id},
		func(r *sql.Rows) error { return scanCollection(r, &c) })
	if err != nil {
		return nil, notFound(err, "get collection", "collection not found")
	}
	return &c, nil
}

// CollectionUpdate is a validated PATCH of a collection.
type CollectionUpdate struct {
	Title, Description *string
	DefaultLevel       *folio.Level
}

// UpdateCollection writes the fields present in u and the update time.
func UpdateCollection(ctx context.Context, t *Tx, id folio.ID, u CollectionUpdate) error {
	sets := []string{"updated_at = ?"}
	args := []any{micros(t.Now)}
	if u.Title != nil {
		sets, args = append(sets, "title = ?"), append(args, *u.Title)
	}
	if u.Description != nil {
		sets, args = append(sets, "description = ?"), append(args, *u.Description)
	}
	if u.DefaultLevel != nil {
		sets, args = append(sets, "default_level = ?"), append(args, u.DefaultLevel.String())
	}
	_, err := t.exec(ctx, `UPDATE collections SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...)
	return wrap(err, "update collection")
}
