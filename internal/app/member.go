package app

import (
	"context"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

const errListMembers = "only members of the organization (not guests) can list its members"

// ListMembers lists an organization's members for callers who may list them.
func (a *App) ListMembers(ctx context.Context, caller folio.Caller, orgID folio.ID, f folio.MemberFilter, opts folio.ListOptions) (l folio.List[folio.MemberView], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListMembers, errListMembers); err != nil {
			return err
		}
		l, err = store.ListMembers(ctx, tx, orgID, f, opts)
		return err
	})
	return l, err
}

// GetMember returns one member. Callers may always see themselves.
func (a *App) GetMember(ctx context.Context, caller folio.Caller, orgID, userID folio.ID) (m *folio.MemberView, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListMembers || userID == caller.UserID, errListMembers); err != nil {
			return err
		}
		m, err = store.GetMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// errLastAdmin refuses to leave an organization without an admin.
var errLastAdmin = folio.Errorf(folio.Conflict, "the last admin of an organization cannot be demoted, disabled or removed; make another member admin first")

// checkNotLastAdmin returns errLastAdmin when target is the only admin
// whose membership is enabled.
func checkNotLastAdmin(ctx context.Context, tx *store.Tx, orgID folio.ID, target *folio.MemberView) error {
	if target.Role != folio.RoleAdmin || target.Disabled {
		return nil
	}
	n, err := store.CountAdmins(ctx, tx, orgID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return errLastAdmin
	}
	return nil
}

// clientRole reads a role as a client sent it: null is a guest, and an
// absent role is refused with the message required. App methods call it
// after the access check, so that a caller who may not make the change
// gets 403 or 404 whatever the body says.
func clientRole(field string, o folio.Optional[string], required string) (folio.Role, error) {
	if !o.Set {
		return "", folio.FieldErrorf(field, "%s", required)
	}
	if o.Null {
		return folio.RoleGuest, nil
	}
	return folio.ParseRole(field, o.Value)
}

// UpdateMemberRole changes a member's role to the one the client sent
// (null makes a guest). Admins only; the last admin cannot be demoted
// (Conflict).
func (a *App) UpdateMemberRole(ctx context.Context, caller folio.Caller, orgID, userID folio.ID, newRole folio.Optional[string]) (*folio.MemberView, error) {
	return a.UpdateMember(ctx, caller, orgID, userID, &folio.MemberUpdate{Role: newRole})
}

// UpdateMember changes a member's role (null makes a guest) and disables
// or re-enables the membership. Admins only; the last enabled admin cannot
// be demoted or disabled (Conflict). A disabled member's tokens stop
// working in the organization at once (access.go).
func (a *App) UpdateMember(ctx context.Context, caller folio.Caller, orgID, userID folio.ID, u *folio.MemberUpdate) (m *folio.MemberView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can change members"); err != nil {
			return err
		}
		if !u.Role.Set && !u.Disabled.Set {
			return folio.FieldErrorf("role", "role is required (null makes the member a guest)")
		}
		if u.Disabled.Set && u.Disabled.Null {
			return folio.FieldErrorf("disabled", "disabled must be a boolean")
		}
		target, err := store.GetMember(ctx, tx, orgID, userID)
		if err != nil {
			return err
		}
		role := target.Role
		if u.Role.Set {
			if role, err = clientRole("role", u.Role, ""); err != nil {
				return err
			}
		}
		disable := u.Disabled.Set && u.Disabled.Value && !target.Disabled
		if role != folio.RoleAdmin || disable {
			if err := checkNotLastAdmin(ctx, tx, orgID, target); err != nil {
				return err
			}
		}
		if role != target.Role {
			if err := store.SetMemberRole(ctx, tx, orgID, userID, role); err != nil {
				return err
			}
			if err := emit(ctx, tx, orgID, "", folio.EventMemberUpdated, map[string]any{"organizationId": orgID,
				"userId": userID, "role": roleName(role), "previousRole": roleName(target.Role)}); err != nil {
				return err
			}
			if err := audit(ctx, tx, caller, orgID, "member.role_updated", "member", userID,
				map[string]any{"role": roleName(role), "previousRole": roleName(target.Role)}); err != nil {
				return err
			}
		}
		if u.Disabled.Set && u.Disabled.Value != target.Disabled {
			if err := store.SetMemberDisabled(ctx, tx, orgID, userID, u.Disabled.Value); err != nil {
				return err
			}
			action := "member.enabled"
			if u.Disabled.Value {
				action = "member.disabled"
			}
			if err := audit(ctx, tx, caller, orgID, action, "member", userID, map[string]any{"role": roleName(role)}); err != nil {
				return err
			}
		}
		m, err = store.GetMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// RemoveMember removes a member: admins remove anyone, members themselves.
// The last admin cannot be removed (Conflict); removing a non-member is not
// an error.
func (a *App) RemoveMember(ctx context.Context, caller folio.Caller, orgID, userID folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin || userID == caller.UserID, "only organization admins can remove other members"); err != nil {
			return err
		}
		target, err := store.GetMember(ctx, tx, orgID, userID)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkNotLastAdmin(ctx, tx, orgID, target); err != nil {
			return err
		}
		if err := store.RemoveMember(ctx, tx, orgID, userID); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "member.removed", "member", userID, map[string]any{"role": roleName(target.Role)}); err != nil {
			return err
		}
		return emit(ctx, tx, orgID, "", folio.EventMemberRemoved, map[string]any{"organizationId": orgID, "userId": userID})
	})
}

