package app

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// emptyTree is the content of a new space: no pages, no files.
var emptyTree = &content.Tree{Pages: []*content.Page{}}

// putObjectsBatch is how many objects putTree encodes and writes at a time.
const putObjectsBatch = 1000

// putTree stores the objects of t that base does not share, and the
// documents given. The objects go in hash order, the one order every
// writer uses (store.PutObjects), and documents are encoded a batch at a
// time as they are written: a large import's documents are never all held
// in their stored form at once, beside their decoded one.
func (a *App) putTree(ctx context.Context, tx *store.Tx, base, t *content.Tree, docs map[content.Hash]*content.Document) error {
	type pending struct {
		hash string
		doc  *content.Document // nil for a tree object
		obj  store.Object
	}
	treeObjs := content.TreeObjects(base, t)
	all := make([]pending, 0, len(docs)+len(treeObjs))
	for h, d := range docs {
		// A document's key is its object hash (content.HashDocument).
		all = append(all, pending{hash: hashHex(h), doc: d})
	}
	for _, o := range treeObjs {
		h := hashHex(o.Hash)
		all = append(all, pending{hash: h, obj: store.Object{Hash: h, Kind: o.Kind, Data: o.Data}})
	}
	slices.SortFunc(all, func(x, y pending) int { return strings.Compare(x.hash, y.hash) })
	touch := tx.Now.Add(-a.gcGrace / 4)
	batch := make([]store.Object, 0, min(len(all), putObjectsBatch))
	for i, p := range all {
		o := p.obj
		if p.doc != nil {
			do, err := content.DocumentObject(p.doc)
			if err != nil {
				return err
			}
			o = store.Object{Hash: hashHex(do.Hash), Kind: do.Kind, Data: do.Data}
		}
		batch = append(batch, o)
		if len(batch) == putObjectsBatch || i == len(all)-1 {
			if err := store.PutObjects(ctx, tx, batch, touch); err != nil {
				return err
			}
			clear(batch)
			batch = batch[:0]
		}
	}
	return nil
}

// createInitialRevision gives a new space its first revision, holding tree
// (which must already be stored, or be the empty tree).
func (a *App) createInitialRevision(ctx context.Context, tx *store.Tx, s *folio.Space, createdBy folio.ID, tree *content.Tree) error {
	if tree == emptyTree {
		if err := a.putTree(ctx, tx, nil, emptyTree, nil); err != nil {
			return err
		}
	}
	return store.CreateRevision(ctx, tx, &folio.Revision{ID: s.Revision, SpaceID: s.ID, TreeHash: tree.Hash().String(),
		Type: folio.RevisionEdits, CreatedBy: createdBy})
}

// edit describes a change to a space's content that commit applies as a new
// revision.
type edit struct {
	// check decides whether the caller may make the change.
	check func(sv *folio.SpaceView) error
	// build returns the new content from the current one. It must not change
	// base's pages: edit copies (content.Tree.Edit) instead.
	build func(base *Content) (*content.Snapshot, error)
	typ   string
	// revision is the id of the new revision; empty for a fresh one.
	revision folio.ID
	// git is the commit the new revision comes from (git imports).
	git *folio.GitCommit
	// standalone makes a revision without making it current: the space's
	// content and indexes stay as they are.
	standalone bool
	// after, when set, runs in the commit's transaction once the revision
	// is recorded: what must change with it, or not at all.
	after func(ctx context.Context, tx *store.Tx, rev *folio.Revision) error
}

// maxCommitAttempts bounds the retries of a commit that lost a race with
// another writer of the same space (or a deadlock or busy database: both
// say Unavailable); each retry waits a random moment that
// grows with the attempts, so that racing writers spread out.
const maxCommitAttempts = 12

