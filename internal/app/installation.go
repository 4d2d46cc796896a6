package app

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

var errInstallationNotFound = folio.Errorf(folio.NotFound, "Installation could not be found")

// validate checks an installation update; target updates (space, site)
// take no selections.
func checkInstallationUpdate(u *folio.InstallationUpdate, target bool) error {
	if u.ExternalIDs != nil {
		if len(*u.ExternalIDs) > folio.MaxExternalIDs {
			return folio.FieldErrorf("externalIds", "externalIds lists at most %d ids", folio.MaxExternalIDs)
		}
		for _, id := range *u.ExternalIDs {
			if id == "" || len(id) > folio.MaxExternalID {
				return folio.FieldErrorf("externalIds", "each external id must be 1 to %d bytes", folio.MaxExternalID)
			}
		}
	}
	if u.Configuration != nil && string(u.Configuration) != "null" {
		if len(u.Configuration) > folio.MaxInstallationConfig {
			return folio.FieldErrorf("configuration", "configuration must be at most %d KB of JSON", folio.MaxInstallationConfig>>10)
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(u.Configuration, &m) != nil {
			return folio.FieldErrorf("configuration", "configuration must be an object")
		}
	}
	for _, s := range []struct {
		field string
		v     *string
	}{{"space_selection", u.SpaceSelection}, {"site_selection", u.SiteSelection}} {
		if s.v == nil {
			continue
		}
		if target {
			return folio.FieldErrorf(s.field, "%s applies to organization installations only", s.field)
		}
		if *s.v != "all" && *s.v != "selected" {
			return folio.FieldErrorf(s.field, "%s must be all or selected", s.field)
		}
	}
	return nil
}

// applyConfig sets configuration and external ids from an update.
func applyConfig(u *folio.InstallationUpdate, config *json.RawMessage, ids *[]string) {
	if u.Configuration != nil {
		*config = json.RawMessage("{}")
		if string(u.Configuration) != "null" {
			*config = compactJSON(u.Configuration)
		}
	}
	if u.ExternalIDs != nil {
		*ids = slices.Clone(*u.ExternalIDs)
	}
}

// installation loads an installation the caller manages: as an admin of
// the integration's organization or with installIntegration in the
// installation's organization.
func installation(ctx context.Context, tx *store.Tx, caller folio.Caller, name string, id folio.ID) (*folio.IntegrationView, *folio.Installation, error) {
	if g := caller.Installation; g != nil {
		// An installation token manages its own installation only.
		if g.Installation != id || g.Integration != name {
			return nil, nil, errInstallationNotFound
		}
		i, err := store.GetIntegration(ctx, tx, name)
		if err != nil {
			return nil, nil, err
		}
		inst, err := store.GetInstallation(ctx, tx, name, id)
		if err != nil {
			return nil, nil, err
		}
		return &folio.IntegrationView{Integration: *i}, inst, nil
	}
	iv, err := integrationView(ctx, tx, caller, name)
	if err != nil {
		return nil, nil, err
	}
	inst, err := store.GetInstallation(ctx, tx, name, id)
	if err != nil {
		return nil, nil, err
	}
	if iv.Admin {
		return iv, inst, nil
	}
	acc, err := access(ctx, tx, caller, inst.OrganizationID)
	if folio.IsNotFound(err) || (err == nil && !acc.Permissions().InstallIntegration) {
		return nil, nil, errInstallationNotFound
	}
	return iv, inst, err
}

// visibleOrgs returns the organizations whose installations the caller
// sees: nil (all) for the integration's admins, else those it administers.
func visibleOrgs(ctx context.Context, tx *store.Tx, caller folio.Caller, iv *folio.IntegrationView) ([]folio.ID, error) {
	if iv.Admin {
		return nil, nil
	}
	orgs, err := store.AdminOrgs(ctx, tx, caller.UserID)
	if caller.Org != "" {
		orgs = slices.DeleteFunc(orgs, func(o folio.ID) bool { return o != caller.Org })
	}
	return orgs, err
}

// InstallIntegration installs an integration on an organization (201).
// The caller needs installIntegration there; the integration must be
// visible to it.
func (a *App) InstallIntegration(ctx context.Context, caller folio.Caller, name string, orgID folio.ID) (inst *folio.Installation, err error) {
	if orgID == "" {
		return nil, folio.FieldErrorf("organization", "organization is required")
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := integrationView(ctx, tx, caller, name); err != nil {
			return err
		}
		acc, err := access(ctx, tx, caller, orgID)
		if err != nil {
			return folio.Errorf(folio.NotFound, "Not found")
		}
		if err := require(acc.Permissions().InstallIntegration, "only organization admins install integrations"); err != nil {
			return err
		}
		inst = &folio.Installation{ID: folio.NewID(), Integration: name, OrganizationID: orgID, Status: folio.InstallationActive,
			SpaceSelection: "all", SiteSelection: "all", Configuration: json.RawMessage("{}"), ExternalIDs: []string{}}
		if err := store.CreateInstallation(ctx, tx, inst); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "integration.installed", "installation", inst.ID,
			map[string]any{"integration": name}); err != nil {
			return err
		}
		return tell(ctx, tx, inst, folio.EventInstallationSetup, map[string]any{"status": inst.Status})
	})
	return inst, err
}

