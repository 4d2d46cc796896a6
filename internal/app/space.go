package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

var (
	errSpaceNotFound      = folio.Errorf(folio.NotFound, "space not found")
	errCollectionNotFound = folio.Errorf(folio.NotFound, "collection not found")
)

// contentAccess is what a caller is in an organization plus the part of
// its content tree that decides their roles: the whole tree, for listings
// that compute roles on many items (loadContentAccess), or only the chains
// of collections above the items at hand (itemAccess, withChain), which
// cost the same whatever the size of the organization.
type contentAccess struct {
	folio.Access
	tree   *store.ContentTree
	whole  bool              // tree holds every collection of the organization
	chains map[folio.ID]bool // the parents whose chains tree holds
}

// loadContentAccess loads the caller's access and the organization's whole
// content tree, for listings.
func loadContentAccess(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID) (*contentAccess, error) {
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return nil, err
	}
	tree, err := store.LoadContentTree(ctx, tx, orgID, caller.UserID)
	if err != nil {
		return nil, err
	}
	return &contentAccess{Access: acc, tree: tree, whole: true}, nil
}

// itemAccess loads the caller's access and what decides their role on one
// space or collection (item) placed under parent, or on anything created
// there (item ""): the collections from parent up, and the caller's grants
// on them and on item.
func itemAccess(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, item, parent folio.ID) (*contentAccess, error) {
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return nil, err
	}
	tree, err := store.LoadContentChain(ctx, tx, orgID, caller.UserID, item, parent)
	if err != nil {
		return nil, err
	}
	return &contentAccess{Access: acc, tree: tree, chains: map[folio.ID]bool{parent: true}}, nil
}

// withChain adds the chain above parent to the tree, for what is created
// or moved there.
func (c *contentAccess) withChain(ctx context.Context, tx *store.Tx, parent folio.ID) error {
	if c.whole || parent == "" || c.chains[parent] {
		return nil
	}
	if err := c.tree.AddChain(ctx, tx, c.OrganizationID, c.UserID, "", parent); err != nil {
		return err
	}
	c.chains[parent] = true
	return nil
}

// withWholeTree replaces the chains loaded so far with the organization's
// whole content tree, for listings.
func (c *contentAccess) withWholeTree(ctx context.Context, tx *store.Tx) error {
	if c.whole {
		return nil
	}
	tree, err := store.LoadContentTree(ctx, tx, c.OrganizationID, c.UserID)
	if err != nil {
		return err
	}
	c.tree, c.whole, c.chains = tree, true, nil
	return nil
}

func (c *contentAccess) spaceRole(s *folio.Space) folio.Role {
	return folio.EffectiveRole(c.Role, c.tree.Path(s.ID, s.DefaultLevel, s.Parent))
}

func (c *contentAccess) collectionRole(col *folio.Collection) folio.Role {
	return folio.EffectiveRole(c.Role, c.tree.Path(col.ID, col.DefaultLevel, col.Parent))
}

// space loads a space the caller may view: anything else is NotFound,
// another organization's spaces and the caller's SSO rule included.
func space(ctx context.Context, tx *store.Tx, caller folio.Caller, id folio.ID) (*folio.SpaceView, *contentAccess, error) {
	if caller.Site != nil {
		// A site API token reads the spaces its site publishes (siteapi.go).
		return grantedSpace(ctx, tx, caller, id)
	}
	if caller.Installation != nil {
		// An installation token reads the spaces it is installed on.
		return installedSpace(ctx, tx, caller, id)
	}
	s, err := store.GetSpace(ctx, tx, id)
	if err != nil {
		return nil, nil, err
	}
	return viewSpace(ctx, tx, caller, s)
}

