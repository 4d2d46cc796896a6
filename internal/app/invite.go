package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// InviteResult is the answer to an email invitation.
type InviteResult struct {
	Users   []folio.ID // users added to the organization
	Invited int
}

// InviteByEmail adds people to an organization by email, creating users for
// addresses Folio does not know yet (they sign in through SSO, or an admin
// gives them a token with "folio users token"). Existing members are left
// as they are. Admins only.
func (a *App) InviteByEmail(ctx context.Context, caller folio.Caller, orgID folio.ID, invites []folio.EmailInvite, role folio.Role, sso bool) (*InviteResult, error) {
	if len(invites) == 0 || len(invites) > folio.MaxEmailInvites {
		return nil, folio.FieldErrorf("emails", "emails must list 1 to %d addresses", folio.MaxEmailInvites)
	}
	res := &InviteResult{Users: []folio.ID{}}
	err := a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can invite members"); err != nil {
			return err
		}
		for _, inv := range invites {
			nu := folio.NewUser{Email: inv.Email}
			if err := nu.Normalize(); err != nil {
				return folio.FieldErrorf("emails", "emails: %q is not a valid email address", inv.Email)
			}
			u, err := store.GetOrCreateUserByEmail(ctx, tx, nu.Email, nu.DisplayName)
			if err != nil {
				return err
			}
			r := role
			if inv.HasRole {
				r = inv.Role
			}
			added, err := store.AddMemberIfAbsent(ctx, tx, &folio.Member{OrganizationID: orgID, UserID: u.ID, Role: r, JoinedAt: tx.Now, SSO: sso})
			if err != nil {
				return err
			}
			if added {
				res.Users = append(res.Users, u.ID)
			}
		}
		res.Invited = len(res.Users)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

var errInviteLinksOff = folio.Errorf(folio.Invalid, "invite links are disabled for this organization")

// inviteLinksOn returns errInviteLinksOff unless the organization allows invite links.
func inviteLinksOn(ctx context.Context, tx *store.Tx, orgID folio.ID) error {
	org, err := store.GetOrganization(ctx, tx, orgID)
	if err != nil {
		return err
	}
	if !org.InviteLinks {
		return errInviteLinksOff
	}
	return nil
}

// CreateInviteLink creates a link invite to the organization with a role.
// Admins only; refused when the organization disables invite links.
func (a *App) CreateInviteLink(ctx context.Context, caller folio.Caller, orgID folio.ID, role folio.Role) (inv *folio.InviteLink, acc folio.Access, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		if err := inviteLinksOn(ctx, tx, orgID); err != nil {
			return err
		}
		inv = &folio.InviteLink{ID: folio.NewID(), OrganizationID: orgID, Role: role, CreatedBy: caller.UserID, CreatedAt: tx.Now}
		return store.CreateInviteLink(ctx, tx, inv)
	})
	return inv, acc, err
}

// ListInviteLinks lists the organization's link invites. Admins only.
func (a *App) ListInviteLinks(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.InviteLink], acc folio.Access, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		l, err = store.ListInviteLinks(ctx, tx, orgID, opts)
		return err
	})
	return l, acc, err
}

// GetInviteLink returns a link invite. Admins only.
func (a *App) GetInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (inv *folio.InviteLink, acc folio.Access, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		inv, err = store.GetInviteLink(ctx, tx, orgID, id)
		return err
	})
	return inv, acc, err
}

// UpdateInviteLink changes the role a link invite grants. Admins only.
func (a *App) UpdateInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID, role folio.Role) (inv *folio.InviteLink, acc folio.Access, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		if err := store.SetInviteLinkRole(ctx, tx, orgID, id, role); err != nil {
			return err
		}
		inv, err = store.GetInviteLink(ctx, tx, orgID, id)
		return err
	})
	return inv, acc, err
}

// DeleteInviteLink deletes a link invite. Admins only; absent is not an error.
func (a *App) DeleteInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		return store.DeleteInviteLink(ctx, tx, orgID, id)
	})
}

// JoinWithInviteLink makes the caller a member with the invite's role. A
// member already holding a higher role keeps it; a lower one is raised.
// Unknown invites are NotFound; disabled invite links Invalid.
func (a *App) JoinWithInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	if caller.Org != "" {
		return errScoped
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		inv, err := store.GetInviteLink(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		if err := inviteLinksOn(ctx, tx, orgID); err != nil {
			return err
		}
		added, err := store.AddMemberIfAbsent(ctx, tx, &folio.Member{OrganizationID: orgID, UserID: caller.UserID, Role: inv.Role, JoinedAt: tx.Now})
		if err != nil || added {
			return err
		}
		role, err := store.MemberRole(ctx, tx, orgID, caller.UserID)
		if err != nil {
			return err
		}
		if inv.Role.Rank() > role.Rank() {
			return store.SetMemberRole(ctx, tx, orgID, caller.UserID, inv.Role)
		}
		return nil
	})
}
