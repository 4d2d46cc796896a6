package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

var errOrgNotFound = folio.Errorf(folio.NotFound, "organization not found")

// errScoped refuses operations outside the one organization a token is
// confined to.
var errScoped = folio.Errorf(folio.Forbidden, "this token was issued by an organization's single sign-on and works only inside that organization")

var errMemberDisabled = folio.Errorf(folio.Forbidden, "your membership of this organization is disabled: an admin of the organization can enable it again")

var errSSORequired = folio.Errorf(folio.Forbidden, "this organization requires single sign-on: sign in through its single sign-on")

// access loads what the caller is in an organization and applies the SSO
// rule. Non-members get NotFound, exactly as for a missing organization.
func access(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID) (folio.Access, error) {
	if !caller.InScope(orgID) {
		return folio.Access{}, errOrgNotFound
	}
	a, err := store.OrgAccess(ctx, tx, orgID, caller.UserID)
	if err != nil {
		return a, err
	}
	if a.Disabled {
		// Every token of a disabled member, and every sign-in token its
		// SSO handed out, stops working here from the next request.
		return a, errMemberDisabled
	}
	a.SSOToken = caller.Org == orgID
	if a.SSOBlocked() {
		return a, errSSORequired
	}
	return a, nil
}

// errNoUser refuses a token without a user (a site API token, an
// installation token) an operation that acts as a user.
var errNoUser = folio.Errorf(folio.Forbidden, "this operation needs a user's API token")

// requireUser returns Forbidden unless the caller is a user: the user-only
// operations (the caller's own account, tokens and organizations) call it
// first, so that they never run for a token that has no user, whatever
// route reaches them.
func requireUser(caller folio.Caller) error {
	if caller.UserID == "" || caller.Site != nil || caller.Installation != nil {
		return errNoUser
	}
	return nil
}

// require returns Forbidden with msg unless ok.
func require(ok bool, msg string) error {
	if !ok {
		return folio.Errorf(folio.Forbidden, "%s", msg)
	}
	return nil
}

// read runs fn with the caller's access to an organization, outside a transaction.
func (a *App) read(ctx context.Context, caller folio.Caller, orgID folio.ID, fn func(*store.Tx, folio.Access) error) error {
	return a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := access(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		return fn(tx, acc)
	})
}

// write runs fn with the caller's access to an organization, in one transaction.
func (a *App) write(ctx context.Context, caller folio.Caller, orgID folio.ID, fn func(*store.Tx, folio.Access) error) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := access(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		return fn(tx, acc)
	})
}
