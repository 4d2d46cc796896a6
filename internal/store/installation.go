package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/foliodocs/folio"
)

const installationColumns = `ii.id, ii.integration_name, ii.organization_id, ii.status, ii.space_selection, ii.site_selection,
	ii.configuration, ii.external_ids, ii.created_at, ii.updated_at,
	(SELECT COUNT(*) FROM integration_target_installations ti WHERE ti.installation_id = ii.id AND ti.kind = 'space')`

func scanInstallation(rows *sql.Rows, in *folio.Installation) error {
	var (
		config, ids      string
		created, updated int64
	)
	if err := rows.Scan(&in.ID, &in.Integration, &in.OrganizationID, &in.Status, &in.SpaceSelection, &in.SiteSelection,
		&config, &ids, &created, &updated, &in.Spaces); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(ids), &in.ExternalIDs); err != nil {
		return fmt.Errorf("decode installation %s: %w", in.ID, err)
	}
	in.Configuration = json.RawMessage(config)
	in.CreatedAt, in.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateInstallation records an installation; Conflict when the
// integration is already installed in the organization.
func CreateInstallation(ctx context.Context, t *Tx, in *folio.Installation) error {
	in.CreatedAt, in.UpdatedAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO integration_installations (id, integration_name, organization_id, status, space_selection,
		site_selection, configuration, external_ids, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		in.ID, in.Integration, in.OrganizationID, in.Status, in.SpaceSelection, in.SiteSelection, string(in.Configuration),
		mustJSON(in.ExternalIDs), micros(t.Now), micros(t.Now))
	if folio.KindOf(err) == folio.Conflict {
		return folio.Errorf(folio.Conflict, "the integration %s is already installed in this organization", in.Integration)
	}
	return wrap(err, "create installation")
}

// GetInstallation returns an installation of an integration, or NotFound.
func GetInstallation(ctx context.Context, t *Tx, integration string, id folio.ID) (*folio.Installation, error) {
	in := new(folio.Installation)
	err := t.one(ctx, `SELECT `+installationColumns+` FROM integration_installations ii WHERE ii.integration_name = ? AND ii.id = ?`,
		[]any{integration, id}, func(rows *sql.Rows) error { return scanInstallation(rows, in) })
	if err != nil {
		return nil, notFound(err, "get installation", "Installation could not be found")
	}
	return in, nil
}

// GetInstallationIn returns an integration's installation in an
// organization, or NotFound.
func GetInstallationIn(ctx context.Context, t *Tx, integration string, orgID folio.ID) (*folio.Installation, error) {
	in := new(folio.Installation)
	err := t.one(ctx, `SELECT `+installationColumns+` FROM integration_installations ii WHERE ii.integration_name = ? AND ii.organization_id = ?`,
		[]any{integration, orgID}, func(rows *sql.Rows) error { return scanInstallation(rows, in) })
	if err != nil {
		return nil, notFound(err, "get installation", "The integration is not installed in this organization")
	}
	return in, nil
}

// InstallationFilter narrows installation lists: the integration, the
// organizations (nil: any), an external id.
type InstallationFilter struct {
	Integration string
	Orgs        []folio.ID
	ExternalID  string
}

func (f InstallationFilter) where(alias string) (string, []any) {
	where, args := ` WHERE TRUE`, []any{}
	if f.Integration != "" {
		where, args = where+` AND `+alias+`.integration_name = ?`, append(args, f.Integration)
	}
	if f.Orgs != nil {
		if len(f.Orgs) == 0 {
			return ` WHERE FALSE`, nil
		}
		where += ` AND ` + alias + `.organization_id IN (` + placeholders(len(f.Orgs)) + `)`
		for _, o := range f.Orgs {
			args = append(args, o)
		}
	}
	if f.ExternalID != "" {
		where, args = where+` AND `+alias+`.external_ids LIKE ? ESCAPE '\'`, append(args, `%"`+escapeLike(f.ExternalID)+`"%`)
	}
	return where, args
}

