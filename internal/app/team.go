package app

import (
	"context"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

const errListTeams = "only members of the organization (not guests) can list its teams"

// ListTeams lists an organization's teams. With f.Owner, only the teams
// that member can manage.
func (a *App) ListTeams(ctx context.Context, caller folio.Caller, orgID folio.ID, f folio.TeamFilter, opts folio.ListOptions) (l folio.List[folio.TeamView], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListTeams, errListTeams); err != nil {
			return err
		}
		ownerIsAdmin := false
		if f.Owner != "" {
			role, err := store.MemberRole(ctx, tx, orgID, f.Owner)
			if folio.IsNotFound(err) {
				return folio.FieldErrorf("owner", "owner %s is not a member of the organization", f.Owner)
			}
			if err != nil {
				return err
			}
			ownerIsAdmin = role == folio.RoleAdmin
		}
		l, err = store.ListTeams(ctx, tx, acc, f, ownerIsAdmin, opts)
		return err
	})
	return l, err
}

// CreateTeam creates a team with initial members (member ids). Admins only.
func (a *App) CreateTeam(ctx context.Context, caller folio.Caller, orgID folio.ID, title string, members []string) (v *folio.TeamView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can create teams"); err != nil {
			return err
		}
		if err := folio.ValidateTeamTitle(title); err != nil {
			return err
		}
		if len(members) > folio.MaxTeamMembersUpdate {
			return folio.FieldErrorf("members", "a new team can have at most %d members; add more with PUT .../members", folio.MaxTeamMembersUpdate)
		}
		ids, _, err := resolveMembers(ctx, tx, orgID, "members", members)
		if err != nil {
			return err
		}
		t := folio.Team{ID: folio.NewID(), OrganizationID: orgID, Title: title, CreatedAt: tx.Now}
		if err := store.CreateTeam(ctx, tx, &t); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "team.created", "team", t.ID, map[string]any{"title": title, "members": ids}); err != nil {
			return err
		}
		for _, id := range ids {
			if err := store.AddTeamMemberIfAbsent(ctx, tx, orgID, t.ID, id, folio.TeamMember); err != nil {
				return err
			}
		}
		v, err = store.GetTeam(ctx, tx, acc, t.ID)
		return err
	})
	return v, err
}

// resolveMembers maps user ids or emails to members of the organization, in
// the order given, and names every reference that is not one (Invalid).
// It also returns the id of each reference.
func resolveMembers(ctx context.Context, tx *store.Tx, orgID folio.ID, field string, refs []string) ([]folio.ID, map[string]folio.ID, error) {
	m, missing, err := store.ResolveUsers(ctx, tx, orgID, refs)
	if err != nil {
		return nil, nil, err
	}
	if len(missing) > 0 {
		return nil, nil, folio.FieldErrorf(field, "not members of the organization: %s", strings.Join(missing, ", "))
	}
	ids := make([]folio.ID, 0, len(refs))
	seen := make(map[folio.ID]bool, len(refs))
	for _, r := range refs {
		if id := m[r]; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, m, nil
}

// team loads a team and checks the caller may view it.
func team(ctx context.Context, tx *store.Tx, acc folio.Access, teamID folio.ID) (*folio.TeamView, error) {
	t, err := store.GetTeam(ctx, tx, acc, teamID)
	if err != nil {
		return nil, err
	}
	if !t.CanView {
		return nil, folio.Errorf(folio.Forbidden, errListTeams)
	}
	return t, nil
}

// manageTeam loads a team the caller may manage: admins and its owners.
func manageTeam(ctx context.Context, tx *store.Tx, acc folio.Access, teamID folio.ID) (*folio.TeamView, error) {
	t, err := team(ctx, tx, acc, teamID)
	if err != nil {
		return nil, err
	}
	if !t.CanAdmin {
		return nil, folio.Errorf(folio.Forbidden, "only organization admins and the team's owners can manage the team")
	}
	return t, nil
}

// GetTeam returns a team.
func (a *App) GetTeam(ctx context.Context, caller folio.Caller, orgID, teamID folio.ID) (v *folio.TeamView, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		v, err = team(ctx, tx, acc, teamID)
		return err
	})
	return v, err
}

