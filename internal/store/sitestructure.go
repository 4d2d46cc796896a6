package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/foliodocs/folio"
)

const siteSectionColumns = `s.id, s.site_id, s.group_id, s.title, s.path, s.icon, s.description, s.condition,
	s.position, s.created_at, s.updated_at, COALESCE(st.default_site_section = s.id, FALSE)`

func scanSiteSection(rows *sql.Rows, s *folio.SiteSection) error {
	var (
		group, icon, desc, cond sql.NullString
		created, updated        int64
	)
	err := rows.Scan(&s.ID, &s.SiteID, &group, &s.Title, &s.Path, &icon, &desc, &cond, &s.Position,
		&created, &updated, &s.Default)
	s.GroupID, s.Icon, s.Description, s.Condition = group.String, icon.String, desc.String, cond.String
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	return err
}

// CreateSiteSection inserts a section; a path the site already uses is a
// Conflict.
func CreateSiteSection(ctx context.Context, t *Tx, s *folio.SiteSection) error {
	_, err := t.exec(ctx, `INSERT INTO site_sections (id, site_id, group_id, title, path, icon, description, condition,
		position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.SiteID, nullString(s.GroupID), s.Title, s.Path, nullString(s.Icon), nullString(s.Description),
		nullString(s.Condition), s.Position, micros(s.CreatedAt), micros(s.UpdatedAt))
	return wrap(err, "create site section")
}

// UpdateSiteSection writes every field of a section.
func UpdateSiteSection(ctx context.Context, t *Tx, s *folio.SiteSection) error {
	_, err := t.exec(ctx, `UPDATE site_sections SET group_id = ?, title = ?, path = ?, icon = ?, description = ?,
		condition = ?, position = ?, updated_at = ? WHERE id = ?`,
		nullString(s.GroupID), s.Title, s.Path, nullString(s.Icon), nullString(s.Description),
		nullString(s.Condition), s.Position, micros(t.Now), s.ID)
	return wrap(err, "update site section")
}

// ListSiteSections returns every section of a site, by group and position.
func ListSiteSections(ctx context.Context, t *Tx, siteID folio.ID) ([]folio.SiteSection, error) {
	var out []folio.SiteSection
	err := t.query(ctx, `SELECT `+siteSectionColumns+` FROM site_sections s JOIN sites st ON st.id = s.site_id
		WHERE s.site_id = ? ORDER BY COALESCE(s.group_id, ''), s.position, s.id`, []any{siteID},
		func(r *sql.Rows) error {
			var s folio.SiteSection
			if err := scanSiteSection(r, &s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	return out, wrap(err, "list site sections")
}

// GetSiteSection returns a section of a site, or NotFound.
func GetSiteSection(ctx context.Context, t *Tx, siteID, id folio.ID) (*folio.SiteSection, error) {
	var s folio.SiteSection
	err := t.one(ctx, `SELECT `+siteSectionColumns+` FROM site_sections s JOIN sites st ON st.id = s.site_id
		WHERE s.id = ? AND s.site_id = ?`, []any{id, siteID}, func(r *sql.Rows) error { return scanSiteSection(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site section", "site section not found")
	}
	return &s, nil
}

// DeleteSiteSection deletes a section with its site spaces.
func DeleteSiteSection(ctx context.Context, t *Tx, siteID, id folio.ID) error {
	if _, err := t.exec(ctx, `DELETE FROM site_spaces WHERE site_id = ? AND section_id = ?`, siteID, id); err != nil {
		return wrap(err, "delete site section spaces")
	}
	_, err := t.exec(ctx, `DELETE FROM site_sections WHERE id = ? AND site_id = ?`, id, siteID)
	return wrap(err, "delete site section")
}

// SetDefaultSiteSection records a site's default section (empty for none).
func SetDefaultSiteSection(ctx context.Context, t *Tx, siteID, sectionID folio.ID) error {
	_, err := t.exec(ctx, `UPDATE sites SET default_site_section = ?, updated_at = ? WHERE id = ?`,
		nullString(sectionID), micros(t.Now), siteID)
	return wrap(err, "set default site section")
}

func scanSiteSectionGroup(rows *sql.Rows, g *folio.SiteSectionGroup) error {
	var (
		parent, icon sql.NullString
		created      int64
	)
	err := rows.Scan(&g.ID, &g.SiteID, &parent, &g.Title, &icon, &g.Position, &created)
	g.ParentID, g.Icon, g.CreatedAt = parent.String, icon.String, fromMicros(created)
	return err
}

const siteSectionGroupColumns = `id, site_id, parent_id, title, icon, position, created_at`

// CreateSiteSectionGroup inserts a section group.
func CreateSiteSectionGroup(ctx context.Context, t *Tx, g *folio.SiteSectionGroup) error {
	_, err := t.exec(ctx, `INSERT INTO site_section_groups (`+siteSectionGroupColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.SiteID, nullString(g.ParentID), g.Title, nullString(g.Icon), g.Position, micros(g.CreatedAt))
	return wrap(err, "create site section group")
}

// UpdateSiteSectionGroup writes every field of a section group.
func UpdateSiteSectionGroup(ctx context.Context, t *Tx, g *folio.SiteSectionGroup) error {
	_, err := t.exec(ctx, `UPDATE site_section_groups SET parent_id = ?, title = ?, icon = ?, position = ? WHERE id = ?`,
		nullString(g.ParentID), g.Title, nullString(g.Icon), g.Position, g.ID)
	return wrap(err, "update site section group")
}

// ListSiteSectionGroups returns every section group of a site.
func ListSiteSectionGroups(ctx context.Context, t *Tx, siteID folio.ID) ([]folio.SiteSectionGroup, error) {
	var out []folio.SiteSectionGroup
	err := t.query(ctx, `SELECT `+siteSectionGroupColumns+` FROM site_section_groups WHERE site_id = ?
		ORDER BY COALESCE(parent_id, ''), position, id`, []any{siteID}, func(r *sql.Rows) error {
		var g folio.SiteSectionGroup
		if err := scanSiteSectionGroup(r, &g); err != nil {
			return err
		}
		out = append(out, g)
		return nil
	})
	return out, wrap(err, "list site section groups")
}

// DeleteSiteSectionGroup deletes a section group, which must be empty.
func DeleteSiteSectionGroup(ctx context.Context, t *Tx, siteID, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM site_section_groups WHERE id = ? AND site_id = ?`, id, siteID)
	return wrap(err, "delete site section group")
}

// UpdateSiteSpace writes the fields of a site space that the structure
// changes: its space, section, path, position, default flag, hidden flag
// and condition.
func UpdateSiteSpace(ctx context.Context, t *Tx, s *folio.SiteSpace) error {
	_, err := t.exec(ctx, `UPDATE site_spaces SET space_id = ?, section_id = ?, path = ?, position = ?, is_default = ?,
		hidden = ?, condition = ?, updated_at = ? WHERE id = ?`,
		s.SpaceID, nullString(s.SectionID), s.Path, s.Position, s.Default, s.Hidden, nullString(s.Condition),
		micros(t.Now), s.ID)
	return wrap(err, "update site space")
}

// SiteSpacePlace is where a site space sits: its site and section.
type SiteSpacePlace struct {
	SiteID    folio.ID
	SectionID folio.ID
}

// DeleteSiteSpacesOfSpace deletes every site space that publishes a space
// and returns the distinct places they held, for the caller to restore the
// structure's invariants there.
func DeleteSiteSpacesOfSpace(ctx context.Context, t *Tx, spaceID folio.ID) ([]SiteSpacePlace, error) {
	var out []SiteSpacePlace
	err := t.query(ctx, `SELECT DISTINCT site_id, COALESCE(section_id, '') FROM site_spaces WHERE space_id = ?
		ORDER BY 1, 2`, []any{spaceID}, func(r *sql.Rows) error {
		var p SiteSpacePlace
		err := r.Scan(&p.SiteID, &p.SectionID)
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, wrap(err, "list site spaces of space")
	}
	if len(out) == 0 {
		return nil, nil
	}
	_, err = t.exec(ctx, `DELETE FROM site_spaces WHERE space_id = ?`, spaceID)
	return out, wrap(err, "delete site spaces of space")
}

// GetAdaptiveSchema returns a site's adaptive schema, or NotFound.
func GetAdaptiveSchema(ctx context.Context, t *Tx, siteID folio.ID) (*folio.AdaptiveSchema, error) {
	var (
		doc     string
		updated int64
	)
	err := t.get(ctx, `SELECT json_schema, updated_at FROM site_adaptive_schemas WHERE site_id = ?`, []any{siteID},
		&doc, &updated)
	if err != nil {
		return nil, notFound(err, "get adaptive schema", "no adaptive schema is set for the site")
	}
	return &folio.AdaptiveSchema{SiteID: siteID, JSONSchema: json.RawMessage(doc), UpdatedAt: fromMicros(updated)}, nil
}

// SetAdaptiveSchema stores a site's adaptive schema.
func SetAdaptiveSchema(ctx context.Context, t *Tx, s *folio.AdaptiveSchema) error {
	_, err := t.exec(ctx, `INSERT INTO site_adaptive_schemas (site_id, json_schema, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (site_id) DO UPDATE SET json_schema = excluded.json_schema, updated_at = excluded.updated_at`,
		s.SiteID, string(s.JSONSchema), micros(s.UpdatedAt))
	return wrap(err, "set adaptive schema")
}

// LockSite takes the row lock of a site until the transaction ends, so that
// writes to one site's structure, each of which reads the whole structure
// first, follow one another (PostgreSQL; SQLite has one writer anyway).
func LockSite(ctx context.Context, t *Tx, siteID folio.ID) error {
	var id string
	if err := t.get(ctx, `SELECT id FROM sites WHERE id = ?`+t.db.d.forUpdate(), []any{siteID}, &id); err != nil {
		return notFound(err, "lock site", "site not found")
	}
	return nil
}