// commit applies an edit as a new revision on top of the space's current
// one and makes it current. Building runs outside the write transaction;
// when another writer committed meanwhile, the edit is rebuilt on the new
// content. Files' bytes go to the blob store before the transaction: they are
// addressed by hash, so an aborted commit leaves only unreferenced bytes.
func (a *App) commit(ctx context.Context, caller folio.Caller, spaceID folio.ID, e edit) (*Content, error) {
	for attempt := 1; ; attempt++ {
		base, err := a.GetContent(ctx, caller, spaceID, "")
		if err != nil {
			return nil, err
		}
		if err := e.check(base.Space); err != nil {
			return nil, err
		}
		snap, err := e.build(base)
		if err != nil {
			return nil, err
		}
		// Slugs are filled in place below: pages that are not the base's
		// must be this attempt's own, since a page once hashed (by an
		// attempt that lost its race) must never change.
		snap = ownPages(snap, base.Tree, base.rt.index().nodes)
		if err := a.finishDocuments(ctx, base, snap); err != nil {
			return nil, err
		}
		// Only what the edit did not share with the base is filled and
		// checked: the base is valid, and an edit of one page costs the same
		// whatever the size of the space.
		baseIndex := base.rt.index().nodes
		snap.Tree.FillSlugsEdit(base.Tree, baseIndex)
		if err := snap.Tree.ValidateEdit(base.Tree, baseIndex); err != nil {
			return nil, err
		}
		if err := a.putBlobs(ctx, snap); err != nil {
			return nil, err
		}
		c, err := a.commitOnce(ctx, caller, base, snap, e)
		if k := folio.KindOf(err); (k == folio.Conflict || k == folio.Unavailable) && attempt < maxCommitAttempts {
			select {
			case <-time.After(time.Duration(rand.Int64N(int64(attempt) * int64(5*time.Millisecond)))):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}
		return c, err
	}
}

func (a *App) commitOnce(ctx context.Context, caller folio.Caller, base *Content, snap *content.Snapshot, e edit) (c *Content, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := a.claimBlobs(ctx, tx, snap); err != nil {
			return err
		}
		sv, _, err := space(ctx, tx, caller, base.Space.ID)
		if err != nil {
			return err
		}
		if err := e.check(sv); err != nil {
			return err
		}
		if err := a.putTree(ctx, tx, base.Tree, snap.Tree, snap.Documents); err != nil {
			return err
		}
		id := e.revision
		if id == "" {
			id = folio.NewID()
		}
		rev := &folio.Revision{ID: id, SpaceID: sv.ID, TreeHash: snap.Tree.Hash().String(),
			Parents: []folio.ID{base.Revision.ID}, Type: e.typ, CreatedBy: caller.UserID, Git: e.git}
		if err := store.CreateRevision(ctx, tx, rev); err != nil {
			return err
		}
		if e.after != nil {
			if err := e.after(ctx, tx, rev); err != nil {
				return err
			}
		}
		if e.standalone {
			rt := newRevTree(snap.Tree, -1)
			c = &Content{Space: sv, Revision: rev, Tree: rt.tree, rt: rt, urls: base.urls}
			return nil
		}
		if err := store.SetSpaceRevision(ctx, tx, sv.ID, base.Revision.ID, rev.ID); err != nil {
			return err
		}
		if err := emitContentUpdated(ctx, tx, &sv.Space, rev.ID); err != nil {
			return err
		}
		sv.Revision, sv.UpdatedAt = rev.ID, tx.Now
		changes := content.Diff(base.Tree, snap.Tree)
		pages := base.rt.pages
		for _, ch := range changes {
			switch {
			case ch.Kind == content.Added && ch.PageID != "":
				pages++
			case ch.Kind == content.Removed && ch.PageID != "":
				pages--
			}
		}
		rt := newRevTree(snap.Tree, pages)
		rt.derive(base.rt, changes)
		if err := a.indexRevision(ctx, tx, sv, changes, snap.Documents); err != nil {
			return err
		}
		c = &Content{Space: sv, Revision: rev, Tree: rt.tree, rt: rt, urls: base.urls}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.trees.Add(snap.Tree.Hash(), c.rt)
	return c, nil
}

// putBlobs writes the snapshot's file bytes that the bucket lacks. The
// commit's transaction then claims them (claimBlobs).
func (a *App) putBlobs(ctx context.Context, snap *content.Snapshot) error {
	if len(snap.Blobs) > 0 && a.blobs == nil {
		return folio.Errorf(folio.Unavailable, "file storage is not configured")
	}
	for h, b := range snap.Blobs {
		if err := a.putBlob(ctx, blobKey(h), b, "application/octet-stream"); err != nil {
			return err
		}
	}
	return nil
}

// claimBlobs claims, in the commit's transaction, the bucket keys of the
// file bytes the commit brings, so that garbage collection keeps them
// (docs/garbage-collection.md). It fails as Unavailable, which commits
// retry after putting the bytes again, when a collection is removing one
// of them or removed it before the claim.
func (a *App) claimBlobs(ctx context.Context, tx *store.Tx, snap *content.Snapshot) error {
	if len(snap.Blobs) == 0 {
		return nil
	}
	keys := make([]string, 0, len(snap.Blobs))
	for h := range snap.Blobs {
		keys = append(keys, blobKey(h))
	}
	return a.claimKeys(ctx, tx, keys)
}

// ownPages returns snap with a fresh copy of every page that is not one of
// the base's (by pointer), so that filling slugs never changes a page that
// an earlier attempt hashed, or that the caller keeps for a retry. A page
// found at its base place (the same pointer at the same index of the base's
// list) needs no lookup: in an edit of one page, only the edited lists are
// looked up.
func ownPages(snap *content.Snapshot, base *content.Tree, baseNodes content.Index) *content.Snapshot {
	var own func(pages, basePages []*content.Page) []*content.Page
	own = func(pages, basePages []*content.Page) []*content.Page {
		out := make([]*content.Page, len(pages))
		for i, p := range pages {
			if i < len(basePages) && basePages[i] == p {
				out[i] = p
				continue
			}
			n, ok := baseNodes.Node(p.ID)
			if ok && n.Page == p {
				out[i] = p
				continue
			}
			var kids []*content.Page
			if ok {
				kids = n.Page.Pages
			}
			c := p.Clone()
			c.Pages = own(p.Pages, kids)
			out[i] = c
		}
		return out
	}
	t := snap.Tree.Fork()
	t.Pages = own(snap.Tree.Pages, base.Pages)
	return &content.Snapshot{Tree: t, Documents: snap.Documents, Blobs: snap.Blobs}
}
