package app

import (
	"context"
	"math"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// Pointer names a space or collection in a move position.
type Pointer struct {
	Type       string   `json:"type"`
	Space      folio.ID `json:"space"`
	Collection folio.ID `json:"collection"`
}

func (p *Pointer) id() folio.ID {
	if p.Type == "collection" {
		return p.Collection
	}
	return p.Space
}

// MoveInput is the body of a move: parent (absent: unchanged, null: the
// organization's top level) and position (absent: at the end).
type MoveInput struct {
	Parent   folio.Optional[folio.ID] `json:"parent"`
	Position *struct {
		Before *Pointer `json:"before"`
		After  *Pointer `json:"after"`
	} `json:"position"`
}

var (
	errNoChange = folio.Errorf(folio.Conflict, "the operation would not change anything")
)

// errInvalidPosition says why a position cannot be used (400).
func errInvalidPosition(why string) error {
	return folio.FieldErrorf("position", "invalid position: %s", why)
}

// placement computes where a move puts an item: its new parent, and its
// position among the siblings there, from the two siblings it goes between
// (respace makes room when they touch).
func placement(ctx context.Context, tx *store.Tx, ca *contentAccess, kind string, id, current folio.ID, in *MoveInput) (folio.ID, int64, error) {
	if !in.Parent.Set && in.Position == nil {
		return "", 0, folio.Errorf(folio.Invalid, "a move needs a parent or a position")
	}
	parent := current
	if in.Parent.Set {
		parent = in.Parent.Value // "" when null
	}
	if err := ca.withChain(ctx, tx, parent); err != nil {
		return "", 0, err
	}
	if parent != "" {
		if _, ok := ca.tree.Collections[parent]; !ok {
			return "", 0, errCollectionNotFound
		}
	}
	if err := canCreateIn(ctx, tx, ca, parent); err != nil {
		if folio.KindOf(err) == folio.Invalid {
			return "", 0, errCollectionNotFound
		}
		return "", 0, err
	}
	var ref *Pointer
	before := false
	if p := in.Position; p != nil {
		switch {
		case p.Before != nil && p.After != nil:
			return "", 0, errInvalidPosition("give before or after, not both")
		case p.Before != nil:
			ref, before = p.Before, true
		case p.After != nil:
			ref = p.After
		}
	}
	// The new place is between two neighbours (lo, hi; nil for the ends),
	// found in a few index steps: a move costs the same however many
	// siblings the parent holds.
	var lo, hi *store.Sibling
	if ref == nil {
		last, ok, err := store.Neighbour(ctx, tx, ca.OrganizationID, parent, math.MaxInt64, "", true, id)
		if err != nil {
			return "", 0, err
		}
		if ok {
			lo = &last
		}
	} else {
		if ref.Type != "space" && ref.Type != "collection" {
			return "", 0, errInvalidPosition(`type must be "space" or "collection"`)
		}
		if ref.id() == id {
			return "", 0, errInvalidPosition("an item cannot be placed next to itself")
		}
		r, err := store.GetSibling(ctx, tx, ca.OrganizationID, parent, ref.Type, ref.id())
		if folio.IsNotFound(err) {
			return "", 0, errInvalidPosition(ref.Type + " " + ref.id() + " is not in that parent")
		}
		if err != nil {
			return "", 0, err
		}
		n, ok, err := store.Neighbour(ctx, tx, ca.OrganizationID, parent, r.Position, r.ID, before, id)
		if err != nil {
			return "", 0, err
		}
		lo, hi = &n, &r
		if !before {
			lo, hi = &r, &n
		}
		if !ok && before {
			lo = nil
		} else if !ok {
			hi = nil
		}
	}
	// Nothing changes when the item already sits between the two.
	if parent == current {
		self, err := store.GetSibling(ctx, tx, ca.OrganizationID, parent, kind, id)
		if err != nil && !folio.IsNotFound(err) {
			return "", 0, err
		}
		if err == nil && (lo == nil || lo.Before(self)) && (hi == nil || self.Before(*hi)) {
			return "", 0, errNoChange
		}
	}
	switch {
	case lo == nil && hi == nil:
		return parent, store.PositionGap, nil
	case hi == nil:
		return parent, lo.Position + store.PositionGap, nil
	}
	low := int64(0)
	if lo != nil {
		low = lo.Position
	}
	if hi.Position-low >= 2 {
		return parent, low + (hi.Position-low)/2, nil
	}
	// No room left between the two: spread hi and the siblings after it
	// over more room.
	pos, err := respace(ctx, tx, ca.OrganizationID, parent, id, low, *hi)
	return parent, pos, err
}

// minSpacing is the least room respace leaves between two siblings: ten
// more moves into one gap before it is needed again.
const minSpacing = 1 << 10

// respace makes room right after position lo, which hi follows with no
// room left: it spreads hi and the siblings after it evenly up to the
// first sibling far enough away (or, past the last, PositionGap apart), and
// returns the position made free. It moves only as many siblings as the
// crowding needs (amortized a few), not the whole parent.
func respace(ctx context.Context, tx *store.Tx, orgID, parent, id folio.ID, lo int64, hi store.Sibling) (int64, error) {
	window := []store.Sibling{hi}
	var end int64 // the position of the first sibling left in place
	for end == 0 {
		last := window[len(window)-1]
		next, err := store.Neighbours(ctx, tx, orgID, parent, last.Position, last.ID, false, id, 64)
		if err != nil {
			return 0, err
		}
		if len(next) == 0 {
			end = lo + int64(len(window)+2)*store.PositionGap
			break
		}
		for _, n := range next {
			if n.Position-lo >= int64(len(window)+2)*minSpacing {
				end = n.Position
				break
			}
			window = append(window, n)
		}
	}
	step := (end - lo) / int64(len(window)+1)
	for i, s := range window {
		if err := store.Place(ctx, tx, s.Kind, s.ID, orgID, parent, lo+int64(i+2)*step-step/2); err != nil {
			return 0, err
		}
	}
	return lo + step/2, nil
}

// MoveSpace moves a space to another parent or position in its organization.
// Space admins only, who may create content in the target.
func (a *App) MoveSpace(ctx context.Context, caller folio.Caller, id folio.ID, in *MoveInput) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, ca, err := space(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Admin, "only admins of the space can move it"); err != nil {
			return err
		}
		parent, pos, err := placement(ctx, tx, ca, "space", id, sv.Parent, in)
		if err != nil {
			return err
		}
		if err := store.Place(ctx, tx, "space", id, sv.OrganizationID, parent, pos); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, sv.OrganizationID, "space.moved", "space", id,
			map[string]any{"from": sv.Parent, "parent": parent}); err != nil {
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

// MoveCollection moves a collection; it cannot go into itself or below itself.
func (a *App) MoveCollection(ctx context.Context, caller folio.Caller, id folio.ID, in *MoveInput) (v *folio.CollectionView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		cv, ca, err := collection(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(cv.Permissions().Admin, "only admins of the collection can move it"); err != nil {
			return err
		}
		if in.Parent.Present() && in.Parent.Value != cv.Parent {
			// The target's chain is all a cycle check needs: the collection
			// is above the target exactly when it is on that chain.
			if err := ca.withChain(ctx, tx, in.Parent.Value); err != nil {
				return err
			}
			chain, _ := chainAbove(ca, in.Parent.Value)
			if in.Parent.Value == id || slices.Contains(chain, id) {
				return folio.FieldErrorf("parent", "a collection cannot be moved into itself or one of its descendants")
			}
		}
		parent, pos, err := placement(ctx, tx, ca, "collection", id, cv.Parent, in)
		if err != nil {
			return err
		}
		// A chain cut at the bound could hide a cycle: nesting that deep is
		// refused, for the collection and for the deepest collection below it.
		if parent != cv.Parent {
			height, err := store.CollectionHeight(ctx, tx, cv.OrganizationID, id)
			if err != nil {
				return err
			}
			if err := checkNesting(ca, parent, height); err != nil {
				return err
			}
		}
		if err := store.Place(ctx, tx, "collection", id, cv.OrganizationID, parent, pos); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, cv.OrganizationID, "collection.moved", "collection", id,
			map[string]any{"from": cv.Parent, "parent": parent}); err != nil {
			return err
		}
		c, err := store.GetCollection(ctx, tx, id)
		if err != nil {
			return err
		}
		ca.tree.Collections[id] = *c
		v = &folio.CollectionView{Collection: *c, CallerRole: ca.collectionRole(c)}
		return nil
	})
	return v, err
}