// ListInstallations lists installations, oldest first.
func ListInstallations(ctx context.Context, t *Tx, f InstallationFilter, opts folio.ListOptions) (folio.List[folio.Installation], error) {
	where, args := f.where("ii")
	q := listQuery{
		Query: `SELECT ` + installationColumns + ` FROM integration_installations ii` + where, Args: args,
		Keys: []string{"ii.created_at", "ii.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM integration_installations ii` + where, CountArgs: args,
	}
	return page(ctx, t, "list installations", q, opts, func(r *sql.Rows) (folio.Installation, []any, error) {
		var in folio.Installation
		err := scanInstallation(r, &in)
		return in, []any{micros(in.CreatedAt), in.ID}, err
	})
}

// UpdateInstallation saves an installation's status, selections,
// configuration and external ids.
func UpdateInstallation(ctx context.Context, t *Tx, in *folio.Installation) error {
	in.UpdatedAt = t.Now
	_, err := t.exec(ctx, `UPDATE integration_installations SET status = ?, space_selection = ?, site_selection = ?,
		configuration = ?, external_ids = ?, updated_at = ? WHERE id = ?`, in.Status, in.SpaceSelection, in.SiteSelection,
		string(in.Configuration), mustJSON(in.ExternalIDs), micros(t.Now), in.ID)
	return wrap(err, "update installation")
}

// DeleteInstallation removes an installation and its space and site links.
func DeleteInstallation(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM integration_installations WHERE id = ?`, id)
	return wrap(err, "delete installation")
}

const targetColumns = `ti.installation_id, ii.integration_name, ii.organization_id, ti.kind, ti.target_id, ti.status,
	ti.configuration, ti.external_ids, ti.created_at, ti.updated_at`

func scanTarget(rows *sql.Rows, ti *folio.TargetInstallation) error {
	var (
		config, ids      string
		created, updated int64
	)
	if err := rows.Scan(&ti.InstallationID, &ti.Integration, &ti.OrganizationID, &ti.Kind, &ti.TargetID, &ti.Status,
		&config, &ids, &created, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(ids), &ti.ExternalIDs); err != nil {
		return fmt.Errorf("decode %s installation %s: %w", ti.Kind, ti.TargetID, err)
	}
	ti.Configuration = json.RawMessage(config)
	ti.CreatedAt, ti.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateTargetInstallation links an installation to a space or site;
// Conflict when it already is.
func CreateTargetInstallation(ctx context.Context, t *Tx, ti *folio.TargetInstallation) error {
	ti.CreatedAt, ti.UpdatedAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO integration_target_installations (installation_id, kind, target_id, status, configuration,
		external_ids, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, ti.InstallationID, ti.Kind, ti.TargetID,
		ti.Status, string(ti.Configuration), mustJSON(ti.ExternalIDs), micros(t.Now), micros(t.Now))
	if folio.KindOf(err) == folio.Conflict {
		return folio.Errorf(folio.Conflict, "the integration is already installed on this %s", ti.Kind)
	}
	return wrap(err, "create target installation")
}

// GetTargetInstallation returns an installation's link to a space or site,
// or NotFound.
func GetTargetInstallation(ctx context.Context, t *Tx, installation folio.ID, kind string, target folio.ID) (*folio.TargetInstallation, error) {
	ti := new(folio.TargetInstallation)
	err := t.one(ctx, `SELECT `+targetColumns+` FROM integration_target_installations ti
		JOIN integration_installations ii ON ii.id = ti.installation_id
		WHERE ti.installation_id = ? AND ti.kind = ? AND ti.target_id = ?`, []any{installation, kind, target},
		func(rows *sql.Rows) error { return scanTarget(rows, ti) })
	if err != nil {
		return nil, notFound(err, "get target installation", "The integration is not installed on this "+kind)
	}
	return ti, nil
}

// ListTargetInstallations lists space or site links, of one installation
// (f.Integration and f.Orgs narrow further), oldest first.
func ListTargetInstallations(ctx context.Context, t *Tx, installation folio.ID, kind string, f InstallationFilter, opts folio.ListOptions) (folio.List[folio.TargetInstallation], error) {
	external := f.ExternalID
	f.ExternalID = ""
	where, args := f.where("ii")
	where += ` AND ti.kind = ?`
	args = append(args, kind)
	if external != "" {
		// The link's own external ids.
		where, args = where+` AND ti.external_ids LIKE ? ESCAPE '\'`, append(args, `%"`+escapeLike(external)+`"%`)
	}
	if installation != "" {
		where, args = where+` AND ti.installation_id = ?`, append(args, installation)
	}
	from := ` FROM integration_target_installations ti JOIN integration_installations ii ON ii.id = ti.installation_id`
	q := listQuery{
		Query: `SELECT ` + targetColumns + from + where, Args: args,
		Keys: []string{"ti.created_at", "ti.installation_id", "ti.target_id"}, Shape: "iss",
		Count: `SELECT COUNT(*)` + from + where, CountArgs: args,
	}
	return page(ctx, t, "list target installations", q, opts, func(r *sql.Rows) (folio.TargetInstallation, []any, error) {
		var ti folio.TargetInstallation
		err := scanTarget(r, &ti)
		return ti, []any{micros(ti.CreatedAt), ti.InstallationID, ti.TargetID}, err
	})
}

