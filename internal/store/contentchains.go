package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// Batched reads of what decides many users' roles on one item at once, for
// lists over members (the reviewer picker), which would otherwise load one
// content chain per member.

// LoadContentChains loads, for each of userIDs, what LoadContentChain loads
// for that user alone: the collections from parent up to the top (at most
// MaxCollectionChain) and the grants to the user or their teams on those
// collections and on item. It runs one query whatever the number of users;
// every user asked for gets a tree, and the trees share one Collections map,
// which callers must not change.
func LoadContentChains(ctx context.Context, t *Tx, orgID, item, parent folio.ID, userIDs []folio.ID) (map[folio.ID]*ContentTree, error) {
	out := make(map[folio.ID]*ContentTree, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	collections := map[folio.ID]folio.Collection{}
	for _, u := range userIDs {
		out[u] = &ContentTree{Collections: collections, Grants: map[folio.ID][]folio.Role{}}
	}
	tx, list, users := userIDList(t, userIDs)
	// The chain is LoadContentChain's (see AddChain for why it carries the
	// collections' columns and checks the grants' organization here). The
	// grants are those to the users (principal_id) and to their teams (each
	// team grant once per member asked for); a node without any comes back
	// once with NULLs.
	q := chainNodes + `, held (target_id, organization_id, user_id, principal_kind, principal_id, role) AS (
		SELECT g.target_id, g.organization_id, g.principal_id, g.principal_kind, g.principal_id, g.role
		FROM nodes n JOIN content_grants g ON g.target_id = n.id
		WHERE g.principal_kind = 'user' AND g.principal_id IN ` + list + `
		UNION ALL
		SELECT g.target_id, g.organization_id, tm.user_id, g.principal_kind, g.principal_id, g.role
		FROM nodes n JOIN content_grants g ON g.target_id = n.id
		JOIN team_members tm ON tm.team_id = g.principal_id AND tm.organization_id = ?
		WHERE g.principal_kind = 'team' AND tm.user_id IN ` + list + `
	)
	SELECT n.id, n.collection, n.parent_id, n.title, n.description, n.default_level, n.position, n.created_at, n.updated_at,
		h.organization_id, h.user_id, h.principal_kind, h.principal_id, h.role
	FROM nodes n LEFT JOIN held h ON h.target_id = n.id`
	args := []any{parent, orgID, orgID, MaxCollectionChain, item}
	args = append(args, users...)
	args = append(args, orgID)
	args = append(args, users...)
	type grantKey struct{ user, target, kind, principal string }
	seen := map[grantKey]bool{}
	err := tx.query(ctx, q, args, func(r *sql.Rows) error {
		var (
			node                                           folio.ID
			collection                                     int
			parentID, title, desc, level                   sql.NullString
			pos, created, updated                          sql.NullInt64
			grantOrg, user, principalKind, principal, role sql.NullString
		)
		if err := r.Scan(&node, &collection, &parentID, &title, &desc, &level, &pos, &created, &updated,
			&grantOrg, &user, &principalKind, &principal, &role); err != nil {
			return err
		}
		if node == "" {
			return nil // item "": no item
		}
		if collection == 1 {
			collections[node] = folio.Collection{ID: node, OrganizationID: orgID, Parent: parentID.String,
				Title: title.String, Description: desc.String, DefaultLevel: folio.LevelFromString(level.String),
				Position: pos.Int64, CreatedAt: fromMicros(created.Int64), UpdatedAt: fromMicros(updated.Int64)}
		}
		tree := out[user.String]
		key := grantKey{user.String, node, principalKind.String, principal.String}
		if !role.Valid || tree == nil || grantOrg.String != orgID || seen[key] {
			return nil
		}
		seen[key] = true
		tree.Grants[node] = append(tree.Grants[node], folio.Role(role.String))
		return nil
	})
	if err != nil {
		return nil, wrap(err, "load content chains")
	}
	return out, nil
}

// userIDList returns the right-hand side of an IN condition over ids with
// its arguments, and the Tx to query with: short lists padded so that the
// query stays prepared (padIn), longer ones as inList has them.
func userIDList(t *Tx, ids []folio.ID) (*Tx, string, []any) {
	if len(ids) <= maxListParams {
		tx, in := padIn(t, ids)
		return tx, "(" + placeholders(len(in)) + ")", toAny(in)
	}
	list, args := inList(t, ids)
	return t.once(), list, args
}
