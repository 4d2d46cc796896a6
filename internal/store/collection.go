package store

import (
	"context"
	"database/sql"
	"strconv"
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
	pos, err := NextPosition(ctx, t, c.OrganizationID, c.Parent)
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

// Sibling is a space or collection among the children of one parent.
type Sibling struct {
	Kind     string // "space" or "collection"
	ID       folio.ID
	Position int64
}

// Siblings lists the spaces (not deleted) and collections directly in a
// parent collection, or at an organization's top level when parent is
// empty, in their order.
func Siblings(ctx context.Context, t *Tx, orgID, parent folio.ID) ([]Sibling, error) {
	cond, args := siblingCond(orgID, parent)
	var out []Sibling
	err := t.query(ctx, `SELECT 'space', id, position FROM spaces WHERE `+cond+` AND deleted_at IS NULL
		UNION ALL SELECT 'collection', id, position FROM collections WHERE `+cond+` ORDER BY 3, 2`,
		append(args, args...), func(r *sql.Rows) error {
			var s Sibling
			err := r.Scan(&s.Kind, &s.ID, &s.Position)
			out = append(out, s)
			return err
		})
	return out, wrap(err, "list siblings")
}

// Before reports whether s comes before o in their parent's order.
func (s Sibling) Before(o Sibling) bool {
	return s.Position < o.Position || s.Position == o.Position && s.ID < o.ID
}

// siblingCond is the condition on the rows of one parent (or of the top
// level) of an organization, with its arguments.
func siblingCond(orgID, parent folio.ID) (string, []any) {
	if parent == "" {
		return `parent_id IS NULL AND organization_id = ?`, []any{orgID}
	}
	return `parent_id = ? AND organization_id = ?`, []any{parent, orgID}
}

// GetSibling returns a space (not deleted) or collection (kind) directly in
// a parent, or NotFound.
func GetSibling(ctx context.Context, t *Tx, orgID, parent folio.ID, kind string, id folio.ID) (Sibling, error) {
	cond, args := siblingCond(orgID, parent)
	q := `SELECT position FROM collections WHERE id = ? AND ` + cond
	if kind == "space" {
		q = `SELECT position FROM spaces WHERE id = ? AND deleted_at IS NULL AND ` + cond
	}
	s := Sibling{Kind: kind, ID: id}
	if err := t.one(ctx, q, append([]any{id}, args...), func(r *sql.Rows) error { return r.Scan(&s.Position) }); err != nil {
		return s, notFound(err, "get sibling", kind+" not found in that parent")
	}
	return s, nil
}

// Neighbour returns the sibling right before (below) or right after the
// place (position, id) in a parent's order, leaving out the item exclude,
// in a few index steps whatever the number of siblings; false when there
// is none.
func Neighbour(ctx context.Context, t *Tx, orgID, parent folio.ID, position int64, id folio.ID, below bool, exclude folio.ID) (Sibling, bool, error) {
	s, err := Neighbours(ctx, t, orgID, parent, position, id, below, exclude, 1)
	if err != nil || len(s) == 0 {
		return Sibling{}, false, err
	}
	return s[0], true, nil
}

// Neighbours returns up to n siblings from the place (position, id) down
// (below) or up, nearest first, leaving out the item exclude.
func Neighbours(ctx context.Context, t *Tx, orgID, parent folio.ID, position int64, id folio.ID, below bool, exclude folio.ID, n int) ([]Sibling, error) {
	cond, args := siblingCond(orgID, parent)
	// The limit is part of the text, not an argument: PostgreSQL's generic
	// plan for a prepared statement would not know it is small, and sort
	// the whole level instead of reading the index in order.
	limit := ` LIMIT ` + strconv.Itoa(n)
	cmp, order := `position >= ? AND (position > ? OR id > ?)`, ` ORDER BY position, id`+limit
	if below {
		cmp, order = `position <= ? AND (position < ? OR id < ?)`, ` ORDER BY position DESC, id DESC`+limit
	}
	where := cond + ` AND ` + cmp + ` AND id <> ?`
	branch := append(append([]any{}, args...), position, position, id, exclude)
	out := make([]Sibling, 0, n)
	err := t.query(ctx, `SELECT kind, id, position FROM (
		SELECT * FROM (SELECT 'space' AS kind, id, position FROM spaces WHERE deleted_at IS NULL AND `+where+order+`) a
		UNION ALL
		SELECT * FROM (SELECT 'collection' AS kind, id, position FROM collections WHERE `+where+order+`) b) n`+order,
		append(branch, branch...), func(r *sql.Rows) error {
			var s Sibling
			err := r.Scan(&s.Kind, &s.ID, &s.Position)
			out = append(out, s)
			return err
		})
	return out, wrap(err, "find neighbours")
}

// Place sets the organization, parent and position of a space or collection.
func Place(ctx context.Context, t *Tx, kind string, id, orgID, parent folio.ID, position int64) error {
	table := "spaces"
	if kind == "collection" {
		table = "collections"
	}
	_, err := t.exec(ctx, `UPDATE `+table+` SET organization_id = ?, parent_id = ?, position = ?, updated_at = ? WHERE id = ?`,
		orgID, nullString(parent), position, micros(t.Now), id)
	return wrap(err, "place "+kind)
}

// RevokeGrantsOn deletes every grant on the given spaces and collections.
func RevokeGrantsOn(ctx context.Context, t *Tx, ids []folio.ID) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := inList(t, ids)
	_, err := t.once().exec(ctx, `DELETE FROM content_grants WHERE target_id IN `+in, args...)
	return wrap(err, "revoke grants")
}

