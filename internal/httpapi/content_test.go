package httpapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/google/go-cmp/cmp"
)

// dataURL returns body as a base64 data: URL.
func dataURL(contentType string, body []byte) string {
	return "data:" + contentType + ";base64," + base64.StdEncoding.EncodeToString(body)
}

// zipOf builds a zip archive of name → content.
func zipOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// newSpace creates a space in org and returns its id.
func newSpace(t testing.TB, s *apitest.Server, token, org, title string) string {
	t.Helper()
	var sp struct{ ID string }
	s.Do(t, token, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title}).WantStatus(t, 201).JSON(t, &sp)
	return sp.ID
}

type importResult struct {
	Revision                          string
	ImportedResources, TotalResources int
}

// importInto imports content into a space (or a page) and returns the result.
func importInto(t testing.TB, s *apitest.Server, token, space, page, source string, body []byte) importResult {
	t.Helper()
	path := "/v1/spaces/" + space + "/content/import"
	if page != "" {
		path = "/v1/spaces/" + space + "/content/page/" + page + "/import"
	}
	ct := map[string]string{"markdown": "text/markdown", "html": "text/html", "zip": "application/zip"}[source]
	var res importResult
	r := s.Do(t, token, "POST", path, map[string]any{"source": source, "url": dataURL(ct, body)}).WantStatus(t, 201)
	r.JSON(t, &res)
	if want := s.PublicURL + "/v1/spaces/" + space + "/revisions/" + res.Revision; r.Header.Get("Location") != want {
		t.Fatalf("Location %q, want %q", r.Header.Get("Location"), want)
	}
	return res
}

type pageBody struct {
	ID, Title, Kind, Type, Slug, Path, Description, DocumentID string
	Emoji                                                      string
	Markdown                                                   *string
	Document                                                   *struct {
		Object string
		Nodes  []map[string]any
	}
	URLs   struct{ App string }
	Layout map[string]any
	Target map[string]any
	Pages  []pageBody
}

type revisionBody struct {
	Object, ID, Type, CreatedAt string
	Parents                     []string
	Pages                       []pageBody
	Files                       []fileBody
	ReusableContents            []any
	Variables                   map[string]string
	URLs                        struct{ App string }
}

type fileBody struct {
	ID, Name, ContentType, DownloadURL string
	Size                               int64
	Dimensions                         *struct{ Width, Height float64 }
}

func TestNewSpaceHasAnEmptyRevision(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var sp struct{ ID, Revision string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Docs"}`).WantStatus(t, 201).JSON(t, &sp)
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.Object != "revision" || rev.ID != sp.Revision || rev.Type != "edits" || len(rev.Parents) != 0 ||
			len(rev.Pages) != 0 || len(rev.Files) != 0 || rev.Variables == nil || rev.CreatedAt == "" ||
			rev.URLs.App != apitest.PublicURL+"/s/"+sp.ID+"/~/revisions/"+sp.Revision {
			t.Fatalf("empty revision %+v", rev)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/revisions/"+sp.Revision, nil).WantStatus(t, 200)
		if got := s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/content/pages", nil).WantStatus(t, 200).Map(t); len(got["pages"].([]any)) != 0 {
			t.Fatalf("pages %v", got)
		}
		files := s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/content/files", nil).WantStatus(t, 200).Map(t)
		if files["count"] != 0.0 || len(files["items"].([]any)) != 0 {
			t.Fatalf("files %v", files)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/revisions/nope", nil).WantError(t, 404, "revision not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/content/page/nope", nil).WantError(t, 404, "page not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+sp.ID+"/content/files/nope", nil).WantError(t, 404, "file not found")
		// Another organization's admin and a guest without grants see nothing.
		_, other := s.Org(t)
		s.Do(t, other, "GET", "/v1/spaces/"+sp.ID+"/content", nil).WantError(t, 404, "space not found")
		_, guest := s.Member(t, org, folio.RoleGuest)
		s.Do(t, guest, "GET", "/v1/spaces/"+sp.ID+"/content/pages", nil).WantError(t, 404, "space not found")
		// A revision of one space is not readable through another.
		sp2 := newSpace(t, s, admin, org, "Other")
		s.Do(t, admin, "GET", "/v1/spaces/"+sp2+"/revisions/"+sp.Revision, nil).WantError(t, 404, "revision not found")
	})
}

func TestImportMarkdownAndReadPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var before struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &before)

		md := "# Getting started\n\nWelcome to **Folio**. See [the site](https://example.com).\n\n## Install\n\nRun the binary.\n"
		res := importInto(t, s, admin, space, "", "markdown", []byte(md))
		if res.ImportedResources != 1 || res.TotalResources != 1 || res.Revision == "" {
			t.Fatalf("import result %+v", res)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != res.Revision || len(rev.Parents) != 1 || rev.Parents[0] != before.Revision || len(rev.Pages) != 1 {
			t.Fatalf("revision after import %+v", rev)
		}
		p := rev.Pages[0]
		if p.Title != "Getting started" || p.Slug != "getting-started" || p.Path != "getting-started" || p.Kind != "sheet" ||
			p.Type != "document" || p.URLs.App != apitest.PublicURL+"/s/"+space+"/getting-started" || p.Layout["width"] != "default" {
			t.Fatalf("page %+v", p)
		}
		// The space points at the new revision.
		var after struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &after)
		if after.Revision != res.Revision {
			t.Fatalf("space revision %s, want %s", after.Revision, res.Revision)
		}

		// Page reads: without a body, as a document, as Markdown, by path.
		var plain pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID, nil).WantStatus(t, 200).JSON(t, &plain)
		if plain.ID != p.ID || plain.Document != nil || plain.Markdown != nil {
			t.Fatalf("page without format %+v", plain)
		}
		var doc pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=document", nil).WantStatus(t, 200).JSON(t, &doc)
		if doc.Document == nil || doc.Document.Object != "document" || len(doc.Document.Nodes) < 3 {
			t.Fatalf("page document %+v", doc.Document)
		}
		var mdPage pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=markdown&evaluated=deterministic-only&dereferenced=true", nil).
			WantStatus(t, 200).JSON(t, &mdPage)
		if mdPage.Markdown == nil || !strings.Contains(*mdPage.Markdown, "## Install") || !strings.Contains(*mdPage.Markdown, "**Folio**") ||
			!strings.Contains(*mdPage.Markdown, "[the site](https://example.com)") {
			t.Fatalf("page markdown %v", mdPage.Markdown)
		}
		var byPath pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/path/getting-started", nil).WantStatus(t, 200).JSON(t, &byPath)
		if byPath.ID != p.ID {
			t.Fatalf("page by path %+v", byPath)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/path/missing/page", nil).WantError(t, 404, "page not found")
		for _, q := range []string{"format=html", "evaluated=maybe", "dereferenced=all", "metadata=yes", "computed=2"} {
			s.DoUnchecked(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?"+q, nil).
				WantError(t, 400, strings.SplitN(q, "=", 2)[0])
		}
		// The older revision still reads as it was.
		var old revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+before.Revision, nil).WantStatus(t, 200).JSON(t, &old)
		if len(old.Pages) != 0 {
			t.Fatalf("old revision changed: %+v", old)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision+"/page/"+p.ID+"?format=document", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision+"/path/getting-started", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+before.Revision+"/page/"+p.ID, nil).WantError(t, 404, "page not found")

		// A reader may read content but not import.
		_, reader := s.Member(t, org, folio.RoleRead)
		s.Do(t, reader, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=markdown", nil).WantStatus(t, 200)
		s.Do(t, reader, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("x"))}).
			WantError(t, 403, "cannot edit")

		// Importing into the page replaces its document and keeps its place.
		importInto(t, s, admin, space, p.ID, "markdown", []byte("# Replaced\n\nNew body.\n"))
		var replaced pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+p.ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &replaced)
		if replaced.Title != "Getting started" || replaced.Markdown == nil || !strings.Contains(*replaced.Markdown, "New body.") ||
			strings.Contains(*replaced.Markdown, "Install") {
			t.Fatalf("page after page import %+v %v", replaced, replaced.Markdown)
		}
	})
}