// chainAbove returns the collections from parent up to the top as ca's
// tree holds them, and whether that chain reaches the top: it does not when
// it was cut at store.MaxCollectionChain, or loops.
func chainAbove(ca *contentAccess, parent folio.ID) ([]folio.ID, bool) {
	var ids []folio.ID
	for cur := parent; cur != ""; {
		c, ok := ca.tree.Collections[cur]
		if !ok || slices.Contains(ids, cur) {
			return ids, false
		}
		ids = append(ids, cur)
		cur = c.Parent
	}
	return ids, true
}

// checkNesting refuses a collection under parent, with height levels of
// collections below it, when its deepest collection would sit deeper than
// the chains that decide roles reach (store.MaxCollectionChain).
func checkNesting(ca *contentAccess, parent folio.ID, height int) error {
	if parent == "" {
		return nil
	}
	chain, top := chainAbove(ca, parent)
	if !top || len(chain)+height >= store.MaxCollectionChain {
		return folio.FieldErrorf("parent", "collections can be nested at most %d levels deep", store.MaxCollectionChain)
	}
	return nil
}

// transferTarget checks that the caller administers the target organization.
func transferTarget(ctx context.Context, tx *store.Tx, caller folio.Caller, from, to folio.ID) error {
	if to == "" {
		return folio.FieldErrorf("organization", "organization is required")
	}
	if to == from {
		return errNoChange
	}
	acc, err := access(ctx, tx, caller, to)
	if err != nil {
		return err
	}
	return require(acc.Permissions().Admin, "you can only transfer to an organization you administer")
}

