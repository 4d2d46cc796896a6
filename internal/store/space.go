package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
)

const spaceColumns = `s.id, s.organization_id, s.parent_id, s.title, s.emoji, s.language, s.edit_mode, s.default_level,
	s.merge_rules, s.visibility, s.revision, s.position, s.created_at, s.updated_at, s.deleted_at, s.git_sync,
	(SELECT COUNT(*) FROM change_requests c WHERE c.space_id = s.id),
	(SELECT COUNT(*) FROM change_requests c WHERE c.space_id = s.id AND c.status = 'open'),
	(SELECT COUNT(*) FROM change_requests c WHERE c.space_id = s.id AND c.status = 'draft'),
	(SELECT COUNT(*) FROM comments c WHERE c.space_id = s.id AND c.status = 'open' AND c.parent_id IS NULL
		AND c.change_request_id IS NULL)`

func scanSpace(rows *sql.Rows, s *folio.Space) error {
	var (
		parent           sql.NullString
		level, rules     string
		created, updated int64
		deleted          sql.NullInt64
		git              sql.NullString
	)
	err := rows.Scan(&s.ID, &s.OrganizationID, &parent, &s.Title, &s.Emoji, &s.Language, &s.EditMode, &level,
		&rules, &s.Visibility, &s.Revision, &s.Position, &created, &updated, &deleted, &git,
		&s.ChangeRequests, &s.ChangeRequestsOpen, &s.ChangeRequestsDraft, &s.Comments)
	if err != nil {
		return err
	}
	s.Parent, s.DefaultLevel = parent.String, folio.LevelFromString(level)
	s.CreatedAt, s.UpdatedAt, s.DeletedAt = fromMicros(created), fromMicros(updated), nullMicros(deleted)
	if err := json.Unmarshal([]byte(rules), &s.MergeRules); err != nil {
		return fmt.Errorf("decode merge rules of space %s: %w", s.ID, err)
	}
	if git.Valid {
		s.GitSync = new(folio.GitSyncState)
		if err := json.Unmarshal([]byte(git.String), s.GitSync); err != nil {
			return fmt.Errorf("decode git sync of space %s: %w", s.ID, err)
		}
	}
	return nil
}

// CreateSpace inserts a space at the end of its parent.
func CreateSpace(ctx context.Context, t *Tx, s *folio.Space) error {
	pos, err := NextPosition(ctx, t, s.OrganizationID, s.Parent)
	if err != nil {
		return err
	}
	s.Position = pos
	_, err = t.exec(ctx, `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, language, edit_mode, default_level,
		merge_rules, visibility, revision, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.OrganizationID, nullString(s.Parent), s.Title, s.Emoji, s.Language, s.EditMode, s.DefaultLevel.String(),
		mustJSON(s.MergeRules), s.Visibility, s.Revision, s.Position, micros(s.CreatedAt), micros(s.UpdatedAt))
	return wrap(err, "create space")
}

// PositionGap spaces out sibling positions so that moves can insert
// between two siblings without renumbering the others.
const PositionGap = 1 << 16

// NextPosition returns a position after every space and collection of a
// parent (the organization's top level when parent is empty).
func NextPosition(ctx context.Context, t *Tx, orgID, parent folio.ID) (int64, error) {
	var max sql.NullInt64
	cond, args := `parent_id IS NULL AND organization_id = ?`, []any{orgID}
	if parent != "" {
		cond, args = `parent_id = ?`, []any{parent}
	}
	err := t.get(ctx, `SELECT MAX(p) FROM (SELECT MAX(position) AS p FROM spaces WHERE `+cond+` AND deleted_at IS NULL
		UNION ALL SELECT MAX(position) FROM collections WHERE `+cond+`) x`, append(args, args...), &max)
	if err != nil {
		return 0, wrap(err, "next position")
	}
	return max.Int64 + PositionGap, nil
}

// GetSpace returns a space that is not deleted, or NotFound.
func GetSpace(ctx context.Context, t *Tx, id folio.ID) (*folio.Space, error) {
	var s folio.Space
	err := t.one(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id = ? AND s.deleted_at IS NULL`, []any{id},
		func(r *sql.Rows) error { return scanSpace(r, &s) })
	if err != nil {
		return nil, notFound(err, "get space", "space not found")
	}
	return &s, nil
}