func TestImportZipWithFiles(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Handbook")
		png := tinyPNG()
		archive := zipOf(t, map[string]string{
			"SUMMARY.md":               "# Summary\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n",
			"README.md":                "# Welcome\n\nStart with the [setup](guide/setup.md).\n",
			"guide/README.md":          "# Guide\n\nThe guide.\n",
			"guide/setup.md":           "# Setup\n\n![Logo](../.gitbook/assets/logo.png)\n",
			".gitbook/assets/logo.png": string(png),
			"notes.txt":                "plain text notes",
		})
		res := importInto(t, s, admin, space, "", "zip", archive)
		if res.ImportedResources != 5 { // three pages and two files
			t.Fatalf("import result %+v", res)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if len(rev.Pages) != 2 || rev.Pages[0].Title != "Welcome" || rev.Pages[1].Title != "Guide" ||
			len(rev.Pages[1].Pages) != 1 || rev.Pages[1].Pages[0].Title != "Setup" || rev.Pages[1].Pages[0].Path != "guide/setup" {
			t.Fatalf("tree %+v", rev.Pages)
		}
		if len(rev.Files) != 2 {
			t.Fatalf("files %+v", rev.Files)
		}
		f := rev.Files[0]
		if f.Name != "logo.png" {
			f = rev.Files[1]
		}
		// Files page by id.
		var page1, page2 struct {
			Count int
			Next  *struct{ Page string }
			Items []fileBody
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files?limit=1", nil).WantStatus(t, 200).JSON(t, &page1)
		if page1.Count != 2 || len(page1.Items) != 1 || page1.Next == nil {
			t.Fatalf("first page of files %+v", page1)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files?limit=1&page="+page1.Next.Page, nil).WantStatus(t, 200).JSON(t, &page2)
		if len(page2.Items) != 1 || page2.Next != nil || page2.Items[0].ID == page1.Items[0].ID {
			t.Fatalf("second page of files %+v", page2)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files?limit=1001", nil).WantError(t, 400, "limit")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files?page=bad", nil).WantError(t, 400, "page")
		if f.Name != "logo.png" || f.ContentType != "image/png" || f.Size != int64(len(png)) || f.Dimensions == nil ||
			f.Dimensions.Width != 1 || f.Dimensions.Height != 1 || !strings.HasPrefix(f.DownloadURL, apitest.PublicURL+"/v1/files/") {
			t.Fatalf("file %+v", f)
		}
		var one fileBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files/"+f.ID, nil).WantStatus(t, 200).JSON(t, &one)
		if one.ID != f.ID || one.DownloadURL != f.DownloadURL {
			t.Fatalf("file by id %+v", one)
		}

		// The signed URL serves the bytes without a token; a changed
		// signature or an expired URL does not.
		get := func(u string) *http.Response {
			t.Helper()
			resp, err := http.Get(s.URL + strings.TrimPrefix(u, apitest.PublicURL))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { resp.Body.Close() })
			return resp
		}
		resp := get(f.DownloadURL)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !bytes.Equal(body, png) || resp.Header.Get("Content-Type") != "image/png" ||
			resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("download: %d %q %v", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		u, _ := url.Parse(f.DownloadURL)
		q := u.Query()
		q.Set("name", "other.png")
		u.RawQuery = q.Encode()
		if resp := get(u.String()); resp.StatusCode != 404 {
			t.Fatalf("tampered URL answered %d", resp.StatusCode)
		}
		s.Clock.Set(time.Now().Add(3 * time.Hour))
		if resp := get(f.DownloadURL); resp.StatusCode != 404 {
			t.Fatalf("expired URL answered %d", resp.StatusCode)
		}

		// The page's link and image point at the page and the file.
		setup := rev.Pages[1].Pages[0]
		var sp pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+setup.ID+"?format=document", nil).WantStatus(t, 200).JSON(t, &sp)
		if !strings.Contains(string(mustJSON(t, sp.Document)), `"file":"`+f.ID+`"`) {
			t.Fatalf("setup document does not reference the file: %s", mustJSON(t, sp.Document))
		}
	})
}

func TestImportErrorsChangeNothing(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var before struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &before)
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/missing.md":
				http.NotFound(w, r)
			case "/big.md":
				w.Write(bytes.Repeat([]byte("a"), 11<<20))
			default:
				w.Write([]byte("# Remote page\n\nFetched over HTTP.\n"))
			}
		}))
		defer remote.Close()

		for _, tt := range []struct {
			name   string
			body   any
			status int
			msg    string
		}{
			{"no source", map[string]any{"url": "https://example.com/a.md"}, 400, "source is required"},
			{"unknown source", map[string]any{"source": "pdf", "url": "https://example.com/a.md"}, 400, "source must be one of markdown, html, zip or website ("},
			{"unsupported source", map[string]any{"source": "notion", "url": "https://example.com/a.md"}, 400, "not supported"},
			{"no url", map[string]any{"source": "markdown"}, 400, "url is required"},
			{"ftp url", map[string]any{"source": "markdown", "url": "ftp://example.com/a.md"}, 400, "url must be an absolute http"},
			{"relative url", map[string]any{"source": "markdown", "url": "/a.md"}, 400, "url must be an absolute http"},
			{"credentials in url", map[string]any{"source": "markdown", "url": "https://me:secret@example.com/a.md"}, 400, "credentials"},
			{"bad base64", map[string]any{"source": "markdown", "url": "data:text/markdown;base64,@@@"}, 400, "base64"},
			{"remote 404", map[string]any{"source": "markdown", "url": remote.URL + "/missing.md"}, 400, "answered HTTP 404"},
			{"too large", map[string]any{"source": "markdown", "url": remote.URL + "/big.md"}, 413, "larger than 10 MiB"},
			{"not a zip", map[string]any{"source": "zip", "url": dataURL("application/zip", []byte("nope"))}, 400, "zip"},
			{"source wrong type", map[string]any{"source": 3, "url": "https://example.com"}, 400, "source"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				s.DoUnchecked(t, admin, "POST", "/v1/spaces/"+space+"/content/import", tt.body).WantError(t, tt.status, tt.msg)
			})
		}
		var after struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &after)
		if after.Revision != before.Revision {
			t.Fatal("a failed import changed the space's revision")
		}
		// A good remote import works, and an unknown page or space is 404.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/page.md"}).WantStatus(t, 201)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/page/nope/import", map[string]any{"source": "markdown", "url": remote.URL + "/page.md"}).
			WantError(t, 404, "page not found")
		_, other := s.Org(t)
		s.Do(t, other, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/page.md"}).
			WantError(t, 404, "space not found")
		// A locked space refuses imports, even from its admin.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/page.md"}).
			WantError(t, 403, "locked")
	})
}