// viewSpace computes the caller's view of a loaded space, or NotFound when
// they may not see it.
func viewSpace(ctx context.Context, tx *store.Tx, caller folio.Caller, s *folio.Space) (*folio.SpaceView, *contentAccess, error) {
	ca, err := itemAccess(ctx, tx, caller, s.OrganizationID, s.ID, s.Parent)
	if folio.IsNotFound(err) {
		return nil, nil, errSpaceNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	v := &folio.SpaceView{Space: *s, CallerRole: ca.spaceRole(s)}
	if !v.Permissions().View {
		return nil, nil, errSpaceNotFound
	}
	return v, ca, nil
}

// collection loads a collection the caller may view, or NotFound.
func collection(ctx context.Context, tx *store.Tx, caller folio.Caller, id folio.ID) (*folio.CollectionView, *contentAccess, error) {
	c, err := store.GetCollection(ctx, tx, id)
	if err != nil {
		return nil, nil, err
	}
	ca, err := itemAccess(ctx, tx, caller, c.OrganizationID, c.ID, c.Parent)
	if folio.IsNotFound(err) {
		return nil, nil, errCollectionNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	v := &folio.CollectionView{Collection: *c, CallerRole: ca.collectionRole(c)}
	if !v.Permissions().View {
		return nil, nil, errCollectionNotFound
	}
	return v, ca, nil
}

// canCreateIn checks that the caller may create content in a parent
// collection (or at the organization's top level when parent is empty)
// of the organization.
func canCreateIn(ctx context.Context, tx *store.Tx, ca *contentAccess, parent folio.ID) error {
	if parent == "" {
		return require(ca.Permissions().CreateContent, "only members with the create role or higher can create content")
	}
	if err := ca.withChain(ctx, tx, parent); err != nil {
		return err
	}
	c, ok := ca.tree.Collections[parent]
	if !ok {
		return folio.FieldErrorf("parent", "parent collection %s not found in the organization", parent)
	}
	role := ca.collectionRole(&c)
	if !folio.CollectionPerms(role).View {
		return folio.FieldErrorf("parent", "parent collection %s not found in the organization", parent)
	}
	return require(folio.CollectionPerms(role).Create, "you cannot create content in this collection")
}

// CreateSpace creates a space at the end of the organization's top level or
// of a collection.
func (a *App) CreateSpace(ctx context.Context, caller folio.Caller, orgID folio.ID, in folio.NewSpace) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		ca, err := itemAccess(ctx, tx, caller, orgID, "", in.Parent)
		if err != nil {
			return err
		}
		if err := canCreateIn(ctx, tx, ca, in.Parent); err != nil {
			return err
		}
		if err := in.Validate(); err != nil {
			return err
		}
		s := folio.Space{ID: folio.NewID(), OrganizationID: orgID, Parent: in.Parent, Title: in.Title, Emoji: in.Emoji,
			Language: in.Language, EditMode: in.EditMode, DefaultLevel: folio.Level{Inherit: true},
			MergeRules: folio.MergeRules{Type: "inherit"}, Visibility: "private", Revision: folio.NewID(),
			CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if s.Parent != "" {
			s.Visibility = "in-collection"
		}
		if err := store.CreateSpace(ctx, tx, &s); err != nil {
			return err
		}
		if err := a.createInitialRevision(ctx, tx, &s, caller.UserID, emptyTree); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "space.created", "space", s.ID,
			map[string]any{"title": s.Title, "parent": s.Parent}); err != nil {
			return err
		}
		v = &folio.SpaceView{Space: s, CallerRole: ca.spaceRole(&s)}
		return nil
	})
	return v, err
}

// GetSpace returns a space the caller may view.
func (a *App) GetSpace(ctx context.Context, caller folio.Caller, id folio.ID) (v *folio.SpaceView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, _, err = space(ctx, tx, caller, id)
		return err
	})
	return v, err
}

