package app

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// Page tree operations of the web application: each is one new revision of
// the space's live content, made through commit with the check every
// content write makes (requireEditable: the caller may edit, the space is
// not locked), so they follow the same roles as the API's imports.

// NewPageInput describes a page to create.
type NewPageInput struct {
	Type   string // content.PageDocument or content.PageGroup
	Title  string
	Parent string // the page to create it in; "" for the top level
}

func pageTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return "", folio.FieldErrorf("title", "title is required")
	}
	if utf8.RuneCountInString(title) > content.MaxTitleLength {
		return "", folio.FieldErrorf("title", "title must be at most %d characters", content.MaxTitleLength)
	}
	return title, nil
}

// CreatePage adds an empty document or group page at the end of its
// parent's pages and returns its id. Invalid, NotFound (space or parent) or
// Forbidden.
func (a *App) CreatePage(ctx context.Context, caller folio.Caller, spaceID folio.ID, in NewPageInput) (string, error) {
	id, build, err := in.builder()
	if err != nil {
		return "", err
	}
	if _, err = a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits, build: build}); err != nil {
		return "", err
	}
	return id, nil
}

// CheckNewPage validates a new page's title and type as CreatePage and
// CreateChangeRequestPage do (Invalid), so that a form which opens a change
// request for a page can refuse a bad one before opening it.
func CheckNewPage(in NewPageInput) error {
	_, _, err := in.builder()
	return err
}

// builder checks a new page and returns its id and the edit that adds it,
// empty, at the end of its parent's pages ("" for the top level).
func (in NewPageInput) builder() (folio.ID, func(*Content) (*content.Snapshot, error), error) {
	title, err := pageTitle(in.Title)
	if err != nil {
		return "", nil, err
	}
	if in.Type != content.PageDocument && in.Type != content.PageGroup {
		return "", nil, folio.FieldErrorf("type", "type must be document or group")
	}
	id := folio.NewID()
	return id, func(base *Content) (*content.Snapshot, error) {
		t := base.Tree.Fork()
		pages, ok := insertPage(t.Pages, in.Parent, -1, &content.Page{ID: id, Type: in.Type, Title: title})
		if !ok {
			return nil, errPageNotFound
		}
		t.Pages = pages
		return &content.Snapshot{Tree: t}, nil
	}, nil
}

// RenamePage changes a page's title (its slug, and so its URL, stays).
func (a *App) RenamePage(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID, title string) error {
	title, err := pageTitle(title)
	if err != nil {
		return err
	}
	_, err = a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits,
		build: func(base *Content) (*content.Snapshot, error) {
			if n, ok := base.Node(pageID); !ok || n.Page.Type == content.PageLink {
				return nil, errPageNotFound
			}
			t, err := base.Tree.EditAt(base.chain(pageID), pageID, func(p *content.Page) { p.Title = title })
			if err != nil {
				return nil, err
			}
			return &content.Snapshot{Tree: t}, nil
		}})
	return err
}

// MovePage moves a page with its subpages into parent ("" for the top
// level) at index among parent's pages after the move (clamped; -1 for the
// end). A page cannot move into itself or its own subpages (Invalid).
func (a *App) MovePage(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID, parent string, index int) error {
	_, err := a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits,
		build: func(base *Content) (*content.Snapshot, error) {
			if _, ok := base.Node(pageID); !ok {
				return nil, errPageNotFound
			}
			for id := parent; id != ""; {
				if id == pageID {
					return nil, folio.FieldErrorf("parent", "a page cannot move into itself or its own subpages")
				}
				n, ok := base.Node(id)
				if !ok {
					return nil, errPageNotFound
				}
				id = n.Parent
			}
			t := base.Tree.Fork()
			pages, moved := detachPage(t.Pages, pageID)
			if moved == nil {
				return nil, errPageNotFound
			}
			pages, ok := insertPage(pages, parent, index, moved)
			if !ok {
				return nil, errPageNotFound
			}
			t.Pages = pages
			return &content.Snapshot{Tree: t}, nil
		}})
	return err
}

// DeletePage removes a page and its subpages from the live content (they
// stay in history).
func (a *App) DeletePage(ctx context.Context, caller folio.Caller, spaceID folio.ID, pageID string) error {
	_, err := a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits,
		build: func(base *Content) (*content.Snapshot, error) {
			t := base.Tree.Fork()
			pages, removed := detachPage(t.Pages, pageID)
			if removed == nil {
				return nil, errPageNotFound
			}
			t.Pages = pages
			return &content.Snapshot{Tree: t}, nil
		}})
	return err
}

// detachPage returns pages without the page with id (copying the path to
// it, sharing the rest) and that page; nil when it is not there.
func detachPage(pages []*content.Page, id string) ([]*content.Page, *content.Page) {
	for i, p := range pages {
		if p.ID == id {
			return slices.Delete(slices.Clone(pages), i, i+1), p
		}
		if kids, found := detachPage(p.Pages, id); found != nil {
			c := p.Clone()
			c.Pages = kids
			out := slices.Clone(pages)
			out[i] = c
			return out, found
		}
	}
	return pages, nil
}

// insertPage returns pages with p inserted into parent's pages at index
// (clamped; negative for the end), copying the path; false when parent is
// not there.
func insertPage(pages []*content.Page, parent string, index int, p *content.Page) ([]*content.Page, bool) {
	if parent == "" {
		if index < 0 || index > len(pages) {
			index = len(pages)
		}
		return slices.Insert(slices.Clone(pages), index, p), true
	}
	for i, q := range pages {
		if q.ID == parent {
			if q.Type == content.PageLink {
				return pages, false
			}
			c := q.Clone()
			c.Pages, _ = insertPage(c.Pages, "", index, p)
			out := slices.Clone(pages)
			out[i] = c
			return out, true
		}
		if kids, ok := insertPage(q.Pages, parent, index, p); ok {
			c := q.Clone()
			c.Pages = kids
			out := slices.Clone(pages)
			out[i] = c
			return out, true
		}
	}
	return pages, false
}
