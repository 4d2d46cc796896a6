package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

func TestZipSummary(t *testing.T) {
	s := importZip(t,
		file{"book-main/SUMMARY.md", `# Table of contents

* [Welcome](README.md)
* [Getting started](guide/README.md)
  * [Install](guide/install.md)
    * [On Linux](guide/linux.md)
  * [Missing page](guide/missing.md)
* [GitHub](https://github.com/foliodocs)
  * [Under a link](guide/under.md)

## Reference

* [API](reference/api.md)
* [](reference/untitled.md)
- Plain entry
  - [Nested](reference/nested.md)
* [Folder link](reference/)

## Empty group
`},
		file{"book-main/README.md", "# Home\n\nWelcome text.\n"},
		file{"book-main/guide/README.md", "# Guide\n\nGuide text.\n"},
		file{"book-main/guide/install.md", "Install text. [Linux](linux.md)\n"},
		file{"book-main/guide/linux.md", "Linux text.\n"},
		file{"book-main/guide/under.md", "Under.\n"},
		file{"book-main/reference/api.md", "# API reference\n\nBody.\n"},
		file{"book-main/reference/untitled.md", "---\ntitle: From front matter\ndescription: Described here\n---\n\nText.\n"},
		file{"book-main/reference/nested.md", "Nested text.\n"},
		file{"book-main/reference/README.md", "Reference home.\n"},
		file{"book-main/unlisted.md", "# Unlisted\n"},
	)
	want := `Welcome [welcome]
Getting started [guide]
  Install [install]
    On Linux [linux]
  Missing page [missing] (empty)
link GitHub [] -> {"kind":"url","url":"https://github.com/foliodocs"}
Under a link [under]
group Reference [reference]
  API [api]
  From front matter [untitled]
  Plain entry [plain-entry] (empty)
    Nested [nested]
  Folder link [reference]
group Empty group [empty-group]
`
	if diff := cmp.Diff(want, outline(s)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	if got := pageByTitle(t, s, "From front matter").Description; got != "Described here" {
		t.Errorf("description = %q", got)
	}
	// The link text is the title, and the file's H1 still leaves the body.
	if got := docMarkdown(t, s, pageByTitle(t, s, "Welcome")); got != "Welcome text." {
		t.Errorf("Welcome body = %q", got)
	}
	linux := pageByTitle(t, s, "On Linux")
	if got, want := docMarkdown(t, s, pageByTitle(t, s, "Install")), "Install text. [Linux](page:"+linux.ID+")"; got != want {
		t.Errorf("Install body = %q, want %q", got, want)
	}
	for _, f := range s.Tree.Files {
		t.Errorf("unexpected file %s: unlisted Markdown must be ignored, not kept as a file", f.Name)
	}
}

func TestZipFolders(t *testing.T) {
	s := importZip(t,
		file{"README.md", "Root text.\n"},
		file{"10-deploy.md", "# Deploy\n\nText.\n"},
		file{"2-setup.md", "Setup.\n"},
		file{"guide/README.md", "Guide.\n"},
		file{"guide/b.md", "# Bee\n"},
		file{"guide/a.md", "A.\n"},
		file{"guide/deep/x.html", "<html><head><title>Ex</title></head><body><p>x</p></body></html>"},
		file{"api.md", "# API overview\n"},
		file{"api/users.md", "Users.\n"},
		file{"no_readme/child-page.md", "Child.\n"},
		file{"images/logo.png", "not really a png"},
		file{"Readme.MD", "A second README in another case is an ordinary page.\n"},
		file{"__MACOSX/._README.md", "junk"},
		file{"guide/.DS_Store", "junk"},
		file{".github/workflow.md", "hidden"},
	)
	want := `Introduction [introduction]
2 setup [2-setup]
Deploy [10-deploy]
API overview [api] (empty)
  Users [users]
Guide [guide]
  A [a]
  Bee [b] (empty)
  Deep [deep] (empty)
    Ex [x]
No readme [no-readme] (empty)
  Child page [child-page]
Readme [readme]
`
	if diff := cmp.Diff(want, outline(s)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	if got := docMarkdown(t, s, pageByTitle(t, s, "Introduction")); got != "Root text." {
		t.Errorf("root README body = %q", got)
	}
	if len(s.Tree.Files) != 1 || s.Tree.Files[0].Name != "logo.png" {
		t.Errorf("files = %+v, want only logo.png", s.Tree.Files)
	}
}

func TestZipTitlesAndSlugs(t *testing.T) {
	s := importZip(t,
		file{"h1.md", "# Title From H1\n\nBody.\n"},
		file{"fm.md", "---\ntitle: \"Front: matter\"\ndescription: >-\n  Folded\n  description\n---\n\nBody.\n"},
		file{"both.md", "---\ntitle: Loses\n---\n# Wins\n\nBody.\n"},
		file{"my_file-name.md", "Body.\n"},
		file{"later-h1.md", "Intro.\n\n# Not the title\n"},
		file{"same.md", "# Same\n\nBody.\n"},
		// Same.html sorts first (equal names ignoring case, then "S" < "s").
		file{"Same.html", "<html><head><title>Same too</title></head><body><p>Body.</p></body></html>"},
	)
	want := `Wins [both]
Front: matter [fm]
Title From H1 [h1]
Later h1 [later-h1]
My file name [my-file-name]
Same too [same]
Same [same-2]
`
	if diff := cmp.Diff(want, outline(s)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	if got := pageByTitle(t, s, "Front: matter").Description; got != "Folded description" {
		t.Errorf("description = %q", got)
	}
	if got := docMarkdown(t, s, pageByTitle(t, s, "Title From H1")); got != "Body." {
		t.Errorf("H1 page body = %q: the H1 must leave the body", got)
	}
	if got := docMarkdown(t, s, pageByTitle(t, s, "Front: matter")); got != "Body." {
		t.Errorf("front matter page body = %q: front matter must leave the body", got)
	}
	if got := docMarkdown(t, s, pageByTitle(t, s, "Later h1")); !strings.Contains(got, "# Not the title") {
		t.Errorf("later H1 body = %q: only a leading H1 is the title", got)
	}
}

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestZipLinksAndImages(t *testing.T) {
	logo := string(pngBytes(t, 3, 2))
	s := importZip(t,
		file{"README.md", "[setup](guide/setup.md#install) [guide](guide/) [abs](/guide/setup.md) " +
			"[web](https://x.org) [broken](nope.md) [anchor](#here) [case](GUIDE/Setup.md) [noext](guide/setup)\n\n" +
			"![logo](.gitbook/assets/logo.png)\n"},
		file{"guide/README.md", "Guide.\n"},
		file{"guide/setup.md", "[home](../README.md) ![a](./img/my%20file.png) ![b](../.gitbook/assets/logo.png) " +
			"![c](../../.gitbook/assets/logo.png) [pdf](img/doc.pdf) [out](../../etc/passwd) [page](page.html)\n"},
		file{"guide/page.html", `<p><a href="setup.md#top">back</a> <img src="img/my%20file.png" alt="m"> <img src="https://cdn.example/x.png"></p>`},
		file{"guide/img/my file.png", logo},
		file{"guide/img/doc.pdf", "%PDF-1.4 test"},
		file{"guide/img/diagram.svg", `<svg xmlns="http://www.w3.org/2000/svg"></svg>`},
		file{".gitbook/assets/logo.png", logo},
	)
	ids := map[string]string{}
	content.Walk(s.Tree, func(n content.PageNode) bool { ids[n.Page.Title] = n.Page.ID; return true })
	files := map[string]content.File{}
	for _, f := range s.Tree.Files {
		files[f.Name] = f
	}
	page := func(title string) map[string]any { return map[string]any{"kind": "page", "page": ids[title]} }
	fileRef := func(name string) map[string]any { return map[string]any{"kind": "file", "file": files[name].ID} }
	url := func(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }
	tests := []struct {
		page string
		want []map[string]any
	}{
		{"Introduction", []map[string]any{
			{"kind": "anchor", "anchor": "install", "page": ids["Setup"]},
			page("Guide"), page("Setup"), url("https://x.org"), url("nope.md"),
			{"kind": "anchor", "anchor": "here"}, page("Setup"), page("Setup"), fileRef("logo.png"),
		}},
		{"Setup", []map[string]any{
			page("Introduction"), fileRef("my file.png"), fileRef("logo.png"), fileRef("logo.png"),
			fileRef("doc.pdf"), url("../../etc/passwd"), page("Page"),
		}},
		{"Page", []map[string]any{
			{"kind": "anchor", "anchor": "top", "page": ids["Setup"]}, fileRef("my file.png"), url("https://cdn.example/x.png"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			p := pageByTitle(t, s, tt.page)
			if diff := cmp.Diff(tt.want, refs(s.Documents[p.Document])); diff != "" {
				t.Errorf("refs (-want +got):\n%s", diff)
			}
		})
	}
	wantFiles := map[string]content.File{
		"my file.png": {Name: "my file.png", ContentType: "image/png", Size: int64(len(logo)), Width: 3, Height: 2},
		"doc.pdf":     {Name: "doc.pdf", ContentType: "application/pdf", Size: 13},
		"diagram.svg": {Name: "diagram.svg", ContentType: "image/svg+xml", Size: 46},
		"logo.png":    {Name: "logo.png", ContentType: "image/png", Size: int64(len(logo)), Width: 3, Height: 2},
	}
	for name, f := range files {
		if f.ID == "" || f.Blob.IsZero() {
			t.Errorf("%s: id %q, blob %v", name, f.ID, f.Blob)
		}
		f.ID, f.Blob = "", content.Hash{}
		if diff := cmp.Diff(wantFiles[name], f); diff != "" {
			t.Errorf("file %s (-want +got):\n%s", name, diff)
		}
	}
	if len(files) != len(wantFiles) {
		t.Errorf("got %d files, want %d", len(files), len(wantFiles))
	}
}

// rawEntry is an archive member written byte for byte, to build archives
// that zip.Writer would refuse to make.
type rawEntry struct {
	header zip.FileHeader
	data   []byte
}

func rawZip(t *testing.T, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		h := e.header
		fw, err := w.CreateRaw(&h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deflated returns b compressed, and its true size.
func deflated(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	fw, _ := w.CreateHeader(&zip.FileHeader{Name: "x", Method: zip.Deflate})
	fw.Write(b)
	w.Close()
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].OpenRaw()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.ReadFrom(rc)
	return out.Bytes()
}

func TestZipHostile(t *testing.T) {
	zeros := bytes.Repeat([]byte{0}, 300<<10)
	small := Limits{MaxFileBytes: 100 << 10, MaxTotalBytes: 250 << 10}
	pages := func(n int) []file {
		var fs []file
		for i := range n {
			fs = append(fs, file{name: strings.Repeat("d/", i%3) + "p" + string(rune('a'+i)) + ".md", body: "x\n"})
		}
		return fs
	}
	deep := strings.Repeat("level/", 17) + "page.md"
	tests := []struct {
		name string
		zip  func(t *testing.T) []byte
		lim  Limits
		want string
	}{
		{"invalid zip", func(t *testing.T) []byte { return []byte("PK\x03\x04 this is not a zip archive") }, Limits{}, "zip archive is not valid"},
		{"empty input", func(t *testing.T) []byte { return nil }, Limits{}, "zip archive is not valid"},
		{"no pages", func(t *testing.T) []byte { return makeZip(t, file{"a.png", "x"}) }, Limits{}, "holds no Markdown or HTML pages"},
		{"traversal", func(t *testing.T) []byte { return makeZip(t, file{"../../x.md", "x"}) }, Limits{}, "zip entry ../../x.md has an unsafe path"},
		{"traversal inside", func(t *testing.T) []byte { return makeZip(t, file{"a/../../x.md", "x"}) }, Limits{}, "unsafe path"},
		{"backslash traversal", func(t *testing.T) []byte { return makeZip(t, file{`..\..\x.md`, "x"}) }, Limits{}, "unsafe path"},
		{"absolute", func(t *testing.T) []byte { return makeZip(t, file{"/etc/passwd.md", "x"}) }, Limits{}, "unsafe path"},
		{"drive letter", func(t *testing.T) []byte { return makeZip(t, file{"C:/x.md", "x"}) }, Limits{}, "unsafe path"},
		{"duplicate", func(t *testing.T) []byte { return makeZip(t, file{"a.md", "x"}, file{"./a.md", "y"}) }, Limits{}, "zip archive holds a.md twice"},
		{"file over limit", func(t *testing.T) []byte { return makeZip(t, file{"a.md", "x"}, file{"big.bin", string(zeros)}) }, small,
			"zip entry big.bin exceeds the 100 KiB file limit"},
		{"bomb with lying header", func(t *testing.T) []byte {
			return rawZip(t, rawEntry{zip.FileHeader{Name: "bomb.md", Method: zip.Deflate, CompressedSize64: 0, UncompressedSize64: 10},
				deflated(t, zeros)})
		}, small, "zip entry bomb.md"},
		{"total over limit", func(t *testing.T) []byte {
			chunk := string(zeros[:90<<10])
			return makeZip(t, file{"a.bin", chunk}, file{"b.bin", chunk}, file{"c.bin", chunk}, file{"p.md", "x"})
		}, small, "zip archive holds more than 250 KiB of uncompressed data"},
		{"too many pages", func(t *testing.T) []byte { return makeZip(t, pages(5)...) }, Limits{MaxPages: 3}, "archive holds more than 3 pages"},
		{"too many pages with folders", func(t *testing.T) []byte { return makeZip(t, pages(3)...) }, Limits{MaxPages: 3}, "archive holds more than 3 pages"},
		{"too many files", func(t *testing.T) []byte {
			return makeZip(t, file{"p.md", "x"}, file{"a.png", "x"}, file{"b.png", "x"}, file{"c.png", "x"})
		}, Limits{MaxFiles: 2}, "archive holds more than 2 files"},
		{"unknown method", func(t *testing.T) []byte {
			return rawZip(t, rawEntry{zip.FileHeader{Name: "a.md", Method: 99, UncompressedSize64: 1, CompressedSize64: 1}, []byte("x")})
		}, Limits{}, "zip entry a.md uses an unsupported compression method"},
		{"corrupt data", func(t *testing.T) []byte {
			return rawZip(t, rawEntry{zip.FileHeader{Name: "a.md", Method: zip.Deflate, UncompressedSize64: 5, CompressedSize64: 4}, []byte{0xff, 0xff, 0xff, 0xff}})
		}, Limits{}, "zip entry a.md is corrupt"},
		{"too many entries", func(t *testing.T) []byte {
			var fs []file
			for i := range 40 {
				fs = append(fs, file{name: fmt.Sprintf("__MACOSX/%d", i)})
			}
			return makeZip(t, fs...)
		}, Limits{MaxPages: 5, MaxFiles: 5}, "zip archive holds 40 entries, more than the 30 allowed"},
		{"too deep", func(t *testing.T) []byte { return makeZip(t, file{deep, "x"}) }, Limits{}, "pages nest at most 16 levels deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.zip(t)
			s, err := Zip(bytes.NewReader(b), int64(len(b)), tt.lim)
			if s != nil {
				t.Errorf("snapshot returned with an error")
			}
			wantInvalid(t, err, tt.want)
		})
	}
}

func TestEntryCountZip64(t *testing.T) {
	// More than 65535 entries make zip.Writer write zip64 records.
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range 70000 {
		if _, err := w.CreateHeader(&zip.FileHeader{Name: strconv.Itoa(i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	n, ok := entryCount(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if !ok || n != 70000 {
		t.Errorf("entryCount = %d, %v; want 70000", n, ok)
	}
	_, err := Zip(bytes.NewReader(buf.Bytes()), int64(buf.Len()), Limits{MaxPages: 10, MaxFiles: 10})
	wantInvalid(t, err, "zip archive holds 70000 entries, more than the 60 allowed")
}

func TestZipKeepsGitbookAssetsOnly(t *testing.T) {
	s := importZip(t,
		file{"repo/README.md", "![x](.gitbook/assets/a.png)\n"},
		file{"repo/.gitbook/assets/a.png", "a"},
		file{"repo/.gitbook.yaml", "root: ./"},
		file{"repo/.git/config", "x"},
		file{"repo/docs/.hidden.md", "# Hidden\n"},
	)
	if len(s.Tree.Files) != 1 || s.Tree.Files[0].Name != "a.png" {
		t.Errorf("files = %+v, want only a.png", s.Tree.Files)
	}
	if got := outline(s); got != "Introduction [introduction]\n" {
		t.Errorf("outline = %q", got)
	}
}

func TestUniqueSlugMatchesContent(t *testing.T) {
	taken, next := map[string]bool{}, map[string]int{}
	var existing []string
	for _, want := range []string{"a", "a", "a-2", "a", "b", strings.Repeat("x", content.MaxSlugLength), strings.Repeat("x", content.MaxSlugLength)} {
		got := uniqueSlug(taken, next, want)
		if ref := content.UniqueSlug(existing, want); got != ref {
			t.Errorf("uniqueSlug(%q) = %q, content.UniqueSlug = %q", want, got, ref)
		}
		existing = append(existing, got)
	}
}

func TestNaturalCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2-setup", "10-deploy", -1},
		{"a", "B", -1},
		{"page10", "page9", 1},
		{"007", "7", -1}, // equal values: the raw names decide
		{"a1b2", "a1b10", -1},
		{"same", "same", 0},
	}
	for _, tt := range tests {
		if got := naturalCompare(tt.a, tt.b); got != tt.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
