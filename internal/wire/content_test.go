package wire_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/wire"
	"github.com/google/go-cmp/cmp"
)

// gitContent is a revision whose every part came from git.
func gitContent() (*folio.Revision, *content.Tree) {
	rev := &folio.Revision{ID: "rev2", Type: folio.RevisionEdits, Parents: []folio.ID{"rev1"},
		CreatedAt: time.Date(2024, 5, 6, 7, 8, 9, 10_000_000, time.UTC),
		Git:       &folio.GitCommit{OID: "c0ffee", Message: "Sync docs", URL: "https://git.example.com/c0ffee", Ref: "refs/heads/main"}}
	tree := &content.Tree{
		Pages: []*content.Page{{ID: "p1", Type: content.PageDocument, Title: "Intro", Slug: "intro",
			Git: &content.GitSync{OID: "b10b", Path: "README.md"},
			Pages: []*content.Page{{ID: "p2", Type: content.PageDocument, Title: "Setup", Slug: "setup",
				Git: &content.GitSync{OID: "b20b", Path: "setup.md"}}}}},
		Files: []content.File{{ID: "f1", Name: "logo.png", ContentType: "image/png", Size: 68, Width: 1, Height: 1,
			Git: &content.GitSync{OID: "f11e", Path: ".gitbook/assets/logo.png"}}},
		ReusableContents: []content.ReusableContent{{ID: "r1", Title: "Footer",
			Git: &content.GitSync{OID: "4e05", Path: ".gitbook/includes/footer.md"}}},
	}
	return rev, tree
}

// toJSON round-trips v through JSON into plain maps and slices.
func toJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestContentViewMetadata(t *testing.T) {
	rev, tree := gitContent()
	layout := map[string]any{"width": "default", "cover": true, "coverSize": "hero", "title": true, "description": true,
		"tableOfContents": true, "outline": true, "pagination": true, "metadata": true}
	page := func(id, title, slug, path string, git map[string]any, children []any) map[string]any {
		p := map[string]any{"id": id, "title": title, "kind": "sheet", "type": "document", "slug": slug, "path": path,
			"urls": map[string]any{"app": "https://docs.example.com/s/sp1/" + path}, "pages": children,
			"layout": layout, "hidden": false, "noIndex": false, "noRobotsIndex": false}
		if git != nil {
			p["git"] = git
		}
		return p
	}
	git := func(oid, path string) map[string]any { return map[string]any{"oid": oid, "path": path} }
	revision := func(withGit bool) any {
		g := func(oid, path string) map[string]any {
			if !withGit {
				return nil
			}
			return git(oid, path)
		}
		file := map[string]any{"id": "f1", "name": "logo.png", "contentType": "image/png",
			"downloadURL": "https://docs.example.com/v1/files/f1", "size": 68.0,
			"dimensions": map[string]any{"width": 1.0, "height": 1.0}}
		reusable := map[string]any{"id": "r1", "title": "Footer"}
		out := map[string]any{"object": "revision", "id": "rev2", "type": "edits", "parents": []any{"rev1"},
			"pages": []any{page("p1", "Intro", "intro", "intro", g("b10b", "README.md"),
				[]any{page("p2", "Setup", "setup", "intro/setup", g("b20b", "setup.md"), []any{})})},
			"files": []any{file}, "reusableContents": []any{reusable}, "variables": map[string]any{},
			"createdAt": "2024-05-06T07:08:09.010Z", "urls": map[string]any{"app": "https://docs.example.com/s/sp1/~/revisions/rev2"}}
		if withGit {
			file["git"] = git("f11e", ".gitbook/assets/logo.png")
			reusable["git"] = git("4e05", ".gitbook/includes/footer.md")
			out["git"] = map[string]any{"oid": "c0ffee", "message": "Sync docs", "createdByGitBook": false,
				"url": "https://git.example.com/c0ffee", "ref": "refs/heads/main"}
		}
		return out
	}
	for _, tt := range []struct {
		name     string
		metadata bool
	}{
		{"metadata/false omits git", false},
		{"metadata/true includes git", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cv := wire.ContentView{URLs: wire.URLs{Public: "https://docs.example.com"}, SpaceID: "sp1",
				Paths: map[string]string{"p1": "intro", "p2": "intro/setup"}, Metadata: tt.metadata,
				FileURL: func(f content.File) string { return "https://docs.example.com/v1/files/" + f.ID }}
			want := revision(tt.metadata).(map[string]any)
			if diff := cmp.Diff(want, toJSON(t, cv.NewRevision(rev, tree))); diff != "" {
				t.Errorf("NewRevision (-want +got):\n%s", diff)
			}
			// The single-object converters follow the same flag.
			if diff := cmp.Diff(want["pages"], toJSON(t, cv.NewPages(tree.Pages))); diff != "" {
				t.Errorf("NewPages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want["pages"].([]any)[0], toJSON(t, cv.NewPage(tree.Pages[0], true))); diff != "" {
				t.Errorf("NewPage (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want["files"].([]any)[0], toJSON(t, cv.NewFile(&tree.Files[0]))); diff != "" {
				t.Errorf("NewFile (-want +got):\n%s", diff)
			}
		})
	}
}