// RenameTeam changes a team's title. Admins and team owners.
func (a *App) RenameTeam(ctx context.Context, caller folio.Caller, orgID, teamID folio.ID, title string) (v *folio.TeamView, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := manageTeam(ctx, tx, acc, teamID); err != nil {
			return err
		}
		if err := folio.ValidateTeamTitle(title); err != nil {
			return err
		}
		if err := store.RenameTeam(ctx, tx, teamID, title); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "team.updated", "team", teamID, map[string]any{"title": title}); err != nil {
			return err
		}
		v, err = store.GetTeam(ctx, tx, acc, teamID)
		return err
	})
	return v, err
}

// DeleteTeam deletes a team. Admins only; an absent team is not an error.
func (a *App) DeleteTeam(ctx context.Context, caller folio.Caller, orgID, teamID folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can delete teams"); err != nil {
			return err
		}
		if err := store.DeleteTeam(ctx, tx, orgID, teamID); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "team.deleted", "team", teamID, nil)
	})
}

// ListTeamMembers lists a team's members.
func (a *App) ListTeamMembers(ctx context.Context, caller folio.Caller, orgID, teamID folio.ID, opts folio.ListOptions) (l folio.List[folio.TeamMemberView], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := team(ctx, tx, acc, teamID); err != nil {
			return err
		}
		l, err = store.ListTeamMembers(ctx, tx, teamID, opts)
		return err
	})
	return l, err
}

// UpdateTeamMembers adds, removes and sets roles of team members in one
// transaction. Every reference must be a member of the organization (an
// Invalid error names the others, and nothing changes); a user both added
// and removed is removed. Admins and team owners.
func (a *App) UpdateTeamMembers(ctx context.Context, caller folio.Caller, orgID, teamID folio.ID, u *folio.TeamMembersUpdate) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := manageTeam(ctx, tx, acc, teamID); err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		var refs []string
		refs = append(append(refs, u.Add...), u.Remove...)
		for ref := range u.Memberships {
			refs = append(refs, ref)
		}
		_, ids, err := resolveMembers(ctx, tx, orgID, "add", refs)
		if err != nil {
			return err
		}
		removed := map[folio.ID]bool{}
		for _, r := range u.Remove {
			removed[ids[r]] = true
			if err := store.RemoveTeamMember(ctx, tx, teamID, ids[r]); err != nil {
				return err
			}
		}
		for _, r := range u.Add {
			if !removed[ids[r]] {
				if err := store.AddTeamMemberIfAbsent(ctx, tx, orgID, teamID, ids[r], folio.TeamMember); err != nil {
					return err
				}
			}
		}
		roles := map[folio.ID]string{}
		for r, m := range u.Memberships {
			if !removed[ids[r]] {
				if err := store.SetTeamMember(ctx, tx, orgID, teamID, ids[r], folio.TeamRole(m.Role)); err != nil {
					return err
				}
				roles[ids[r]] = string(m.Role)
			}
		}
		added, gone := []folio.ID{}, []folio.ID{}
		for _, r := range u.Add {
			if !removed[ids[r]] {
				added = append(added, ids[r])
			}
		}
		for id := range removed {
			gone = append(gone, id)
		}
		slices.Sort(gone)
		return audit(ctx, tx, caller, orgID, "team.members_updated", "team", teamID,
			map[string]any{"added": added, "removed": gone, "roles": roles})
	})
}

// SetTeamMember adds a member to a team or changes their team role.
func (a *App) SetTeamMember(ctx context.Context, caller folio.Caller, orgID, teamID, userID folio.ID, role string) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := manageTeam(ctx, tx, acc, teamID); err != nil {
			return err
		}
		r, err := folio.ParseTeamRole("role", role)
		if err != nil {
			return err
		}
		ids, _, err := resolveMembers(ctx, tx, orgID, "userId", []string{userID})
		if err != nil {
			return err
		}
		if err := store.SetTeamMember(ctx, tx, orgID, teamID, ids[0], r); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "team.member_set", "team", teamID, map[string]any{"userId": ids[0], "role": string(r)})
	})
}

// RemoveTeamMember removes a member from a team; absent is not an error.
func (a *App) RemoveTeamMember(ctx context.Context, caller folio.Caller, orgID, teamID, userID folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := manageTeam(ctx, tx, acc, teamID); err != nil {
			return err
		}
		if err := store.RemoveTeamMember(ctx, tx, teamID, userID); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "team.member_removed", "team", teamID, map[string]any{"userId": userID})
	})
}
