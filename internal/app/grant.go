package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// grantTarget loads a space or collection whose permissions the caller
// administers, and returns its organization and the caller's access.
func grantTarget(ctx context.Context, tx *store.Tx, caller folio.Caller, kind string, id folio.ID) (folio.ID, *contentAccess, error) {
	if kind == folio.TargetSpace {
		sv, ca, err := space(ctx, tx, caller, id)
		if err != nil {
			return "", nil, err
		}
		return sv.OrganizationID, ca, require(sv.Permissions().Admin, "only admins of the space can manage its permissions")
	}
	cv, ca, err := collection(ctx, tx, caller, id)
	if err != nil {
		return "", nil, err
	}
	return cv.OrganizationID, ca, require(cv.Permissions().Admin, "only admins of the collection can manage its permissions")
}

// GrantInput is the body of POST .../permissions: a role for users and
// teams; a null role removes their grants.
type GrantInput struct {
	Role  folio.Optional[string] `json:"role"`
	Users []folio.ID             `json:"users"`
	Teams []folio.ID             `json:"teams"`
}

// Grant gives users (members of the organization, guests included) and
// teams a role on a space or collection, in one transaction. Unknown users
// or teams are NotFound and change nothing. The body is checked once the
// caller is known to administer the target: others learn nothing from it.
func (a *App) Grant(ctx context.Context, caller folio.Caller, kind string, id folio.ID, in *GrantInput) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		orgID, ca, err := grantTarget(ctx, tx, caller, kind, id)
		if err != nil {
			return err
		}
		role, err := clientRole("role", in.Role, "role is required (null removes the grants)")
		if err != nil {
			return err
		}
		if len(in.Users)+len(in.Teams) == 0 {
			return folio.FieldErrorf("users", "name at least one user or team")
		}
		if len(in.Users)+len(in.Teams) > folio.MaxTeamMembersUpdate {
			return folio.FieldErrorf("users", "one request can name at most %d users and teams", folio.MaxTeamMembersUpdate)
		}
		missing, err := store.NonMembers(ctx, tx, orgID, in.Users)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return folio.Errorf(folio.NotFound, "no user with the id %s in the organization", missing[0])
		}
		teams, err := store.GetTeams(ctx, tx, ca.Access, in.Teams)
		if err != nil {
			return err
		}
		for _, t := range in.Teams {
			if teams[t] == nil {
				return folio.Errorf(folio.NotFound, "no team with the id %s in the organization", t)
			}
		}
		for _, p := range []struct {
			kind string
			ids  []folio.ID
		}{{folio.PrincipalUser, in.Users}, {folio.PrincipalTeam, in.Teams}} {
			for _, pid := range p.ids {
				if role == folio.RoleGuest {
					_, err = store.DeleteGrant(ctx, tx, id, p.kind, pid)
				} else {
					err = store.SetGrant(ctx, tx, orgID, kind, id, p.kind, pid, role)
				}
				if err != nil {
					return err
				}
			}
		}
		return audit(ctx, tx, caller, orgID, "permissions.updated", kind, id,
			map[string]any{"role": roleName(role), "users": in.Users, "teams": in.Teams})
	})
}

// SetGrant sets one user's or team's role on a space or collection, as the
// client sent it (PATCH .../permissions/users|teams/{id}); null removes
// it. Unknown users or teams are NotFound.
func (a *App) SetGrant(ctx context.Context, caller folio.Caller, kind string, id folio.ID, principalKind string, principal folio.ID, role folio.Optional[string]) error {
	in := &GrantInput{Role: role}
	if principalKind == folio.PrincipalUser {
		in.Users = []folio.ID{principal}
	} else {
		in.Teams = []folio.ID{principal}
	}
	return a.Grant(ctx, caller, kind, id, in)
}

// RemoveGrant removes one user's or team's role on a space or collection;
// absent is not an error.
func (a *App) RemoveGrant(ctx context.Context, caller folio.Caller, kind string, id folio.ID, principalKind string, principal folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		orgID, _, err := grantTarget(ctx, tx, caller, kind, id)
		if err != nil {
			return err
		}
		removed, err := store.DeleteGrant(ctx, tx, id, principalKind, principal)
		if err != nil || !removed {
			return err
		}
		return audit(ctx, tx, caller, orgID, "permissions.removed", kind, id, map[string]any{principalKind: principal})
	})
}

// ListUserGrants lists the users granted a role on a space or collection.
// Admins of it only.
func (a *App) ListUserGrants(ctx context.Context, caller folio.Caller, kind string, id folio.ID, opts folio.ListOptions) (l folio.List[folio.UserGrant], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, _, err := grantTarget(ctx, tx, caller, kind, id); err != nil {
			return err
		}
		l, err = store.ListUserGrants(ctx, tx, id, opts)
		return err
	})
	return l, err
}

// ListTeamGrants lists the teams granted a role on a space or collection.
// Admins of it only.
func (a *App) ListTeamGrants(ctx context.Context, caller folio.Caller, kind string, id folio.ID, opts folio.ListOptions) (l folio.List[folio.TeamGrant], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, ca, err := grantTarget(ctx, tx, caller, kind, id)
		if err != nil {
			return err
		}
		l, err = store.ListTeamGrants(ctx, tx, ca.Access, id, opts)
		return err
	})
	return l, err
}
