package app

import (
	"context"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/sitetree"
	"github.com/foliodocs/folio/internal/store"
)

// Sections of a site's structure, and the groups that gather them.

// AddSiteSection adds a section publishing one space. The first section of
// a site that publishes spaces at its root first gathers those into a
// section of their own (titled after the default one), which stays the
// default section.
func (a *App) AddSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in folio.NewSiteSection) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "addSectionToSite", func(tx *store.Tx, t *siteTree) error {
		if err := in.Validate(); err != nil {
			return err
		}
		if len(t.Sections)+len(t.Groups)+1 > folio.MaxSiteSections {
			return folio.Errorf(folio.Conflict, "a site has at most %d sections and section groups", folio.MaxSiteSections)
		}
		sp, err := structureSpace(ctx, tx, caller, t.Site, "spaceId", in.SpaceID)
		if err != nil {
			return err
		}
		if len(t.Sections) == 0 {
			if root := t.SpacesIn(""); len(root) > 0 {
				def := root[0]
				for _, ss := range root {
					if ss.Default {
						def = ss
					}
				}
				dsp, err := store.GetSpace(ctx, tx, def.SpaceID)
				if err != nil {
					return err
				}
				first := &folio.SiteSection{ID: folio.NewID(), SiteID: t.Site.ID, Title: sectionTitle(dsp),
					CreatedAt: tx.Now, UpdatedAt: tx.Now}
				first.Path = sitetree.UniquePath(nil, content.Slugify(first.Title))
				t.Sections = append(t.Sections, first)
				t.PlaceNode(sitetree.Node{Section: first}, "", 0)
				for _, ss := range root {
					wasDefault := ss.Default
					t.PlaceSpace(ss, first.ID, len(t.SpacesIn(first.ID)))
					ss.Default = wasDefault // the section keeps the root's default
				}
				t.DefaultSection = first.ID
			}
		}
		s := folio.SiteSection{Title: sectionTitle(sp), CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if in.Title.Present() {
			s.Title = in.Title.Value
		}
		if in.Icon.Present() {
			s.Icon = in.Icon.Value
		}
		created := t.NewSection(s, sp)
		t.Normalize()
		out, err = t.sectionView(ctx, tx, caller, created)
		return err
	})
	return v, out, err
}

// UpdateSiteSection applies a PATCH to a section.
func (a *App) UpdateSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSectionUpdate) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "updateSiteSectionById", func(tx *store.Tx, t *siteTree) error {
		s := t.Section(id)
		if s == nil {
			return folio.Errorf(folio.NotFound, "site section not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Title.Set {
			s.Title = u.Title.Value
		}
		if u.Path.Set {
			if slices.Contains(t.SectionPaths(s.ID), u.Path.Value) {
				return folio.Errorf(folio.Conflict, "another section of the site has the path %q", u.Path.Value)
			}
			s.Path = u.Path.Value
		}
		if u.DefaultSiteSpace.Set {
			ss := t.SiteSpace(u.DefaultSiteSpace.Value)
			if ss == nil || ss.SectionID != s.ID {
				return folio.FieldErrorf("defaultSiteSpace", "site space %s is not in the section", u.DefaultSiteSpace.Value)
			}
			for _, o := range t.SpacesIn(s.ID) {
				o.Default = o.ID == ss.ID
			}
		}
		if u.Condition.Set {
			s.Condition = ""
			if !u.Condition.Null {
				schema, err := adaptiveSchema(ctx, tx, t.Site.ID)
				if err != nil {
					return err
				}
				if err := CheckCondition("condition", u.Condition.Value, schema); err != nil {
					return err
				}
				s.Condition = u.Condition.Value
			}
		}
		if u.Icon.Set {
			s.Icon = u.Icon.Value
		}
		if u.Description.Set {
			s.Description = u.Description.Value
		}
		t.Normalize()
		out, err = t.sectionView(ctx, tx, caller, s)
		return err
	})
	return v, out, err
}

// DeleteSiteSection deletes a section with its site spaces; an absent one
// is not an error. Another section becomes the default when it was.
func (a *App) DeleteSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, "deleteSiteSectionById", func(tx *store.Tx, t *siteTree) error {
		if existed = t.Section(id) != nil; existed {
			t.RemoveSection(id)
		}
		return nil
	})
	return existed, err
}

// MoveSiteSection moves a section (the deprecated moveSiteSection).
func (a *App) MoveSiteSection(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.SiteSectionView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "moveSiteSection", func(tx *store.Tx, t *siteTree) error {
		s := t.Section(id)
		if s == nil {
			return folio.Errorf(folio.NotFound, "site section not found")
		}
		if err := t.MoveNode(sitetree.Node{Section: s}, p); err != nil {
			return err
		}
		t.Normalize()
		out, err = t.sectionView(ctx, tx, caller, s)
		return err
	})
	return v, out, err
}

// ListSiteSectionGroups lists a site's section groups, depth first in
// structure order.
func (a *App) ListSiteSectionGroups(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, opts folio.ListOptions) (v *folio.SiteView, l folio.List[folio.SiteSectionGroupView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if v, err = structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, &v.Site)
		if err != nil {
			return err
		}
		var ordered []*folio.SiteSectionGroup
		var walk func(parent folio.ID)
		walk = func(parent folio.ID) {
			for _, n := range t.Children(parent) {
				if n.Group != nil {
					ordered = append(ordered, n.Group)
					walk(n.Group.ID)
				}
			}
		}
		walk("")
		p, err := pageOf(ordered, func(g *folio.SiteSectionGroup) folio.ID { return g.ID }, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.SiteSectionGroupView]{Count: p.Count, Next: p.Next, Items: []folio.SiteSectionGroupView{}}
		for _, g := range p.Items {
			gv, err := t.groupView(ctx, tx, caller, g)
			if err != nil {
				return err
			}
			l.Items = append(l.Items, *gv)
		}
		return nil
	})
	return v, l, err
}