func TestImportRefusesPrivateAddressesByDefault(t *testing.T) {
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("# x")) }))
	defer remote.Close()
	c := app.NewImportClient(false)
	_, err := c.Get(remote.URL)
	if err == nil || !strings.Contains(err.Error(), "not public") {
		t.Fatalf("loopback fetch: %v", err)
	}
}

// tinyPNG is a valid 1×1 PNG.
func tinyPNG() []byte {
	b, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	return b
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImportAnswersOnceItsRevisionExists(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		started := make(chan struct{})
		release := make(chan struct{})
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(started)
			<-release
			w.Write([]byte("# Slow page\n\nIt took a while.\n"))
		}))
		defer remote.Close()
		go func() { <-started; time.Sleep(100 * time.Millisecond); close(release) }()
		var res importResult
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/slow.md"}).
			WantStatus(t, 201).JSON(t, &res)
		// The revision the answer names exists when the answer arrives.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil).WantStatus(t, 200)
		var sp struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &sp)
		if sp.Revision != res.Revision || res.ImportedResources != 1 {
			t.Fatalf("space revision %s, want %s; result %+v", sp.Revision, res.Revision, res)
		}
	})
}

func TestImportFromAStalledSourceAnswers400AndChangesNothing(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{ImportFetchTimeout: 300 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		stop := make(chan struct{})
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/silent.md" {
				<-stop // never sends headers
				return
			}
			w.Header().Set("Content-Length", "100000")
			w.WriteHeader(200)
			for { // trickles a byte at a time
				w.Write([]byte("a"))
				w.(http.Flusher).Flush()
				select {
				case <-stop:
					return
				case <-r.Context().Done():
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}))
		defer remote.Close()
		defer close(stop) // first: the handlers wait on it, and Close waits for them
		before := s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).Body
		for _, path := range []string{"/trickle.md", "/silent.md"} {
			s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + path}).
				WantError(t, 400, "fetching url timed out after 300ms")
		}
		if after := s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).Body; string(after) != string(before) {
			t.Fatalf("a failed import changed the space:\n%s\n%s", before, after)
		}
		var pages struct{ Pages []any }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		if len(pages.Pages) != 0 {
			t.Fatalf("pages after failed imports: %v", pages.Pages)
		}
	})
}

func TestImportJobOfAStoppedServerRunsAgain(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &me)
		// A server started this import and stopped: its job is claimed
		// but never finished.
		payload, _ := json.Marshal(map[string]any{"space": space, "url": dataURL("text/markdown", []byte("# Recovered\n\nBody.\n")),
			"source": "markdown", "user": me.ID, "revision": "recoveredrevision001"})
		err := s.DB.Write(ctx, func(tx *store.Tx) error {
			_, err := store.StartJob(ctx, tx, folio.JobImportContent, string(payload), 30*time.Minute)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 0 {
			t.Fatalf("a held job ran: %d %v", n, err)
		}
		s.Clock.Set(time.Now().Add(31 * time.Minute))
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 1 {
			t.Fatalf("RunDue = %d, %v", n, err)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != "recoveredrevision001" || len(rev.Pages) != 1 || rev.Pages[0].Title != "Recovered" {
			t.Fatalf("after recovery: %+v", rev)
		}
		// Running it once more changes nothing.
		s.Clock.Set(time.Now().Add(62 * time.Minute))
		s.Jobs.RunDue(ctx)
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != "recoveredrevision001" {
			t.Fatalf("the job ran twice: %s", rev.ID)
		}
	})
}

func TestDuplicateSpaceSharesContent(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Original")
		importInto(t, s, admin, space, "", "markdown", []byte("# Runbook\n\nRestart the frobnicator.\n"))
		var dup struct{ ID, Revision string }
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/duplicate", nil).WantStatus(t, 201).JSON(t, &dup)
		var a, b revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &a)
		s.Do(t, admin, "GET", "/v1/spaces/"+dup.ID+"/content", nil).WantStatus(t, 200).JSON(t, &b)
		if b.ID != dup.Revision || b.ID == a.ID || len(b.Pages) != 1 || b.Pages[0].ID != a.Pages[0].ID || b.Pages[0].Title != "Runbook" {
			t.Fatalf("copy's content %+v, original's %+v", b, a)
		}
		var l searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+dup.ID+"/search?query=frobnicator", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the copy is not searchable: %+v", l)
		}
		// Editing the copy leaves the original alone.
		importInto(t, s, admin, dup.ID, b.Pages[0].ID, "markdown", []byte("# X\n\nChanged.\n"))
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=frobnicator", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the original changed with its copy: %+v", l)
		}
	})
}

