package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// ListOrganizations lists the caller's organizations; Forbidden to a token
// without a user.
func (a *App) ListOrganizations(ctx context.Context, caller folio.Caller, opts folio.ListOptions) (l folio.List[folio.OrganizationView], err error) {
	if err := requireUser(caller); err != nil {
		return folio.List[folio.OrganizationView]{}, err
	}
	if caller.Org != "" {
		// A token confined to one organization lists only that one.
		v, err := a.GetOrganization(ctx, caller, caller.Org)
		if err != nil {
			return folio.List[folio.OrganizationView]{Items: []folio.OrganizationView{}}, nil
		}
		return folio.List[folio.OrganizationView]{Items: []folio.OrganizationView{*v}, Count: 1}, nil
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		l, err = store.ListOrganizationsForUser(ctx, tx, caller.UserID, opts)
		return err
	})
	return l, err
}

// GetOrganization returns an organization the caller is a member of, and
// NotFound for any other.
func (a *App) GetOrganization(ctx context.Context, caller folio.Caller, id folio.ID) (v *folio.OrganizationView, err error) {
	if !caller.InScope(id) {
		return nil, errOrgNotFound
	}
	err = a.read(ctx, caller, id, func(tx *store.Tx, _ folio.Access) error {
		v, err = store.GetOrganizationView(ctx, tx, id, caller.UserID)
		return err
	})
	return v, err
}

// CreateOrganization creates an organization with the caller as its admin.
// It returns Invalid, Conflict when the hostname is taken, or Forbidden to
// a token without a user.
func (a *App) CreateOrganization(ctx context.Context, caller folio.Caller, in folio.NewOrganization) (v *folio.OrganizationView, err error) {
	if err := requireUser(caller); err != nil {
		return nil, err
	}
	if caller.Org != "" {
		return nil, errScoped
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if v, err = createOrganization(ctx, tx, caller.UserID, in); err != nil {
			return err
		}
		// Recorded in the new organization, whose first admin the caller is.
		return audit(ctx, tx, caller, v.ID, "organization.created", "organization", v.ID,
			map[string]any{"title": v.Title, "hostname": v.Hostname})
	})
	return v, err
}

// createOrganization validates in and creates the organization with owner
// as admin. The defaults of a self-hosted organization are explained in
// docs/decisions.md.
func createOrganization(ctx context.Context, tx *store.Tx, owner folio.ID, in folio.NewOrganization) (*folio.OrganizationView, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	o := folio.Organization{
		ID: folio.NewID(), Title: in.Title, CreatedAt: tx.Now, UpdatedAt: tx.Now,
		EmailDomains: []string{}, Hostname: in.Hostname, Type: in.Type, UseCase: in.UseCase,
		CommunityType: in.CommunityType, DefaultRole: folio.RoleRead, InviteLinks: true,
		MergeRules: folio.MergeRules{Type: "none"},
	}
	if err := store.CreateOrganization(ctx, tx, &o); err != nil {
		return nil, err
	}
	m := folio.Member{OrganizationID: o.ID, UserID: owner, Role: folio.RoleAdmin, JoinedAt: tx.Now}
	if err := store.AddMember(ctx, tx, &m); err != nil {
		return nil, err
	}
	return &folio.OrganizationView{Organization: o, CallerRole: folio.RoleAdmin}, nil
}

// UpdateOrganization changes the fields present in u. Non-members get
// NotFound, members who are not admins Forbidden; then the update is
// validated (Invalid) and written (Conflict for a taken hostname).
func (a *App) UpdateOrganization(ctx context.Context, caller folio.Caller, id folio.ID, u *folio.OrganizationUpdate) (v *folio.OrganizationView, err error) {
	err = a.write(ctx, caller, id, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can update the organization"); err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.DefaultContent.Present() {
			// The default content is a site of this organization; another
			// organization's site is answered as if it did not exist.
			_, err := store.GetSite(ctx, tx, id, u.DefaultContent.Value.Site)
			if folio.IsNotFound(err) {
				return folio.FieldErrorf("defaultContent", "defaultContent: site %s not found in the organization", u.DefaultContent.Value.Site)
			}
			if err != nil {
				return err
			}
		}
		if u.MergeRules.Present() {
			if err := checkMembers(ctx, tx, id, u.MergeRules.Value.UserIDs()); err != nil {
				return err
			}
		}
		if !u.Empty() {
			if err := store.UpdateOrganization(ctx, tx, id, u); err != nil {
				return err
			}
			if err := audit(ctx, tx, caller, id, "organization.updated", "organization", id, auditChanges(u)); err != nil {
				return err
			}
		}
		v, err = store.GetOrganizationView(ctx, tx, id, caller.UserID)
		return err
	})
	return v, err
}

// checkMembers returns Invalid unless every user id is a member of the organization.
func checkMembers(ctx context.Context, tx *store.Tx, orgID folio.ID, ids []folio.ID) error {
	missing, err := store.NonMembers(ctx, tx, orgID, ids)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return folio.FieldErrorf("mergeRules", "mergeRules: %s is not a member of the organization", missing[0])
	}
	return nil
}
