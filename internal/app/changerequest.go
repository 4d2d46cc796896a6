package app

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// ChangeRequestView is a change request as a caller sees it, with what its
// wire form needs: its space (for "outdated") and its creator.
type ChangeRequestView struct {
	folio.ChangeRequest
	Space   *folio.SpaceView
	Creator *folio.User
}

// Outdated reports whether the space moved on since the change request's
// base.
func (v *ChangeRequestView) Outdated() bool { return v.ChangeRequest.Outdated(v.Space.Revision) }

// ChangeRequestUpdate is the body of PATCH .../change-requests/{id}.
type ChangeRequestUpdate struct {
	Subject     folio.Optional[string]            `json:"subject"`
	Status      folio.Optional[string]            `json:"status"`
	Description folio.Optional[*content.Document] `json:"description"`
}

// userCache loads each user once per request.
type userCache map[folio.ID]*folio.User

func (c userCache) get(ctx context.Context, tx *store.Tx, id folio.ID) (*folio.User, error) {
	if u := c[id]; u != nil {
		return u, nil
	}
	u, err := store.GetUser(ctx, tx, id)
	if folio.IsNotFound(err) {
		// A deleted user still authored what they did.
		u, err = &folio.User{ID: id, DisplayName: "Deleted user"}, nil
	}
	if err != nil {
		return nil, err
	}
	c[id] = u
	return u, nil
}

// load fetches, in one query, every user of ids not yet in the cache, so
// that a list's views cost one query and not one per item. Users that no
// longer exist are cached as deleted users, as get does.
func (c userCache) load(ctx context.Context, tx *store.Tx, ids []folio.ID) error {
	var missing []folio.ID
	for _, id := range ids {
		if _, ok := c[id]; !ok && id != "" {
			missing = append(missing, id)
			c[id] = nil // marks the id as requested once
		}
	}
	if len(missing) == 0 {
		return nil
	}
	found, err := store.GetUsers(ctx, tx, missing)
	if err != nil {
		return err
	}
	for _, id := range missing {
		if u := found[id]; u != nil {
			c[id] = u
		} else {
			c[id] = &folio.User{ID: id, DisplayName: "Deleted user"}
		}
	}
	return nil
}

var errChangeRequestHidden = folio.Errorf(folio.NotFound, "change request not found")

// changeRequest loads a change request of a space the caller may view, by
// id or number.
func changeRequest(ctx context.Context, tx *store.Tx, caller folio.Caller, spaceID folio.ID, ref string) (*folio.SpaceView, *folio.ChangeRequest, error) {
	if caller.Site != nil {
		// A site token reads what its site publishes; a change request is
		// an unmerged draft, never published (docs/renderer.md).
		return nil, nil, errChangeRequestHidden
	}
	sv, _, err := space(ctx, tx, caller, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := store.GetChangeRequest(ctx, tx, sv.ID, ref)
	if err != nil {
		return nil, nil, err
	}
	return sv, cr, nil
}

func (a *App) viewChangeRequest(ctx context.Context, tx *store.Tx, users userCache, sv *folio.SpaceView, cr *folio.ChangeRequest) (*ChangeRequestView, error) {
	u, err := users.get(ctx, tx, cr.CreatedBy)
	if err != nil {
		return nil, err
	}
	return &ChangeRequestView{ChangeRequest: *cr, Space: sv, Creator: u}, nil
}

// CreateChangeRequest forks the space's current revision into a new open
// change request: its head is that revision, so creation costs the same
// whatever the size of the space. Editors only, in live and locked spaces.
func (a *App) CreateChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, in folio.NewChangeRequest) (v *ChangeRequestView, err error) {
	return a.CreateChangeRequestWithDescription(ctx, caller, spaceID, in, nil)
}