// AddSiteSectionGroup adds a group at the end of its parent (the root by
// default), holding the sections listed, in that order.
func (a *App) AddSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in folio.NewSiteSectionGroup) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "addSectionGroupToSite", func(tx *store.Tx, t *siteTree) error {
		if err := in.Validate(); err != nil {
			return err
		}
		if in.Parent != "" && t.Group(in.Parent) == nil {
			return folio.FieldErrorf("parent", "site section group %s not found in the site", in.Parent)
		}
		for _, id := range in.Sections {
			if t.Section(id) == nil {
				return folio.FieldErrorf("sections", "site section %s not found in the site", id)
			}
		}
		if len(t.Sections)+len(t.Groups)+1 > folio.MaxSiteSections {
			return folio.Errorf(folio.Conflict, "a site has at most %d sections and section groups", folio.MaxSiteSections)
		}
		g := &folio.SiteSectionGroup{ID: folio.NewID(), SiteID: t.Site.ID, Title: in.Title, CreatedAt: tx.Now}
		if in.Icon.Present() {
			g.Icon = in.Icon.Value
		}
		t.Groups = append(t.Groups, g)
		t.PlaceNode(sitetree.Node{Group: g}, in.Parent, len(t.Children(in.Parent)))
		for _, id := range in.Sections {
			s := t.Section(id)
			t.PlaceNode(sitetree.Node{Section: s}, g.ID, len(t.Children(g.ID)))
		}
		t.Normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// UpdateSiteSectionGroup applies a PATCH to a group.
func (a *App) UpdateSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, u folio.SiteSectionGroupUpdate) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "updateSiteSectionGroupById", func(tx *store.Tx, t *siteTree) error {
		g := t.Group(id)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Title.Set {
			g.Title = u.Title.Value
		}
		if u.Icon.Set {
			g.Icon = u.Icon.Value
		}
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// DeleteSiteSectionGroup deletes a group; its children take its place in
// its parent. An absent group is not an error.
func (a *App) DeleteSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, "deleteSiteSectionGroupById", func(tx *store.Tx, t *siteTree) error {
		g := t.Group(id)
		if existed = g != nil; !existed {
			return nil
		}
		sib := t.Children(g.ParentID)
		i := slices.IndexFunc(sib, func(m sitetree.Node) bool { return m.ID() == g.ID })
		for k, n := range t.Children(g.ID) {
			t.PlaceNode(n, g.ParentID, i+1+k)
		}
		t.Groups = slices.DeleteFunc(t.Groups, func(x *folio.SiteSectionGroup) bool { return x.ID == g.ID })
		return nil
	})
	return existed, err
}

// AddSectionToGroup moves a section to the end of a group.
func (a *App) AddSectionToGroup(ctx context.Context, caller folio.Caller, orgID, siteID, groupID, sectionID folio.ID) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "addSectionToGroup", func(tx *store.Tx, t *siteTree) error {
		g := t.Group(groupID)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if sectionID == "" {
			return folio.FieldErrorf("sectionId", "sectionId is required")
		}
		s := t.Section(sectionID)
		if s == nil {
			return folio.FieldErrorf("sectionId", "site section %s not found in the site", sectionID)
		}
		if s.GroupID != g.ID {
			t.PlaceNode(sitetree.Node{Section: s}, g.ID, len(t.Children(g.ID)))
		}
		t.Normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}

// RemoveSectionFromGroup moves a section out of a group, right after the
// group in its parent. A section that is not in the group, or a group that
// does not exist, is not an error.
func (a *App) RemoveSectionFromGroup(ctx context.Context, caller folio.Caller, orgID, siteID, groupID, sectionID folio.ID) (removed bool, err error) {
	_, err = a.writeTree(ctx, caller, orgID, siteID, "removeSectionFromGroup", func(tx *store.Tx, t *siteTree) error {
		g, s := t.Group(groupID), t.Section(sectionID)
		if g == nil || s == nil || s.GroupID != g.ID {
			return nil
		}
		removed = true
		sib := t.Children(g.ParentID)
		i := slices.IndexFunc(sib, func(m sitetree.Node) bool { return m.ID() == g.ID })
		t.PlaceNode(sitetree.Node{Section: s}, g.ParentID, i+1)
		return nil
	})
	return removed, err
}

// MoveSiteSectionGroup moves a group (the deprecated moveSiteSectionGroup).
func (a *App) MoveSiteSectionGroup(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, p folio.StructurePosition) (v *folio.SiteView, out *folio.SiteSectionGroupView, err error) {
	v, err = a.writeTree(ctx, caller, orgID, siteID, "moveSiteSectionGroup", func(tx *store.Tx, t *siteTree) error {
		g := t.Group(id)
		if g == nil {
			return folio.Errorf(folio.NotFound, "site section group not found")
		}
		if err := t.MoveNode(sitetree.Node{Group: g}, p); err != nil {
			return err
		}
		t.Normalize()
		out, err = t.groupView(ctx, tx, caller, g)
		return err
	})
	return v, out, err
}
