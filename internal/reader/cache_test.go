package reader_test

import (
	"compress/gzip"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/reader"
	"github.com/prometheus/client_golang/prometheus"
)

// serve answers a reader request through h, in process.
func serve(t *testing.T, h http.Handler, path string, cookies ...*http.Cookie) page {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return page{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// counter reads a counter of the reader's cache metrics.
func counter(t *testing.T, h *reader.Handler, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(h)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			m := f.GetMetric()[0]
			if m.Counter != nil {
				return m.Counter.GetValue()
			}
			return m.Gauge.GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// TestCacheSameBytes: a page served from the cache is byte for byte the
// page rendered afresh (nested navigation, breadcrumbs, previous/next,
// highlighted code, signed image URLs), and the signed URLs follow the
// clock's hour window instead of being frozen in the cache.
func TestCacheSameBytes(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		s.Clock.Set(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
		f := newFixture(t, s, "", map[string]any{})
		png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
		archive := zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Intro](README.md)\n* [Setup](setup/README.md)\n  * [Install](setup/install.md)\n* [FAQ](faq.md)\n",
			"README.md":  guide, "setup/README.md": "# Setup\n\nSee [install](install.md).\n\n![A dot](../dot.png)\n",
			"setup/install.md": "# Install\n\n## Steps\n\nRun it.\n", "faq.md": "# FAQ\n\nAsk.\n", "dot.png": png,
		})
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
			map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
		f.publish(t)
		cached := reader.New(s.App, apitest.PublicURL, nil)
		fresh := reader.New(s.App, apitest.PublicURL, nil)
		fresh.SetCacheBytes(0)
		base := "/sites/" + f.site
		paths := []string{base + "/", base + "/setup", base + "/setup/install", base + "/faq"}
		check := func() {
			t.Helper()
			for _, p := range paths {
				a, b, c := serve(t, cached, p), serve(t, cached, p), serve(t, fresh, p)
				if a.status != 200 || a.body != b.body || a.body != c.body {
					t.Fatalf("%s: %d; the cached page differs from the fresh one:\n%s\n---\n%s", p, a.status, b.body, c.body)
				}
			}
		}
		check()
		if hits, misses := counter(t, cached, "folio_reader_cache_hits_total"), counter(t, cached, "folio_reader_cache_misses_total"); hits != 4 || misses != 4 {
			t.Fatalf("%v hits and %v misses, want 4 and 4", hits, misses)
		}
		// Each page is kept once, as this visitor sees it, beside a stub of
		// its parts (the OpenAPI versions its key carries): other visitors'
		// views of it render the parts again.
		if n := counter(t, cached, "folio_reader_cache_entries"); n != 8 {
			t.Fatalf("%v entries, want 8", n)
		}
		// Whole pages are kept per visitor's view: a theme chosen by one
		// visitor is never served to another, nor the reverse.
		dark := &http.Cookie{Name: reader.ThemeCookie, Value: "dark"}
		for range 2 {
			serve(t, cached, base+"/faq", dark).want(t, 200, `<html lang="en" data-theme="dark">`)
			if p := serve(t, cached, base+"/faq"); !strings.Contains(p.body, `<html lang="en" data-theme="light">`) {
				t.Fatal("a visitor without a theme cookie got another visitor's dark page")
			}
		}
		// A browser that accepts gzip gets the cached copy as the cache
		// holds it, compressed, and the same page once inflated; every
		// answer says it varies with Accept-Encoding.
		for _, p := range paths {
			plain := serve(t, cached, p)
			req := httptest.NewRequest("GET", p, nil)
			req.Header.Set("Accept-Encoding", "br, gzip;q=0.8")
			rec := httptest.NewRecorder()
			cached.ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" ||
				plain.header.Get("Vary") != "Accept-Encoding" || plain.header.Get("Content-Encoding") != "" {
				t.Fatalf("%s: %d, encoding %q, vary %q / %q", p, rec.Code, rec.Header().Get("Content-Encoding"),
					rec.Header().Get("Vary"), plain.header.Get("Vary"))
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			if b, err := io.ReadAll(zr); err != nil || string(b) != plain.body || rec.Body.Len() > len(b)/2 {
				t.Fatalf("%s: the gzip answer (%d bytes) is not the page (%d bytes) compressed: %v", p, rec.Body.Len(), len(b), err)
			}
		}
		before := serve(t, cached, base+"/setup").want(t, 200, `alt="A dot"`, `<h1>Setup</h1>`, `href="`+base+`/setup/install"`)
		// Two hours later the signed URLs are new ones, cached or not.
		s.Clock.Advance(2 * time.Hour)
		check()
		if after := serve(t, cached, base+"/setup"); after.body == before.body {
			t.Fatal("the signed image URL did not change with the clock's window")
		}
	})
}

