package app

import (
	"context"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// ReaderSite is ReaderSiteFor a visitor who brings nothing.
func (a *App) ReaderSite(ctx context.Context, id folio.ID, hostname, shareKey string) (*PublishedSite, error) {
	return a.ReaderSiteFor(ctx, id, hostname, shareKey, Visitor{})
}

// ReaderSiteFor returns the published profile of a site for a visitor of
// the reader, the site named by id or (when id is empty) by custom
// hostname. Only a published site answers: public and unlisted ones to
// anyone, share-link ones to the holder of an active key (checked on every
// call, so a revoked key stops working at once), visitor-auth ones to a
// visitor whose token verifies with the site's current key (a
// *VisitorAuthError otherwise). Everything else is NotFound. The
// visitor's claims are set on the answer: Visible tells what they see.
func (a *App) ReaderSiteFor(ctx context.Context, id folio.ID, hostname, shareKey string, visitor Visitor) (out *PublishedSite, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		// The site row and the stamp of its profile, in one query (or
		// none, when read a moment ago and nothing was written since).
		s, stamp, err := a.readerSite(ctx, tx, id, hostname)
		if folio.IsNotFound(err) {
			return errSiteNotFound
		}
		if err != nil {
			return err
		}
		// A site with its own hostname (or behind a proxy) is served there
		// only, as its urls.published and the site content API say.
		if id != "" && (s.Hostname != "" || s.ProxyOrigin != "") {
			return errSiteNotFound
		}
		if !s.Published {
			return errSiteNotFound
		}
		va, err := a.checkVisitor(ctx, tx, s, visitor)
		if err != nil {
			return err
		}
		if ok, err := publishedTo(ctx, tx, s, shareKey, va.keyID); err != nil || !ok {
			if err != nil {
				return err
			}
			return errSiteNotFound
		}
		p, err := a.readerProfile(ctx, tx, s, stamp)
		if err != nil {
			return err
		}
		// The profile is shared between visitors (cached): the visitor's
		// own part goes on a copy.
		cp := *p
		cp.Claims, cp.Authenticated = va.claims, va.keyID != ""
		out = &cp
		return err
	})
	return out, err
}

// ReaderRedirect returns the redirect of a source path of a site the
// reader resolved with ReaderSite, or NotFound.
func (a *App) ReaderRedirect(ctx context.Context, ps *PublishedSite, source string) (r *folio.SiteRedirect, err error) {
	if folio.ValidateRedirectSource("source", source) != nil {
		return nil, folio.Errorf(folio.NotFound, "redirect not found")
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		r, err = store.RedirectBySource(ctx, tx, ps.Site.ID, source)
		return err
	})
	return r, err
}

// ReaderContent returns the current revision of the space a site space of
// a resolved site publishes. The site space must be in the site's
// structure and visible to the visitor (NotFound otherwise): this is what
// lets an anonymous reader read the space.
func (a *App) ReaderContent(ctx context.Context, ps *PublishedSite, siteSpaceID folio.ID) (c *Content, err error) {
	var ss *folio.SiteSpaceView
	for _, v := range ps.Visible().SiteSpaces {
		if v.ID == siteSpaceID {
			ss = &v.SiteSpaceView
			break
		}
	}
	if ss == nil {
		return nil, errSpaceNotFound
	}
	return a.readerContent(ctx, &ss.Space)
}

// ReaderDocument loads the document of a document page of content that
// ReaderContent returned; nil for a page without one.
func (a *App) ReaderDocument(ctx context.Context, c *Content, page *content.Page) (d *content.Document, err error) {
	if page.Type != content.PageDocument || page.Document.IsZero() && len(page.Computed) == 0 {
		return nil, nil
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		d, err = a.pageDocument(ctx, tx, c.Space.OrganizationID, page, true)
		return err
	})
	return d, err
}

// PublishedSiteSpaces lists the site spaces of a structure in order,
// those in sections included.
func PublishedSiteSpaces(st *folio.SiteStructure) []folio.SiteSpaceView {
	out := append([]folio.SiteSpaceView(nil), st.SiteSpaces...)
	var walk func(nodes []folio.SiteStructureNode)
	walk = func(nodes []folio.SiteStructureNode) {
		for _, n := range nodes {
			if n.Section != nil {
				out = append(out, n.Section.SiteSpaces...)
			}
			if n.Group != nil {
				walk(n.Group.Children)
			}
		}
	}
	walk(st.Nodes)
	return out
}

// ReaderHostname reports whether some site, published or not, has the
// custom hostname: the reader then answers that host's requests.
func (a *App) ReaderHostname(ctx context.Context, hostname string) (found bool, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, err := store.SiteByHostname(ctx, tx, hostname)
		if folio.IsNotFound(err) {
			return nil
		}
		found = err == nil
		return err
	})
	return found, err
}

// ReaderSearch searches the current content of site spaces of a site the
// reader resolved with ReaderSite: the reader passes the site spaces the
// visitor may see, and each must be in the site's structure (others are
// ignored), so the scope is the reader's. Hidden pages are left out. It
// also returns the terms the excerpts were cut around, to highlight them.
// Errors: Invalid for a bad query.
func (a *App) ReaderSearch(ctx context.Context, ps *PublishedSite, siteSpaceIDs []folio.ID, query string, opts folio.ListOptions) (l folio.List[SearchSpaceHits], terms []string, err error) {
	if err := validateQuery(query); err != nil {
		return l, nil, err
	}
	var spaces []string
	for _, ss := range PublishedSiteSpaces(ps.Structure) {
		if slices.Contains(siteSpaceIDs, ss.ID) && !slices.Contains(spaces, ss.SpaceID) {
			spaces = append(spaces, ss.SpaceID)
		}
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		l, terms, err = a.searchSpaces(ctx, tx, spaces, query, opts, true)
		return err
	})
	return l, terms, err
}
