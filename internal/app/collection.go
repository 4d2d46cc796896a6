package app

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// CreateCollection creates a collection at the end of the organization's
// top level or of a parent collection.
func (a *App) CreateCollection(ctx context.Context, caller folio.Caller, orgID folio.ID, title string, parent folio.ID) (v *folio.CollectionView, err error) {
	if title == "" {
		title = "Untitled"
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		ca, err := itemAccess(ctx, tx, caller, orgID, "", parent)
		if err != nil {
			return err
		}
		if err := canCreateIn(ctx, tx, ca, parent); err != nil {
			return err
		}
		if err := checkNesting(ca, parent, 0); err != nil {
			return err
		}
		if err := folio.ValidateContentTitle(title); err != nil {
			return err
		}
		c := folio.Collection{ID: folio.NewID(), OrganizationID: orgID, Parent: parent, Title: title,
			DefaultLevel: folio.Level{Inherit: true}, CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if err := store.CreateCollection(ctx, tx, &c); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "collection.created", "collection", c.ID,
			map[string]any{"title": title, "parent": parent}); err != nil {
			return err
		}
		ca.tree.Collections[c.ID] = c
		v = &folio.CollectionView{Collection: c, CallerRole: ca.collectionRole(&c)}
		return nil
	})
	return v, err
}

// GetCollection returns a collection the caller may view.
func (a *App) GetCollection(ctx context.Context, caller folio.Caller, id folio.ID) (v *folio.CollectionView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, _, err = collection(ctx, tx, caller, id)
		return err
	})
	return v, err
}

// CollectionUpdate is the body of PATCH /collections/{collectionId}.
type CollectionUpdate struct {
	Title        folio.Optional[string] `json:"title"`
	Description  folio.Optional[string] `json:"description"`
	DefaultLevel folio.Optional[string] `json:"defaultLevel"`
}

// UpdateCollection changes a collection's title, description or default
// level. Collection admins only.
func (a *App) UpdateCollection(ctx context.Context, caller folio.Caller, id folio.ID, in *CollectionUpdate) (v *folio.CollectionView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		cv, ca, err := collection(ctx, tx, caller, id)
		if err != nil {
			return err
		}
		if err := require(cv.Permissions().Admin, "only admins of the collection can change it"); err != nil {
			return err
		}
		var u store.CollectionUpdate
		if in.Title.Set {
			if err := folio.ValidateContentTitle(in.Title.Value); err != nil || in.Title.Null {
				return folio.FieldErrorf("title", "title must be 1 to %d characters and not blank", folio.MaxContentTitle)
			}
			u.Title = &in.Title.Value
		}
		if in.Description.Set {
			if utf8.RuneCountInString(in.Description.Value) > 100 {
				return folio.FieldErrorf("description", "description must be at most 100 characters")
			}
			u.Description = &in.Description.Value
		}
		if in.DefaultLevel.Set {
			l, err := folio.ParseLevel("defaultLevel", in.DefaultLevel)
			if err != nil {
				return err
			}
			u.DefaultLevel = &l
		}
		if err := store.UpdateCollection(ctx, tx, id, u); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, cv.OrganizationID, "collection.updated", "collection", id, auditChanges(in)); err != nil {
			return err
		}
		c, err := store.GetCollection(ctx, tx, id)
		if err != nil {
			return err
		}
		ca.tree.Collections[c.ID] = *c
		v = &folio.CollectionView{Collection: *c, CallerRole: ca.collectionRole(c)}
		return nil
	})
	return v, err
}

// ListCollections lists the collections the caller may view, oldest first;
// with nested false only those at the organization's top level. Every
// collection is in the content tree already, so the page is cut in memory.
func (a *App) ListCollections(ctx context.Context, caller folio.Caller, orgID folio.ID, nested bool, opts folio.ListOptions) (l folio.List[folio.CollectionView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		ca, err := loadContentAccess(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		var all []folio.CollectionView
		for _, c := range ca.tree.Collections {
			if !nested && c.Parent != "" {
				continue
			}
			v := folio.CollectionView{Collection: c, CallerRole: ca.collectionRole(&c)}
			if v.Permissions().View {
				all = append(all, v)
			}
		}
		slices.SortFunc(all, func(x, y folio.CollectionView) int {
			if c := x.CreatedAt.Compare(y.CreatedAt); c != 0 {
				return c
			}
			return strings.Compare(x.ID, y.ID)
		})
		l, err = pageInMemory(all, opts, func(v *folio.CollectionView) []any { return []any{v.CreatedAt.UnixMicro(), v.ID} }, "is")
		return err
	})
	return l, err
}

// pageInMemory cuts one keyset page out of a sorted slice.
func pageInMemory[T any](all []T, opts folio.ListOptions, keys func(*T) []any, shape string) (folio.List[T], error) {
	out := folio.List[T]{Count: len(all), Items: []T{}}
	start := 0
	if opts.After != nil {
		if !opts.After.Matches(shape) {
			return out, folio.ErrBadCursor()
		}
		start = len(all)
		for i := range all {
			if after(keys(&all[i]), opts.After) {
				start = i
				break
			}
		}
	}
	end := min(start+opts.Limit, len(all))
	out.Items = append(out.Items, all[start:end]...)
	if end < len(all) {
		out.Next = folio.EncodeCursor(keys(&all[end-1])...)
	}
	return out, nil
}

// after reports whether keys sort after the cursor (int64 and string keys).
func after(keys []any, cursor folio.Cursor) bool {
	for i, k := range keys {
		switch k := k.(type) {
		case int64:
			c := cursor[i].(int64)
			if k != c {
				return k > c
			}
		case string:
			c := cursor[i].(string)
			if k != c {
				return k > c
			}
		}
	}
	return false
}