// UpdateSpace changes the fields present in u. Space admins only.
func (a *App) UpdateSpace(ctx context.Context, caller folio.Caller, id folio.ID, u *folio.SpaceUpdate) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, ca, err := space(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Admin, "only admins of the space can change it"); err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.MergeRules.Present() {
			if err := checkMembers(ctx, tx, sv.OrganizationID, u.MergeRules.Value.UserIDs()); err != nil {
				return err
			}
		}
		if err := store.UpdateSpace(ctx, tx, id, u); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, sv.OrganizationID, "space.updated", "space", id, auditChanges(u)); err != nil {
			return err
		}
		s, err := store.GetSpace(ctx, tx, id)
		if err != nil {
			return err
		}
		v = &folio.SpaceView{Space: *s, CallerRole: ca.spaceRole(s)}
		return nil
	})
	return v, err
}

// ListSpaces lists the spaces of an organization (or of one of its
// collections) that the caller may view, in one query path: the content
// tree, then one page of spaces.
func (a *App) ListSpaces(ctx context.Context, caller folio.Caller, orgID, collectionID folio.ID, opts folio.ListOptions) (l folio.List[folio.SpaceView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		var ca *contentAccess
		if collectionID != "" {
			c, cca, err := collection(ctx, tx, caller, collectionID)
			if err != nil {
				return err
			}
			if err := cca.withWholeTree(ctx, tx); err != nil {
				return err
			}
			orgID, ca = c.OrganizationID, cca
		} else if ca, err = loadContentAccess(ctx, tx, caller, orgID); err != nil {
			return err
		}
		f := store.SpaceFilter{Collection: collectionID}
		if ca.Role == folio.RoleGuest {
			// Guests see only what is granted to them: find it first, so
			// pages and counts hold only viewable spaces.
			ids, err := a.guestSpaceIDs(ctx, tx, ca, orgID)
			if err != nil {
				return err
			}
			f.IDs = ids
		}
		spaces, err := store.ListSpaces(ctx, tx, orgID, f, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.SpaceView]{Count: spaces.Count, Next: spaces.Next, Items: make([]folio.SpaceView, len(spaces.Items))}
		for i, s := range spaces.Items {
			l.Items[i] = folio.SpaceView{Space: s, CallerRole: ca.spaceRole(&s)}
		}
		return nil
	})
	return l, err
}

// guestSpaceIDs returns the spaces a guest may view.
func (a *App) guestSpaceIDs(ctx context.Context, tx *store.Tx, ca *contentAccess, orgID folio.ID) ([]folio.ID, error) {
	ids := []folio.ID{}
	if !ca.tree.HasGrants() {
		return ids, nil
	}
	all, err := store.SpaceParents(ctx, tx, orgID)
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if folio.SpacePerms(ca.spaceRole(&s), s.EditMode).View {
			ids = append(ids, s.ID)
		}
	}
	return ids, nil
}

// DeleteSpace deletes a space: it disappears at once and can be restored
// for folio.SpaceRetention, after which a background job removes it for
// good. Space admins only. A space that does not exist, or that the caller
// cannot see, answers as deleted, so nothing is revealed.
func (a *App) DeleteSpace(ctx context.Context, caller folio.Caller, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, id)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Admin, "only admins of the space can delete it"); err != nil {
			return err
		}
		if err := store.SetSpaceDeleted(ctx, tx, id, true); err != nil {
			return err
		}
		if err := emit(ctx, tx, sv.OrganizationID, id, folio.EventSpaceDeleted, map[string]any{"spaceId": id}); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, sv.OrganizationID, "space.deleted", "space", id, map[string]any{"title": sv.Title}); err != nil {
			return err
		}
		// Sites stop publishing it at once (see removeSiteSpacesOfSpace).
		if err := removeSiteSpacesOfSpace(ctx, tx, sv.OrganizationID, id); err != nil {
			return err
		}
		payload, _ := json.Marshal(map[string]string{"space": id})
		return store.EnqueueJob(ctx, tx, folio.JobPurgeSpace, string(payload), tx.Now.Add(folio.SpaceRetention))
	})
}