// GetSpaces returns the spaces (not deleted) with the given ids, by id, in
// one query; unknown ids are left out.
func GetSpaces(ctx context.Context, t *Tx, ids []folio.ID) (map[folio.ID]*folio.Space, error) {
	out := make(map[folio.ID]*folio.Space, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	in, args := inList(t, ids)
	// Lists of a few ids (the spaces of a site, read on every page of the
	// reader) keep their statement prepared: preparing this one took half
	// of the reader's site lookup on SQLite.
	q := t
	if len(ids) > 4 {
		q = t.once()
	}
	err := q.query(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id IN `+in+` AND s.deleted_at IS NULL`, args,
		func(r *sql.Rows) error {
			var s folio.Space
			if err := scanSpace(r, &s); err != nil {
				return err
			}
			out[s.ID] = &s
			return nil
		})
	return out, wrap(err, "get spaces")
}

// SpaceFilter narrows a space list.
type SpaceFilter struct {
	Collection folio.ID   // only the spaces of this collection, in their order
	IDs        []folio.ID // only these spaces (nil: any)
}

// ListSpaces lists the spaces of an organization that are not deleted:
// oldest first, or in their order within a collection.
func ListSpaces(ctx context.Context, t *Tx, orgID folio.ID, f SpaceFilter, opts folio.ListOptions) (folio.List[folio.Space], error) {
	where := ` WHERE s.organization_id = ? AND s.deleted_at IS NULL`
	args := []any{orgID}
	keys := []string{"s.created_at", "s.id"}
	if f.Collection != "" {
		where += ` AND s.parent_id = ?`
		args = append(args, f.Collection)
		keys = []string{"s.position", "s.id"}
	}
	tx := t
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return folio.List[folio.Space]{Items: []folio.Space{}}, nil
		}
		in, inArgs := inList(t, f.IDs)
		where += ` AND s.id IN ` + in
		args = append(args, inArgs...)
		tx = t.once()
	}
	q := listQuery{
		Query: `SELECT ` + spaceColumns + ` FROM spaces s` + where, Args: args, Keys: keys, Shape: "is",
		Count: `SELECT COUNT(*) FROM spaces s` + where, CountArgs: args,
	}
	return page(ctx, tx, "list spaces", q, opts, func(r *sql.Rows) (folio.Space, []any, error) {
		var s folio.Space
		err := scanSpace(r, &s)
		k := micros(s.CreatedAt)
		if f.Collection != "" {
			k = s.Position
		}
		return s, []any{k, s.ID}, err
	})
}

// UpdateSpace writes the fields present in u (validated) and the update time.
func UpdateSpace(ctx context.Context, t *Tx, id folio.ID, u *folio.SpaceUpdate) error {
	var (
		sets []string
		args []any
	)
	set := func(col string, v any) { sets = append(sets, col+" = ?"); args = append(args, v) }
	if u.Title.Set {
		set("title", u.Title.Value)
	}
	if u.Emoji.Set {
		set("emoji", u.Emoji.Value)
	}
	if u.EditMode.Set {
		set("edit_mode", u.EditMode.Value)
	}
	if u.DefaultLevel.Set {
		l, _ := folio.ParseLevel("defaultLevel", u.DefaultLevel)
		set("default_level", l.String())
	}
	if u.Language.Set {
		set("language", u.Language.Value)
	}
	if u.MergeRules.Set {
		set("merge_rules", mustJSON(u.MergeRules.Value))
	}
	set("updated_at", micros(t.Now))
	_, err := t.exec(ctx, `UPDATE spaces SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...)
	return wrap(err, "update space")
}

// ContentTree is what decides a user's roles on an organization's content:
// every collection (parent and default level) and the grants to the user
// and their teams. It is loaded in two queries, however many spaces a list
// holds.
type ContentTree struct {
	Collections map[folio.ID]folio.Collection
	Grants      map[folio.ID][]folio.Role // by target id
}

// LoadContentTree loads the collections of an organization and the grants
// on its content to a user or their teams.
func LoadContentTree(ctx context.Context, t *Tx, orgID, userID folio.ID) (*ContentTree, error) {
	tree := &ContentTree{Collections: map[folio.ID]folio.Collection{}, Grants: map[folio.ID][]folio.Role{}}
	err := t.query(ctx, `SELECT `+collectionColumns+` FROM collections c WHERE c.organization_id = ?`, []any{orgID},
		func(r *sql.Rows) error {
			var c folio.Collection
			if err := scanCollection(r, &c); err != nil {
				return err
			}
			tree.Collections[c.ID] = c
			return nil
		})
	if err != nil {
		return nil, wrap(err, "load collections")
	}
	err = t.query(ctx, `SELECT g.target_id, g.role FROM content_grants g WHERE g.organization_id = ? AND (
		(g.principal_kind = 'user' AND g.principal_id = ?) OR
		(g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE organization_id = ? AND user_id = ?)))`,
		[]any{orgID, userID, orgID, userID}, func(r *sql.Rows) error {
			var id, role string
			if err := r.Scan(&id, &role); err != nil {
				return err
			}
			tree.Grants[id] = append(tree.Grants[id], folio.Role(role))
			return nil
		})
	return tree, wrap(err, "load grants")
}

// Path returns the content nodes from a space or collection (with its own
// level and id) up to the top, for folio.EffectiveRole.
func (tree *ContentTree) Path(id folio.ID, level folio.Level, parent folio.ID) []folio.ContentNode {
	path := []folio.ContentNode{{DefaultLevel: level, Grants: tree.Grants[id]}}
	seen := map[folio.ID]bool{}
	for parent != "" && !seen[parent] {
		seen[parent] = true
		c, ok := tree.Collections[parent]
		if !ok {
			break
		}
		path = append(path, folio.ContentNode{DefaultLevel: c.DefaultLevel, Grants: tree.Grants[c.ID]})
		parent = c.Parent
	}
	return path
}

// HasGrants reports whether the user or their teams hold any grant.
func (tree *ContentTree) HasGrants() bool { return len(tree.Grants) > 0 }

// MaxCollectionChain bounds how many collections LoadContentChain walks up
// from a parent. Moves refuse cycles, so only damaged data could loop; a
// chain cut there leaves out the grants and levels above, which can only
// lower a role.
const MaxCollectionChain = 256

// LoadContentChain loads the part of an organization's content tree that
// decides a user's role on one item (a space or collection) placed under
// parent, or on anything created there: the collections from parent up to
// the top, and the grants to the user or their teams on those collections
// and on the item. Its Path answers for the item as LoadContentTree's does,
// in one query whatever the size of the organization. parent "" is the
// top level; item "" loads the chain alone.
func LoadContentChain(ctx context.Context, t *Tx, orgID, userID, item, parent folio.ID) (*ContentTree, error) {
	tree := &ContentTree{Collections: map[folio.ID]folio.Collection{}, Grants: map[folio.ID][]folio.Role{}}
	if err := tree.AddChain(ctx, t, orgID, userID, item, parent); err != nil {
		return nil, err
	}
	return tree, nil
}

// AddChain adds to a tree loaded by LoadContentChain the chain above
// another parent (with the grants on it and on item), for items that move
// or are created there.
func (tree *ContentTree) AddChain(ctx context.Context, t *Tx, orgID, userID, item, parent folio.ID) error {
	// The chain carries the collections' columns so that nothing joins the
	// collections table again: PostgreSQL, which cannot estimate a
	// recursive query's rows, would scan the organization's collections to
	// hash them. It holds only collections of the organization and stops
	// at MaxCollectionChain rows, so a loop of parents ends (repeating its
	// collections, which the scan below drops). The grants are joined per
	// node, a node without any coming back once with NULLs; they are
	// matched on target alone, which uses the primary key, and their
	// organization is checked here: SQLite without statistics would
	// otherwise walk the organization's grants by content_grants_principal.
	const q = chainNodes + `
	SELECT n.id, n.collection, n.parent_id, n.title, n.description, n.default_level, n.position, n.created_at, n.updated_at,
		g.organization_id, g.principal_kind, g.principal_id, g.role
	FROM nodes n LEFT JOIN content_grants g ON g.target_id = n.id AND (
		(g.principal_kind = 'user' AND g.principal_id = ?) OR
		(g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE organization_id = ? AND user_id = ?)))`
	type grantKey struct{ target, kind, principal string }
	var (
		fresh = map[folio.ID]bool{} // nodes this query loads the grants of
		seen  = map[grantKey]bool{}
	)
	err := t.query(ctx, q, []any{parent, orgID, orgID, MaxCollectionChain, item, userID, orgID, userID},
		func(r *sql.Rows) error {
			var (
				node                                     folio.ID
				collection                               int
				parentID, title, desc, level             sql.NullString
				pos, created, updated                    sql.NullInt64
				grantOrg, principalKind, principal, role sql.NullString
			)
			if err := r.Scan(&node, &collection, &parentID, &title, &desc, &level, &pos, &created, &updated,
				&grantOrg, &principalKind, &principal, &role); err != nil {
				return err
			}
			if node == "" {
				return nil // item "": no item
			}
			if collection == 1 {
				tree.Collections[node] = folio.Collection{ID: node, OrganizationID: orgID, Parent: parentID.String,
					Title: title.String, Description: desc.String, DefaultLevel: folio.LevelFromString(level.String),
					Position: pos.Int64, CreatedAt: fromMicros(created.Int64), UpdatedAt: fromMicros(updated.Int64)}
			}
			// A node loaded by an earlier chain has its grants already.
			if _, loaded := tree.Grants[node]; loaded && !fresh[node] {
				return nil
			}
			fresh[node] = true
			key := grantKey{node, principalKind.String, principal.String}
			if !role.Valid || grantOrg.String != orgID || seen[key] {
				return nil
			}
			seen[key] = true
			tree.Grants[node] = append(tree.Grants[node], folio.Role(role.String))
			return nil
		})
	return wrap(err, "load content chain")
}

// SpaceParents returns every space of an organization that is not deleted,
// with only what decides roles (id, parent, default level, edit mode).
func SpaceParents(ctx context.Context, t *Tx, orgID folio.ID) ([]folio.Space, error) {
	var out []folio.Space
	err := t.query(ctx, `SELECT id, parent_id, default_level, edit_mode FROM spaces WHERE organization_id = ? AND deleted_at IS NULL`,
		[]any{orgID}, func(r *sql.Rows) error {
			var (
				s      folio.Space
				parent sql.NullString
				level  string
			)
			if err := r.Scan(&s.ID, &parent, &level, &s.EditMode); err != nil {
				return err
			}
			s.Parent, s.DefaultLevel = parent.String, folio.LevelFromString(level)
			out = append(out, s)
			return nil
		})
	return out, wrap(err, "list space parents")
}

// GetSpaceIncludingDeleted returns a space whether or not it is deleted.
func GetSpaceIncludingDeleted(ctx context.Context, t *Tx, id folio.ID) (*folio.Space, error) {
	var s folio.Space
	err := t.one(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id = ?`, []any{id},
		func(r *sql.Rows) error { return scanSpace(r, &s) })
	if err != nil {
		return nil, notFound(err, "get space", "space not found")
	}
	return &s, nil
}

// SetSpaceDeleted marks a space deleted at t.Now, or restores it when
// deleted is false.
func SetSpaceDeleted(ctx context.Context, t *Tx, id folio.ID, deleted bool) error {
	var at sql.NullInt64
	if deleted {
		at = sql.NullInt64{Int64: micros(t.Now), Valid: true}
	}
	_, err := t.exec(ctx, `UPDATE spaces SET deleted_at = ?, updated_at = ? WHERE id = ?`, at, micros(t.Now), id)
	return wrap(err, "set space deleted")
}

// PurgeSpace removes a space deleted before cutoff, with its grants, and
// reports whether it did. A space restored meanwhile is left alone.
func PurgeSpace(ctx context.Context, t *Tx, id folio.ID, cutoff int64) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM spaces WHERE id = ? AND deleted_at IS NOT NULL AND deleted_at <= ?`, id, cutoff)
	if err != nil || n == 0 {
		return false, wrap(err, "purge space")
	}
	_, err = t.exec(ctx, `DELETE FROM content_grants WHERE target_id = ?`, id)
	return true, wrap(err, "purge space grants")
}

// chainNodes is the start of the queries of a space's or collection's
// chain of collections (LoadContentChain, LoadContentChains): the CTEs
// chain (the collections from the item's parent up, at most
// MaxCollectionChain of them, in the organization) and nodes (the chain's
// collections and the item itself). Their arguments: parent, organization,
// organization, MaxCollectionChain, item.
const chainNodes = `WITH RECURSIVE chain (id, parent_id, title, description, default_level, position, created_at, updated_at, depth) AS (
		SELECT c.id, c.parent_id, c.title, c.description, c.default_level, c.position, c.created_at, c.updated_at, 1
		FROM collections c WHERE c.id = ? AND c.organization_id = ?
		UNION ALL
		SELECT c.id, c.parent_id, c.title, c.description, c.default_level, c.position, c.created_at, c.updated_at, chain.depth + 1
		FROM chain JOIN collections c ON c.id = chain.parent_id
		WHERE c.organization_id = ? AND chain.depth < ?
	), nodes (id, collection, parent_id, title, description, default_level, position, created_at, updated_at) AS (
		SELECT id, 1, parent_id, title, description, default_level, position, created_at, updated_at FROM chain
		UNION ALL
		SELECT CAST(? AS TEXT), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
	)`
