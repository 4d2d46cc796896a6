package app

import (
	"context"

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
	rev, cached := a.revisions.get(key)
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
			a.revisions.put(key, rev)
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
