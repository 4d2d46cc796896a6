package app

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// Node keys and heading anchors (see content/keys.go and docs/decisions.md,
// "Block keys and heading anchors").
//
// Written documents get them in one place, finishDocuments, which every
// edit of a space or a change request runs on what it built (imports, git
// sync, templates, translations), and merges in mergeTrees. Documents
// stored before keys existed are upgraded when they are read, with keys
// derived from their hash (upgradeStored, decodeDocument): the same stored
// document always reads with the same keys, and the next write of its
// page carries them over, so they are then stored.

// upgradeStored returns the JSON of document h, stored as b, as readers
// see it: unchanged when it has its keys and anchors (checked without
// decoding), else upgraded (content.Upgrade).
func upgradeStored(h content.Hash, b []byte) ([]byte, error) {
	if content.KeyedJSON(b) {
		return b, nil
	}
	d := new(content.Document)
	if err := d.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("decode document %s: %w", h, err)
	}
	if !content.Upgrade(d, h) {
		return b, nil
	}
	return d.MarshalJSON()
}

// upgradeComputed gives a document computed at read time (OpenAPI pages)
// keys derived from its content, so that it reads the same every time it
// is the same.
func upgradeComputed(d *content.Document) *content.Document {
	if d != nil {
		content.Upgrade(d, content.HashDocument(d))
	}
	return d
}

// loadDocuments returns the documents stored under hs, decoded and
// upgraded, with one query for those not in the cache.
func (a *App) loadDocuments(ctx context.Context, tx *store.Tx, hs []content.Hash) (map[content.Hash]*content.Document, error) {
	out := make(map[content.Hash]*content.Document, len(hs))
	var missing []string
	for _, h := range hs {
		if b, ok := a.docs.Get(h); ok {
			d, err := decodeDocument(h, b)
			if err != nil {
				return nil, err
			}
			out[h] = d
			continue
		}
		missing = append(missing, hashHex(h))
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := store.GetObjects(ctx, tx, missing)
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		if _, ok := out[h]; ok {
			continue
		}
		o, ok := got[hashHex(h)]
		if !ok {
			return nil, fmt.Errorf("document object %s is missing", h)
		}
		b, err := upgradeStored(h, o.Data)
		if err != nil {
			return nil, err
		}
		a.docs.Add(h, b)
		d, err := decodeDocument(h, b)
		if err != nil {
			return nil, err
		}
		out[h] = d
	}
	return out, nil
}

// finishDocuments gives the documents an edit brings their keys and heading
// anchors (content.Finish). snap must come from ownPages: its pages that
// are not base's are its own, and are pointed at the finished documents in
// place; the documents themselves, and snap's maps, are never changed, so
// a builder may hand the same ones to every attempt. A page or reusable
// content whose new document replaces another carries the old document's
// keys over to the blocks that survive (content.Finish); the old documents
// are read in one query.
func (a *App) finishDocuments(ctx context.Context, base *Content, snap *content.Snapshot) error {
	complete := map[content.Hash]bool{}
	needs := func(h content.Hash, old content.Hash) bool {
		d := snap.Documents[h]
		if d == nil || h == old {
			// Not brought by the edit, or the base's own document: it is
			// stored already, and upgraded when read.
			return false
		}
		c, ok := complete[h]
		if !ok {
			c = content.Complete(d)
			complete[h] = c
		}
		return !c
	}
	type use struct {
		page    *content.Page
		rc      int // index in snap.Tree.ReusableContents when page is nil
		doc     content.Hash
		replace content.Hash // the document it replaces, zero for none
	}
	var uses []use
	keep := map[content.Hash]bool{} // documents still pointed at as they are
	baseNodes := base.rt.index().nodes
	var walk func(pages, basePages []*content.Page)
	walk = func(pages, basePages []*content.Page) {
		for i, p := range pages {
			if i < len(basePages) && basePages[i] == p {
				keep[p.Document] = true
				continue
			}
			n, ok := baseNodes.Node(p.ID)
			if ok && n.Page == p {
				keep[p.Document] = true
				continue
			}
			var kids []*content.Page
			var old content.Hash
			if ok {
				kids, old = n.Page.Pages, n.Page.Document
			}
			if needs(p.Document, old) {
				uses = append(uses, use{page: p, doc: p.Document, replace: old})
			} else {
				keep[p.Document] = true
			}
			walk(p.Pages, kids)
		}
	}
	walk(snap.Tree.Pages, base.Tree.Pages)
	baseRCs := map[string]content.Hash{}
	for _, rc := range base.Tree.ReusableContents {
		baseRCs[rc.ID] = rc.Document
	}
	for i, rc := range snap.Tree.ReusableContents {
		if needs(rc.Document, baseRCs[rc.ID]) {
			uses = append(uses, use{rc: i, doc: rc.Document, replace: baseRCs[rc.ID]})
		} else {
			keep[rc.Document] = true
		}
	}
	if len(uses) == 0 {
		return nil
	}
	var oldHashes []content.Hash
	for _, u := range uses {
		if !u.replace.IsZero() && !slices.Contains(oldHashes, u.replace) {
			oldHashes = append(oldHashes, u.replace)
		}
	}
	olds := map[content.Hash]*content.Document{}
	if len(oldHashes) > 0 {
		if err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
			olds, err = a.loadDocuments(ctx, tx, oldHashes)
			return err
		}); err != nil {
			return err
		}
	}
	docs := maps.Clone(snap.Documents)
	rcs := snap.Tree.ReusableContents
	rcsOwned := false
	for _, u := range uses {
		d, _ := content.Finish(snap.Documents[u.doc], olds[u.replace], content.DerivedKeys(u.doc))
		h := content.HashDocument(d)
		docs[h] = d
		if u.page != nil {
			u.page.Document = h
			continue
		}
		if !rcsOwned {
			rcs, rcsOwned = slices.Clone(rcs), true
		}
		rcs[u.rc].Document = h
	}
	for _, u := range uses {
		if !keep[u.doc] {
			delete(docs, u.doc)
		}
	}
	snap.Tree.ReusableContents = rcs
	snap.Documents = docs
	return nil
}