func TestImportThousandPageZip(t *testing.T) {
	archive := corpus.Zip(20, 49, 60, 7) // 20 folders of 49 pages and a README
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Big")
		res := importInto(t, s, admin, space, "", "zip", archive)
		if res.ImportedResources != 1000 {
			t.Fatalf("imported %d resources, want 1000", res.ImportedResources)
		}
		var pages struct {
			Pages []struct {
				Title string
				Pages []struct{ ID, Path string }
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		n := 0
		for _, p := range pages.Pages {
			n += 1 + len(p.Pages)
		}
		if len(pages.Pages) != 20 || n != 1000 {
			t.Fatalf("%d folders, %d pages", len(pages.Pages), n)
		}
		leaf := pages.Pages[7].Pages[11]
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/path/"+leaf.Path, nil).WantStatus(t, 200)
		var l searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query="+corpus.Word(50), nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count == 0 {
			t.Fatal("the imported pages are not searchable")
		}
	})
}

func TestConcurrentImportsBothLand(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Busy")
		const n = 6
		errs := make(chan error, n)
		for i := range n {
			go func() {
				body, _ := json.Marshal(map[string]any{"source": "markdown",
					"url": dataURL("text/markdown", fmt.Appendf(nil, "# Same title\n\nWritten concurrently (%d).\n", i))})
				req, _ := http.NewRequest("POST", s.URL+"/v1/spaces/"+space+"/content/import", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+admin)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode != 201 {
						err = fmt.Errorf("import %d: status %d", i, resp.StatusCode)
					}
				}
				errs <- err
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if len(rev.Pages) != n {
			t.Fatalf("%d pages after %d concurrent imports: %+v", len(rev.Pages), n, rev.Pages)
		}
		slugs := map[string]bool{}
		for _, p := range rev.Pages {
			slugs[p.Slug] = true
		}
		if len(slugs) != n {
			t.Fatalf("slugs are not unique: %v", slugs)
		}
		var l searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=concurrently", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != n {
			t.Fatalf("search finds %d of %d pages", l.Count, n)
		}
		checkStoredTree(t, s, space)
	})
}

