package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// GetAuthenticatedUser returns the caller's user; Forbidden to a token
// without a user (requireUser).
func (a *App) GetAuthenticatedUser(ctx context.Context, caller folio.Caller) (u *folio.User, err error) {
	if err := requireUser(caller); err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		u, err = store.GetUser(ctx, tx, caller.UserID)
		return err
	})
	return u, err
}

// GetUser returns a user the caller may see: themself or someone sharing an
// organization with them. Anyone else is NotFound.
func (a *App) GetUser(ctx context.Context, caller folio.Caller, id folio.ID) (u *folio.User, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if caller.Site != nil {
			// A site API token sees the members of its site's
			// organization (authors of its pages), as the renderer shows.
			return siteUser(ctx, tx, caller, id, &u)
		}
		u, err = store.GetUserVisibleTo(ctx, tx, id, caller.UserID, caller.Org)
		return err
	})
	return u, err
}

// NewAccount describes a user created from the command line, with an API
// token and optionally a membership.
type NewAccount struct {
	Email        string
	Name         string
	Organization folio.ID   // optional
	Role         folio.Role // with Organization; RoleGuest makes a guest
	TokenLabel   string
}

// Account is a created user and the secret of their first API token.
type Account struct {
	User  *folio.User
	Token string
}

// CreateAccount creates a user with an API token and, when asked, adds them
// to an organization. It returns Invalid, Conflict (email taken) or
// NotFound (organization).
func (a *App) CreateAccount(ctx context.Context, in NewAccount) (*Account, error) {
	var acc Account
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		return a.createAccount(ctx, tx, in, &acc)
	})
	if err != nil {
		return nil, err
	}
	return &acc, nil
}

func (a *App) createAccount(ctx context.Context, tx *store.Tx, in NewAccount, acc *Account) error {
	nu := folio.NewUser{Email: in.Email, DisplayName: in.Name, EmailVerified: true}
	if err := nu.Normalize(); err != nil {
		return err
	}
	u, err := store.CreateUser(ctx, tx, nu)
	if err != nil {
		return err
	}
	acc.User = u
	if acc.Token, err = createFirstToken(ctx, tx, u.ID, in.TokenLabel); err != nil {
		return err
	}
	if in.Organization == "" {
		return nil
	}
	if !in.Role.Valid() {
		return folio.FieldErrorf("role", "role must be one of admin, create, review, edit, comment, read, or empty for a guest")
	}
	if _, err := store.GetOrganization(ctx, tx, in.Organization); err != nil {
		return err
	}
	_, err = addMember(ctx, tx, folio.Caller{}, &folio.Member{OrganizationID: in.Organization, UserID: u.ID, Role: in.Role, JoinedAt: tx.Now})
	return err
}

func createFirstToken(ctx context.Context, tx *store.Tx, userID folio.ID, label string) (string, error) {
	if label == "" {
		label = "first token"
	}
	return createToken(ctx, tx, &folio.Token{UserID: userID, Label: label})
}

// Bootstrap is what Init creates on an empty store.
type Bootstrap struct {
	User         *folio.User
	Organization *folio.OrganizationView
	Token        string
}

// InitInput describes the first admin and organization.
type InitInput struct {
	Email    string
	Name     string
	OrgTitle string
}

// ErrNotEmpty is returned by Init when the store already has users.
var ErrNotEmpty = folio.Errorf(folio.Conflict, "the store already has users: it was initialized before")

// Init creates the first admin user, their organization and an API token on
// an empty store. Of several servers starting together on one database only
// one succeeds; the others, and any later call, get ErrNotEmpty.
func (a *App) Init(ctx context.Context, in InitInput) (*Bootstrap, error) {
	if in.OrgTitle == "" {
		in.OrgTitle = "My organization"
	}
	var b Bootstrap
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		won, err := store.ClaimBootstrap(ctx, tx)
		if err != nil {
			return err
		}
		n, err := store.CountUsers(ctx, tx)
		if err != nil {
			return err
		}
		if !won || n > 0 {
			return ErrNotEmpty
		}
		var acc Account
		if err := a.createAccount(ctx, tx, NewAccount{Email: in.Email, Name: in.Name, TokenLabel: "bootstrap"}, &acc); err != nil {
			return err
		}
		b.User, b.Token = acc.User, acc.Token
		b.Organization, err = createOrganization(ctx, tx, acc.User.ID, folio.NewOrganization{Title: in.OrgTitle})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// CreateTokenForEmail creates an API token for the user with an email, for
// operators (people invited by email, say). NotFound when there is none.
func (a *App) CreateTokenForEmail(ctx context.Context, email, label string) (*Account, error) {
	nu := folio.NewUser{Email: email}
	if err := nu.Normalize(); err != nil {
		return nil, err
	}
	var acc Account
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		if acc.User, err = store.GetUserByEmail(ctx, tx, nu.Email); err != nil {
			return err
		}
		acc.Token, err = createFirstToken(ctx, tx, acc.User.ID, label)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &acc, nil
}