// CreateChangeRequestWithDescription is CreateChangeRequest with a
// description (nil for none), written in the same transaction: a
// description that does not validate (Invalid) creates nothing and emits
// no event.
func (a *App) CreateChangeRequestWithDescription(ctx context.Context, caller folio.Caller, spaceID folio.ID, in folio.NewChangeRequest,
	description *content.Document) (v *ChangeRequestView, err error) {
	if err := folio.ValidateChangeRequestSubject(in.Subject); err != nil {
		return nil, err
	}
	var desc json.RawMessage
	if description != nil {
		u := ChangeRequestUpdate{Description: folio.Some(description)}
		if desc, err = u.prepare(); err != nil {
			return nil, err
		}
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		if err := requireEditor(sv); err != nil {
			return err
		}
		cr := &folio.ChangeRequest{ID: folio.NewID(), SpaceID: sv.ID, Status: folio.ChangeRequestOpen, Subject: in.Subject,
			Description: desc, CreatedBy: caller.UserID, RevisionInitial: sv.Revision, Revision: sv.Revision}
		if err := store.CreateChangeRequest(ctx, tx, cr); err != nil {
			return err
		}
		if err := emit(ctx, tx, sv.OrganizationID, sv.ID, folio.EventChangeRequestCreated,
			map[string]any{"spaceId": sv.ID, "changeRequestId": cr.ID, "createdBy": caller.UserID}); err != nil {
			return err
		}
		// Re-read the space: its counts now include the new change request.
		if sv, _, err = space(ctx, tx, caller, spaceID); err != nil {
			return err
		}
		v, err = a.viewChangeRequest(ctx, tx, userCache{}, sv, cr)
		return err
	})
	return v, err
}

// GetChangeRequest returns a change request of a space the caller may view,
// by id or number.
func (a *App) GetChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (v *ChangeRequestView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		v, err = a.viewChangeRequest(ctx, tx, userCache{}, sv, cr)
		return err
	})
	return v, err
}

func validateFilter(f *folio.ChangeRequestFilter) error {
	if f.Status == "" {
		f.Status = folio.ChangeRequestOpen
	}
	if !folio.ValidChangeRequestStatus(f.Status) {
		return folio.FieldErrorf("status", "status must be one of draft, open, archived or merged")
	}
	return nil
}

// ListChangeRequests lists a space's change requests, newest first.
func (a *App) ListChangeRequests(ctx context.Context, caller folio.Caller, spaceID folio.ID, f folio.ChangeRequestFilter, opts folio.ListOptions) (l folio.List[ChangeRequestView], err error) {
	if err := validateFilter(&f); err != nil {
		return l, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, _, err := space(ctx, tx, caller, spaceID)
		if err != nil {
			return err
		}
		crs, err := store.ListChangeRequests(ctx, tx, store.ChangeRequestScope{Space: sv.ID}, f, opts)
		if err != nil {
			return err
		}
		l, err = a.viewChangeRequests(ctx, tx, crs, func(folio.ID) (*folio.SpaceView, error) { return sv, nil })
		return err
	})
	return l, err
}

func (a *App) viewChangeRequests(ctx context.Context, tx *store.Tx, crs folio.List[folio.ChangeRequest],
	spaceOf func(folio.ID) (*folio.SpaceView, error)) (folio.List[ChangeRequestView], error) {
	l := folio.List[ChangeRequestView]{Count: crs.Count, Next: crs.Next, Items: make([]ChangeRequestView, 0, len(crs.Items))}
	users := userCache{}
	ids := make([]folio.ID, len(crs.Items))
	for i := range crs.Items {
		ids[i] = crs.Items[i].CreatedBy
	}
	if err := users.load(ctx, tx, ids); err != nil {
		return l, err
	}
	for i := range crs.Items {
		sv, err := spaceOf(crs.Items[i].SpaceID)
		if err != nil {
			return l, err
		}
		v, err := a.viewChangeRequest(ctx, tx, users, sv, &crs.Items[i])
		if err != nil {
			return l, err
		}
		l.Items = append(l.Items, *v)
	}
	return l, nil
}