// checkStoredTree loads the current tree of a space from the object store
// and checks that every page is stored under the hash of what it holds:
// slug renames on commit retries must never change a page already hashed.
func checkStoredTree(t *testing.T, s *apitest.Server, space string) {
	t.Helper()
	ctx := context.Background()
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		sp, err := store.GetSpace(ctx, tx, space)
		if err != nil {
			return err
		}
		rev, err := store.GetRevision(ctx, tx, space, sp.Revision)
		if err != nil {
			return err
		}
		root, err := content.ParseHash(rev.TreeHash)
		if err != nil {
			return err
		}
		tree, err := content.LoadTree(root, func(hs []content.Hash) (map[content.Hash][]byte, error) {
			keys := make([]string, len(hs))
			for i, h := range hs {
				keys[i] = h.String()
			}
			got, err := store.GetObjects(ctx, tx, keys)
			out := map[content.Hash][]byte{}
			for _, h := range hs {
				if o, ok := got[h.String()]; ok {
					out[h] = o.Data
				}
			}
			return out, err
		})
		if err != nil {
			return err
		}
		content.Walk(tree, func(n content.PageNode) bool {
			if fresh := n.Page.Clone(); fresh.Hash() != n.Page.Hash() {
				t.Errorf("page %s (slug %s) is stored under a hash that is not its content's", n.Page.ID, n.Page.Slug)
			}
			return true
		})
		if tree.Hash() != root {
			t.Errorf("tree stored under %s hashes to %s", root, tree.Hash())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileList is a page of GET .../files.
type fileList struct {
	Count int
	Next  *struct{ Page string }
	Items []fileBody
}

func TestRevisionAddressedReads(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Handbook")
		var before struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &before)
		png := tinyPNG()
		res := importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md":               "# Summary\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n",
			"README.md":                "# Welcome\n\n![Logo](.gitbook/assets/logo.png)\n",
			"guide.md":                 "# Guide\n\nThe guide.\n",
			".gitbook/assets/logo.png": string(png),
			"notes.txt":                "plain text notes",
		}))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil).WantStatus(t, 200).JSON(t, &rev)
		if len(rev.Files) != 2 {
			t.Fatalf("files of the import %+v", rev.Files)
		}
		logo := rev.Files[0]
		if logo.Name != "logo.png" {
			logo = rev.Files[1]
		}
		// A later revision must not change what the import's revision reads.
		importInto(t, s, admin, space, "", "markdown", []byte("# Later\n\nAdded after.\n"))
		oldBase := "/v1/spaces/" + space + "/revisions/" + before.Revision
		newBase := "/v1/spaces/" + space + "/revisions/" + res.Revision

		t.Run("pages", func(t *testing.T) {
			var old, cur struct{ Pages []pageBody }
			s.Do(t, admin, "GET", oldBase+"/pages", nil).WantStatus(t, 200).JSON(t, &old)
			if old.Pages == nil || len(old.Pages) != 0 {
				t.Fatalf("pages before the import %+v", old)
			}
			s.Do(t, admin, "GET", newBase+"/pages", nil).WantStatus(t, 200).JSON(t, &cur)
			if diff := cmp.Diff(rev.Pages, cur.Pages); diff != "" {
				t.Fatalf("pages of the revision differ from its revision read (-revision +pages):\n%s", diff)
			}
			var titles []string
			for _, p := range cur.Pages {
				titles = append(titles, p.Title)
			}
			if diff := cmp.Diff([]string{"Welcome", "Guide"}, titles); diff != "" {
				t.Fatalf("page titles (-want +got):\n%s", diff)
			}
		})
		t.Run("files", func(t *testing.T) {
			var old fileList
			r := s.Do(t, admin, "GET", oldBase+"/files", nil).WantStatus(t, 200)
			r.JSON(t, &old)
			if old.Count != 0 || old.Items == nil || len(old.Items) != 0 || old.Next != nil {
				t.Fatalf("files before the import: %s", r.Body)
			}
			var first, second fileList
			s.Do(t, admin, "GET", newBase+"/files?limit=1", nil).WantStatus(t, 200).JSON(t, &first)
			if first.Count != 2 || len(first.Items) != 1 || first.Next == nil || first.Next.Page == "" {
				t.Fatalf("first page of files %+v", first)
			}
			s.Do(t, admin, "GET", newBase+"/files?limit=1&page="+url.QueryEscape(first.Next.Page), nil).WantStatus(t, 200).JSON(t, &second)
			if second.Count != 2 || len(second.Items) != 1 || second.Next != nil {
				t.Fatalf("second page of files %+v", second)
			}
			got := []fileBody{first.Items[0], second.Items[0]}
			want := rev.Files
			if want[0].ID > want[1].ID {
				want = []fileBody{want[1], want[0]}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("paged files (-want +got):\n%s", diff)
			}
		})
		t.Run("file", func(t *testing.T) {
			s.Do(t, admin, "GET", oldBase+"/files/"+logo.ID, nil).WantError(t, 404, "file not found")
			var f fileBody
			s.Do(t, admin, "GET", newBase+"/files/"+logo.ID, nil).WantStatus(t, 200).JSON(t, &f)
			if diff := cmp.Diff(logo, f); diff != "" {
				t.Fatalf("file (-revision +file):\n%s", diff)
			}
			if f.Name != "logo.png" || f.ContentType != "image/png" || f.Size != int64(len(png)) || f.Dimensions == nil ||
				f.Dimensions.Width != 1 || f.Dimensions.Height != 1 || !strings.HasPrefix(f.DownloadURL, apitest.PublicURL+"/v1/files/") {
				t.Fatalf("file %+v", f)
			}
		})
		t.Run("errors", func(t *testing.T) {
			missing := "/v1/spaces/" + space + "/revisions/nope"
			for _, tt := range []struct {
				name, path string
				status     int
				msg        string
			}{
				{"pages/unknown revision", missing + "/pages", 404, "revision not found"},
				{"files/unknown revision", missing + "/files", 404, "revision not found"},
				{"file/unknown revision", missing + "/files/" + logo.ID, 404, "revision not found"},
				{"file/unknown file", newBase + "/files/nope", 404, "file not found"},
				{"files/limit too large", newBase + "/files?limit=1001", 400, "limit"},
				{"files/bad cursor", newBase + "/files?page=bad", 400, "page"},
				{"pages/bad metadata", newBase + "/pages?metadata=yes", 400, "metadata"},
				{"file/bad computed", newBase + "/files/" + logo.ID + "?computed=2", 400, "computed"},
			} {
				t.Run(tt.name, func(t *testing.T) {
					s.DoUnchecked(t, admin, "GET", tt.path, nil).WantError(t, tt.status, tt.msg)
				})
			}
			_, other := s.Org(t)
			s.Do(t, other, "GET", newBase+"/files", nil).WantError(t, 404, "space not found")
			s.Do(t, other, "GET", newBase+"/files/"+logo.ID, nil).WantError(t, 404, "space not found")
			s.Do(t, other, "GET", newBase+"/pages", nil).WantError(t, 404, "space not found")
		})
	})
}