// TransferSpace moves a space to the top level of another organization the
// caller administers. It leaves its collection and keeps its content; grants
// to people and teams of the old organization are dropped.
func (a *App) TransferSpace(ctx context.Context, caller folio.Caller, id, to folio.ID) (v *folio.SpaceView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Admin, "only admins of the space can transfer it"); err != nil {
			return err
		}
		if err := transferTarget(ctx, tx, caller, sv.OrganizationID, to); err != nil {
			return err
		}
		if err := store.RevokeGrantsOn(ctx, tx, []folio.ID{id}); err != nil {
			return err
		}
		if err := placeAtEnd(ctx, tx, "space", id, to); err != nil {
			return err
		}
		// Both organizations keep the record.
		for _, org := range []folio.ID{sv.OrganizationID, to} {
			if err := audit(ctx, tx, caller, org, "space.transferred", "space", id,
				map[string]any{"from": sv.OrganizationID, "to": to}); err != nil {
				return err
			}
		}
		v, _, err = space(ctx, tx, caller, id)
		return err
	})
	return v, err
}

// TransferCollection moves a collection, its collections and their spaces
// to the top level of another organization the caller administers.
func (a *App) TransferCollection(ctx context.Context, caller folio.Caller, id, to folio.ID) (v *folio.CollectionView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		cv, _, err := collection(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(cv.Permissions().Admin, "only admins of the collection can transfer it"); err != nil {
			return err
		}
		if err := transferTarget(ctx, tx, caller, cv.OrganizationID, to); err != nil {
			return err
		}
		below, err := store.CollectionDescendants(ctx, tx, cv.OrganizationID, id)
		if err != nil {
			return err
		}
		cols := append([]folio.ID{id}, below...)
		spaces, err := store.SpacesIn(ctx, tx, cols)
		if err != nil {
			return err
		}
		if err := store.RevokeGrantsOn(ctx, tx, append(slices.Clone(cols), spaces...)); err != nil {
			return err
		}
		if err := store.SetOrganization(ctx, tx, "collection", cols, to); err != nil {
			return err
		}
		if err := store.SetOrganization(ctx, tx, "space", spaces, to); err != nil {
			return err
		}
		if err := placeAtEnd(ctx, tx, "collection", id, to); err != nil {
			return err
		}
		for _, org := range []folio.ID{cv.OrganizationID, to} {
			if err := audit(ctx, tx, caller, org, "collection.transferred", "collection", id,
				map[string]any{"from": cv.OrganizationID, "to": to, "collections": len(cols), "spaces": len(spaces)}); err != nil {
				return err
			}
		}
		v, _, err = collection(ctx, tx, caller, id)
		return err
	})
	return v, err
}

// placeAtEnd puts an item at the end of an organization's top level.
func placeAtEnd(ctx context.Context, tx *store.Tx, kind string, id, orgID folio.ID) error {
	pos, err := store.NextPosition(ctx, tx, orgID, "")
	if err != nil {
		return err
	}
	return store.Place(ctx, tx, kind, id, orgID, "", pos)
}

// DeleteCollection deletes a collection. Its spaces and collections are not
// deleted: they move up to the collection's parent (or the organization's
// top level), after its other children, in their order. Collection admins
// only; an absent or invisible collection answers as deleted.
func (a *App) DeleteCollection(ctx context.Context, caller folio.Caller, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		cv, _, err := collection(ctx, tx, caller, id)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := require(cv.Permissions().Admin, "only admins of the collection can delete it"); err != nil {
			return err
		}
		// The children go after the last of their new siblings.
		next, err := store.NextPosition(ctx, tx, cv.OrganizationID, cv.Parent)
		if err != nil {
			return err
		}
		if err := store.ReparentChildren(ctx, tx, id, cv.Parent, next-store.PositionGap); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, cv.OrganizationID, "collection.deleted", "collection", id, map[string]any{"title": cv.Title}); err != nil {
			return err
		}
		return store.DeleteCollection(ctx, tx, id)
	})
}
