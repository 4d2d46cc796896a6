package app

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// defaultCustomization is folio.DefaultCustomization, decoded: a copy of
// its value decoded once (decoding it was a fifth of a reader's site
// lookup).
func defaultCustomization() map[string]any {
	return copyJSON(decodedDefaultCustomization()).(map[string]any)
}

var decodedDefaultCustomization = sync.OnceValue(func() map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(folio.DefaultCustomization), &m); err != nil {
		panic("app: bad default customization: " + err.Error())
	}
	return m
})

// copyJSON deep-copies a decoded JSON value.
func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = copyJSON(x)
		}
		return l
	}
	return v
}

// effectiveCustomization applies the overrides over to base (an RFC 7396
// merge, except that a favicon replaces the one it overrides) and
// completes the result: header links without their required links or to
// get [] and null, footer groups without links get [], so the answer has
// every field the reference requires (GitBook's renderer reads them
// without checking). The rest of the defaults come from base.
func effectiveCustomization(base, over map[string]any) map[string]any {
	doc := folio.MergePatch(base, over)
	if fav, ok := over["favicon"].(map[string]any); ok {
		// One of {icon}, {emoji} or {}: an override replaces, never
		// merges into, the favicon it overrides.
		doc["favicon"] = fav
	}
	fill := func(section, list string, defaults map[string]any) {
		m, _ := doc[section].(map[string]any)
		items, _ := m[list].([]any)
		for _, it := range items {
			item, ok := it.(map[string]any)
			if !ok {
				continue
			}
			for k, v := range defaults {
				if _, ok := item[k]; !ok {
					item[k] = v
				}
			}
		}
	}
	fill("header", "links", map[string]any{"links": []any{}, "to": nil})
	fill("footer", "groups", map[string]any{"links": []any{}})
	return doc
}

// siteCustomization returns the effective customization of a site.
func siteCustomization(ctx context.Context, tx *store.Tx, siteID folio.ID) (map[string]any, error) {
	doc, err := store.SiteCustomization(ctx, tx, siteID)
	if err != nil {
		return nil, err
	}
	return effectiveCustomization(defaultCustomization(), doc), nil
}

func checkCustomizationSize(doc map[string]any) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if len(b) > folio.MaxCustomizationSize {
		return folio.Errorf(folio.Invalid, "customization must be at most %d bytes", folio.MaxCustomizationSize)
	}
	return nil
}

// GetSiteCustomization returns a site's customization settings.
func (a *App) GetSiteCustomization(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (doc map[string]any, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		doc, err = siteCustomization(ctx, tx, siteID)
		return err
	})
	return doc, err
}

// UpdateSiteCustomization replaces a site's customization settings. The
// parts the body leaves out take their defaults.
func (a *App) UpdateSiteCustomization(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in map[string]any) (doc map[string]any, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if err := folio.ValidateCustomization(in); err != nil {
			return err
		}
		if err := checkCustomizationSize(in); err != nil {
			return err
		}
		if err := store.SetSiteCustomization(ctx, tx, siteID, in); err != nil {
			return err
		}
		// By the names of the parts set: values may hold tracking ids.
		if err := audit(ctx, tx, caller, orgID, "site.customization_updated", "site", siteID,
			map[string]any{"parts": slices.Sorted(maps.Keys(in))}); err != nil {
			return err
		}
		doc = effectiveCustomization(defaultCustomization(), in)
		return nil
	})
	return doc, err
}

// siteSpaceOf loads a site space of a site the caller may read or manage.
func siteSpaceOf(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, siteID, id folio.ID, manage bool) (*folio.SiteSpace, error) {
	if _, err := site(ctx, tx, caller, orgID, siteID, manage); err != nil {
		return nil, err
	}
	return store.GetSiteSpace(ctx, tx, siteID, id)
}

// GetSiteSpaceCustomization returns the customization of a site space:
// the site's with the site space's overrides applied.
func (a *App) GetSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (doc map[string]any, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, false); err != nil {
			return err
		}
		base, err := siteCustomization(ctx, tx, siteID)
		if err != nil {
			return err
		}
		over, err := store.SiteSpaceCustomization(ctx, tx, id)
		doc = effectiveCustomization(base, over)
		return err
	})
	return doc, err
}

// OverrideSiteSpaceCustomization merges a patch into a site space's
// overrides: a value overrides the site's, null removes the override.
func (a *App) OverrideSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, patch map[string]any) (doc map[string]any, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, true); err != nil {
			return err
		}
		old, err := store.SiteSpaceCustomization(ctx, tx, id)
		if err != nil {
			return err
		}
		over := folio.MergePatch(old, patch)
		if err := folio.ValidateCustomization(over); err != nil {
			return err
		}
		if err := checkCustomizationSize(over); err != nil {
			return err
		}
		if len(over) == 0 {
			over = nil
		}
		if _, err := store.SetSiteSpaceCustomization(ctx, tx, id, over); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, orgID, "site.customization_updated", "site", siteID,
			map[string]any{"siteSpace": id, "parts": slices.Sorted(maps.Keys(patch))}); err != nil {
			return err
		}
		base, err := siteCustomization(ctx, tx, siteID)
		doc = effectiveCustomization(base, over)
		return err
	})
	return doc, err
}

// DeleteSiteSpaceCustomization removes a site space's overrides and
// reports whether it had any.
func (a *App) DeleteSiteSpaceCustomization(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (had bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := siteSpaceOf(ctx, tx, caller, orgID, siteID, id, true); err != nil {
			return err
		}
		if had, err = store.SetSiteSpaceCustomization(ctx, tx, id, nil); err != nil || !had {
			return err
		}
		return audit(ctx, tx, caller, orgID, "site.customization_updated", "site", siteID,
			map[string]any{"siteSpace": id, "removed": true})
	})
	return had, err
}