// GetInstallation returns an installation the caller manages.
func (a *App) GetInstallation(ctx context.Context, caller folio.Caller, name string, id folio.ID) (inst *folio.Installation, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, inst, err = installation(ctx, tx, caller, name, id)
		return err
	})
	return inst, err
}

// ListInstallations lists an integration's installations: all of them to
// its admins, those of the organizations the caller administers to others.
func (a *App) ListInstallations(ctx context.Context, caller folio.Caller, name, externalID string, opts folio.ListOptions) (l folio.List[folio.Installation], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		iv, err := integrationView(ctx, tx, caller, name)
		if err != nil {
			return err
		}
		orgs, err := visibleOrgs(ctx, tx, caller, iv)
		if err != nil {
			return err
		}
		l, err = store.ListInstallations(ctx, tx, store.InstallationFilter{Integration: name, Orgs: orgs, ExternalID: externalID}, opts)
		return err
	})
	return l, err
}

// UpdateInstallation changes an installation's configuration, external
// ids or selections, and tells the installation (installation_setup with
// what it was before).
func (a *App) UpdateInstallation(ctx context.Context, caller folio.Caller, name string, id folio.ID, u folio.InstallationUpdate) (inst *folio.Installation, err error) {
	if err := checkInstallationUpdate(&u, false); err != nil {
		return nil, err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, inst, err = installation(ctx, tx, caller, name, id); err != nil {
			return err
		}
		previous := map[string]any{"status": inst.Status, "configuration": inst.Configuration}
		applyConfig(&u, &inst.Configuration, &inst.ExternalIDs)
		if u.SpaceSelection != nil {
			inst.SpaceSelection = *u.SpaceSelection
		}
		if u.SiteSelection != nil {
			inst.SiteSelection = *u.SiteSelection
		}
		if err := store.UpdateInstallation(ctx, tx, inst); err != nil {
			return err
		}
		// The configuration may hold credentials: the log names what changed.
		if err := audit(ctx, tx, caller, inst.OrganizationID, "installation.updated", "installation", inst.ID,
			map[string]any{"integration": name, "changed": changedInstallationFields(&u)}); err != nil {
			return err
		}
		return tell(ctx, tx, inst, folio.EventInstallationSetup, map[string]any{"status": inst.Status, "previous": previous})
	})
	return inst, err
}

// Uninstall removes an installation with its space and site links, and
// tells it (installation_deleted). No error when it is already gone.
func (a *App) Uninstall(ctx context.Context, caller folio.Caller, name string, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		_, inst, err := installation(ctx, tx, caller, name, id)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := tell(ctx, tx, inst, folio.EventInstallationDeleted,
			map[string]any{"previous": map[string]any{"status": inst.Status, "configuration": inst.Configuration}}); err != nil {
			return err
		}
		if err := store.DeleteInstallation(ctx, tx, inst.ID); err != nil {
			return err
		}
		return audit(ctx, tx, caller, inst.OrganizationID, "integration.uninstalled", "installation", inst.ID,
			map[string]any{"integration": name})
	})
}

// checkTarget checks that the caller may install on a space or site of the
// installation's organization.
func checkTarget(ctx context.Context, tx *store.Tx, caller folio.Caller, inst *folio.Installation, kind string, target folio.ID) error {
	if kind == folio.InstallOnSpace {
		sv, _, err := space(ctx, tx, caller, target)
		if err != nil {
			return err
		}
		if sv.OrganizationID != inst.OrganizationID {
			return errSpaceNotFound
		}
		return require(sv.Permissions().InstallIntegration, "only admins of the space install integrations on it")
	}
	_, err := site(ctx, tx, caller, inst.OrganizationID, target, true)
	return err
}

