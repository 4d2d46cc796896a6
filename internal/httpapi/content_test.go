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
	if want := apitest.PublicURL + "/v1/spaces/" + space + "/revisions/" + res.Revision; r.Header.Get("Location") != want {
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
			{"unknown source", map[string]any{"source": "pdf", "url": "https://example.com/a.md"}, 400, "source must be one of"},
			{"unsupported source", map[string]any{"source": "notion", "url": "https://example.com/a.md"}, 400, "not supported"},
			{"no url", map[string]any{"source": "markdown"}, 400, "url is required"},
			{"ftp url", map[string]any{"source": "markdown", "url": "ftp://example.com/a.md"}, 400, "url must be an absolute http"},
			{"relative url", map[string]any{"source": "markdown", "url": "/a.md"}, 400, "url must be an absolute http"},
			{"credentials in url", map[string]any{"source": "markdown", "url": "https://me:secret@example.com/a.md"}, 400, "credentials"},
			{"bad base64", map[string]any{"source": "markdown", "url": "data:text/markdown;base64,@@@"}, 400, "base64"},
			{"remote 404", map[string]any{"source": "markdown", "url": remote.URL + "/missing.md"}, 400, "answered HTTP 404"},
			{"too large", map[string]any{"source": "markdown", "url": remote.URL + "/big.md"}, 413, "larger than 10 MiB"},
			{"not a zip", map[string]any{"source": "zip", "url": dataURL("application/zip", []byte("nope"))}, 400, "zip"},
			{"not utf-8", map[string]any{"source": "markdown", "url": dataURL("text/markdown", []byte{0xff, 0xfe, 'a'})}, 400, "UTF-8"},
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

func TestLongImportFinishesInTheBackground(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{ImportWait: time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		release := make(chan struct{})
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-release
			w.Write([]byte("# Slow page\n\nIt took a while.\n"))
		}))
		defer remote.Close()
		var res importResult
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "url": remote.URL + "/slow.md"}).
			WantStatus(t, 201).JSON(t, &res)
		// The revision is announced before it exists.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil).WantError(t, 404, "revision not found")
		close(release)
		deadline := time.Now().Add(10 * time.Second)
		for {
			r := s.DoUnchecked(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+res.Revision, nil)
			if r.Status == 200 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the background import did not finish: %d %s", r.Status, r.Body)
			}
			time.Sleep(20 * time.Millisecond)
		}
		var sp struct{ Revision string }
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).JSON(t, &sp)
		if sp.Revision != res.Revision {
			t.Fatalf("space revision %s, want %s", sp.Revision, res.Revision)
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
