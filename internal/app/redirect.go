package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// RedirectInput is the body of createSiteRedirect and updateSiteRedirectById.
type RedirectInput struct {
	Source      folio.Optional[string]                    `json:"source"`
	Destination folio.Optional[folio.RedirectDestination] `json:"destination"`
}

// checkDestination checks that a redirect's destination names what the
// site holds.
func checkDestination(ctx context.Context, tx *store.Tx, s *folio.Site, d *folio.RedirectDestination) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if d.Kind == "site-section" {
		return checkSiteSection(ctx, tx, s, "destination", d.SiteSectionID)
	}
	_, err := store.GetSiteSpace(ctx, tx, s.ID, d.SiteSpaceID)
	if folio.IsNotFound(err) {
		return folio.FieldErrorf("destination", "site space %s not found in the site", d.SiteSpaceID)
	}
	return err
}

// CreateRedirect adds a redirect to a site.
func (a *App) CreateRedirect(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, in RedirectInput) (r *folio.SiteRedirect, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		v, err := site(ctx, tx, caller, orgID, siteID, true)
		if err != nil {
			return err
		}
		if !in.Source.Present() {
			return folio.FieldErrorf("source", "source is required")
		}
		if !in.Destination.Present() {
			return folio.FieldErrorf("destination", "destination is required")
		}
		if err := folio.ValidateRedirectSource("source", in.Source.Value); err != nil {
			return err
		}
		if err := checkDestination(ctx, tx, &v.Site, &in.Destination.Value); err != nil {
			return err
		}
		n, err := store.CountRedirects(ctx, tx, siteID)
		if err != nil {
			return err
		}
		if n >= folio.MaxRedirects {
			return folio.Errorf(folio.Invalid, "a site has at most %d redirects", folio.MaxRedirects)
		}
		r = &folio.SiteRedirect{ID: folio.NewID(), SiteID: siteID, Source: in.Source.Value,
			Destination: in.Destination.Value, CreatedAt: tx.Now}
		if err := store.CreateRedirect(ctx, tx, r); err != nil {
			return err
		}
		return auditRedirect(ctx, tx, caller, orgID, "site.redirect_created", r)
	})
	return r, err
}

// UpdateRedirect changes a redirect's source or destination; omitted
// fields stay unchanged.
func (a *App) UpdateRedirect(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID, in RedirectInput) (r *folio.SiteRedirect, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		v, err := site(ctx, tx, caller, orgID, siteID, true)
		if err != nil {
			return err
		}
		if r, err = store.GetRedirect(ctx, tx, siteID, id); err != nil {
			return err
		}
		if in.Source.Null || in.Destination.Null {
			return folio.Errorf(folio.Invalid, "source and destination cannot be null")
		}
		if in.Source.Set {
			if err := folio.ValidateRedirectSource("source", in.Source.Value); err != nil {
				return err
			}
			r.Source = in.Source.Value
		}
		if in.Destination.Set {
			if err := checkDestination(ctx, tx, &v.Site, &in.Destination.Value); err != nil {
				return err
			}
			r.Destination = in.Destination.Value
		}
		if err := store.UpdateRedirect(ctx, tx, r); err != nil {
			return err
		}
		return auditRedirect(ctx, tx, caller, orgID, "site.redirect_updated", r)
	})
	return r, err
}

// ListRedirects lists a site's redirects.
func (a *App) ListRedirects(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, search string, opts folio.ListOptions) (l folio.List[folio.SiteRedirect], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		l, err = store.ListRedirects(ctx, tx, siteID, search, opts)
		return err
	})
	return l, err
}

// DeleteRedirect deletes a redirect and reports whether it existed.
func (a *App) DeleteRedirect(ctx context.Context, caller folio.Caller, orgID, siteID, id folio.ID) (existed bool, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if existed, err = store.DeleteRedirect(ctx, tx, siteID, id); err != nil || !existed {
			return err
		}
		return audit(ctx, tx, caller, orgID, "site.redirect_deleted", "site", siteID, map[string]any{"redirect": id})
	})
	return existed, err
}

// auditRedirect records a redirect's creation or change: where published
// addresses of the site lead.
func auditRedirect(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID, action string, r *folio.SiteRedirect) error {
	return audit(ctx, tx, caller, orgID, action, "site", r.SiteID,
		map[string]any{"redirect": r.ID, "source": r.Source, "destination": r.Destination})
}

// ResolvedRedirect is a redirect with the site and site space it leads to.
type ResolvedRedirect struct {
	Redirect  *folio.SiteRedirect
	Site      *folio.SiteView
	SiteSpace *folio.SiteSpace // nil for a section
}

// RedirectBySource finds the redirect of a source path, for the site's
// readers (see readableSite).
func (a *App) RedirectBySource(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, source, shareKey string) (out *ResolvedRedirect, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err := readableSite(ctx, tx, caller, orgID, siteID, shareKey)
		if err != nil {
			return err
		}
		if err := folio.ValidateRedirectSource("source", source); err != nil {
			return err
		}
		r, err := store.RedirectBySource(ctx, tx, siteID, source)
		if err != nil {
			return err
		}
		out = &ResolvedRedirect{Redirect: r, Site: v}
		if r.Destination.SiteSpaceID != "" {
			if out.SiteSpace, err = store.GetSiteSpace(ctx, tx, siteID, r.Destination.SiteSpaceID); folio.IsNotFound(err) {
				return folio.Errorf(folio.NotFound, "redirect not found")
			}
		}
		return err
	})
	return out, err
}
