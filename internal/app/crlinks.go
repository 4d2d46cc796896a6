package app

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/foliodocs/folio/internal/store"
)

// pageLinks returns the link rows of one page of a space, as the index
// would hold them.
func pageLinks(spaceID string, p *content.Page, doc *content.Document) []store.Link {
	var out []store.Link
	switch p.Type {
	case content.PageLink:
		if r, ok := parseTarget(p.Target); ok {
			out = append(out, linkRow(spaceID, p.ID, 0, r))
		}
	case content.PageDocument:
		if doc == nil {
			return nil // the zero hash: an empty page
		}
		for i, r := range search.References(doc) {
			out = append(out, linkRow(spaceID, p.ID, i, r))
		}
	}
	return out
}

// headLinks returns the links of a change request's head (of one page when
// pageID is set): the space's indexed links given by indexed, which follow
// its current revision, with the pages that differ in the head read from
// the head's documents. It also returns the pages the change request
// changed from its base, whose broken links are the change request's own.
// indexed may return only some of the space's links (those to one target,
// say): the caller then filters the head's links the same way.
func (a *App) headLinks(ctx context.Context, tx *store.Tx, sv *folio.SpaceView, cr *folio.ChangeRequest, head *Content, pageID string,
	indexed func() ([]store.Link, error)) ([]store.Link, map[string]bool, error) {
	current, err := a.contentOf(ctx, tx, sv, sv.Revision)
	if err != nil {
		return nil, nil, err
	}
	base, err := a.contentOf(ctx, tx, sv, cr.Base())
	if err != nil {
		return nil, nil, err
	}
	ownChanges := map[string]bool{}
	for _, c := range content.Diff(base.Tree, head.Tree) {
		if c.PageID != "" && c.Kind != content.Removed {
			ownChanges[c.PageID] = true
		}
	}
	differs := map[string]bool{}
	var changedPages []*content.Page
	for _, c := range content.Diff(current.Tree, head.Tree) {
		if c.PageID == "" || (pageID != "" && c.PageID != pageID) {
			continue
		}
		differs[c.PageID] = true
		if c.Page != nil {
			changedPages = append(changedPages, c.Page)
		}
	}
	rows, err := indexed()
	if err != nil {
		return nil, nil, err
	}
	var out []store.Link
	for _, l := range rows {
		if !differs[l.PageID] {
			out = append(out, l)
		}
	}
	for _, p := range changedPages {
		var doc *content.Document
		if p.Type == content.PageDocument && !p.Document.IsZero() {
			if doc, err = a.loadDocument(ctx, tx, p.Document); err != nil {
				return nil, nil, err
			}
		}
		out = append(out, pageLinks(sv.ID, p, doc)...)
	}
	// The index's order: by page, then place in the page.
	slices.SortStableFunc(out, func(x, y store.Link) int { return cmp.Or(cmp.Compare(x.PageID, y.PageID), cmp.Compare(x.Ord, y.Ord)) })
	return out, ownChanges, nil
}

// crLinkReader returns a link reader over a change request's head: the
// space's own pages and files resolve in the head.
func (a *App) crLinkReader(ctx context.Context, tx *store.Tx, caller folio.Caller, spaceID folio.ID, ref string, urls fileURLs) (*linkReader, *folio.SpaceView, *folio.ChangeRequest, *Content, error) {
	sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	head, err := a.contentOf(ctx, tx, sv, cr.Revision)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	head.urls = urls
	r := &linkReader{a: a, ctx: ctx, tx: tx, caller: caller, urls: urls,
		spaces: map[string]*Content{sv.ID: head}, orgs: map[string]*folio.OrganizationView{}}
	return r, sv, cr, head, nil
}