// ListOrganizationChangeRequests lists the change requests of every space
// of an organization that the caller may view, newest first.
func (a *App) ListOrganizationChangeRequests(ctx context.Context, caller folio.Caller, orgID folio.ID, f folio.ChangeRequestFilter, opts folio.ListOptions) (l folio.List[ChangeRequestView], err error) {
	if err := validateFilter(&f); err != nil {
		return l, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		ca, err := loadContentAccess(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		scope := store.ChangeRequestScope{Org: orgID}
		if ca.Role == folio.RoleGuest {
			// As for the space list: guests see only the spaces granted to them.
			if scope.Spaces, err = a.guestSpaceIDs(ctx, tx, ca, orgID); err != nil {
				return err
			}
		}
		crs, err := store.ListChangeRequests(ctx, tx, scope, f, opts)
		if err != nil {
			return err
		}
		// The page's spaces in one query, not one per change request.
		ids := make([]folio.ID, 0, len(crs.Items))
		for _, cr := range crs.Items {
			ids = append(ids, cr.SpaceID)
		}
		spaces, err := store.GetSpaces(ctx, tx, ids)
		if err != nil {
			return err
		}
		l, err = a.viewChangeRequests(ctx, tx, crs, func(id folio.ID) (*folio.SpaceView, error) {
			s, ok := spaces[id]
			if !ok {
				return nil, errSpaceNotFound
			}
			return &folio.SpaceView{Space: *s, CallerRole: ca.spaceRole(s)}, nil
		})
		return err
	})
	return l, err
}

// UpdateChangeRequest changes a change request's subject, description or
// status (folio.ChangeRequestTransition). Editors of the space only.
func (a *App) UpdateChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, u ChangeRequestUpdate) (v *ChangeRequestView, err error) {
	desc, err := u.prepare()
	if err != nil {
		return nil, err
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		if err := require(sv.Permissions().Edit, "you cannot edit this space's change requests"); err != nil {
			return err
		}
		previous := cr.Status
		if err := u.apply(ctx, tx, cr, desc); err != nil {
			return err
		}
		if err := emit(ctx, tx, sv.OrganizationID, sv.ID, folio.EventChangeRequestUpdated,
			map[string]any{"spaceId": sv.ID, "changeRequestId": cr.ID, "status": cr.Status, "previousStatus": previous,
				"updatedBy": caller.UserID}); err != nil {
			return err
		}
		if sv, _, err = space(ctx, tx, caller, spaceID); err != nil {
			return err
		}
		v, err = a.viewChangeRequest(ctx, tx, userCache{}, sv, cr)
		return err
	})
	return v, err
}

// prepare checks an update's values and returns its description encoded
// (nil when it has none).
func (u *ChangeRequestUpdate) prepare() (desc json.RawMessage, err error) {
	if u.Subject.Set {
		if u.Subject.Null {
			return nil, folio.FieldErrorf("subject", "subject cannot be null")
		}
		if err := folio.ValidateChangeRequestSubject(u.Subject.Value); err != nil {
			return nil, err
		}
	}
	if u.Status.Set {
		if u.Status.Null || !folio.ValidChangeRequestStatus(u.Status.Value) {
			return nil, folio.FieldErrorf("status", "status must be one of draft, open or archived")
		}
	}
	if u.Description.Present() && u.Description.Value != nil {
		d := u.Description.Value
		if err := d.Validate("description"); err != nil {
			return nil, err
		}
		d.Normalize()
		if desc, err = json.Marshal(d); err != nil {
			return nil, err
		}
	}
	return desc, nil
}

// apply makes a prepared update to a change request, in the caller's
// transaction.
func (u *ChangeRequestUpdate) apply(ctx context.Context, tx *store.Tx, cr *folio.ChangeRequest, desc json.RawMessage) error {
	if u.Status.Set {
		if err := folio.ChangeRequestTransition(cr.Status, u.Status.Value); err != nil {
			return err
		}
		cr.Status = u.Status.Value
	}
	if u.Subject.Set {
		cr.Subject = u.Subject.Value
	}
	if u.Description.Set {
		cr.Description = desc // null clears it
	}
	return store.UpdateChangeRequest(ctx, tx, cr)
}

// ContributorView is a contributor with their user.
type ContributorView struct {
	folio.Contributor
	User *folio.User
}

// ListContributors lists the users who wrote content in a change request.
func (a *App) ListContributors(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (out []ContributorView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		cs, err := store.ListContributors(ctx, tx, cr.ID)
		if err != nil {
			return err
		}
		users := userCache{}
		ids := make([]folio.ID, len(cs))
		for i, c := range cs {
			ids[i] = c.UserID
		}
		if err := users.load(ctx, tx, ids); err != nil {
			return err
		}
		out = make([]ContributorView, 0, len(cs))
		for _, c := range cs {
			u, err := users.get(ctx, tx, c.UserID)
			if err != nil {
				return err
			}
			out = append(out, ContributorView{Contributor: c, User: u})
		}
		return nil
	})
	return out, err
}

