package web

import (
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
)

// newSpaceForm is the "New space" form of an organization's or a
// collection's page: where it posts and where the caller may create a
// space. Nil when they may create none.
type newSpaceForm struct {
	Action string
	// Parents are the places to choose from on the organization's page,
	// ID "" being the top level; on a collection's page it is empty and
	// Parent is the collection.
	Parents []pageOption
	Parent  string
}

// newSpaceFormFor offers the top level (with the organization's create
// role) and each collection the caller may create in, in tree order and
// indented by depth, as app.CreateSpace would accept them.
func newSpaceFormFor(o *folio.OrganizationView, cols []folio.CollectionView) *newSpaceForm {
	f := &newSpaceForm{Action: "/o/" + o.ID + "/spaces"}
	if o.Permissions().CreateContent {
		f.Parents = append(f.Parents, pageOption{ID: "", Title: "No collection (top level)"})
	}
	ids := map[folio.ID]bool{}
	for _, c := range cols {
		ids[c.ID] = true
	}
	children := map[folio.ID][]folio.CollectionView{}
	for _, c := range cols {
		parent := c.Parent
		if !ids[parent] {
			parent = "" // under a collection the caller cannot see
		}
		children[parent] = append(children[parent], c)
	}
	var walk func(parent folio.ID, depth int)
	walk = func(parent folio.ID, depth int) {
		for _, c := range children[parent] {
			if c.Permissions().Create {
				f.Parents = append(f.Parents, pageOption{ID: c.ID, Title: strings.Repeat("– ", depth) + c.Title})
			}
			walk(c.ID, depth+1)
		}
	}
	walk("", 0)
	if len(f.Parents) == 0 {
		return nil
	}
	return f
}

// createSpace creates a space from the "New space" form (title, and the
// collection, if any) and lands on it, where "New page" starts its content.
func (h *Handler) createSpace(w http.ResponseWriter, r *http.Request, q *req) error {
	sv, err := h.app.CreateSpace(r.Context(), q.caller, r.PathValue("org"),
		folio.NewSpace{Title: r.PostForm.Get("title"), Parent: r.PostForm.Get("parent")})
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/s/"+sv.ID, http.StatusSeeOther)
	return nil
}