func TestPageReadOptionsKeepTheDocument(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		res := importInto(t, s, admin, space, "", "markdown",
			[]byte("# Options\n\nSome **bold** text and [a link](https://example.com).\n\n- one\n- two\n"))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		page := "/v1/spaces/" + space + "/content/page/" + rev.Pages[0].ID
		// The reference types evaluated as a boolean or "deterministic-only";
		// its validator cannot decode such a query parameter ("true" fails
		// both), so the reads with options are not checked against it.
		read := func(t *testing.T, path string, checked bool) any {
			t.Helper()
			var v any
			if checked {
				s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &v)
			} else {
				s.DoUnchecked(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &v)
			}
			return v
		}
		for _, base := range []string{page, "/v1/spaces/" + space + "/revisions/" + res.Revision + "/page/" + rev.Pages[0].ID} {
			for _, format := range []string{"document", "markdown", ""} {
				q := "?format=" + format
				if format == "" {
					q = "?"
				}
				want := read(t, base+q, true)
				for _, opt := range []string{"evaluated=true", "evaluated=false", "evaluated=deterministic-only",
					"dereferenced=true", "dereferenced=false", "dereferenced=reusable-contents",
					"evaluated=deterministic-only&dereferenced=reusable-contents"} {
					t.Run(format+"/"+opt, func(t *testing.T) {
						if diff := cmp.Diff(want, read(t, base+q+"&"+opt, false)); diff != "" {
							t.Fatalf("%s changed the page (-without +with):\n%s", opt, diff)
						}
					})
				}
			}
		}
		// The baseline holds the body, so the comparisons above compare it.
		var md pageBody
		s.DoUnchecked(t, admin, "GET", page+"?format=markdown&evaluated=true&dereferenced=reusable-contents", nil).WantStatus(t, 200).JSON(t, &md)
		if md.Markdown == nil || !strings.Contains(*md.Markdown, "**bold**") || !strings.Contains(*md.Markdown, "* two") {
			t.Fatalf("markdown %v", md.Markdown)
		}
	})
}

func TestImportHTML(t *testing.T) {
	const doc = `<!DOCTYPE html><html><head><title>Browser title</title></head><body>
<h1>Release notes</h1>
<p>This release is <b>bold</b> and fast.</p>
<ul><li>First item</li><li>Second item</li></ul>
</body></html>`
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/docs/notes.html" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(doc))
		}))
		defer site.Close()
		org, admin := s.Org(t)
		for _, tt := range []struct{ source, url string }{
			{"html", dataURL("text/html", []byte(doc))},
			{"website", site.URL + "/docs/notes.html"},
		} {
			t.Run(tt.source, func(t *testing.T) {
				space := newSpace(t, s, admin, org, "Imported "+tt.source)
				var res importResult
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": tt.source, "url": tt.url}).
					WantStatus(t, 201).JSON(t, &res)
				if res.ImportedResources != 1 || res.TotalResources != 1 || res.Revision == "" {
					t.Fatalf("import result %+v", res)
				}
				var rev revisionBody
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
				if rev.ID != res.Revision || len(rev.Pages) != 1 {
					t.Fatalf("revision after import %+v", rev)
				}
				var p pageBody
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+rev.Pages[0].ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
				if p.Title != "Release notes" || p.Slug != "release-notes" || p.Markdown == nil {
					t.Fatalf("page %+v", p)
				}
				md := *p.Markdown
				for _, want := range []string{"This release is **bold** and fast.", "* First item\n", "* Second item\n"} {
					if !strings.Contains(md, want) {
						t.Errorf("markdown %q does not hold %q", md, want)
					}
				}
				// The heading became the title and left the body.
				if strings.Contains(md, "Release notes") || strings.Contains(md, "Browser title") {
					t.Errorf("markdown %q still holds the title", md)
				}
			})
		}
		space := newSpace(t, s, admin, org, "Missing")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "website", "url": site.URL + "/gone.html"}).
			WantError(t, 400, "answered HTTP 404")
	})
}

// currentRevision returns the id of a space's current revision.
func currentRevision(t testing.TB, s *apitest.Server, token, space string) string {
	t.Helper()
	var rev revisionBody
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
	return rev.ID
}

