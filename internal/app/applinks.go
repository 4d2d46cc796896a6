package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// PublicSpace is where anyone may read a space: a site space of a
// published public site, outside any condition.
type PublicSpace struct {
	Site      *folio.Site
	SiteSpace *folio.SiteSpace
}

// FindPublicSpace finds where anyone may read a space, for the urls.app
// links of spaces and pages (docs/renderer.md): the oldest published
// public site that shows it to every visitor. It needs no caller, as it
// tells only what the public site shows anyway; NotFound when none does
// (unlisted and share-link sites are never named: their URLs are not to be
// found from a space id).
func (a *App) FindPublicSpace(ctx context.Context, spaceID folio.ID) (out *PublicSpace, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sss, err := store.PublicSiteSpacesOfSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		for i := range sss {
			ss := &sss[i]
			if ss.Condition != "" {
				continue
			}
			s, err := store.SiteByID(ctx, tx, ss.SiteID)
			if err != nil {
				return err
			}
			if ss.SectionID != "" {
				sec, err := store.GetSiteSection(ctx, tx, s.ID, ss.SectionID)
				if err != nil {
					return err
				}
				if sec.Condition != "" {
					continue
				}
			}
			out = &PublicSpace{Site: s, SiteSpace: ss}
			return nil
		}
		return errSpaceNotFound
	})
	return out, err
}
