package web

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
)

// orgTree is an organization with its collections and spaces as a tree.
type orgTree struct {
	Org   folio.OrganizationView
	Nodes []*treeNode // top level
	Empty bool
	More  bool // the tree stops at maxTreeItems collections or spaces
	cols  []folio.CollectionView
}

// treeNode is a collection (with children) or a space.
type treeNode struct {
	Title, Emoji, Href string
	Collection         bool
	Children           []*treeNode
}

// homeView is the home page: the user's organizations and recent spaces.
type homeView struct {
	Orgs   []orgTree
	Recent []spaceLink
}

type spaceLink struct {
	Title, Emoji, Href, Org string
}

const maxRecent = 8

func (h *Handler) home(w http.ResponseWriter, r *http.Request, q *req) error {
	orgs, err := h.app.ListOrganizations(r.Context(), q.caller, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	var v homeView
	var recent []folio.SpaceView
	titles := map[folio.ID]string{}
	for _, o := range orgs.Items {
		t, spaces, err := h.orgTree(r.Context(), q, o)
		if err != nil {
			return err
		}
		v.Orgs = append(v.Orgs, *t)
		recent = append(recent, spaces...)
		titles[o.ID] = o.Title
	}
	// Recent: the spaces whose content changed last.
	slices.SortFunc(recent, func(a, b folio.SpaceView) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	for i := 0; i < len(recent) && i < maxRecent; i++ {
		s := recent[i]
		v.Recent = append(v.Recent, spaceLink{Title: s.Title, Emoji: s.Emoji, Href: "/s/" + s.ID, Org: titles[s.OrganizationID]})
	}
	h.render(w, http.StatusOK, "home", q, "Home", v)
	return nil
}

// maxTreeItems bounds the collections, and the spaces, an organization's
// tree shows; past it the tree says so and points at the search.
const maxTreeItems = 5 * folio.MaxLimit

// listUpTo gathers up to max items of a paged list, a page at a time;
// more is true when items were left out.
func listUpTo[T any](max int, list func(folio.ListOptions) (folio.List[T], error)) (items []T, more bool, err error) {
	opts := folio.ListOptions{Limit: folio.MaxLimit}
	for {
		l, err := list(opts)
		if err != nil {
			return nil, false, err
		}
		items = append(items, l.Items...)
		if l.Next == "" {
			return items, false, nil
		}
		if len(items) >= max {
			return items, true, nil
		}
		if opts, err = folio.ParseListOptions(l.Next, ""); err != nil {
			return nil, false, err
		}
		opts.Limit = folio.MaxLimit
	}
}

// orgTree loads an organization's collections and spaces the caller may
// view (two queries for up to a thousand of each) and builds the tree.
func (h *Handler) orgTree(ctx context.Context, q *req, o folio.OrganizationView) (*orgTree, []folio.SpaceView, error) {
	cols, moreCols, err := listUpTo(maxTreeItems, func(opts folio.ListOptions) (folio.List[folio.CollectionView], error) {
		return h.app.ListCollections(ctx, q.caller, o.ID, true, opts)
	})
	if err != nil {
		return nil, nil, err
	}
	spaces, moreSpaces, err := listUpTo(maxTreeItems, func(opts folio.ListOptions) (folio.List[folio.SpaceView], error) {
		return h.app.ListSpaces(ctx, q.caller, o.ID, "", opts)
	})
	if err != nil {
		return nil, nil, err
	}
	t := &orgTree{Org: o, cols: cols, More: moreCols || moreSpaces}
	byID := map[folio.ID]*treeNode{}
	for _, c := range cols {
		byID[c.ID] = &treeNode{Title: c.Title, Href: "/c/" + c.ID, Collection: true}
	}
	attach := func(parent folio.ID, n *treeNode) {
		if p, ok := byID[parent]; ok && parent != "" {
			p.Children = append(p.Children, n)
			return
		}
		t.Nodes = append(t.Nodes, n)
	}
	for _, c := range cols {
		attach(c.Parent, byID[c.ID])
	}
	for _, s := range spaces {
		attach(s.Parent, &treeNode{Title: s.Title, Emoji: s.Emoji, Href: "/s/" + s.ID})
	}
	t.Empty = len(t.Nodes) == 0
	return t, spaces, nil
}

// orgView is an organization's page.
type orgView struct {
	Frame    *orgFrame
	Tree     orgTree
	NewSpace *newSpaceForm // nil: the caller may create no space
	Query    string
	Hits     []searchHit
	// Searched is set when a search ran (Hits may be empty).
	Searched bool
}

type searchHit struct {
	Space, SpaceHref string
	Pages            []pageHit
}

type pageHit struct {
	Title, Href, Snippet string
}

func (h *Handler) org(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.orgFrame(r.Context(), q, r.PathValue("org"), "spaces")
	if err != nil {
		return err
	}
	o := &f.Org
	t, _, err := h.orgTree(r.Context(), q, *o)
	if err != nil {
		return err
	}
	v := orgView{Frame: f, Tree: *t, NewSpace: newSpaceFormFor(o, t.cols), Query: strings.TrimSpace(r.URL.Query().Get("q"))}
	if v.Query != "" {
		v.Searched = true
		hits, err := h.app.SearchOrganization(r.Context(), q.caller, o.ID, v.Query, folio.ListOptions{Limit: 20})
		if err != nil {
			return err
		}
		for _, sh := range hits.Items {
			hit := searchHit{Space: sh.Title, SpaceHref: "/s/" + sh.SpaceID}
			for _, p := range sh.Pages {
				ph := pageHit{Title: p.Title, Href: "/s/" + sh.SpaceID + "/" + p.Path}
				if len(p.Sections) > 0 {
					ph.Snippet = p.Sections[0].Body
				}
				hit.Pages = append(hit.Pages, ph)
			}
			v.Hits = append(v.Hits, hit)
		}
	}
	h.render(w, http.StatusOK, "org", q, o.Title, v)
	return nil
}

// collectionView is a collection's page: its spaces and subcollections.
type collectionView struct {
	Collection folio.CollectionView
	OrgHref    string
	Nodes      []*treeNode
	NewSpace   *newSpaceForm // nil: the caller may not create in it
}

func (h *Handler) collection(w http.ResponseWriter, r *http.Request, q *req) error {
	c, err := h.app.GetCollection(r.Context(), q.caller, r.PathValue("collection"))
	if err != nil {
		return err
	}
	o, err := h.app.GetOrganization(r.Context(), q.caller, c.OrganizationID)
	if err != nil {
		return err
	}
	t, _, err := h.orgTree(r.Context(), q, *o)
	if err != nil {
		return err
	}
	v := collectionView{Collection: *c, OrgHref: "/o/" + c.OrganizationID}
	if c.Permissions().Create {
		v.NewSpace = &newSpaceForm{Action: "/o/" + c.OrganizationID + "/spaces", Parent: c.ID}
	}
	var find func(ns []*treeNode) bool
	find = func(ns []*treeNode) bool {
		for _, n := range ns {
			if n.Href == "/c/"+c.ID {
				v.Nodes = n.Children
				return true
			}
			if find(n.Children) {
				return true
			}
		}
		return false
	}
	find(t.Nodes)
	h.render(w, http.StatusOK, "collection", q, c.Title, v)
	return nil
}