// SpacesIn returns the ids of the spaces (deleted ones included) directly in
// the given collections.
func SpacesIn(ctx context.Context, t *Tx, collections []folio.ID) ([]folio.ID, error) {
	if len(collections) == 0 {
		return nil, nil
	}
	var ids []folio.ID
	in, args := inList(t, collections)
	err := t.once().query(ctx, `SELECT id FROM spaces WHERE parent_id IN `+in, args,
		func(r *sql.Rows) error {
			var id folio.ID
			err := r.Scan(&id)
			ids = append(ids, id)
			return err
		})
	return ids, wrap(err, "list spaces in collections")
}

// CollectionDescendants returns the ids of the collections of an
// organization below a collection, at any depth. A loop of parents ends:
// each collection comes once.
func CollectionDescendants(ctx context.Context, t *Tx, orgID, id folio.ID) ([]folio.ID, error) {
	var ids []folio.ID
	err := t.query(ctx, `WITH RECURSIVE below (id) AS (
		SELECT c.id FROM collections c WHERE c.parent_id = ? AND c.organization_id = ?
		UNION
		SELECT c.id FROM below JOIN collections c ON c.parent_id = below.id WHERE c.organization_id = ?
	) SELECT id FROM below`, []any{id, orgID, orgID}, func(r *sql.Rows) error {
		var c folio.ID
		if err := r.Scan(&c); err != nil {
			return err
		}
		if c != id {
			ids = append(ids, c)
		}
		return nil
	})
	return ids, wrap(err, "list collection descendants")
}

// CollectionHeight returns how many levels of collections hang below a
// collection (0 when it holds none), counting at most MaxCollectionChain:
// a move must keep its deepest descendant within the chains that decide
// roles. A loop of parents ends at the bound.
func CollectionHeight(ctx context.Context, t *Tx, orgID, id folio.ID) (int, error) {
	var h int
	err := t.get(ctx, `WITH RECURSIVE below (id, depth) AS (
		SELECT c.id, 1 FROM collections c WHERE c.parent_id = ? AND c.organization_id = ?
		UNION ALL
		SELECT c.id, below.depth + 1 FROM below JOIN collections c ON c.parent_id = below.id
		WHERE c.organization_id = ? AND below.depth < ?
	) SELECT COALESCE(MAX(depth), 0) FROM below`, []any{id, orgID, orgID, MaxCollectionChain}, &h)
	return h, wrap(err, "collection height")
}

// SetOrganization moves spaces or collections (kind) to another organization
// without changing their parent.
func SetOrganization(ctx context.Context, t *Tx, kind string, ids []folio.ID, orgID folio.ID) error {
	if len(ids) == 0 {
		return nil
	}
	table := "spaces"
	if kind == "collection" {
		table = "collections"
	}
	in, args := inList(t, ids)
	_, err := t.once().exec(ctx, `UPDATE `+table+` SET organization_id = ?, updated_at = ? WHERE id IN `+in,
		append([]any{orgID, micros(t.Now)}, args...)...)
	return wrap(err, "move "+kind+"s")
}

// DeleteCollection deletes a collection, which must have no children left.
func DeleteCollection(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM collections WHERE id = ?`, id)
	if err != nil {
		return wrap(err, "delete collection")
	}
	_, err = t.exec(ctx, `DELETE FROM content_grants WHERE target_id = ?`, id)
	return wrap(err, "delete collection grants")
}

// ReparentChildren moves every child (spaces, deleted ones included, and
// collections) of a collection to newParent, keeping their order after the
// positions from base on.
func ReparentChildren(ctx context.Context, t *Tx, id, newParent folio.ID, base int64) error {
	for _, table := range []string{"spaces", "collections"} {
		_, err := t.exec(ctx, `UPDATE `+table+` SET parent_id = ?, position = position + ?, updated_at = ? WHERE parent_id = ?`,
			nullString(newParent), base, micros(t.Now), id)
		if err != nil {
			return wrap(err, "reparent "+table)
		}
	}
	return nil
}
