package app

import (
	"context"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// ErrVisitorAuth answers a request for a published visitor-auth site:
// the reader does not verify visitor tokens yet, so such sites stay closed.
var ErrVisitorAuth = folio.Errorf(folio.Forbidden, "this site needs visitor authentication, which the reader does not support yet")

// ReaderSite returns the published profile of a site for an anonymous
// reader, the site named by id or (when id is empty) by custom hostname.
// Only a published site answers: public and unlisted ones to anyone,
// share-link ones to the holder of an active key (checked on every call,
// so a revoked key stops working at once); visitor-auth ones answer
// ErrVisitorAuth. Everything else is NotFound.
func (a *App) ReaderSite(ctx context.Context, id folio.ID, hostname, shareKey string) (out *PublishedSite, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		var s *folio.Site
		if id != "" {
			s, err = store.SiteByID(ctx, tx, id)
		} else {
			s, err = store.SiteByHostname(ctx, tx, hostname)
		}
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
		if s.Published && s.Visibility == "visitor-auth" {
			return ErrVisitorAuth
		}
		if ok, err := publishedTo(ctx, tx, s, shareKey); err != nil || !ok {
			if err != nil {
				return err
			}
			return errSiteNotFound
		}
		out, err = a.readerProfile(ctx, tx, s)
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
// structure (NotFound otherwise): this is what lets an anonymous reader
// read the space.
func (a *App) ReaderContent(ctx context.Context, ps *PublishedSite, siteSpaceID folio.ID) (c *Content, err error) {
	var ss *folio.SiteSpaceView
	for _, v := range PublishedSiteSpaces(ps.Structure) {
		if v.ID == siteSpaceID {
			ss = &v
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
	if page.Type != content.PageDocument || page.Document.IsZero() {
		return nil, nil
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		d, err = a.loadDocument(ctx, tx, page.Document)
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
