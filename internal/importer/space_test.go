package importer

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// spaceTree is a space's content: intro (the first page), guide with the
// child setup, a group "more" holding faq (synced from misc/faq.md), and a
// link page.
func spaceTree() *content.Tree {
	doc := func(id, slug string, children ...*content.Page) *content.Page {
		return &content.Page{ID: id, Type: content.PageDocument, Title: slug, Slug: slug, Pages: children}
	}
	faq := doc("faq", "faq")
	faq.Git = &content.GitSync{Path: "misc/faq.md"}
	return &content.Tree{Pages: []*content.Page{
		doc("intro", "intro"),
		doc("guide", "guide", doc("setup", "setup", doc("linux", "linux"))),
		{ID: "more", Type: content.PageGroup, Title: "More", Slug: "more", Pages: []*content.Page{faq}},
		{ID: "web", Type: content.PageLink, Title: "Web", Target: []byte(`{"kind":"url","url":"https://x.y"}`)},
	}}
}

func TestMarkdownIntoResolvesSpacePages(t *testing.T) {
	page := func(id string) map[string]any { return map[string]any{"kind": "page", "page": id} }
	anchor := func(id, a string) map[string]any { return map[string]any{"kind": "anchor", "anchor": a, "page": id} }
	url := func(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }
	for _, tt := range []struct {
		name   string
		into   string // the page imported into, "" for a new top-level page
		target string
		want   map[string]any
	}{
		{"top/leaf page", "", "intro.md", page("intro")},
		{"top/nested page", "", "guide/setup.md", page("setup")},
		{"top/anchor kept", "", "guide/setup.md#install", anchor("setup", "install")},
		{"top/page with children as README", "", "guide/setup/README.md", page("setup")},
		{"top/folder", "", "guide/setup/", page("setup")},
		{"top/no extension", "", "guide/setup", page("setup")},
		{"top/deepest", "", "./guide/setup/linux.md", page("linux")},
		{"top/root README is the first page", "", "README.md", page("intro")},
		{"top/group page by slug path", "", "more/faq.md", page("faq")},
		{"top/page by its git path", "", "misc/faq.md", page("faq")},
		{"top/climbing above the root stops there", "", "../guide/setup.md", page("setup")},
		{"top/root-relative", "", "/guide/setup.md#x", anchor("setup", "x")},
		{"top/escaped", "", "guide/set%75p.md", page("setup")},
		{"top/case differs", "", "Guide/Setup.md", page("setup")},
		{"top/missing page stays a URL", "", "guide/missing.md", url("guide/missing.md")},
		{"top/link pages are not targets", "", "web.md", url("web.md")},
		{"top/groups are not targets", "", "more.md", url("more.md")},
		{"top/absolute URL", "", "https://x.y/setup.md", url("https://x.y/setup.md")},
		{"leaf/sibling", "intro", "guide/setup.md#install", anchor("setup", "install")},
		{"children/relative to its folder", "guide", "setup.md#install", anchor("setup", "install")},
		{"children/up and back", "guide", "../intro.md", page("intro")},
		{"nested leaf/sibling", "linux", "../setup.md", page("setup")},
		{"nested leaf/its own folder", "linux", "linux.md", page("linux")},
		{"git path/relative to the synced file", "faq", "../intro.md", page("intro")},
		{"git path/sibling in its folder", "faq", "faq.md", page("faq")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := MarkdownInto([]byte("[x]("+tt.target+")\n"), "t", Into{Tree: spaceTree(), PageID: tt.into})
			if err != nil {
				t.Fatal(err)
			}
			got := refs(s.Documents[s.Tree.Pages[0].Document])
			if diff := cmp.Diff([]map[string]any{tt.want}, got); diff != "" {
				t.Errorf("refs (-want +got):\n%s", diff)
			}
		})
	}
	// Without a space, relative links stay URLs.
	s, err := Markdown([]byte("[x](intro.md)\n"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]map[string]any{url("intro.md")}, refs(s.Documents[s.Tree.Pages[0].Document])); diff != "" {
		t.Errorf("refs without a space (-want +got):\n%s", diff)
	}
}

func dataURL(typ string, b []byte) string {
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(b)
}