// RestoreSpace brings back a space deleted less than folio.SpaceRetention
// ago. Admins of the space (as it was) only; a space purged or never
// deleted is NotFound or returned as it is.
func (a *App) RestoreSpace(ctx context.Context, caller folio.Caller, id folio.ID) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		s, err := store.GetSpaceIncludingDeleted(ctx, tx, id)
		if err != nil {
			return err
		}
		if v, _, err = viewSpace(ctx, tx, caller, s); err != nil {
			return err
		}
		if err := require(v.Permissions().Admin, "only admins of the space can restore it"); err != nil {
			return err
		}
		if s.DeletedAt == nil {
			return nil
		}
		if tx.Now.Sub(*s.DeletedAt) >= folio.SpaceRetention {
			return errSpaceNotFound // the purge job is due
		}
		if err := store.SetSpaceDeleted(ctx, tx, id, false); err != nil {
			return err
		}
		if err := emit(ctx, tx, s.OrganizationID, id, folio.EventSpaceRestored, map[string]any{"spaceId": id}); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, s.OrganizationID, "space.restored", "space", id, map[string]any{"title": s.Title}); err != nil {
			return err
		}
		v.DeletedAt, v.UpdatedAt = nil, tx.Now
		return nil
	})
	return v, err
}

// PurgeSpace is the job that removes a deleted space for good once its
// retention has passed; it does nothing to a space restored meanwhile.
func (a *App) PurgeSpace(ctx context.Context, payload string) error {
	var p struct {
		Space folio.ID `json:"space"`
	}
	if err := json.Unmarshal([]byte(payload), &p); err != nil || p.Space == "" {
		return folio.Errorf(folio.Invalid, "purge-space payload %q is not valid", payload)
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		purged, err := store.PurgeSpace(ctx, tx, p.Space, tx.Now.Add(-folio.SpaceRetention).UnixMicro())
		if err == nil && purged {
			a.logger.Info("purged deleted space", "space", p.Space)
		}
		return err
	})
}

// DuplicateSpace copies a space's settings and current content into a new space at the end of the same collection (or
// top level). The caller must
// be able to view the space and create content where it sits.
func (a *App) DuplicateSpace(ctx context.Context, caller folio.Caller, id folio.ID) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, ca, err := space(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := canCreateIn(ctx, tx, ca, sv.Parent); err != nil {
			return err
		}
		rev, err := store.GetRevision(ctx, tx, sv.ID, sv.Revision)
		if err != nil {
			return err
		}
		s := sv.Space
		s.ID, s.Revision, s.CreatedAt, s.UpdatedAt, s.DeletedAt = folio.NewID(), folio.NewID(), tx.Now, tx.Now, nil
		// Comments and change requests stay with the original.
		s.Comments, s.ChangeRequests, s.ChangeRequestsOpen, s.ChangeRequestsDraft = 0, 0, 0, 0
		s.Title = copyTitle(s.Title)
		if err := store.CreateSpace(ctx, tx, &s); err != nil {
			return err
		}
		// The copy shares the original's stored content: one new row.
		if err := store.CreateRevision(ctx, tx, &folio.Revision{ID: s.Revision, SpaceID: s.ID, TreeHash: rev.TreeHash,
			Type: folio.RevisionEdits, CreatedBy: caller.UserID}); err != nil {
			return err
		}
		rt, err := a.loadTree(ctx, tx, rev.TreeHash)
		if err != nil {
			return err
		}
		if err := a.indexRevision(ctx, tx, &folio.SpaceView{Space: s}, content.Diff(emptyTree, rt.tree), nil); err != nil {
			return err
		}
		v = &folio.SpaceView{Space: s, CallerRole: ca.spaceRole(&s)}
		return nil
	})
	return v, err
}

// copyTitle names a duplicate, within the title limit.
func copyTitle(title string) string {
	r := []rune(title + " (copy)")
	if len(r) > folio.MaxContentTitle {
		r = append([]rune(title)[:folio.MaxContentTitle-7], []rune(" (copy)")...)
	}
	return string(r)
}