// ChangeRequestHead returns the head revision of a change request the
// caller may view, for the content reads.
func (a *App) ChangeRequestHead(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (head folio.ID, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		head = cr.Revision
		return nil
	})
	return head, err
}

// crBase is a change request and the content of its head, as a write in it
// starts from.
type crBase struct {
	cr   *folio.ChangeRequest
	head *Content
}

// loadChangeRequestHead reads a change request and its head's content.
func (a *App) loadChangeRequestHead(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (b crBase, err error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return b, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		c, err := a.contentOf(ctx, tx, sv, cr.Revision)
		if err != nil {
			return err
		}
		c.urls = urls
		b = crBase{cr: cr, head: c}
		return nil
	})
	return b, err
}

// requireChangeRequestWritable is the check of every write in a change
// request: the space's editors (locked spaces included: that is where their
// edits go) and a change request that is neither merged nor archived.
func requireChangeRequestWritable(sv *folio.SpaceView, cr *folio.ChangeRequest) error {
	if err := requireEditor(sv); err != nil {
		return err
	}
	return cr.Writable()
}

// commitChangeRequest applies an edit to a change request's head as a new
// head revision whose parent is the previous head, and records the caller
// as a contributor. The live space is not touched: no index changes. As
// commit does, it rebuilds the edit when another writer moved the head
// meanwhile.
func (a *App) commitChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string, revisionID folio.ID,
	build func(base *Content) (*content.Snapshot, error)) (*folio.Revision, error) {
	for attempt := 1; ; attempt++ {
		b, err := a.loadChangeRequestHead(ctx, caller, spaceID, ref)
		if err != nil {
			return nil, err
		}
		if err := requireChangeRequestWritable(b.head.Space, b.cr); err != nil {
			return nil, err
		}
		snap, err := build(b.head)
		if err != nil {
			return nil, err
		}
		base := b.head
		snap = ownPages(snap, base.Tree, base.rt.index().nodes)
		if err := a.finishDocuments(ctx, base, snap); err != nil {
			return nil, err
		}
		baseIndex := base.rt.index().nodes
		snap.Tree.FillSlugsEdit(base.Tree, baseIndex)
		if err := snap.Tree.ValidateEdit(base.Tree, baseIndex); err != nil {
			return nil, err
		}
		if err := a.putBlobs(ctx, snap); err != nil {
			return nil, err
		}
		rev, err := a.advanceChangeRequest(ctx, caller, b, snap, revisionID, folio.RevisionEdits, nil, "", true)
		if lostRace(err) && attempt < maxCommitAttempts {
			if !backoff(ctx, attempt) {
				return nil, ctx.Err()
			}
			continue
		}
		return rev, err
	}
}

// lostRace reports whether a write failed only because another writer
// moved the change request's head or the space's revision first (or the
// database was busy): building again on the new state may succeed. A
// change request merged or archived meanwhile is final.
func lostRace(err error) bool {
	return folio.KindOf(err) == folio.Unavailable || errors.Is(err, store.ErrChangeRequestMoved) ||
		folio.KindOf(err) == folio.Conflict && folio.MessageOf(err) == spaceMovedMessage
}

// spaceMovedMessage is the message of store.SetSpaceRevision's Conflict.
const spaceMovedMessage = "the space's content changed meanwhile; try again"

// backoff waits a random moment that grows with the attempts; false when
// ctx ended first.
func backoff(ctx context.Context, attempt int) bool {
	select {
	case <-time.After(time.Duration(rand.Int64N(int64(attempt) * int64(5*time.Millisecond)))):
		return true
	case <-ctx.Done():
		return false
	}
}