func TestPageImport(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [First](first.md)\n* [Middle](middle.md)\n* [Last](last.md)\n",
			"first.md":   "# First\n\nThe first page.\n",
			"middle.md":  "# Middle\n\nThe middle page.\n",
			"last.md":    "# Last\n\nThe last page.\n",
		}))
		var before struct{ Pages []pageBody }
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &before)
		if len(before.Pages) != 3 || before.Pages[1].Title != "Middle" {
			t.Fatalf("pages %+v", before.Pages)
		}
		middle := before.Pages[1].ID
		pageImport := "/v1/spaces/" + space + "/content/page/" + middle + "/import"
		md := map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte("# New\n\nNew body.\n"))}

		t.Run("errors change nothing", func(t *testing.T) {
			rev := currentRevision(t, s, admin, space)
			_, reader := s.Member(t, org, folio.RoleRead)
			for _, tt := range []struct {
				name   string
				token  string
				body   any
				status int
				msg    string
			}{
				{"reader", reader, md, 403, "cannot edit"},
				{"bad url", admin, map[string]any{"source": "markdown", "url": "ftp://example.com/a.md"}, 400, "url must be an absolute http"},
				{"bad data", admin, map[string]any{"source": "markdown", "url": "data:text/markdown;base64,@@@"}, 400, "base64"},
				{"not a zip", admin, map[string]any{"source": "zip", "url": dataURL("application/zip", []byte("nope"))}, 400, "zip"},
			} {
				t.Run(tt.name, func(t *testing.T) {
					s.DoUnchecked(t, tt.token, "POST", pageImport, tt.body).WantError(t, tt.status, tt.msg)
					if got := currentRevision(t, s, admin, space); got != rev {
						t.Fatalf("a failed page import moved the revision from %s to %s", rev, got)
					}
				})
			}
		})

		t.Run("zip", func(t *testing.T) {
			importInto(t, s, admin, space, middle, "zip", zipOf(t, map[string]string{
				"SUMMARY.md": "# Summary\n\n* [Alpha](alpha.md)\n* [Beta](beta.md)\n  * [Gamma](gamma.md)\n",
				"alpha.md":   "# Alpha\n\nAlpha body.\n",
				"beta.md":    "# Beta\n\nBeta body.\n",
				"gamma.md":   "# Gamma\n\nGamma body.\n",
			}))
			var after struct{ Pages []pageBody }
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &after)
			if len(after.Pages) != 3 {
				t.Fatalf("top level after the page import %+v", after.Pages)
			}
			// The siblings are untouched.
			if diff := cmp.Diff(before.Pages[0], after.Pages[0]); diff != "" {
				t.Errorf("first sibling changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(before.Pages[2], after.Pages[2]); diff != "" {
				t.Errorf("last sibling changed (-before +after):\n%s", diff)
			}
			// The page keeps its place and title; the zip's first page gives
			// its document and the others go under it.
			m := after.Pages[1]
			if m.ID != middle || m.Title != "Middle" || len(m.Pages) != 1 || m.Pages[0].Title != "Beta" ||
				m.Pages[0].Path != "middle/beta" || len(m.Pages[0].Pages) != 1 || m.Pages[0].Pages[0].Title != "Gamma" ||
				m.Pages[0].Pages[0].Path != "middle/beta/gamma" {
				t.Fatalf("page after the zip import %+v", m)
			}
			var p pageBody
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+middle+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
			if p.Markdown == nil || !strings.Contains(*p.Markdown, "Alpha body.") || strings.Contains(*p.Markdown, "The middle page.") {
				t.Fatalf("page body after the zip import %v", p.Markdown)
			}
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/path/middle/beta/gamma?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
			if p.Title != "Gamma" || p.Markdown == nil || !strings.Contains(*p.Markdown, "Gamma body.") {
				t.Fatalf("nested page %+v %v", p, p.Markdown)
			}
		})

		t.Run("locked", func(t *testing.T) {
			rev := currentRevision(t, s, admin, space)
			s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
			s.Do(t, admin, "POST", pageImport, md).WantError(t, 403, "locked")
			if got := currentRevision(t, s, admin, space); got != rev {
				t.Fatalf("an import into a locked space moved the revision from %s to %s", rev, got)
			}
		})
	})
}

func TestPageImportFillsTheBlankTemplate(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Fresh")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/template", map[string]any{"id": "blank"}).WantStatus(t, 204)
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if len(rev.Pages) != 1 || rev.Pages[0].Type != "document" {
			t.Fatalf("blank template %+v", rev.Pages)
		}
		blank := rev.Pages[0]
		var empty pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+blank.ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &empty)
		if empty.Markdown != nil && strings.TrimSpace(*empty.Markdown) != "" {
			t.Fatalf("the blank page is not empty: %q", *empty.Markdown)
		}
		res := importInto(t, s, admin, space, blank.ID, "markdown", []byte("# Ignored title\n\nFilled **in**.\n\n## Next steps\n\nWrite more.\n"))
		if res.ImportedResources != 1 {
			t.Fatalf("import result %+v", res)
		}
		var after revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &after)
		if after.ID != res.Revision || len(after.Pages) != 1 || after.Pages[0].ID != blank.ID || after.Pages[0].Title != blank.Title ||
			len(after.Pages[0].Pages) != 0 {
			t.Fatalf("content after filling the blank page %+v", after.Pages)
		}
		var p pageBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+blank.ID+"?format=markdown", nil).WantStatus(t, 200).JSON(t, &p)
		if p.Markdown == nil || !strings.Contains(*p.Markdown, "Filled **in**.") || !strings.Contains(*p.Markdown, "## Next steps") {
			t.Fatalf("filled page %v", p.Markdown)
		}
	})
}

func TestImportFetchTimeLimit(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{ImportFetchTimeout: 200 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		release := make(chan struct{})
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/partial.md" {
				w.Header().Set("Content-Type", "text/markdown")
				w.WriteHeader(200)
				w.Write([]byte("# Half a page\n\n"))
				w.(http.Flusher).Flush()
			}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		// Cleanups run last first: the stalled handlers return before the
		// server waits for them to close.
		t.Cleanup(remote.Close)
		t.Cleanup(func() { close(release) })
		rev := currentRevision(t, s, admin, space)
		for _, tt := range []struct{ name, path string }{
			{"no answer", "/silent.md"},
			{"stalled body", "/partial.md"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				start := time.Now()
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + tt.path}).
					WantError(t, 400, "timed out")
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("the import answered after %s", d)
				}
				if got := currentRevision(t, s, admin, space); got != rev {
					t.Fatalf("a timed-out import moved the revision from %s to %s", rev, got)
				}
			})
		}
	})
}
