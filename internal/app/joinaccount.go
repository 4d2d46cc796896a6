package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// errAccountExists refuses creating an account for an email that has one.
// It says only that, and only to the holder of a live invite link (the
// link is checked first); see docs/decisions.md ("Joining by invite link").
var errAccountExists = &folio.Error{Kind: folio.Conflict, Field: "email",
	Message: "an account with this email already exists: sign in to join instead"}

// JoinWithInvite creates an account for a person who has none and makes
// them a member of the organization with the invite link's role, in one
// transaction that also starts a web session, whose secret it returns.
// The link must be live (NotFound otherwise, as for a revoked one) and the
// organization must allow invite links (Invalid). Invalid for a bad name,
// email or password (the password rules of SetPassword); Conflict when the
// email already has an account; Forbidden when the organization requires
// single sign-on and the link's role is not admin (a password account could
// not open it). Nothing is written when it fails.
func (a *App) JoinWithInvite(ctx context.Context, orgID, inviteID folio.ID, name, email, password string) (string, *folio.User, error) {
	nu := folio.NewUser{Email: email, DisplayName: name}
	if err := nu.Normalize(); err != nil {
		return "", nil, err
	}
	if err := validatePassword(password); err != nil {
		return "", nil, err
	}
	hash := HashPassword(password) // before the transaction: it takes tens of milliseconds
	var (
		secret string
		u      *folio.User
	)
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		inv, err := store.GetInviteLink(ctx, tx, orgID, inviteID)
		if err != nil {
			return err
		}
		org, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		if !org.InviteLinks {
			return errInviteLinksOff
		}
		if org.SSO && inv.Role != folio.RoleAdmin {
			return errSSORequired
		}
		if _, err := store.GetUserByEmail(ctx, tx, nu.Email); err == nil {
			return errAccountExists
		} else if !folio.IsNotFound(err) {
			return err
		}
		if u, err = store.CreateUser(ctx, tx, nu); folio.KindOf(err) == folio.Conflict {
			return errAccountExists
		} else if err != nil {
			return err
		}
		if err := store.SetPasswordHash(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		self := folio.Caller{UserID: u.ID}
		if _, err := addMember(ctx, tx, self, &folio.Member{OrganizationID: orgID, UserID: u.ID, Role: inv.Role, JoinedAt: tx.Now}); err != nil {
			return err
		}
		if err := audit(ctx, tx, self, orgID, "invite_link.used", "invite-link", inviteID,
			map[string]any{"user": u.ID, "newAccount": true, "role": roleName(inv.Role)}); err != nil {
			return err
		}
		secret, err = createSession(ctx, tx, u.ID, "", SessionLifetime)
		return err
	})
	if err != nil {
		return "", nil, err
	}
	return secret, u, nil
}

// InviteLinkOffer is what the page of a live invite link shows a person
// who holds it: the organization's name and the role it gives.
type InviteLinkOffer struct {
	Organization string
	Role         folio.Role
}

// CheckInviteLink tells the holder of an invite link, signed in or not,
// whether it works, and what it offers: NotFound for a revoked, unknown or
// other organization's link, Invalid when the organization has turned
// invite links off. It tells nothing the link's own POST would not.
func (a *App) CheckInviteLink(ctx context.Context, orgID, inviteID folio.ID) (*InviteLinkOffer, error) {
	var offer *InviteLinkOffer
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		inv, err := store.GetInviteLink(ctx, tx, orgID, inviteID)
		if err != nil {
			return err
		}
		org, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		if !org.InviteLinks {
			return errInviteLinksOff
		}
		offer = &InviteLinkOffer{Organization: org.Title, Role: inv.Role}
		return nil
	})
	return offer, err
}
