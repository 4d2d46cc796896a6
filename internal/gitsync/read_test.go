package gitsync

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
	"github.com/google/go-cmp/cmp"
)

func TestReadBook(t *testing.T) {
	files := loadDir(t, "testdata/book")
	res := read(t, files, ReadOptions{TreeURL: "https://git.example/acme/docs/blob/main"})
	s := res.Snapshot
	want := `Welcome [welcome] README.md
Getting started [getting-started] getting-started/README.md
  Install [install] getting-started/install.md
group Reference [reference]
  API [api] reference/api.md
  link Install again [] -> {"anchor":"linux","kind":"anchor","page":"Install"}
  link GitHub [] -> {"kind":"url","url":"https://github.com/foliodocs"}
Changelog [changelog] changelog.md (empty)
`
	if diff := cmp.Diff(want, outlineIDs(s)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	install := byTitle(t, s, "Install")
	api := byTitle(t, s, "API")
	if len(s.Tree.Files) != 1 {
		t.Fatalf("files = %+v", s.Tree.Files)
	}
	logo := s.Tree.Files[0]
	wantFile := content.File{ID: logo.ID, Name: "logo.png", ContentType: "image/png", Size: 12,
		Blob: content.HashBlob(files[".gitbook/assets/logo.png"]),
		Git:  &content.GitSync{OID: BlobOID(files[".gitbook/assets/logo.png"]), Path: ".gitbook/assets/logo.png"}}
	if diff := cmp.Diff(wantFile, logo); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	wantBody := "<figure><img src=\"file:" + logo.ID + "\" alt=\"\"><figcaption></figcaption></figure>\n\nSee the [API](page:" + api.ID + ") and the [license](https://git.example/acme/docs/blob/main/LICENSE)."
	if got := body(t, s, install); got != wantBody {
		t.Errorf("Install body = %q, want %q", got, wantBody)
	}
	if got, want := body(t, s, byTitle(t, s, "Welcome")), "Read the [install guide](page:"+install.ID+") first."; got != want {
		t.Errorf("Welcome body = %q, want %q", got, want)
	}
	if install.Git == nil || install.Git.OID != BlobOID(files["getting-started/install.md"]) {
		t.Errorf("Install git = %+v", install.Git)
	}
	wantLayout := &content.Layout{Width: "wide", Title: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true}
	if diff := cmp.Diff(wantLayout, install.Layout); diff != "" {
		t.Errorf("layout (-want +got):\n%s", diff)
	}
	if install.Icon != "download" || install.Description != "How to install." || !api.Hidden {
		t.Errorf("front matter fields: icon %q description %q hidden %v", install.Icon, install.Description, api.Hidden)
	}
	doc := s.Documents[install.Document]
	if got := doc.Data[dataFrontMatter]; got != "cover: ../.gitbook/assets/logo.png\ncoverY: 0\n" {
		t.Errorf("kept front matter = %q", got)
	}
	if got := doc.Data[dataLayoutExtra]; got != "  tags:\n    visible: true\n" {
		t.Errorf("kept layout keys = %q", got)
	}
	if len(s.Tree.ReusableContents) != 1 {
		t.Fatalf("reusable contents = %+v", s.Tree.ReusableContents)
	}
	rc := s.Tree.ReusableContents[0]
	if rc.Title != "Support notice" || rc.Git == nil || rc.Git.Path != ".gitbook/includes/support.md" {
		t.Errorf("reusable content = %+v", rc)
	}
	if got := body(t, s, &content.Page{Document: rc.Document}); got != "Contact **support** at [the site](https://example.com)." {
		t.Errorf("reusable content body = %q", got)
	}
	wantRedirects := []Redirect{{Source: "old/setup", Page: install.ID}}
	if diff := cmp.Diff(wantRedirects, res.Redirects); diff != "" {
		t.Errorf("redirects (-want +got):\n%s", diff)
	}
	// Without TreeURL the link to a repository file stays relative.
	res = read(t, files, ReadOptions{})
	if got := body(t, res.Snapshot, byTitle(t, res.Snapshot, "Install")); !strings.Contains(got, "[license](../LICENSE)") {
		t.Errorf("Install body without TreeURL = %q", got)
	}
}

func TestReadProjectDirAndRoot(t *testing.T) {
	files := Files{
		"README.md":                          []byte("# Repository readme, not docs\n"),
		"site/.gitbook.yaml":                 []byte("root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n"),
		"site/content/toc.md":                []byte("* [Intro](intro.md)\n* [Usage](usage.md)\n"),
		"site/content/intro.md":              []byte("# Intro\n\n![x](.gitbook/assets/a.png)\n"),
		"site/content/usage.md":              []byte("# Usage\n\nSee [intro](intro.md).\n"),
		"site/content/.gitbook/assets/a.png": []byte("png"),
		"site/README.md":                     []byte("outside the root\n"),
	}
	res := read(t, files, ReadOptions{ProjectDir: "/site/"})
	want := "Intro [intro] intro.md\nUsage [usage] usage.md\n"
	if diff := cmp.Diff(want, outline(res.Snapshot)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	if res.Config.Root != "content" || res.Config.Summary != "toc.md" || res.Config.Readme != "intro.md" {
		t.Errorf("config = %+v", res.Config)
	}
	if len(res.Snapshot.Tree.Files) != 1 || res.Snapshot.Tree.Files[0].Git.Path != ".gitbook/assets/a.png" {
		t.Errorf("files = %+v", res.Snapshot.Tree.Files)
	}
	// Without the project directory the repository root is read by folders.
	res = read(t, Files{"site/.gitbook.yaml": files["site/.gitbook.yaml"], "README.md": files["README.md"]}, ReadOptions{})
	if got := outline(res.Snapshot); got != "Repository readme, not docs [repository-readme-not-docs] README.md (empty)\n" {
		t.Errorf("outline = %q", got)
	}
}

func TestReadFolders(t *testing.T) {
	files := Files{
		"README.md":               []byte("# Home\n\nHi.\n"),
		"10-deploy.md":            []byte("Deploy.\n"),
		"2-setup.md":              []byte("# Setup\n\nSetup.\n"),
		"guide/README.md":         []byte("# The guide\n\nGuide.\n"),
		"guide/intro.md":          []byte("Intro.\n"),
		"empty-folder/page.md":    []byte("Page.\n"),
		".github/ISSUE.md":        []byte("hidden\n"),
		"notes.txt":               []byte("not a page\n"),
		".gitbook/assets/pic.gif": []byte("GIF89a"),
	}
	res := read(t, files, ReadOptions{})
	want := `Home [home] README.md
2 setup [2-setup] 2-setup.md
10 deploy [10-deploy] 10-deploy.md
Empty folder [empty-folder] (empty)
  Page [page] empty-folder/page.md
The guide [guide] guide/README.md
  Intro [intro] guide/intro.md
`
	// Titles: an H1 wins over the file name.
	want = strings.Replace(want, "2 setup [2-setup]", "Setup [2-setup]", 1)
	if diff := cmp.Diff(want, outline(res.Snapshot)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	// No page links to pic.gif: it is neither read nor stored.
	if len(res.Snapshot.Tree.Files) != 0 {
		t.Errorf("files = %+v", res.Snapshot.Tree.Files)
	}
}

func TestReadFrontMatter(t *testing.T) {
	tests := []struct {
		name, src string
		page      pageFields
		extra     string
		body      string
		emptyDoc  bool
	}{
		{name: "none", src: "# T\n\nBody.\n", body: "Body."},
		{name: "known fields", src: "---\ndescription: >-\n  Folded\n  text.\nicon: rocket\nhidden: true\n---\n\n# T\n\nBody.\n",
			page: pageFields{Description: "Folded text.", Icon: "rocket", Hidden: true}, body: "Body."},
		{name: "layout with missing flags visible", src: "---\nlayout:\n  cover:\n    visible: true\n    size: full\n  outline:\n    visible: false\n---\n# T\n",
			page:     pageFields{Layout: &content.Layout{Cover: true, CoverSize: "full", Title: true, Description: true, TableOfContents: true, Pagination: true, Metadata: true}},
			emptyDoc: true},
		{name: "unknown keys kept in order", src: "---\nzeta: 1\n# a comment\nalpha:\n  - x\n  - y\ndescription: D\n---\n\n# T\n",
			page: pageFields{Description: "D"}, extra: "zeta: 1\n# a comment\nalpha:\n  - x\n  - y\n"},
		{name: "known key of the wrong shape is kept", src: "---\ndescription:\n  nested: map\n---\nBody.\n",
			extra: "description:\n  nested: map\n", body: "Body."},
		{name: "not a mapping is kept whole", src: "---\n- a\n- b\n---\nBody.\n", extra: "- a\n- b\n", body: "Body."},
		{name: "invalid yaml is kept whole", src: "---\na: [\n---\nBody.\n", extra: "a: [\n", body: "Body."},
		{name: "unclosed is body", src: "---\na: b\n", body: "***\n\na: b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := read(t, Files{"SUMMARY.md": []byte("* [T](p.md)\n"), "p.md": []byte(tt.src)}, ReadOptions{})
			p := res.Snapshot.Tree.Pages[0]
			got := pageFields{Description: p.Description, Icon: p.Icon, Hidden: p.Hidden, Layout: p.Layout}
			if diff := cmp.Diff(tt.page, got); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if tt.emptyDoc != p.Document.IsZero() {
				t.Errorf("document zero = %v", p.Document.IsZero())
			}
			if p.Document.IsZero() {
				return
			}
			doc := res.Snapshot.Documents[p.Document]
			extra, _ := doc.Data[dataFrontMatter].(string)
			if extra != tt.extra {
				t.Errorf("kept = %q, want %q", extra, tt.extra)
			}
			if got := body(t, res.Snapshot, p); got != tt.body {
				t.Errorf("body = %q, want %q", got, tt.body)
			}
		})
	}
}

func TestReadPreviousKeepsIDs(t *testing.T) {
	files := loadDir(t, "testdata/book")
	first := read(t, files, ReadOptions{})
	// The second sync renames nothing but adds a page and moves one.
	files["SUMMARY.md"] = []byte(strings.Replace(string(files["SUMMARY.md"]), "* [Changelog](changelog.md)\n", "* [New](new.md)\n* [Changelog](changelog.md)\n", 1))
	files["new.md"] = []byte("# New\n")
	second := read(t, files, ReadOptions{Previous: first.Snapshot.Tree})
	ids := func(s *content.Snapshot) map[string]string {
		out := map[string]string{}
		content.Walk(s.Tree, func(n content.PageNode) bool {
			out[n.Page.Title] = n.Page.ID
			return true
		})
		for _, f := range s.Tree.Files {
			out["file "+f.Name] = f.ID
		}
		for _, rc := range s.Tree.ReusableContents {
			out["reusable "+rc.Title] = rc.ID
		}
		return out
	}
	before, after := ids(first.Snapshot), ids(second.Snapshot)
	for title, id := range before {
		if after[title] != id {
			t.Errorf("%s: id %s became %s", title, id, after[title])
		}
	}
	if after["New"] == "" || after["New"] == before["Changelog"] {
		t.Errorf("new page id = %q", after["New"])
	}
	// Documents that link to kept pages hash the same.
	if byTitle(t, first.Snapshot, "Welcome").Document != byTitle(t, second.Snapshot, "Welcome").Document {
		t.Errorf("Welcome document changed")
	}
}

func TestReadErrors(t *testing.T) {
	big := strings.Repeat("x", 2048)
	tests := []struct {
		name  string
		files Files
		opts  ReadOptions
		want  string
	}{
		{"unsafe path", Files{"../x.md": []byte("x")}, ReadOptions{}, "not a clean relative path"},
		{"dot segment", Files{"a/./x.md": []byte("x")}, ReadOptions{}, "not a clean relative path"},
		{"bad config", Files{".gitbook.yaml": []byte("root: [\n")}, ReadOptions{}, "not valid YAML"},
		{"project dir climbs", Files{}, ReadOptions{ProjectDir: "../x"}, "stay inside"},
		{"too many pages", Files{"a.md": []byte("a"), "b.md": []byte("b")}, ReadOptions{Limits: limits(1, 0, 0, 0)}, "more than 1 pages"},
		{"too many assets", Files{"p.md": []byte("![](.gitbook/assets/a) ![](.gitbook/assets/b)\n"), ".gitbook/assets/a": []byte("a"), ".gitbook/assets/b": []byte("b")}, ReadOptions{Limits: limits(0, 1, 0, 0)}, "more than 1 asset files"},
		{"file too large", Files{"a.md": []byte(big)}, ReadOptions{Limits: limits(0, 0, 1024, 0)}, "exceeds the 1024 byte file limit"},
		{"total too large", Files{"a.md": []byte(big[:1000]), "b.md": []byte(big[:1000])}, ReadOptions{Limits: limits(0, 0, 0, 1500)}, "more than 1500 bytes"},
		{"folders too deep", Files{strings.Repeat("d/", content.MaxPageDepth) + "x.md": []byte("x")}, ReadOptions{}, "folders nest at most"},
		{"bad markdown", Files{"a.md": []byte("x" + strings.Repeat(">", 1000) + "\n" + strings.Repeat("> ", 200) + "x\n")}, ReadOptions{}, "page a.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.files, tt.opts)
			wantInvalid(t, err, tt.want)
		})
	}
}

// pageFields are the page fields front matter gives.
type pageFields struct {
	Description, Icon string
	Hidden            bool
	Layout            *content.Layout
}

// recordingSource is a Source that records the files read.
type recordingSource struct {
	Files
	read map[string]int
}

func (s *recordingSource) ReadFile(p string) ([]byte, error) {
	s.read[p]++
	return s.Files.ReadFile(p)
}

func TestReadOnlyReferencedAssets(t *testing.T) {
	logo := []byte("\x89PNG same bytes under three names")
	src := &recordingSource{read: map[string]int{}, Files: Files{
		"README.md":                           []byte("# Home\n\n![Logo](.gitbook/assets/logo.png)\n"),
		"SUMMARY.md":                          []byte("* [Home](README.md)\n* [Guide](guide.md)\n* [Sheet](.gitbook/assets/sheet.pdf)\n"),
		"guide.md":                            []byte("# Guide\n\n![Same](<.gitbook/assets/logo (1).png>) ![Again](.gitbook/assets/LOGO-copy.png)\n"),
		"unlisted.md":                         []byte("# Not in the summary\n\n![x](.gitbook/assets/unused-by-pages.png)\n"),
		".gitbook/assets/logo.png":            logo,
		".gitbook/assets/logo (1).png":        logo,
		".gitbook/assets/logo-copy.png":       logo,
		".gitbook/assets/sheet.pdf":           []byte("%PDF"),
		".gitbook/assets/unused.png":          []byte("never linked"),
		".gitbook/assets/unused-by-pages.png": []byte("linked only from a file that is no page"),
		"src/big.bin":                         []byte("not docs"),
	}}
	res, err := Read(src, ReadOptions{Limits: importer.Limits{MaxTotalBytes: 300}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	blobs := map[content.Hash]bool{}
	for _, f := range res.Snapshot.Tree.Files {
		got = append(got, f.Git.Path)
		blobs[f.Blob] = true
	}
	want := []string{".gitbook/assets/logo (1).png", ".gitbook/assets/logo-copy.png", ".gitbook/assets/logo.png", ".gitbook/assets/sheet.pdf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// One blob for the three names of the logo, one for the sheet.
	if len(blobs) != 2 || len(res.Snapshot.Blobs) != 2 {
		t.Errorf("%d distinct file blobs, %d snapshot blobs, want 2", len(blobs), len(res.Snapshot.Blobs))
	}
	for _, p := range []string{".gitbook/assets/unused.png", ".gitbook/assets/unused-by-pages.png", "src/big.bin", "unlisted.md"} {
		if src.read[p] != 0 {
			t.Errorf("%s was read", p)
		}
	}
	for p, n := range src.read {
		if n > 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
}

// TestReadCountsDistinctReferencedBytes: the byte limit counts what is
// read, a blob once however many names it has, and unreferenced assets
// not at all.
func TestReadCountsDistinctReferencedBytes(t *testing.T) {
	blob := []byte(strings.Repeat("b", 400))
	files := Files{
		"README.md":                []byte("![](.gitbook/assets/a.png) ![](.gitbook/assets/b.png) ![](.gitbook/assets/c.png)\n"),
		".gitbook/assets/a.png":    blob,
		".gitbook/assets/b.png":    blob,
		".gitbook/assets/c.png":    blob,
		".gitbook/assets/huge.png": []byte(strings.Repeat("h", 5000)),
	}
	if _, err := Read(files, ReadOptions{Limits: importer.Limits{MaxTotalBytes: 500}}); err != nil {
		t.Fatalf("400 distinct referenced bytes under a limit of 500: %v", err)
	}
	files[".gitbook/assets/d.png"] = []byte(strings.Repeat("d", 200))
	files["README.md"] = append(files["README.md"], []byte("![](.gitbook/assets/d.png)\n")...)
	_, err := Read(files, ReadOptions{Limits: importer.Limits{MaxTotalBytes: 500}})
	if folio.KindOf(err) != folio.Invalid || !strings.Contains(folio.MessageOf(err), "more than 500 bytes") {
		t.Fatalf("err = %v, want Invalid over 500 bytes", err)
	}
}