// InstallOnTarget installs an organization installation on one of its
// spaces or sites (201), telling the installation.
func (a *App) InstallOnTarget(ctx context.Context, caller folio.Caller, name string, id folio.ID, kind string, target folio.ID) (ti *folio.TargetInstallation, err error) {
	if target == "" {
		return nil, folio.FieldErrorf(kind, "%s is required", kind)
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		iv, inst, err := installation(ctx, tx, caller, name, id)
		if err != nil {
			return err
		}
		if iv.Target != "all" && iv.Target != kind {
			return folio.Errorf(folio.Invalid, "the integration %s installs on %ss only", name, iv.Target)
		}
		if err := checkTarget(ctx, tx, caller, inst, kind, target); err != nil {
			return err
		}
		ti = &folio.TargetInstallation{InstallationID: inst.ID, Integration: name, OrganizationID: inst.OrganizationID, Kind: kind,
			TargetID: target, Status: folio.InstallationActive, Configuration: json.RawMessage("{}"), ExternalIDs: []string{}}
		if err := store.CreateTargetInstallation(ctx, tx, ti); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, inst.OrganizationID, "installation.target_added", "installation", inst.ID,
			map[string]any{"integration": name, kind: target}); err != nil {
			return err
		}
		typ := map[string]string{folio.InstallOnSpace: folio.EventSpaceInstallationSetup, folio.InstallOnSite: folio.EventSiteInstallationSetup}[kind]
		return tell(ctx, tx, inst, typ, map[string]any{kind + "Id": target, "status": ti.Status})
	})
	return ti, err
}

// targetInstallation loads an installation's link to a space or site.
func targetInstallation(ctx context.Context, tx *store.Tx, caller folio.Caller, name string, id folio.ID, kind string, target folio.ID) (*folio.Installation, *folio.TargetInstallation, error) {
	_, inst, err := installation(ctx, tx, caller, name, id)
	if err != nil {
		return nil, nil, err
	}
	ti, err := store.GetTargetInstallation(ctx, tx, inst.ID, kind, target)
	return inst, ti, err
}

// GetTargetInstallation returns an installation's link to a space or site.
func (a *App) GetTargetInstallation(ctx context.Context, caller folio.Caller, name string, id folio.ID, kind string, target folio.ID) (ti *folio.TargetInstallation, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, ti, err = targetInstallation(ctx, tx, caller, name, id, kind, target)
		return err
	})
	return ti, err
}

// UpdateTargetInstallation changes a link's configuration or external ids.
func (a *App) UpdateTargetInstallation(ctx context.Context, caller folio.Caller, name string, id folio.ID, kind string, target folio.ID, u folio.InstallationUpdate) (ti *folio.TargetInstallation, err error) {
	if err := checkInstallationUpdate(&u, true); err != nil {
		return nil, err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		inst, t, err := targetInstallation(ctx, tx, caller, name, id, kind, target)
		if err != nil {
			return err
		}
		ti = t
		previous := map[string]any{"status": ti.Status, "configuration": ti.Configuration}
		applyConfig(&u, &ti.Configuration, &ti.ExternalIDs)
		if err := store.UpdateTargetInstallation(ctx, tx, ti); err != nil {
			return err
		}
		// The configuration may hold credentials: the log names what changed.
		if err := audit(ctx, tx, caller, inst.OrganizationID, "installation.target_updated", "installation", inst.ID,
			map[string]any{"integration": name, kind: target, "changed": changedInstallationFields(&u)}); err != nil {
			return err
		}
		typ := map[string]string{folio.InstallOnSpace: folio.EventSpaceInstallationSetup, folio.InstallOnSite: folio.EventSiteInstallationSetup}[kind]
		return tell(ctx, tx, inst, typ, map[string]any{kind + "Id": target, "status": ti.Status, "previous": previous})
	})
	return ti, err
}

// UninstallFromTarget removes a link (no error when there is none).
func (a *App) UninstallFromTarget(ctx context.Context, caller folio.Caller, name string, id folio.ID, kind string, target folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		inst, ti, err := targetInstallation(ctx, tx, caller, name, id, kind, target)
		if folio.IsNotFound(err) && inst != nil {
			return nil
		}
		if err != nil {
			return err
		}
		typ := map[string]string{folio.InstallOnSpace: folio.EventSpaceInstallationDeleted, folio.InstallOnSite: folio.EventSiteInstallationDeleted}[kind]
		if err := tell(ctx, tx, inst, typ, map[string]any{kind + "Id": target,
			"previous": map[string]any{"status": ti.Status, "configuration": ti.Configuration}}); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, inst.OrganizationID, "installation.target_removed", "installation", inst.ID,
			map[string]any{"integration": name, kind: target}); err != nil {
			return err
		}
		return store.DeleteTargetInstallation(ctx, tx, inst.ID, kind, target)
	})
}

// ListTargetInstallations lists space or site links: of one installation
// (id set), or of every installation of the integration the caller sees.
func (a *App) ListTargetInstallations(ctx context.Context, caller folio.Caller, name string, id folio.ID, kind, externalID string, opts folio.ListOptions) (l folio.List[folio.TargetInstallation], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		f := store.InstallationFilter{Integration: name, ExternalID: externalID}
		if id != "" {
			if _, _, err := installation(ctx, tx, caller, name, id); err != nil {
				return err
			}
		} else {
			iv, err := integrationView(ctx, tx, caller, name)
			if err != nil {
				return err
			}
			if f.Orgs, err = visibleOrgs(ctx, tx, caller, iv); err != nil {
				return err
			}
		}
		l, err = store.ListTargetInstallations(ctx, tx, id, kind, f, opts)
		return err
	})
	return l, err
}

