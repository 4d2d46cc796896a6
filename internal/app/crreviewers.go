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
// changes. At most MaxReviewerCandidates members are looked at; those
// whose organization role is below review cost one query each (their
// grants and the space's default level).
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
		for _, m := range ms.Items {
			if m.Disabled {
				continue
			}
			// Grants and default levels only raise a role: a member whose
			// organization role reviews needs no look at the space's chain.
			role := m.Role
			if !folio.SpacePerms(role, sv.EditMode).Review {
				tree, err := store.LoadContentChain(ctx, tx, sv.OrganizationID, m.UserID, sv.ID, sv.Parent)
				if err != nil {
					return err
				}
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
