package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// InviteResult is the answer to an email invitation.
type InviteResult struct {
	Users   []folio.ID // users added to the organization
	Invited int
}

// InviteInput is the body of POST /orgs/{organizationId}/invites as the
// client sent it. Each item of Emails is an address or an {email, role}
// object; Role, read when absent, applies to the addresses given alone.
type InviteInput struct {
	Emails []json.RawMessage      `json:"emails"`
	Role   folio.Optional[string] `json:"role"`
	SSO    bool                   `json:"sso"`
}

// invites reads the addresses of an InviteInput with their roles.
func (in *InviteInput) invites() ([]folio.EmailInvite, folio.Role, error) {
	role := folio.RoleRead
	if in.Role.Set {
		var err error
		if role, err = clientRole("role", in.Role, "role is required (null for a guest)"); err != nil {
			return nil, "", err
		}
	}
	if len(in.Emails) == 0 || len(in.Emails) > folio.MaxEmailInvites {
		return nil, "", folio.FieldErrorf("emails", "emails must list 1 to %d addresses", folio.MaxEmailInvites)
	}
	out := make([]folio.EmailInvite, 0, len(in.Emails))
	for _, raw := range in.Emails {
		var inv folio.EmailInvite
		if err := json.Unmarshal(raw, &inv.Email); err != nil {
			var obj struct {
				Email string                 `json:"email"`
				Role  folio.Optional[string] `json:"role"`
			}
			if err := json.Unmarshal(raw, &obj); err != nil || obj.Email == "" {
				return nil, "", folio.FieldErrorf("emails", "emails items must be addresses or {email, role} objects")
			}
			r, err := clientRole("emails.role", obj.Role, "emails.role is required (null for a guest)")
			if err != nil {
				return nil, "", err
			}
			inv = folio.EmailInvite{Email: obj.Email, Role: r, HasRole: true}
		}
		out = append(out, inv)
	}
	return out, role, nil
}

// InviteByEmail adds people to an organization by email, creating users for
// addresses Folio does not know yet (they sign in through SSO, or an admin
// gives them a token with "folio users token"). Existing members are left
// as they are. Admins only; the body is checked after that.
func (a *App) InviteByEmail(ctx context.Context, caller folio.Caller, orgID folio.ID, in *InviteInput) (*InviteResult, error) {
	res := &InviteResult{Users: []folio.ID{}}
	err := a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can invite members"); err != nil {
			return err
		}
		invites, role, err := in.invites()
		if err != nil {
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
			added, err := addMember(ctx, tx, caller, &folio.Member{OrganizationID: orgID, UserID: u.ID, Role: r, JoinedAt: tx.Now, SSO: in.SSO})
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

// InviteLinkInput is the body of POST and PATCH .../link-invites as the
// client sent it: a role, or a level (the content-invite form), null for
// a guest. Links to a space or a collection are not supported yet.
type InviteLinkInput struct {
	Role       folio.Optional[string] `json:"role"`
	Level      folio.Optional[string] `json:"level"`
	Space      string                 `json:"space"`
	Collection string                 `json:"collection"`
}

// role reads the role an InviteLinkInput gives.
func (in *InviteLinkInput) role() (folio.Role, error) {
	if in.Space != "" || in.Collection != "" {
		return "", folio.Errorf(folio.Invalid, "invite links to spaces and collections are not supported yet")
	}
	if !in.Role.Set && in.Level.Set {
		return clientRole("level", in.Level, "level is required (null for a guest)")
	}
	return clientRole("role", in.Role, "role is required (null for a guest)")
}

// CreateInviteLink creates a link invite to the organization with a role.
// Admins only, who alone learn what is wrong with the body; refused when
// the organization disables invite links.
func (a *App) CreateInviteLink(ctx context.Context, caller folio.Caller, orgID folio.ID, in *InviteLinkInput) (inv *folio.InviteLink, acc folio.Access, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		role, err := in.role()
		if err != nil {
			return err
		}
		if err := inviteLinksOn(ctx, tx, orgID); err != nil {
			return err
		}
		inv = &folio.InviteLink{ID: folio.NewID(), OrganizationID: orgID, Role: role, CreatedBy: caller.UserID, CreatedAt: tx.Now}
		if err := store.CreateInviteLink(ctx, tx, inv); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "invite_link.created", "invite-link", inv.ID, map[string]any{"role": roleName(role)})
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

// UpdateInviteLink changes the role a link invite grants. Admins only,
// who alone learn what is wrong with the body.
func (a *App) UpdateInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID, in *InviteLinkInput) (inv *folio.InviteLink, acc folio.Access, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, ac folio.Access) error {
		acc = ac
		if err := require(ac.Permissions().Admin, "only organization admins can manage invite links"); err != nil {
			return err
		}
		role, err := in.role()
		if err != nil {
			return err
		}
		if err := store.SetInviteLinkRole(ctx, tx, orgID, id, role); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "invite_link.updated", "invite-link", id, map[string]any{"role": roleName(role)}); err != nil {
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
		if existed, err := store.DeleteInviteLink(ctx, tx, orgID, id); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, orgID, "invite_link.deleted", "invite-link", id, nil)
	})
}

// JoinWithInviteLink makes the caller a member with the invite's role. A
// member already holding a higher role keeps it; a lower one is raised.
// Unknown invites are NotFound; disabled invite links Invalid; a token
// without a user Forbidden.
func (a *App) JoinWithInviteLink(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	if err := requireUser(caller); err != nil {
		return err
	}
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
		added, err := addMember(ctx, tx, caller, &folio.Member{OrganizationID: orgID, UserID: caller.UserID, Role: inv.Role, JoinedAt: tx.Now})
		if err != nil || added {
			return err
		}
		role, err := store.MemberRole(ctx, tx, orgID, caller.UserID)
		if err != nil {
			return err
		}
		if inv.Role.Rank() > role.Rank() {
			if err := store.SetMemberRole(ctx, tx, orgID, caller.UserID, inv.Role); err != nil {
				return err
			}
			// A raised role is an administrative change like any other.
			return audit(ctx, tx, caller, orgID, "member.role_updated", "member", caller.UserID,
				map[string]any{"role": roleName(inv.Role), "previousRole": roleName(role), "inviteLink": id})
		}
		return nil
	})
}
