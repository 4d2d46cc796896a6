package app

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/search"
	"github.com/foliodocs/folio/internal/store"
)

// indexRevision brings the current-revision indexes (search sections and
// links) of a space up to date with the changes of a new current revision,
// touching only the pages reported with a changed document or metadata:
// O(changed pages). docs holds documents not yet readable from the store's
// cache, such as a commit's new ones.
func (a *App) indexRevision(ctx context.Context, tx *store.Tx, sv *folio.SpaceView, changes []content.Change, docs map[content.Hash]*content.Document) error {
	var (
		changed []string
		current = map[string]*content.Page{}
	)
	for _, c := range changes {
		if c.PageID == "" {
			continue
		}
		if (c.Kind == content.Modified || c.Kind == content.Moved) && c.Fields&(content.FieldDocument|content.FieldMetadata) == 0 {
			continue
		}
		changed = append(changed, c.PageID)
		if c.Page != nil {
			current[c.PageID] = c.Page
		}
	}
	if len(changed) == 0 {
		return nil
	}
	if err := store.DeletePageIndex(ctx, tx, sv.ID, changed); err != nil {
		return err
	}
	docs, err := a.withStoredDocuments(ctx, tx, changed, current, docs)
	if err != nil {
		return err
	}
	terms := a.db.SearchDialect() == "tsquery"
	var (
		sections []store.SearchSection
		links    []store.Link
	)
	for _, id := range changed {
		p, ok := current[id]
		if !ok {
			continue // removed
		}
		switch p.Type {
		case content.PageLink:
			if r, ok := parseTarget(p.Target); ok {
				links = append(links, linkRow(sv.ID, p.ID, 0, r))
			}
			continue
		case content.PageGroup:
			continue
		}
		doc := docs[p.Document]
		if doc == nil {
			doc = content.NewDocument() // the zero hash: an empty page
		}
		if !p.NoIndex {
			for i, s := range search.Sections(doc) {
				row := store.SearchSection{SpaceID: sv.ID, PageID: p.ID, SectionID: s.ID, Ord: i, Title: s.Title, Body: s.Body}
				if i == 0 {
					row.PageTitle = p.Title
					if p.Description != "" {
						row.Body = p.Description + "\n" + row.Body
					}
				}
				row.Body = capText(row.Body, maxIndexedText)
				if terms {
					row.Terms = [3]string{search.IndexText(row.PageTitle), search.IndexText(row.Title), search.IndexText(row.Body)}
				}
				sections = append(sections, row)
			}
		}
		for i, r := range search.References(doc) {
			links = append(links, linkRow(sv.ID, p.ID, i, r))
		}
		// A large import's sections go a batch at a time (in the same
		// order), rather than all its text held at once.
		if len(sections) >= indexSectionsBatch {
			if err := store.PutSearchSections(ctx, tx, sections); err != nil {
				return err
			}
			clear(sections)
			sections = sections[:0]
		}
	}
	if err := store.PutSearchSections(ctx, tx, sections); err != nil {
		return err
	}
	return store.PutLinks(ctx, tx, links)
}

// indexSectionsBatch is about how many search sections indexRevision
// writes at a time.
const indexSectionsBatch = 2000

// withStoredDocuments returns docs completed with the documents of the
// changed document pages it lacks, loaded in batches (a duplicated space
// indexes every page: one query per page would not do).
func (a *App) withStoredDocuments(ctx context.Context, tx *store.Tx, changed []string, current map[string]*content.Page,
	docs map[content.Hash]*content.Document) (map[content.Hash]*content.Document, error) {
	var missing []string
	seen := map[content.Hash]bool{}
	for _, id := range changed {
		p := current[id]
		if p == nil || p.Type != content.PageDocument || p.Document.IsZero() || docs[p.Document] != nil || seen[p.Document] {
			continue
		}
		seen[p.Document] = true
		missing = append(missing, hashHex(p.Document))
	}
	if len(missing) == 0 {
		return docs, nil
	}
	got, err := store.GetObjects(ctx, tx, missing)
	if err != nil {
		return nil, err
	}
	out := make(map[content.Hash]*content.Document, len(docs)+len(got))
	for h, d := range docs {
		out[h] = d
	}
	for h := range seen {
		o, ok := got[hashHex(h)]
		if !ok {
			return nil, fmt.Errorf("document object %s is missing", h)
		}
		d, err := decodeDocument(h, o.Data)
		if err != nil {
			return nil, err
		}
		out[h] = d
	}
	return out, nil
}

// parseTarget reads a link page's target reference.
func parseTarget(raw json.RawMessage) (search.Reference, bool) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return search.Reference{}, false
	}
	return search.ParseRef(m)
}

// linkRow converts a reference found in a page of a space to its index row.
func linkRow(spaceID, pageID string, ord int, r search.Reference) store.Link {
	l := store.Link{SpaceID: spaceID, PageID: pageID, Ord: ord, Kind: r.Kind, TargetSpace: r.Space, Relation: r.Relation}
	if l.Relation == "" {
		l.Relation = search.RelationReference
	}
	if l.TargetSpace == "" {
		l.TargetSpace = spaceID
	}
	switch r.Kind {
	case search.RefPage, search.RefAnchor:
		l.TargetPage = r.Page
		if r.Kind == search.RefAnchor && l.TargetPage == "" {
			l.TargetPage = pageID // an anchor in the same page
		}
		l.TargetKey = r.Kind + ":" + l.TargetSpace + ":" + l.TargetPage + "#" + r.Anchor
	case search.RefFile:
		l.TargetFile = r.File
		l.TargetKey = "file:" + l.TargetSpace + ":" + r.File
	case search.RefURL:
		l.TargetKey = "url:" + r.URL
	default:
		l.TargetKey = r.Kind + ":" + r.Space + ":" + r.User + ":" + r.Collection + ":" + r.ReusableContent + ":" + r.Spec
	}
	ref := r.Raw
	if ref == nil {
		ref = map[string]any{"kind": search.RefURL, "url": r.URL}
	}
	b, _ := json.Marshal(ref)
	l.Ref = string(b)
	return l
}

// maxIndexedText bounds the text of one section in the search index: a
// tsvector holds at most 1 MiB, and a section longer than this is a table
// or generated text, whose start finds it as well as its whole would.
const maxIndexedText = 256 << 10

// capText cuts s to at most n bytes, on a rune boundary.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
