package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// MaxReviewerCandidates bounds the members ListReviewerCandidates looks
// at: the organization's first members, in the member list's order.
const MaxReviewerCandidates = 500

// ListReviewerCandidates lists the organization's enabled members who may
// review the space's change requests (their role on the space, by
// organization role, grants and default level, gives the review
// permission), for the web app's reviewer picker. Callers who may request
// reviewers only: editors of the space, while the change request takes
// changes. At most MaxReviewerCandidates members are looked at; the grants
// and default levels that decide the roles of those whose organization
// role is below review are loaded in one query for all of them.
func (a *App) ListReviewerCandidates(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (out []folio.User, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Edit, "you cannot edit this space's change requests"); err != nil {
			return err
		}
		if err := cr.Writable(); err != nil {
			return err
		}
		ms, err := store.ListMembers(ctx, tx, sv.OrganizationID, folio.MemberFilter{}, folio.ListOptions{Limit: MaxReviewerCandidates})
		if err != nil {
			return err
		}
		// Grants and default levels only raise a role: a member whose
		// organization role reviews needs no look at the space's chain.
		// The others' chains are loaded together, in one query.
		var below []folio.ID
		for _, m := range ms.Items {
			if !m.Disabled && !folio.SpacePerms(m.Role, sv.EditMode).Review {
				below = append(below, m.UserID)
			}
		}
		trees, err := store.LoadContentChains(ctx, tx, sv.OrganizationID, sv.ID, sv.Parent, below)
		if err != nil {
			return err
		}
		for _, m := range ms.Items {
			if m.Disabled {
				continue
			}
			role := m.Role
			if tree, ok := trees[m.UserID]; ok {
				role = folio.EffectiveRole(m.Role, tree.Path(sv.ID, sv.DefaultLevel, sv.Parent))
			}
			if folio.SpacePerms(role, sv.EditMode).Review {
				out = append(out, m.User)
			}
		}
		return nil
	})
	return out, err
}
