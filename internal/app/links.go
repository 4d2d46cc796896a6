package app

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/foliodocs/folio/internal/store"
)

// Link statuses (ContentReferenceStatus).
const (
	LinkOK     = "ok"
	LinkBroken = "broken"
	LinkInApp  = "in-app"
)

// Location is an absolute place in content: a page or a file of a space's
// current revision, or a URL.
type Location struct {
	Kind         string // "page", "file", "space" or "url"
	URL          string
	Organization *folio.OrganizationView
	Content      *Content // the space and revision the page or file is in
	Page         *content.Page
	File         *content.File
}

// LinkUsage is one target referenced from a space, with every page that
// references it (ContentReferenceUsage).
type LinkUsage struct {
	Status    string
	Relation  string
	Ref       json.RawMessage // the reference as written
	Target    *Location       // nil when the target cannot be resolved
	Locations []Location
}

// LinkStats counts a link report's targets.
type LinkStats struct {
	Total  int
	Broken int
}

// linkReader resolves link targets and locations for one request, loading
// each space, organization and tree once.
type linkReader struct {
	a      *App
	ctx    context.Context
	tx     *store.Tx
	caller folio.Caller
	urls   fileURLs
	spaces map[string]*Content // nil entry: not viewable or missing
	orgs   map[string]*folio.OrganizationView
}

// content returns the current content of a space if the caller may view it.
func (r *linkReader) content(spaceID string) (*Content, error) {
	if c, ok := r.spaces[spaceID]; ok {
		return c, nil
	}
	c, err := r.a.revisionContent(r.ctx, r.tx, r.caller, spaceID, "")
	if folio.IsNotFound(err) {
		r.spaces[spaceID] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.urls = r.urls
	r.spaces[spaceID] = c
	return c, nil
}

func (r *linkReader) org(id string) (*folio.OrganizationView, error) {
	if o, ok := r.orgs[id]; ok {
		return o, nil
	}
	o, err := store.GetOrganizationView(r.ctx, r.tx, id, r.caller.UserID)
	if err != nil {
		return nil, err
	}
	r.orgs[id] = o
	return o, nil
}

// pageLocation is the location of a page of a viewable space, or nil.
func (r *linkReader) pageLocation(spaceID, pageID string) (*Location, error) {
	c, err := r.content(spaceID)
	if err != nil || c == nil {
		return nil, err
	}
	n, ok := c.Node(pageID)
	if !ok {
		return nil, nil
	}
	o, err := r.org(c.Space.OrganizationID)
	if err != nil {
		return nil, err
	}
	return &Location{Kind: "page", Organization: o, Content: c, Page: n.Page}, nil
}

// fileLocation is the location of a file of a viewable space, or nil.
func (r *linkReader) fileLocation(spaceID, fileID string) (*Location, error) {
	c, err := r.content(spaceID)
	if err != nil || c == nil {
		return nil, err
	}
	f, ok := c.File(fileID)
	if !ok {
		return nil, nil
	}
	o, err := r.org(c.Space.OrganizationID)
	if err != nil {
		return nil, err
	}
	return &Location{Kind: "file", Organization: o, Content: c, File: &f}, nil
}

// target resolves a link's target and its status.
func (r *linkReader) target(l store.Link) (*Location, string, error) {
	var ref search.Reference
	var m map[string]any
	if err := json.Unmarshal([]byte(l.Ref), &m); err == nil {
		ref, _ = search.ParseRef(m)
	}
	switch l.Kind {
	case search.RefPage, search.RefAnchor:
		loc, err := r.pageLocation(l.TargetSpace, l.TargetPage)
		if err != nil || loc == nil {
			return nil, LinkBroken, err
		}
		return loc, LinkOK, nil
	case search.RefFile:
		loc, err := r.fileLocation(l.TargetSpace, l.TargetFile)
		if err != nil || loc == nil {
			return nil, LinkBroken, err
		}
		return loc, LinkOK, nil
	case search.RefURL:
		status := LinkOK
		switch {
		case search.IsAppURL(ref.URL, r.a.publicURL):
			status = LinkInApp
		case relativeURL(ref.URL):
			status = LinkBroken
		}
		return &Location{Kind: "url", URL: ref.URL}, status, nil
	case search.RefSpace:
		c, err := r.content(l.TargetSpace)
		if err != nil || c == nil {
			return nil, LinkBroken, err
		}
		o, err := r.org(c.Space.OrganizationID)
		if err != nil {
			return nil, "", err
		}
		return &Location{Kind: "space", Organization: o, Content: c}, LinkOK, nil
	}
	return nil, LinkOK, nil
}

// relativeURL reports whether a URL reference is a relative one, such as
// "setup.md" or "../guide/" that an import found no page or file for: it
// has no scheme and no host, so it leads nowhere from a page, whose address
// the reader chooses, and the link reports call it broken. An empty URL is
// broken too.
func relativeURL(u string) bool {
	u = strings.TrimSpace(u)
	if u == "" {
		return true
	}
	p, err := url.Parse(u)
	if err != nil {
		return false // not a URL we can judge; it is shown as written
	}
	return p.Scheme == "" && p.Host == "" && !strings.HasPrefix(u, "//") && !strings.HasPrefix(u, "#")
}

// readLinks runs fn with a link reader over a space the caller may view and
// its current content, after checking that the page (or, with pageID empty
// and fileID set, the file) exists there.
func (a *App) readLinks(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID, fileID string, fn func(r *linkReader, tx *store.Tx) error) error {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return err
	}
	return a.db.Read(ctx, func(tx *store.Tx) error {
		r := &linkReader{a: a, ctx: ctx, tx: tx, caller: caller, urls: urls, spaces: map[string]*Content{}, orgs: map[string]*folio.OrganizationView{}}
		c, err := r.content(spaceID)
		if err != nil {
			return err
		}
		if c == nil {
			return errSpaceNotFound
		}
		if pageID != "" {
			if _, ok := c.Node(pageID); !ok {
				return errPageNotFound
			}
		} else if fileID != "" {
			if _, ok := c.File(fileID); !ok {
				return errFileNotFound
			}
		}
		return fn(r, tx)
	})
}