// UpdateTargetInstallation saves a link's status, configuration and
// external ids.
func UpdateTargetInstallation(ctx context.Context, t *Tx, ti *folio.TargetInstallation) error {
	ti.UpdatedAt = t.Now
	_, err := t.exec(ctx, `UPDATE integration_target_installations SET status = ?, configuration = ?, external_ids = ?, updated_at = ?
		WHERE installation_id = ? AND kind = ? AND target_id = ?`, ti.Status, string(ti.Configuration), mustJSON(ti.ExternalIDs),
		micros(t.Now), ti.InstallationID, ti.Kind, ti.TargetID)
	return wrap(err, "update target installation")
}

// DeleteTargetInstallation removes a link.
func DeleteTargetInstallation(ctx context.Context, t *Tx, installation folio.ID, kind string, target folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM integration_target_installations WHERE installation_id = ? AND kind = ? AND target_id = ?`,
		installation, kind, target)
	return wrap(err, "delete target installation")
}

// Listener is an installation that hears about an event: its
// integration has a script or a development tunnel.
type Listener struct {
	Installation folio.ID
	Integration  string
}

// ListenersOf returns the installations in an organization that hear about
// events of a space ("" for organization-wide events): those with every
// space selected, or this one.
func ListenersOf(ctx context.Context, t *Tx, orgID, spaceID folio.ID) ([]Listener, error) {
	var out []Listener
	q := `SELECT ii.id, ii.integration_name FROM integration_installations ii JOIN integrations i ON i.name = ii.integration_name
		WHERE ii.organization_id = ? AND ii.status = 'active' AND (i.script <> '' OR i.dev_tunnel_url <> '')`
	args := []any{orgID}
	if spaceID != "" {
		q += ` AND (ii.space_selection = 'all' OR EXISTS (SELECT 1 FROM integration_target_installations ti
			WHERE ti.installation_id = ii.id AND ti.kind = 'space' AND ti.target_id = ?))`
		args = append(args, spaceID)
	}
	err := t.query(ctx, q+` ORDER BY ii.id`, args, func(rows *sql.Rows) error {
		var l Listener
		if err := rows.Scan(&l.Installation, &l.Integration); err != nil {
			return err
		}
		out = append(out, l)
		return nil
	})
	return out, wrap(err, "list event listeners")
}

// AdminOrgs returns the organizations a user administers.
func AdminOrgs(ctx context.Context, t *Tx, userID folio.ID) ([]folio.ID, error) {
	out := []folio.ID{}
	err := t.query(ctx, `SELECT organization_id FROM members WHERE user_id = ? AND role = 'admin' ORDER BY organization_id`,
		[]any{userID}, func(rows *sql.Rows) error {
			var id folio.ID
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
			return nil
		})
	return out, wrap(err, "list administered organizations")
}

// SiteListenersOf returns the installations that hear about views of a
// site: active, with a script or a development tunnel, covering the site,
// and holding scope when it is not empty.
func SiteListenersOf(ctx context.Context, t *Tx, orgID, siteID folio.ID, scope string) ([]Listener, error) {
	var out []Listener
	q := `SELECT ii.id, ii.integration_name FROM integration_installations ii
		JOIN integrations i ON i.name = ii.integration_name
		WHERE ii.organization_id = ? AND ii.status = 'active' AND (i.script <> '' OR i.dev_tunnel_url <> '')
		AND (ii.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_target_installations ti
			WHERE ti.installation_id = ii.id AND ti.kind = 'site' AND ti.target_id = ?))`
	args := []any{orgID, siteID}
	if scope != "" {
		q, args = q+` AND i.scopes LIKE ?`, append(args, `%"`+scope+`"%`)
	}
	err := t.query(ctx, q+` ORDER BY ii.id`, args, func(rows *sql.Rows) error {
		var l Listener
		if err := rows.Scan(&l.Installation, &l.Integration); err != nil {
			return err
		}
		out = append(out, l)
		return nil
	})
	return out, wrap(err, "list site view listeners")
}
