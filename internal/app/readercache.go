package app

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// FileURLWindow identifies the signed download URLs FileURL gives now:
// they change only when it does (every fileURLLifetime), so the reader
// keeps it in the keys of the HTML it caches.
func (c *Content) FileURLWindow() int64 { return c.urls.now.Truncate(fileURLLifetime).Unix() }

// revisionCacheEntries bounds the cache of revision rows, which the reader
// reads on every page: they never change once written.
const revisionCacheEntries = 10_000

// readerContent returns the current revision of a space as the site
// structure of the request loaded it (sv, whose current revision is as
// fresh as the request's site lookup), with the read role. The revision
// row and its tree come from the caches of immutable values, so a page
// read costs no query here once they are warm; merge details
// (Content.MergedFrom) are left out, the reader does not show them.
func (a *App) readerContent(ctx context.Context, sv *folio.SpaceView) (*Content, error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	v := &folio.SpaceView{Space: sv.Space, CallerRole: folio.RoleRead}
	key := v.ID + "/" + v.Revision
	rev, cached := a.revisions.Get(key)
	var c *Content
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if !cached {
			r, err := store.GetRevision(ctx, tx, v.ID, v.Revision)
			if folio.IsNotFound(err) {
				return errRevisionNotFound
			}
			if err != nil {
				return err
			}
			rev = r
			a.revisions.Add(key, rev)
		}
		rt, err := a.loadTree(ctx, tx, rev.TreeHash)
		if err != nil {
			return err
		}
		c = &Content{Space: v, Revision: rev, Tree: rt.tree, rt: rt, urls: urls}
		return nil
	})
	return c, err
}

// profileCacheEntries bounds the cache of reader site profiles.
const profileCacheEntries = 1000

// readerProfile returns the published profile of a site for an anonymous
// reader: the structure (spaces with the read role) and customizations.
// A profile is built from the rows its stamp digests, read with the site
// row in one query (store.ReaderSite): while the stamp is the one the cached profile was
// built under, the profile is reused, so a page read costs one query here
// instead of one per table, and any change is seen by the next request on
// every server. A change that lands between the stamp and the build gives
// a newer profile under the older stamp, which the next request's stamp
// replaces: never an older one. The profile is shared between requests and
// must not be changed; it carries no change request or comment counts.
func (a *App) readerProfile(ctx context.Context, tx *store.Tx, s *folio.Site, stamp [sha256.Size]byte) (*PublishedSite, error) {
	key := s.ID + "\x00" + string(stamp[:])
	if ps, ok := a.profiles.Get(key); ok {
		return ps, nil
	}
	v := &folio.SiteView{Site: *s}
	out := &PublishedSite{Site: v, Customizations: map[folio.ID]map[string]any{}, ProfileKey: key}
	t, err := loadTree(ctx, tx, s)
	if err != nil {
		return nil, err
	}
	// The reader is nobody in particular: spaces are seen with the
	// read role, as share-key readers see them.
	if out.Structure, err = t.structure(ctx, tx, folio.Caller{}, v); err != nil {
		return nil, err
	}
	forEachSiteSpace(out.Structure, func(ss *folio.SiteSpaceView) {
		ss.Space.ChangeRequests, ss.Space.ChangeRequestsOpen, ss.Space.ChangeRequestsDraft, ss.Space.Comments = 0, 0, 0, 0
	})
	if out.Customization, err = siteCustomization(ctx, tx, s.ID); err != nil {
		return nil, err
	}
	overs, err := store.SiteSpaceCustomizations(ctx, tx, s.ID)
	if err != nil {
		return nil, err
	}
	for sid, over := range overs {
		out.Customizations[sid] = effectiveCustomization(out.Customization, over)
	}
	a.profiles.Add(key, out)
	return out, nil
}

// forEachSiteSpace calls fn with every site space of a structure.
func forEachSiteSpace(st *folio.SiteStructure, fn func(*folio.SiteSpaceView)) {
	for i := range st.SiteSpaces {
		fn(&st.SiteSpaces[i])
	}
	var walk func(nodes []folio.SiteStructureNode)
	walk = func(nodes []folio.SiteStructureNode) {
		for _, n := range nodes {
			if n.Section != nil {
				for i := range n.Section.SiteSpaces {
					fn(&n.Section.SiteSpaces[i])
				}
			}
			if n.Group != nil {
				walk(n.Group.Children)
			}
		}
	}
	walk(st.Nodes)
}

// readerSiteTTL is how long the reader reuses a site row and profile stamp
// it read (readerSites). Writes through this process drop them at once;
// writes through another server sharing the database show within it.
const readerSiteTTL = time.Second

// readerSiteEntries bounds readerSites; when full it starts over.
const readerSiteEntries = 1000

// readerSites keeps, briefly, the site rows and profile stamps the reader
// read, by site id or hostname: a page of a public site then costs no
// query at all. An entry serves while no write transaction committed
// through this process's store since it was read (store.DB.Writes) and
// for at most readerSiteTTL: a server sees its own changes at once, and
// another server's within the TTL. Share keys and visitor keys are not
// kept here; they are checked on every request.
type readerSites struct {
	mu sync.Mutex
	m  map[string]readerSiteEntry
}

type readerSiteEntry struct {
	site   *folio.Site
	stamp  [sha256.Size]byte
	writes uint64    // store.DB.Writes before the read
	until  time.Time // monotonic
}

// readerSite returns a site row by id or hostname with its profile stamp,
// from readerSites when still fresh, else from store.ReaderSite. The row
// is shared and must not be changed.
func (a *App) readerSite(ctx context.Context, tx *store.Tx, id folio.ID, hostname string) (*folio.Site, [sha256.Size]byte, error) {
	key := id + "\x00" + hostname
	writes, now := a.db.Writes(), time.Now()
	c := &a.readerSites
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && e.writes == writes && now.Before(e.until) {
		return e.site, e.stamp, nil
	}
	s, stamp, err := store.ReaderSite(ctx, tx, id, hostname)
	if err != nil {
		return nil, stamp, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= readerSiteEntries {
		c.m = make(map[string]readerSiteEntry)
	}
	c.m[key] = readerSiteEntry{site: s, stamp: stamp, writes: writes, until: now.Add(readerSiteTTL)}
	c.mu.Unlock()
	return s, stamp, nil
}
