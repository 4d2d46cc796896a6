package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// PreviewSite returns a site's profile as its reader shows it, with the
// customization doc in place of the site's own (replacing it as
// UpdateSiteCustomization would: the parts doc leaves out take their
// defaults, and the site spaces' overrides still apply over it). The web
// app renders it beside the customization form, so its unsaved settings
// can be seen before they are saved. Whoever may manage the site sees it,
// published or not (NotFound, Forbidden otherwise); doc is checked as
// UpdateSiteCustomization checks it (Invalid). The profile carries no
// integration scripts: a preview runs none.
func (a *App) PreviewSite(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, doc map[string]any) (*PublishedSite, error) {
	var overs map[folio.ID]map[string]any
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if err := folio.ValidateCustomization(doc); err != nil {
			return err
		}
		if err := checkCustomizationSize(doc); err != nil {
			return err
		}
		overs, err = store.SiteSpaceCustomizations(ctx, tx, siteID)
		return err
	})
	if err != nil {
		return nil, err
	}
	ps, err := a.GetPublishedSite(ctx, caller, orgID, siteID, "")
	if err != nil {
		return nil, err
	}
	ps.Scripts = nil
	ps.Customization = effectiveCustomization(defaultCustomization(), doc)
	for _, ss := range PublishedSiteSpaces(ps.Structure) {
		ps.Customizations[ss.ID] = ps.Customization
		if over, ok := overs[ss.ID]; ok {
			ps.Customizations[ss.ID] = effectiveCustomization(ps.Customization, over)
		}
	}
	return ps, nil
}
