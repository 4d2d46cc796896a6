package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// newCollectionView is the page that creates a collection.
type newCollectionView struct {
	Frame   *orgFrame
	Parents []roleOption
}

func (h *Handler) newCollection(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "spaces")
	if err != nil {
		return err
	}
	if !f.Org.Permissions().CreateContent {
		return folio.Errorf(folio.Forbidden, "only members with the create role or above can create collections here")
	}
	cols, err := h.app.ListCollections(ctx, q.caller, f.Org.ID, true, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	want := r.URL.Query().Get("parent")
	v := newCollectionView{Frame: f, Parents: []roleOption{{Value: "", Label: "The organization's top level", Selected: want == ""}}}
	for _, c := range cols.Items {
		if c.Permissions().Create {
			v.Parents = append(v.Parents, roleOption{Value: c.ID, Label: c.Title, Selected: c.ID == want})
		}
	}
	h.render(w, http.StatusOK, "collectionnew", q, "New collection · "+f.Org.Title, v)
	return nil
}

func (h *Handler) createCollection(w http.ResponseWriter, r *http.Request, q *req) error {
	title := strings.TrimSpace(r.PostForm.Get("title"))
	if title == "" {
		return folio.FieldErrorf("title", "give the collection a title")
	}
	c, err := h.app.CreateCollection(r.Context(), q.caller, r.PathValue("org"), title, r.PostForm.Get("parent"))
	if err != nil {
		return err
	}
	return back(w, r, "/c/"+url.PathEscape(c.ID), "")
}

// moveInput reads the parent of a move form: "" is the top level.
func moveInput(r *http.Request) *app.MoveInput {
	if p := r.PostForm.Get("parent"); p != "" {
		return &app.MoveInput{Parent: folio.Some(p)}
	}
	return &app.MoveInput{Parent: folio.Null[folio.ID]()}
}

func (h *Handler) moveCollection(w http.ResponseWriter, r *http.Request, q *req) error {
	c, err := h.app.MoveCollection(r.Context(), q.caller, r.PathValue("collection"), moveInput(r))
	if err != nil {
		return err
	}
	return back(w, r, "/c/"+url.PathEscape(c.ID)+"/~/permissions", "moved")
}

func (h *Handler) transferCollection(w http.ResponseWriter, r *http.Request, q *req) error {
	c, err := h.app.TransferCollection(r.Context(), q.caller, r.PathValue("collection"), r.PostForm.Get("organization"))
	if err != nil {
		return err
	}
	return back(w, r, "/c/"+url.PathEscape(c.ID), "")
}

func (h *Handler) duplicateSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	s, err := h.app.DuplicateSpace(r.Context(), q.caller, r.PathValue("space"))
	if err != nil {
		return err
	}
	return back(w, r, "/s/"+url.PathEscape(s.ID), "")
}

func (h *Handler) moveSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	s, err := h.app.MoveSpace(r.Context(), q.caller, r.PathValue("space"), moveInput(r))
	if err != nil {
		return err
	}
	return back(w, r, "/s/"+url.PathEscape(s.ID)+"/~/permissions", "moved")
}

func (h *Handler) transferSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	s, err := h.app.TransferSpace(r.Context(), q.caller, r.PathValue("space"), r.PostForm.Get("organization"))
	if err != nil {
		return err
	}
	return back(w, r, "/s/"+url.PathEscape(s.ID), "")
}

func (h *Handler) deleteSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	// The organization, for the trash, before the space is gone.
	s, err := h.app.GetSpace(ctx, q.caller, r.PathValue("space"))
	if err != nil {
		return err
	}
	if !s.Permissions().Admin {
		return folio.Errorf(folio.Forbidden, "only admins of the space can delete it")
	}
	if err := h.app.DeleteSpace(ctx, q.caller, s.ID); err != nil {
		return err
	}
	return back(w, r, "/o/"+url.PathEscape(s.OrganizationID)+"/trash", "spacegone")
}

// trashView is the trash of an organization: the spaces deleted in the
// last 7 days that the caller could restore.
type trashView struct {
	Frame  *orgFrame
	Notice string
	Spaces []trashRow
}

type trashRow struct {
	ID, Title, Emoji string
	Deleted          time.Time
	Until            time.Time
}

func (h *Handler) trash(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "trash")
	if err != nil {
		return err
	}
	spaces, err := h.app.ListDeletedSpaces(ctx, q.caller, f.Org.ID)
	if err != nil {
		return err
	}
	v := trashView{Frame: f, Notice: notice(r)}
	for _, s := range spaces {
		v.Spaces = append(v.Spaces, trashRow{ID: s.ID, Title: s.Title, Emoji: s.Emoji, Deleted: *s.DeletedAt,
			Until: s.DeletedAt.Add(folio.SpaceRetention)})
	}
	h.render(w, http.StatusOK, "trash", q, "Trash · "+f.Org.Title, v)
	return nil
}

func (h *Handler) restoreSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	// Only a space in this organization's trash, as the caller sees it.
	deleted, err := h.app.ListDeletedSpaces(ctx, q.caller, r.PathValue("org"))
	if err != nil {
		return err
	}
	id := r.PathValue("space")
	if !slices.ContainsFunc(deleted, func(s folio.SpaceView) bool { return s.ID == id }) {
		return folio.Errorf(folio.NotFound, "this space is not in the trash: it was restored already, or deleted more than 7 days ago")
	}
	s, err := h.app.RestoreSpace(ctx, q.caller, id)
	if err != nil {
		return err
	}
	return back(w, r, "/s/"+url.PathEscape(s.ID), "restored")
}
