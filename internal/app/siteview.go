package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// SiteView is one page view of a published site, for site_view events.
type SiteView struct {
	OrgID, SiteID, SiteSpaceID, SpaceID, PageID folio.ID
	URL, Referrer, IP, UserAgent, Language      string
}

// siteViewListenersTTL is how long a server trusts what it learned about
// a site's listeners: an installation made meanwhile hears about views at
// most this late.
const siteViewListenersTTL = 30 * time.Second

// maxSiteViewWrites bounds the views being recorded at once; views beyond
// it are dropped rather than slowing the reader down.
const maxSiteViewWrites = 8

type siteListeners struct {
	mu      sync.Mutex
	bySite  map[folio.ID]siteListenerEntry
	writing chan struct{}
}

type siteListenerEntry struct {
	listeners []store.Listener
	until     time.Time
}

// SiteViewed records a view for the installations that hear about the
// site's views, without making the reader wait: when the site is known to
// have none (the common case) it costs a map lookup.
func (a *App) SiteViewed(v SiteView) {
	now := a.clock.Now()
	sl := &a.siteViews
	sl.mu.Lock()
	e, ok := sl.bySite[v.SiteID]
	sl.mu.Unlock()
	if ok && now.Before(e.until) && len(e.listeners) == 0 {
		return
	}
	select {
	case sl.writing <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-sl.writing }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.recordSiteView(ctx, v, now); err != nil {
			a.logger.Warn("site view event", "site", v.SiteID, "error", err.Error())
		}
	}()
}

func (a *App) recordSiteView(ctx context.Context, v SiteView, now time.Time) error {
	sl := &a.siteViews
	sl.mu.Lock()
	e, ok := sl.bySite[v.SiteID]
	sl.mu.Unlock()
	if !ok || !now.Before(e.until) {
		// A read, not a write: most sites have no listener.
		err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			e.listeners, err = store.SiteListenersOf(ctx, tx, v.OrgID, v.SiteID, "")
			return err
		})
		if err != nil {
			return err
		}
		e.until = now.Add(siteViewListenersTTL)
		sl.mu.Lock()
		if len(sl.bySite) > 10000 {
			clear(sl.bySite)
		}
		sl.bySite[v.SiteID] = e
		sl.mu.Unlock()
	}
	if len(e.listeners) == 0 {
		return nil
	}
	// An anonymous id stable for a visitor, a site and a day, that reveals
	// neither their address nor their browser.
	sum := sha256.Sum256([]byte(v.IP + "\x00" + v.UserAgent + "\x00" + now.UTC().Format("2006-01-02") + "\x00" + string(v.SiteID)))
	visitor := map[string]any{"anonymousId": hex.EncodeToString(sum[:12]), "cookies": map[string]string{},
		"userAgent": v.UserAgent, "ip": v.IP}
	if v.Language != "" {
		visitor["language"] = v.Language
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		for _, l := range e.listeners {
			fields := map[string]any{"siteId": v.SiteID, "siteSpaceId": v.SiteSpaceID, "spaceId": v.SpaceID,
				"pageId": v.PageID, "visitor": visitor, "url": v.URL, "referrer": v.Referrer}
			if err := tell(ctx, tx, &folio.Installation{ID: l.Installation, Integration: l.Integration},
				folio.EventSiteView, fields); err != nil {
				return err
			}
		}
		return nil
	})
}
