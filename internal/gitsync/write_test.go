package gitsync

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/google/go-cmp/cmp"
)

// space builds a snapshot as the editor would make it: no git paths.
func space(t *testing.T) *content.Snapshot {
	t.Helper()
	s := content.NewSnapshot()
	logo := importer.NewFile(s, "logo.png", []byte("\x89PNG\r\n\x1a\nlogo"))
	logo2 := importer.NewFile(s, "logo.png", []byte("\x89PNG\r\n\x1a\nother"))
	s.Tree.Files = []content.File{logo, logo2}
	doc := func(md string) content.Hash {
		d, err := markdown.ToDocument([]byte(md), nil)
		if err != nil {
			t.Fatalf("ToDocument: %v", err)
		}
		return s.AddDocument(d)
	}
	ref := func(v map[string]string) json.RawMessage { b, _ := json.Marshal(v); return b }
	page := func(id, typ, title, slug string, children ...*content.Page) *content.Page {
		return &content.Page{ID: id, Type: typ, Title: title, Slug: slug, Pages: children}
	}
	intro := page("pgIntro", content.PageDocument, "Introduction", "introduction")
	intro.Description = "Start here: read on."
	intro.Document = doc("Welcome. See [setup](page:pgSetup#linux) and ![logo](file:" + logo.ID + ").\n")
	setup := page("pgSetup", content.PageDocument, "Setup *guide*", "setup")
	setup.Icon = "rocket"
	setup.Layout = &content.Layout{Width: "wide", Title: true, Outline: true, Metadata: true}
	setup.Document = doc("Install it.\n\n![other](file:" + logo2.ID + ")\n\nBack to [intro](page:pgIntro).\n")
	linux := page("pgLinux", content.PageDocument, "Linux", "linux")
	linux.Hidden = true
	linux.Document = doc("Run it.\n")
	setup.Pages = []*content.Page{linux}
	keep := page("pgKeep", content.PageDocument, "Kept keys", "kept")
	kd, _ := markdown.ToDocument([]byte("Body.\n"), nil)
	kd.Data[dataFrontMatter] = "cover: x.png\ncoverY: 0\n"
	keep.Document = s.AddDocument(kd)
	empty := page("pgEmpty", content.PageDocument, "Empty", "empty")
	api := page("pgApi", content.PageGroup, "API reference", "api-reference",
		page("pgV1", content.PageDocument, "Version 1", "v1", page("pgAuth", content.PageDocument, "Auth", "auth")),
		&content.Page{ID: "pgSite", Type: content.PageLink, Title: "Site", Target: ref(map[string]string{"kind": "url", "url": "https://example.com"})},
		&content.Page{ID: "pgAgain", Type: content.PageLink, Title: "Setup again", Target: ref(map[string]string{"kind": "anchor", "page": "pgSetup", "anchor": "linux"})},
	)
	s.Tree.ReusableContents = []content.ReusableContent{
		{ID: "rcNote", Title: "Shared note", Document: doc("# A heading of its own\n\nShared, see [setup](page:pgSetup).\n")},
		{ID: "rcEmpty", Title: "Shared note"},
	}
	s.Tree.Pages = []*content.Page{intro, setup, keep, empty, api,
		page("pgAfter", content.PageDocument, "After the group", "after")}
	if err := s.Tree.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// withGit returns a copy of the tree with the git fields WriteTree reported.
func withGit(t *content.Tree, w *Written) *content.Tree {
	var copyPages func(pages []*content.Page) []*content.Page
	copyPages = func(pages []*content.Page) []*content.Page {
		out := make([]*content.Page, len(pages))
		for i, p := range pages {
			c := p.Clone()
			if g, ok := w.Pages[p.ID]; ok {
				c.Git = &g
			}
			c.Pages = copyPages(p.Pages)
			out[i] = c
		}
		return out
	}
	out := &content.Tree{Pages: copyPages(t.Pages)}
	for _, rc := range t.ReusableContents {
		if g, ok := w.Reusable[rc.ID]; ok {
			rc.Git = &g
		}
		out.ReusableContents = append(out.ReusableContents, rc)
	}
	for _, f := range t.Files {
		if g, ok := w.Blobs[f.ID]; ok {
			f.Git = &g
		}
		out.Files = append(out.Files, f)
	}
	return out
}

// describe writes every page and file of a snapshot with its fields and
// Markdown body, ids replaced by titles unless keepIDs.
func describe(t *testing.T, s *content.Snapshot, keepIDs bool) string {
	t.Helper()
	var b strings.Builder
	names := map[string]string{}
	content.Walk(s.Tree, func(n content.PageNode) bool { names[n.Page.ID] = "<" + n.Page.Title + ">"; return true })
	for _, f := range s.Tree.Files {
		names[f.ID] = "<file " + f.Blob.String()[:8] + ">"
	}
	name := func(text string) string {
		if keepIDs {
			return text
		}
		for id, n := range names {
			text = strings.ReplaceAll(text, id, n)
		}
		return text
	}
	content.Walk(s.Tree, func(n content.PageNode) bool {
		p := n.Page
		id := p.ID
		if !keepIDs {
			id = "-"
		}
		layout, _ := json.Marshal(p.Layout)
		fmt.Fprintf(&b, "%s%s %s %q [%s] desc=%q icon=%q hidden=%v layout=%s target=%s\n", strings.Repeat("  ", n.Depth-1),
			id, p.Type, p.Title, p.Slug, p.Description, p.Icon, p.Hidden, layout, name(string(p.Target)))
		if d := s.Documents[p.Document]; d != nil {
			md, _ := markdown.FromDocument(d, nil)
			data, _ := json.Marshal(d.Data)
			fmt.Fprintf(&b, "%s  | %s data=%s\n", strings.Repeat("  ", n.Depth-1), name(strings.ReplaceAll(strings.TrimSpace(string(md)), "\n", "⏎")), data)
		}
		return true
	})
	// Reusable contents and files have no order: they are sorted.
	var reusable []string
	for _, rc := range s.Tree.ReusableContents {
		id := rc.ID
		if !keepIDs {
			id = "-"
		}
		line := fmt.Sprintf("reusable %s %q", id, rc.Title)
		if d := s.Documents[rc.Document]; d != nil {
			md, _ := markdown.FromDocument(d, nil)
			line += " | " + name(strings.ReplaceAll(strings.TrimSpace(string(md)), "\n", "⏎"))
		}
		reusable = append(reusable, line)
	}
	sort.Strings(reusable)
	for _, line := range reusable {
		b.WriteString(line + "\n")
	}
	var files []string
	for _, f := range s.Tree.Files {
		id := f.ID
		if !keepIDs {
			id = "-"
		}
		files = append(files, fmt.Sprintf("file %s %s %s %d %s", id, f.Name, f.ContentType, f.Size, f.Blob))
	}
	sort.Strings(files)
	b.WriteString(strings.Join(files, "\n"))
	return b.String()
}

func TestWriteThenRead(t *testing.T) {
	s := space(t)
	w, err := WriteTree(s, WriteOptions{})
	if err != nil {
		t.Fatalf("WriteTree: %v", err)
	}
	var paths []string
	for p := range w.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	wantPaths := []string{".gitbook.yaml", ".gitbook/assets/logo (1).png", ".gitbook/assets/logo.png",
		".gitbook/includes/shared-note-2.md", ".gitbook/includes/shared-note.md", "README.md", "SUMMARY.md",
		"after.md", "api-reference/v1/README.md", "api-reference/v1/auth.md", "empty.md", "kept.md", "setup/README.md", "setup/linux.md"}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	wantSummary := `# Table of contents

* [Introduction](README.md)
* [Setup \*guide\*](setup/README.md)
  * [Linux](setup/linux.md)
* [Kept keys](kept.md)
* [Empty](empty.md)

## API reference

* [Version 1](api-reference/v1/README.md)
  * [Auth](api-reference/v1/auth.md)
* [Site](https://example.com)
* [Setup again](setup/README.md#linux)

***

* [After the group](after.md)
`
	if diff := cmp.Diff(wantSummary, string(w.Files["SUMMARY.md"])); diff != "" {
		t.Errorf("SUMMARY.md (-want +got):\n%s", diff)
	}
	wantSetup := `---
icon: rocket
layout:
  width: wide
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: false
  outline:
    visible: true
  pagination:
    visible: false
  metadata:
    visible: true
---

# Setup \*guide\*

Install it.

<figure><img src="../.gitbook/assets/logo (1).png" alt="other"><figcaption></figcaption></figure>

Back to [intro](../README.md).
`
	if diff := cmp.Diff(wantSetup, string(w.Files["setup/README.md"])); diff != "" {
		t.Errorf("setup/README.md (-want +got):\n%s", diff)
	}
	if got, want := string(w.Files["kept.md"]), "---\ncover: x.png\ncoverY: 0\n---\n\n# Kept keys\n\nBody.\n"; got != want {
		t.Errorf("kept.md = %q, want %q", got, want)
	}
	if got, want := string(w.Files[".gitbook/includes/shared-note.md"]), "---\ntitle: Shared note\n---\n\n# A heading of its own\n\nShared, see [setup](../../setup/README.md).\n"; got != want {
		t.Errorf("shared-note.md = %q, want %q", got, want)
	}
	if got, want := string(w.Files[".gitbook/includes/shared-note-2.md"]), "---\ntitle: Shared note\n---\n"; got != want {
		t.Errorf("shared-note-2.md = %q, want %q", got, want)
	}
	if got, want := string(w.Files["empty.md"]), "# Empty\n"; got != want {
		t.Errorf("empty.md = %q, want %q", got, want)
	}

	// With the git paths as Previous, ids, documents and fields all survive.
	res := read(t, w.Files, ReadOptions{Previous: withGit(s.Tree, w)})
	if diff := cmp.Diff(describe(t, s, true), describe(t, res.Snapshot, true)); diff != "" {
		t.Errorf("write then read with previous (-want +got):\n%s", diff)
	}
	content.Walk(res.Snapshot.Tree, func(n content.PageNode) bool {
		if g, ok := w.Pages[n.Page.ID]; ok && (n.Page.Git == nil || *n.Page.Git != g) {
			t.Errorf("page %s git = %+v, want %+v", n.Page.Title, n.Page.Git, g)
		}
		return true
	})
	// Without it, the same content under new ids.
	// Without it, the same content under new ids; a second file of the same
	// name keeps the unique name it was written under.
	res = read(t, w.Files, ReadOptions{})
	got := sortFileLines(strings.Replace(describe(t, res.Snapshot, false), "logo (1).png", "logo.png", 1))
	if diff := cmp.Diff(describe(t, s, false), got); diff != "" {
		t.Errorf("write then read (-want +got):\n%s", diff)
	}
}

// sortFileLines sorts the "file" lines that end describe's output.
func sortFileLines(s string) string {
	lines := strings.Split(s, "\n")
	i := len(lines)
	for i > 0 && strings.HasPrefix(lines[i-1], "file ") {
		i--
	}
	sort.Strings(lines[i:])
	return strings.Join(lines, "\n")
}

func TestWriteTitlesReadBack(t *testing.T) {
	titles := []string{"C# and F#", "Issue #", "a_b *c* `d`", "$$x$$ and ~~y~~", "Tom & Jerry &amp;", "[x](y) <b> {% hint %}", "back\\slash", "#hash", "pipes | here"}
	s := content.NewSnapshot()
	for i, title := range titles {
		d, _ := markdown.ToDocument([]byte("Body.\n"), nil)
		s.Tree.Pages = append(s.Tree.Pages, &content.Page{ID: fmt.Sprintf("p%d", i), Type: content.PageDocument,
			Title: title, Slug: fmt.Sprintf("p%d", i), Document: s.AddDocument(d)})
	}
	s.Tree.Pages = append(s.Tree.Pages, &content.Page{ID: "g", Type: content.PageGroup, Title: "## Group #", Slug: "g"})
	w, err := WriteTree(s, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, summary := range []bool{true, false} {
		files := w.Files
		if !summary {
			// Without SUMMARY.md the titles come from the headings.
			files = Files{}
			for p, b := range w.Files {
				if p != "SUMMARY.md" {
					files[p] = b
				}
			}
		}
		res := read(t, files, ReadOptions{Previous: withGit(s.Tree, w)})
		content.Walk(s.Tree, func(n content.PageNode) bool {
			if !summary && n.Page.Type == content.PageGroup {
				return true
			}
			got, err := content.Find(res.Snapshot.Tree, n.Page.ID)
			if err != nil {
				t.Fatalf("summary %v: page %q lost", summary, n.Page.Title)
			}
			if want := collapse(n.Page.Title); got.Page.Title != want {
				t.Errorf("summary %v: title %q read back as %q", summary, want, got.Page.Title)
			}
			return true
		})
	}
}