// ListOrganizationInstallations lists the installations in an
// organization (members who may list installations).
func (a *App) ListOrganizationInstallations(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.InstalledIntegration], err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().ListInstallations, "you cannot list this organization's installations"); err != nil {
			return err
		}
		is, err := store.ListInstallations(ctx, tx, store.InstallationFilter{Orgs: []folio.ID{orgID}}, opts)
		if err != nil {
			return err
		}
		// The page's integrations in one query, their owners once each.
		names := make([]string, len(is.Items))
		for i, inst := range is.Items {
			names[i] = inst.Integration
		}
		byName, err := store.GetIntegrations(ctx, tx, names)
		if err != nil {
			return err
		}
		integrations := make([]folio.Integration, len(is.Items))
		for i, name := range names {
			integrations[i] = *byName[name] // installations go with their integration
		}
		views, err := viewIntegrations(ctx, tx, caller, integrations)
		if err != nil {
			return err
		}
		l = folio.List[folio.InstalledIntegration]{Count: is.Count, Next: is.Next, Items: make([]folio.InstalledIntegration, len(is.Items))}
		for i := range is.Items {
			l.Items[i] = folio.InstalledIntegration{Installation: is.Items[i], Integration: views[i]}
		}
		return nil
	})
	return l, err
}

// OrganizationInstallationStatus returns the status of an integration's
// installation in an organization; NotFound when it is not installed.
func (a *App) OrganizationInstallationStatus(ctx context.Context, caller folio.Caller, orgID folio.ID, name string) (status string, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if _, err := integrationView(ctx, tx, caller, name); err != nil {
			return err
		}
		inst, err := store.GetInstallationIn(ctx, tx, name, orgID)
		if err != nil {
			return err
		}
		status = inst.Status
		return nil
	})
	return status, err
}

// tell records an event for an installation and queues its delivery, in
// the caller's transaction.
func tell(ctx context.Context, tx *store.Tx, inst *folio.Installation, typ string, fields map[string]any) error {
	e := &folio.IntegrationEvent{ID: folio.NewID(), Integration: inst.Integration, InstallationID: inst.ID, Type: typ,
		State: folio.IntegrationEventPending}
	fields["eventId"], fields["type"], fields["installationId"] = e.ID, typ, inst.ID
	e.Payload, _ = json.Marshal(fields)
	if err := store.CreateIntegrationEvent(ctx, tx, e); err != nil {
		return err
	}
	return queueIntegrationEvent(ctx, tx, e)
}

// integrationEventJob is the payload of folio.JobDispatchIntegrationEvent.
type integrationEventJob struct {
	Integration string   `json:"integration"`
	Event       folio.ID `json:"event"`
}

func queueIntegrationEvent(ctx context.Context, tx *store.Tx, e *folio.IntegrationEvent) error {
	b, _ := json.Marshal(integrationEventJob{Integration: e.Integration, Event: e.ID})
	return store.EnqueueJob(ctx, tx, folio.JobDispatchIntegrationEvent, string(b), tx.Now)
}

// fanOutToIntegrations records an organization event for every
// installation that hears about it (space events: those with the space
// selected).
func fanOutToIntegrations(ctx context.Context, tx *store.Tx, e *folio.Event, payload map[string]any) error {
	if !integrationEventTypes[e.Type] {
		return nil
	}
	ls, err := store.ListenersOf(ctx, tx, e.OrgID, e.SpaceID)
	if err != nil || len(ls) == 0 {
		return err
	}
	for _, l := range ls {
		fields := make(map[string]any, len(payload))
		for k, v := range payload {
			fields[k] = v
		}
		inst := &folio.Installation{ID: l.Installation, Integration: l.Integration}
		if err := tell(ctx, tx, inst, e.Type, fields); err != nil {
			return err
		}
	}
	return nil
}

// integrationEventTypes are the organization events integrations hear
// about: the reference's types.
var integrationEventTypes = map[string]bool{folio.EventSpaceContentUpdated: true, folio.EventSpaceGitSyncStarted: true,
	folio.EventSpaceGitSyncCompleted: true}

// changedInstallationFields names the fields an update sets.
func changedInstallationFields(u *folio.InstallationUpdate) []string {
	out := []string{}
	if u.Configuration != nil {
		out = append(out, "configuration")
	}
	if u.ExternalIDs != nil {
		out = append(out, "externalIds")
	}
	if u.SpaceSelection != nil {
		out = append(out, "space_selection")
	}
	if u.SiteSelection != nil {
		out = append(out, "site_selection")
	}
	return out
}