func TestDataURLImagesBecomeFiles(t *testing.T) {
	pic := pngBytes(t, 4, 3)
	gif, _ := base64.StdEncoding.DecodeString("R0lGODlhAQABAAAAACw=")
	svg := `<svg xmlns="http://www.w3.org/2000/svg"/>`
	src := "# Pictures\n\n![one](" + dataURL("image/png", pic) + ")\n\n" +
		"Inline ![again](" + dataURL("image/png", pic) + ") and ![gif](" + dataURL("IMAGE/GIF", gif) + ").\n\n" +
		"<figure><img src=\"data:image/svg+xml," + url.PathEscape(svg) + "\" alt=\"svg\"><figcaption></figcaption></figure>\n"
	s, err := Markdown([]byte(src), "t")
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshot(t, s)
	type got struct {
		Name, ContentType string
		Size              int64
		Width, Height     float64
		Bytes             string
	}
	var files []got
	ids := map[string]bool{}
	for _, f := range s.Tree.Files {
		files = append(files, got{f.Name, f.ContentType, f.Size, f.Width, f.Height, string(s.Blobs[f.Blob])})
		ids[f.ID] = true
	}
	want := []got{
		{"image.png", "image/png", int64(len(pic)), 4, 3, string(pic)}, // once for two uses
		{"image.gif", "image/gif", int64(len(gif)), 1, 1, string(gif)},
		{"image.svg", "image/svg+xml", int64(len(svg)), 0, 0, svg},
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	var kinds []string
	for _, r := range refs(s.Documents[s.Tree.Pages[0].Document]) {
		id, _ := r["file"].(string)
		if r["kind"] != "file" || !ids[id] {
			t.Errorf("ref %v is not to an imported file", r)
		}
		kinds = append(kinds, id)
	}
	if len(kinds) != 4 || kinds[0] != kinds[1] || kinds[0] != s.Tree.Files[0].ID {
		t.Errorf("refs %v", kinds)
	}
}

func TestBadDataURLFailsTheImport(t *testing.T) {
	big := make([]byte, MaxDataURLBytes+1)
	for _, tt := range []struct {
		name, url string
		kind      folio.Kind
		msg       string
	}{
		{"no comma", "data:image/png;base64", folio.Invalid, `image data: URL "data:image/png;base64" has no comma before its data`},
		{"not an image", "data:text/html;base64,PGI+", folio.Invalid, "must hold an image"},
		{"no media type", "data:,hello", folio.Invalid, "must hold an image"},
		{"bad base64", "data:image/png;base64,@@@@", folio.Invalid, "is not valid base64"},
		{"bad percent-encoding", "data:image/svg+xml,%zz", folio.Invalid, "is not validly percent-encoded"},
		{"empty", "data:image/png;base64,", folio.Invalid, "holds no data"},
		{"too large", dataURL("image/png", big), folio.TooLarge, "is larger than 10 MiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown([]byte("Text.\n\n![x]("+tt.url+")\n"), "t")
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != tt.kind || !strings.Contains(fe.Message, tt.msg) {
				t.Fatalf("err = %v (kind %v), want %v containing %q", err, folio.KindOf(err), tt.kind, tt.msg)
			}
			if len(fe.Message) > 200 {
				t.Errorf("message of %d bytes quotes too much of the URL", len(fe.Message))
			}
		})
	}
	// The edge: exactly MaxDataURLBytes is accepted.
	if _, err := Markdown([]byte("![x]("+dataURL("image/png", big[:MaxDataURLBytes])+")\n"), "t"); err != nil {
		t.Errorf("an image of MaxDataURLBytes: %v", err)
	}
}

func TestZipDataURLImages(t *testing.T) {
	pic := pngBytes(t, 2, 2)
	s := importZip(t,
		file{"README.md", "![a](" + dataURL("image/png", pic) + ")\n"},
		file{"guide.md", "![b](" + dataURL("image/png", pic) + ") ![c](.gitbook/assets/c.png)\n"},
		file{".gitbook/assets/c.png", string(pic)},
	)
	var names []string
	for _, f := range s.Tree.Files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"c.png", "image.png"}, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	data := s.Tree.Files[1].ID
	if got := refs(s.Documents[pageByTitle(t, s, "Guide").Document]); got[0]["file"] != data || got[1]["file"] != s.Tree.Files[0].ID {
		t.Errorf("guide refs %v", got)
	}
	if got := refs(s.Documents[pageByTitle(t, s, "Introduction").Document]); got[0]["file"] != data {
		t.Errorf("intro refs %v", got)
	}
	// A bad one fails the archive, naming the entry.
	b := makeZip(t, file{"README.md", "ok\n"}, file{"guide/bad.md", "![x](data:image/png;base64,@@)\n"})
	_, err := Zip(bytes.NewReader(b), int64(len(b)), Limits{})
	wantInvalid(t, err, "zip entry guide/bad.md: image data: URL")
	// Data images count among the archive's files.
	b = makeZip(t, file{"README.md", "![a](" + dataURL("image/png", pic) + ") ![b](" + dataURL("image/gif", pic) + ")\n"},
		file{"x.png", string(pic)})
	_, err = Zip(bytes.NewReader(b), int64(len(b)), Limits{MaxFiles: 2})
	wantInvalid(t, err, "more files than the 2 allowed")
}