// TestCacheNeverStale: what is not in the revision (the customization,
// the site spaces a visitor may see and their paths) and the revision
// itself are seen at once by a reader whose cache holds the pages.
func TestCacheNeverStale(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		api := f.newSpace(t, "API", "")
		archive := zipOf(t, map[string]string{"README.md": "# Endpoints\n\nGET things.\n", "errors.md": "# Errors\n\nSee [endpoints](README.md).\n"})
		s.Do(t, f.admin, "POST", "/v1/spaces/"+api+"/content/import",
			map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
		var ssB struct{ ID, Path string }
		s.Do(t, f.admin, "POST", f.siteAPI+"/site-spaces", map[string]any{"spaceId": api}).WantStatus(t, 201).JSON(t, &ssB)
		f.publish(t)
		base := "/sites/" + f.site
		ssA := f.siteSpace(t)
		serve := func(path string) page { return get(t, s, nil, "", path) } // the server's reader, cache on
		serve(base+"/").want(t, 200, "<h1>Welcome</h1>", "<title>Welcome | Docs</title>", `href="`+base+`/`+ssB.Path+`/">API</a>`)
		serve(base+"/"+ssB.Path+"/errors").want(t, 200, "<h1>Errors</h1>", `href="`+base+`/`+ssB.Path+`/endpoints"`)

		// A new revision: the edited page is served new at once.
		var pages struct{ Pages []struct{ ID string } }
		s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/page/"+pages.Pages[0].ID+"/import",
			map[string]any{"source": "markdown", "url": dataURL("text/markdown", "# Welcome\n\nRewritten text.\n")}).WantStatus(t, 201)
		if p := serve(base+"/").want(t, 200, "Rewritten text."); strings.Contains(p.body, "<strong>bold</strong>") {
			t.Fatal("the old revision's page was served")
		}

		// The customization.
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ssA+"/customization", map[string]any{"title": "Handbook"}).WantStatus(t, 200)
		serve(base+"/").want(t, 200, "<title>Welcome | Handbook</title>")

		// The site space's path, which every cached link carries.
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ssB.ID, map[string]any{"path": "reference"}).WantStatus(t, 200)
		serve(base+"/reference/errors").want(t, 200, `href="`+base+`/reference/endpoints"`, "<h1>Errors</h1>")
		if p := serve(base + "/reference/errors"); strings.Contains(p.body, base+"/"+ssB.Path+"/") {
			t.Fatal("a link carries the old path of the site space")
		}
		serve(base+"/"+ssB.Path+"/errors").want(t, 404)

		// The space's title (the site-space links) and the site's title.
		s.Do(t, f.admin, "PATCH", "/v1/spaces/"+api, map[string]any{"title": "Reference"}).WantStatus(t, 200)
		serve(base+"/").want(t, 200, `href="`+base+`/reference/">Reference</a>`)
		s.Do(t, f.admin, "DELETE", f.siteAPI+"/site-spaces/"+ssA+"/customization", nil).WantStatus(t, 204)
		s.Do(t, f.admin, "PATCH", f.siteAPI, map[string]any{"title": "Manual"}).WantStatus(t, 200)
		serve(base+"/").want(t, 200, "<title>Welcome | Manual</title>")

		// A site space the visitor may no longer see: gone from the others'
		// pages, and its own pages answer 404.
		s.Do(t, f.admin, "PUT", f.siteAPI+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
			"type": "object", "additionalProperties": false,
			"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "In the beta"}},
		}}).WantStatus(t, 200)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ssB.ID, map[string]any{"condition": "visitor.claims.beta == true"}).WantStatus(t, 200)
		if p := serve(base+"/").want(t, 200, "Rewritten text."); strings.Contains(p.body, ">API</a>") {
			t.Fatal("a page lists a site space the visitor may not see")
		}
		serve(base+"/reference/errors").want(t, 404)

		// An unpublished site.
		s.Do(t, f.admin, "POST", f.siteAPI+"/unpublish", nil).WantStatus(t, 200)
		serve(base+"/").want(t, 404)
	})
}