// SetMemberSSO marks a member as an SSO member. Admins only.
func (a *App) SetMemberSSO(ctx context.Context, caller folio.Caller, orgID, userID folio.ID) (m *folio.MemberView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can make SSO members"); err != nil {
			return err
		}
		if err := store.SetMemberSSO(ctx, tx, orgID, userID); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "member.sso_set", "member", userID, nil); err != nil {
			return err
		}
		m, err = store.GetMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// MemberSpace is a space a member can view, with their effective role on
// it; the space itself is as the caller sees it.
type MemberSpace struct {
	Role  folio.Role
	Space folio.SpaceView
}

var errMemberNotFound = folio.Errorf(folio.NotFound, "member not found")

// ListMemberSpaces lists the spaces a member can view, newest first unless
// asked otherwise, with their effective role on each (organization role,
// grants to them and their teams, default levels). It loads the member's
// grants once and one page of spaces (for a guest, the roles of every space
// first).
func (a *App) ListMemberSpaces(ctx context.Context, caller folio.Caller, orgID, userID folio.ID, opts folio.ListOptions) (l folio.List[MemberSpace], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListMembers || userID == caller.UserID, errListMembers); err != nil {
			return err
		}
		role, err := store.MemberRole(ctx, tx, orgID, userID)
		if folio.IsNotFound(err) {
			return errMemberNotFound
		}
		if err != nil {
			return err
		}
		tree, err := store.LoadContentTree(ctx, tx, orgID, userID)
		if err != nil {
			return err
		}
		memberRole := func(s *folio.Space) folio.Role {
			return folio.EffectiveRole(role, tree.Path(s.ID, s.DefaultLevel, s.Parent))
		}
		// A role alone gives view on every space (it is a floor of the
		// effective role); without one, as for guests, find the viewable
		// spaces first, so that pages and counts hold only those.
		var f store.SpaceFilter
		if !folio.SpacePerms(role, folio.EditModeLive).View {
			f.IDs = []folio.ID{}
			if tree.HasGrants() {
				all, err := store.SpaceParents(ctx, tx, orgID)
				if err != nil {
					return err
				}
				for _, s := range all {
					if folio.SpacePerms(memberRole(&s), s.EditMode).View {
						f.IDs = append(f.IDs, s.ID)
					}
				}
			}
		}
		spaces, err := store.ListSpaces(ctx, tx, orgID, f, opts)
		if err != nil {
			return err
		}
		// Space objects carry the caller's permissions. The caller is the
		// member or has a role, so they can view every listed space.
		callerTree := tree
		if caller.UserID != userID {
			if callerTree, err = store.LoadContentTree(ctx, tx, orgID, caller.UserID); err != nil {
				return err
			}
		}
		l = folio.List[MemberSpace]{Count: spaces.Count, Next: spaces.Next, Items: make([]MemberSpace, 0, len(spaces.Items))}
		for _, s := range spaces.Items {
			callerRole := folio.EffectiveRole(acc.Role, callerTree.Path(s.ID, s.DefaultLevel, s.Parent))
			l.Items = append(l.Items, MemberSpace{Role: memberRole(&s), Space: folio.SpaceView{Space: s, CallerRole: callerRole}})
		}
		return nil
	})
	return l, err
}

// ListMemberTeams lists the teams of a member with their team role.
func (a *App) ListMemberTeams(ctx context.Context, caller folio.Caller, orgID, userID folio.ID, title string, opts folio.ListOptions) (l folio.List[folio.MemberTeam], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListTeams || userID == caller.UserID, "only members of the organization (not guests) can list its teams"); err != nil {
			return err
		}
		if _, err := store.MemberRole(ctx, tx, orgID, userID); folio.IsNotFound(err) {
			return errMemberNotFound
		} else if err != nil {
			return err
		}
		l, err = store.ListMemberTeams(ctx, tx, acc, userID, title, opts)
		return err
	})
	return l, err
}

// Ping records that the caller was seen now and returns their visitor
// claims token, or "" when they have no claims to attach; Forbidden to a
// token without a user.
func (a *App) Ping(ctx context.Context, caller folio.Caller, orgID folio.ID) (string, error) {
	if err := requireUser(caller); err != nil {
		return "", err
	}
	var claims *visitorClaims
	err := a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := store.TouchMember(ctx, tx, orgID, caller.UserID); err != nil {
			return err
		}
		var err error
		claims, err = memberClaims(ctx, tx, acc)
		return err
	})
	if err != nil || claims == nil {
		return "", err
	}
	secret, err := a.secret(ctx, "visitor-claims:"+orgID)
	if err != nil {
		return "", err
	}
	return signVisitorClaims(claims, secret, a.publicURL, a.clock.Now(), time.Hour)
}

// JoinOrganization adds the caller to an organization whose emailDomains
// include the domain of their verified email, with its defaultRole.
// Joining twice is harmless. A token without a user gets Forbidden.
func (a *App) JoinOrganization(ctx context.Context, caller folio.Caller, orgID folio.ID) error {
	if err := requireUser(caller); err != nil {
		return err
	}
	if caller.Org != "" {
		return errScoped
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		org, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		u, err := store.GetUser(ctx, tx, caller.UserID)
		if err != nil {
			return err
		}
		allowed := false
		for _, d := range org.EmailDomains {
			allowed = allowed || d == folio.EmailDomain(u.Email)
		}
		if !u.EmailVerified || !allowed {
			// Answered like a missing organization: a non-member learns
			// nothing about an organization it may not join.
			return errOrgNotFound
		}
		_, err = addMember(ctx, tx, caller, &folio.Member{OrganizationID: orgID, UserID: u.ID, Role: org.DefaultRole, JoinedAt: tx.Now})
		return err
	})
}