// advanceChangeRequest stores snap as a new head of the change request in
// b, with the previous head as first parent and extra parents after it
// (an update's space revision); ancestor, when set, becomes the change
// request's merged ancestor. contributed records the caller as a
// contributor (updates from the space do not count).
func (a *App) advanceChangeRequest(ctx context.Context, caller folio.Caller, b crBase, snap *content.Snapshot, id folio.ID,
	typ string, extraParents []folio.ID, ancestor folio.ID, contributed bool) (rev *folio.Revision, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := a.claimBlobs(ctx, tx, snap); err != nil {
			return err
		}
		sv, cr, err := changeRequest(ctx, tx, caller, b.head.Space.ID, b.cr.ID)
		if err != nil {
			return err
		}
		if err := requireChangeRequestWritable(sv, cr); err != nil {
			return err
		}
		if err := a.putTree(ctx, tx, b.head.Tree, snap.Tree, snap.Documents); err != nil {
			return err
		}
		if id == "" {
			id = folio.NewID()
		}
		rev = &folio.Revision{ID: id, SpaceID: sv.ID, TreeHash: snap.Tree.Hash().String(),
			Parents: append([]folio.ID{b.cr.Revision}, extraParents...), Type: typ, CreatedBy: caller.UserID}
		if err := store.CreateRevision(ctx, tx, rev); err != nil {
			return err
		}
		if err := store.SetChangeRequestHead(ctx, tx, cr.ID, b.cr.Revision, rev.ID, ancestor); err != nil {
			return err
		}
		if !contributed {
			return nil
		}
		return store.AddContributor(ctx, tx, cr.ID, caller.UserID)
	})
	if err != nil {
		return nil, err
	}
	a.cacheTree(b.head, snap.Tree, nil)
	return rev, nil
}

// ImportContentInChangeRequest imports a document or an archive fetched
// from in.URL into a change request as its new head: at the end of its top
// level, or into a page when pageID is set, as ImportContent does in the
// space. The live space does not change. Like a space import, it runs as a
// job that another server takes over if this one stops, and the request
// answers with its outcome.
func (a *App) ImportContentInChangeRequest(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref, pageID string, in ImportInput) (*ImportResult, error) {
	// Check access before anything else, as a space import does.
	b, err := a.loadChangeRequestHead(ctx, caller, spaceID, ref)
	if err != nil {
		return nil, err
	}
	if err := requireChangeRequestWritable(b.head.Space, b.cr); err != nil {
		return nil, err
	}
	if pageID != "" {
		if n, ok := b.head.Node(pageID); !ok || n.Page.Type == content.PageLink {
			return nil, errPageNotFound
		}
	}
	u, err := in.validate()
	if err != nil {
		return nil, err
	}
	return a.startImport(ctx, importJob{Space: b.head.Space.ID, Page: pageID, URL: u.String(), Source: in.Source,
		User: caller.UserID, Org: caller.Org, Installation: caller.Installation, Revision: folio.NewID(), ChangeRequest: b.cr.ID})
}

// ChangeRequestChanges is what a change request changes: the difference
// from its base to its head.
type ChangeRequestChanges struct {
	Base, Head *Content
	Changes    []content.Change
}

// GetChangeRequestChanges lists what a change request's head changes from
// its base: pages added, removed, moved and edited, then files.
func (a *App) GetChangeRequestChanges(ctx context.Context, caller folio.Caller, spaceID folio.ID, ref string) (out *ChangeRequestChanges, err error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sv, cr, err := changeRequest(ctx, tx, caller, spaceID, ref)
		if err != nil {
			return err
		}
		base, err := a.contentOf(ctx, tx, sv, cr.Base())
		if err != nil {
			return err
		}
		head, err := a.contentOf(ctx, tx, sv, cr.Revision)
		if err != nil {
			return err
		}
		base.urls, head.urls = urls, urls
		out = &ChangeRequestChanges{Base: base, Head: head, Changes: content.Diff(base.Tree, head.Tree)}
		return nil
	})
	return out, err
}

// mergedFrom returns the change request whose merge made a revision, or
// nil when none did.
func (a *App) mergedFrom(ctx context.Context, tx *store.Tx, sv *folio.SpaceView, revisionID folio.ID) (*ChangeRequestView, error) {
	cr, err := store.GetMergedChangeRequest(ctx, tx, sv.ID, revisionID)
	if folio.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return a.viewChangeRequest(ctx, tx, userCache{}, sv, cr)
}