// ChangeRequestLinks reports the targets referenced from a change
// request's head (or one of its pages) as SpaceLinks does for a space;
// stats.Broken counts the broken targets, and ChangeRequestBroken those
// referenced from pages the change request added or changed.
func (a *App) ChangeRequestLinks(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref, pageID, status string, opts folio.ListOptions) (l folio.List[LinkUsage], stats LinkStats, crBroken int, err error) {
	switch status {
	case "", LinkOK, LinkBroken, LinkInApp:
	default:
		return l, stats, 0, folio.FieldErrorf("status", "status must be ok, broken or in-app")
	}
	if _, err := searchOffset(opts); err != nil {
		return l, stats, 0, err
	}
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return l, stats, 0, err
	}
	var (
		usages []LinkUsage
		own    []bool // whether each usage comes from a page the change request changed
	)
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		r, sv, cr, head, err := a.crLinkReader(ctx, tx, caller, spaceID, ref, urls)
		if err != nil {
			return err
		}
		if pageID != "" {
			if _, ok := head.Node(pageID); !ok {
				return errPageNotFound
			}
		}
		links, ownPages, err := a.headLinks(ctx, tx, sv, cr, head, pageID,
			func() ([]store.Link, error) { return store.ListLinks(ctx, tx, sv.ID, pageID) })
		if err != nil {
			return err
		}
		byKey := map[string]int{}
		seenAt := map[string]bool{}
		for _, ln := range links {
			key := ln.TargetKey + "|" + ln.Relation
			i, ok := byKey[key]
			if !ok {
				target, st, err := r.target(ln)
				if err != nil {
					return err
				}
				i = len(usages)
				byKey[key] = i
				usages = append(usages, LinkUsage{Status: st, Relation: ln.Relation, Ref: json.RawMessage(ln.Ref), Target: target})
				own = append(own, false)
			}
			if ownPages[ln.PageID] {
				own[i] = true
			}
			if seenAt[key+"|"+ln.PageID] {
				continue
			}
			seenAt[key+"|"+ln.PageID] = true
			loc, err := r.pageLocation(sv.ID, ln.PageID)
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
		return l, stats, 0, err
	}
	filtered := usages[:0:0]
	for i, u := range usages {
		stats.Total++
		if u.Status == LinkBroken {
			stats.Broken++
			if own[i] {
				crBroken++
			}
		}
		if status == "" || u.Status == status {
			filtered = append(filtered, u)
		}
	}
	l, err = paginate(filtered, opts)
	return l, stats, crBroken, err
}

// ChangeRequestBacklinks lists the pages that reference a page (or, when
// pageID is empty, a file) of a change request's head: in the head itself,
// and in the current content of the other spaces the caller may view.
func (a *App) ChangeRequestBacklinks(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref, pageID, fileID string, opts folio.ListOptions) (l folio.List[Location], err error) {
	if _, err := searchOffset(opts); err != nil {
		return l, err
	}
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return l, err
	}
	var locs []Location
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		r, sv, cr, head, err := a.crLinkReader(ctx, tx, caller, spaceID, ref, urls)
		if err != nil {
			return err
		}
		if pageID != "" {
			if _, ok := head.Node(pageID); !ok {
				return errPageNotFound
			}
		} else if _, ok := head.File(fileID); !ok {
			return errFileNotFound
		}
		others, err := store.Backlinks(ctx, tx, sv.ID, pageID, fileID)
		if err != nil {
			return err
		}
		// The space's own indexed links to the target are among others:
		// only the pages the head changed need reading.
		own, _, err := a.headLinks(ctx, tx, sv, cr, head, "", func() ([]store.Link, error) {
			var mine []store.Link
			for _, ln := range others {
				if ln.SpaceID == sv.ID {
					mine = append(mine, ln)
				}
			}
			return mine, nil
		})
		if err != nil {
			return err
		}
		var rows []store.Link
		for _, ln := range own {
			if ln.TargetSpace == sv.ID && ((pageID != "" && ln.TargetPage == pageID) || (pageID == "" && ln.TargetFile == fileID)) {
				rows = append(rows, ln)
			}
		}
		for _, ln := range others {
			if ln.SpaceID != sv.ID {
				rows = append(rows, ln)
			}
		}
		locs, err = r.backlinkLocations(rows)
		return err
	})
	if err != nil {
		return l, err
	}
	return paginate(locs, opts)
}