// SpaceLinks reports the targets referenced from the current content of a
// space (or of one of its pages), grouped by target in order of first use,
// with their status; status filters the list, not the stats.
func (a *App) SpaceLinks(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID, status string, opts folio.ListOptions) (l folio.List[LinkUsage], stats LinkStats, err error) {
	switch status {
	case "", LinkOK, LinkBroken, LinkInApp:
	default:
		return l, stats, folio.FieldErrorf("status", "status must be ok, broken or in-app")
	}
	if _, err := searchOffset(opts); err != nil {
		return l, stats, err
	}
	var usages []LinkUsage
	err = a.readLinks(ctx, caller, spaceID, pageID, "", func(r *linkReader, tx *store.Tx) error {
		links, err := store.ListLinks(ctx, tx, spaceID, pageID)
		if err != nil {
			return err
		}
		byKey := map[string]int{}
		seenAt := map[string]bool{}
		for _, ln := range links {
			i, ok := byKey[ln.TargetKey+"|"+ln.Relation]
			if !ok {
				target, st, err := r.target(ln)
				if err != nil {
					return err
				}
				i = len(usages)
				byKey[ln.TargetKey+"|"+ln.Relation] = i
				usages = append(usages, LinkUsage{Status: st, Relation: ln.Relation, Ref: json.RawMessage(ln.Ref), Target: target})
			}
			at := ln.TargetKey + "|" + ln.Relation + "|" + ln.PageID
			if seenAt[at] {
				continue
			}
			seenAt[at] = true
			loc, err := r.pageLocation(spaceID, ln.PageID)
			if err != nil {
				return err
			}
			if loc != nil {
				usages[i].Locations = append(usages[i].Locations, *loc)
			}
		}
		return nil
	})
	if err != nil {
		return l, stats, err
	}
	filtered := usages[:0:0]
	for _, u := range usages {
		stats.Total++
		if u.Status == LinkBroken {
			stats.Broken++
		}
		if status == "" || u.Status == status {
			filtered = append(filtered, u)
		}
	}
	l, err = paginate(filtered, opts)
	return l, stats, err
}

// Backlinks lists the pages, in spaces the caller may view, whose content
// references a page (or, when pageID is empty, a file) of a space.
func (a *App) Backlinks(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID, fileID string, opts folio.ListOptions) (l folio.List[Location], err error) {
	if _, err := searchOffset(opts); err != nil {
		return l, err
	}
	var locs []Location
	err = a.readLinks(ctx, caller, spaceID, pageID, fileID, func(r *linkReader, tx *store.Tx) error {
		links, err := store.Backlinks(ctx, tx, spaceID, pageID, fileID)
		if err != nil {
			return err
		}
		locs, err = r.backlinkLocations(links)
		return err
	})
	if err != nil {
		return l, err
	}
	return paginate(locs, opts)
}

// backlinkLocations returns the locations of the pages links come from,
// once per page, in the links' order; pages the caller may not see are
// left out.
func (r *linkReader) backlinkLocations(links []store.Link) ([]Location, error) {
	var locs []Location
	seen := map[string]bool{}
	for _, ln := range links {
		key := ln.SpaceID + "/" + ln.PageID
		if seen[key] {
			continue
		}
		seen[key] = true
		loc, err := r.pageLocation(ln.SpaceID, ln.PageID)
		if err != nil {
			return nil, err
		}
		if loc != nil {
			locs = append(locs, *loc)
		}
	}
	return locs, nil
}