// TestCacheShareKeyRevoked: a share-link page in the cache is not served
// once its key is revoked, nor to a visitor without the key.
func TestCacheShareKeyRevoked(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{"visibility": "share-link"})
		f.publish(t)
		var link struct {
			ID   string
			URLs struct{ Published string }
		}
		s.Do(t, f.admin, "POST", f.siteAPI+"/share-links", map[string]any{"name": "Partners"}).WantStatus(t, 201).JSON(t, &link)
		_, key, _ := strings.Cut(link.URLs.Published, "?shareKey=")
		h := reader.New(s.App, apitest.PublicURL, nil)
		path := "/sites/" + f.site + "/welcome"
		withKey := &http.Cookie{Name: reader.ShareCookie, Value: key}
		serve(t, h, path, withKey).want(t, 200, "<h1>Welcome</h1>")
		serve(t, h, path, withKey).want(t, 200, "<h1>Welcome</h1>")
		if hits := counter(t, h, "folio_reader_cache_hits_total"); hits != 1 {
			t.Fatalf("%v cache hits, want 1", hits)
		}
		serve(t, h, path).want(t, 404)
		serve(t, h, path, &http.Cookie{Name: reader.ShareCookie, Value: key + "x"}).want(t, 404)
		s.Do(t, f.admin, "DELETE", f.siteAPI+"/share-links/"+link.ID, nil).WantStatus(t, 204)
		if p := serve(t, h, path, withKey).want(t, 404); strings.Contains(p.body, "Welcome") {
			t.Fatal("a revoked key was served the cached page")
		}
	})
}

// TestSiteChangesReachOtherServers: the reader keeps a site's row for a
// moment between queries. Its own server's changes show at once; another
// server sharing the database sees them within a second or so.
func TestSiteChangesReachOtherServers(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		here := reader.New(s.App, apitest.PublicURL, nil)
		there := reader.New(app.New(app.Config{DB: s.OpenDB(t), Clock: s.Clock, PublicURL: apitest.PublicURL}), apitest.PublicURL, nil)
		path := "/sites/" + f.site + "/welcome"
		serve(t, here, path).want(t, 200, "<title>Welcome | Docs</title>")
		serve(t, there, path).want(t, 200, "<title>Welcome | Docs</title>")

		s.Do(t, f.admin, "PATCH", f.siteAPI, map[string]any{"title": "Manual"}).WantStatus(t, 200)
		serve(t, here, path).want(t, 200, "<title>Welcome | Manual</title>")
		eventually(t, func() bool { return strings.Contains(serve(t, there, path).body, "<title>Welcome | Manual</title>") })

		s.Do(t, f.admin, "POST", f.siteAPI+"/unpublish", nil).WantStatus(t, 200)
		serve(t, here, path).want(t, 404)
		eventually(t, func() bool { return serve(t, there, path).status == 404 })
	})
}

// eventually waits, for at most five seconds, until ok holds.
func eventually(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the other server still serves the old state after 5 s")
		}
	}
}
