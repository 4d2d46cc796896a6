package app

import (
	"context"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/sitetree"
	"github.com/foliodocs/folio/internal/store"
)

// Site spaces: the spaces a site publishes, in its sections.

// AddSiteSpace publishes a space in a site: in the section named, else in
// the default section, else at the root of a site without sections. It
// becomes the default only where there was none.
func (a *App) AddSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, spaceID, sectionID folio.ID) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "addSpaceToSite", func(tx *store.Tx, t *siteTree) error {
		if spaceID == "" {
			return folio.FieldErrorf("spaceId", "spaceId is required")
		}
		section := t.DefaultSection
		if sectionID != "" {
			if t.Section(sectionID) == nil {
				return folio.FieldErrorf("sectionId", "site section %s not found in the site", sectionID)
			}
			section = sectionID
		}
		sp, err := structureSpace(ctx, tx, caller, t.Site, "spaceId", spaceID)
		if err != nil {
			return err
		}
		if len(t.Spaces) >= folio.MaxSiteSections*10 {
			return folio.Errorf(folio.Conflict, "a site publishes at most %d site spaces", folio.MaxSiteSections*10)
		}
		ss := &folio.SiteSpace{ID: folio.NewID(), SiteID: t.Site.ID, SpaceID: sp.ID,
			Path:      sitetree.UniquePath(t.SpacePaths(section, ""), content.Slugify(sp.Title)),
			CreatedAt: tx.Now, UpdatedAt: tx.Now}
		t.Spaces = append(t.Spaces, ss)
		t.PlaceSpace(ss, section, len(t.SpacesIn(section)))
		t.Normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
}

// UpdateSiteSpace applies a PATCH to a site space.
func (a *App) UpdateSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSpaceUpdate) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "updateSiteSpaceById", func(tx *store.Tx, t *siteTree) error {
		ss := t.SiteSpace(id)
		if ss == nil {
			return folio.Errorf(folio.NotFound, "site space not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Path.Set {
			if slices.Contains(t.SpacePaths(ss.SectionID, ss.ID), u.Path.Value) {
				return folio.Errorf(folio.Conflict, "another site space beside it has the path %q", u.Path.Value)
			}
			ss.Path = u.Path.Value
		}
		if u.Condition.Set {
			ss.Condition = ""
			if !u.Condition.Null {
				schema, err := adaptiveSchema(ctx, tx, t.Site.ID)
				if err != nil {
					return err
				}
				if err := CheckCondition("condition", u.Condition.Value, schema); err != nil {
					return err
				}
				ss.Condition = u.Condition.Value
			}
		}
		if u.SpaceID.Set {
			sp, err := structureSpace(ctx, tx, caller, t.Site, "spaceId", u.SpaceID.Value)
			if err != nil {
				return err
			}
			ss.SpaceID = sp.ID
		}
		if u.Hidden.Set {
			ss.Hidden = u.Hidden.Value
		}
		t.Normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
}

// DeleteSiteSpace removes a site space; an absent one is not an error.
// Another site space becomes the default of its section when it was, and a
// section left empty goes with it.
func (a *App) DeleteSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, "deleteSiteSpaceById", func(tx *store.Tx, t *siteTree) error {
		existed = t.SiteSpace(id) != nil
		t.RemoveSpace(id)
		return nil
	})
	return existed, err
}

// MoveSiteSpace moves a site space (the deprecated moveSiteSpace).
func (a *App) MoveSiteSpace(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.PlacedSiteSpace, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "moveSiteSpace", func(tx *store.Tx, t *siteTree) error {
		ss := t.SiteSpace(id)
		if ss == nil {
			return folio.Errorf(folio.NotFound, "site space not found")
		}
		if err := t.MoveSpace(ss, p); err != nil {
			return err
		}
		t.Normalize()
		out, err = t.placed(ctx, tx, caller, ss)
		return err
	})
	return v, out, err
}
