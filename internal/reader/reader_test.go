package reader_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// fixture is a published site over one space with imported Markdown.
type fixture struct {
	s          *apitest.Server
	org, admin string
	space      string
	site       string
	siteAPI    string
}

func dataURL(ct, body string) string {
	return "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString([]byte(body))
}

// newFixture makes a space holding markdown and a site publishing it
// with the given site fields; the site is not yet published.
func newFixture(t *testing.T, s *apitest.Server, markdown string, site map[string]any) *fixture {
	t.Helper()
	f := &fixture{s: s}
	f.org, f.admin = s.Org(t)
	f.space = f.newSpace(t, "Guide", markdown)
	site["spaces"] = []string{f.space}
	if site["title"] == nil {
		site["title"] = "Docs"
	}
	var st struct{ ID string }
	s.Do(t, f.admin, "POST", "/v1/orgs/"+f.org+"/sites", site).WantStatus(t, 201).JSON(t, &st)
	f.site = st.ID
	f.siteAPI = "/v1/orgs/" + f.org + "/sites/" + st.ID
	return f
}

func (f *fixture) newSpace(t *testing.T, title, markdown string) string {
	t.Helper()
	var sp struct{ ID string }
	f.s.Do(t, f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": title}).WantStatus(t, 201).JSON(t, &sp)
	if markdown != "" {
		f.s.Do(t, f.admin, "POST", "/v1/spaces/"+sp.ID+"/content/import",
			map[string]any{"source": "markdown", "url": dataURL("text/markdown", markdown)}).WantStatus(t, 201)
	}
	return sp.ID
}

func (f *fixture) publish(t *testing.T) {
	t.Helper()
	f.s.Do(t, f.admin, "POST", f.siteAPI+"/publish", nil).WantStatus(t, 200)
}

// page is a reader answer.
type page struct {
	status int
	header http.Header
	body   string
}

// get fetches a reader URL (a path on the test server) with an optional
// Host, without following redirects.
func get(t *testing.T, s *apitest.Server, client *http.Client, host, path string) page {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if client == nil {
		client = &http.Client{}
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return page{status: res.StatusCode, header: res.Header, body: string(b)}
}

func (p page) want(t *testing.T, status int, contains ...string) page {
	t.Helper()
	if p.status != status {
		t.Fatalf("status %d, want %d:\n%s", p.status, status, p.body)
	}
	for _, c := range contains {
		if !strings.Contains(p.body, c) {
			t.Fatalf("body lacks %q:\n%s", c, p.body)
		}
	}
	return p
}

const guide = `# Welcome

Some **bold**, *italic*, ` + "`code`" + ` and ~~gone~~ text with [a link](https://example.com/x).

## Install steps

- [x] done
- [ ] todo

` + "```go\nfunc main() { fmt.Println(\"<hi>\") }\n```" + `

| Name | Value |
| ---- | ----- |
| a    | 1     |
`

// TestRoutingByPath serves a published public site under /sites/{id},
// with 404s for an unpublished site, an unknown page and a space that is
// not in the site.
func TestRoutingByPath(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		base := "/sites/" + f.site
		get(t, s, nil, "", base+"/").want(t, 404, "Page not found")
		f.publish(t)
		p := get(t, s, nil, "", base+"/").want(t, 200, "<title>Welcome | Docs</title>", "<strong>bold</strong>",
			"<em>italic</em>", "<code>code</code>", "<s>gone</s>", `href="https://example.com/x"`,
			`id="install-steps"`, `type="checkbox" disabled checked`, `<table>`, `<td><p>a</p>`,
			`href="#install-steps"`, `rel="canonical"`)
		if !strings.Contains(p.body, "&lt;hi&gt;") || strings.Contains(p.body, "<hi>") {
			t.Fatalf("code not escaped:\n%s", p.body)
		}
		if strings.Contains(p.body, "noindex") {
			t.Fatal("a public site is noindex")
		}
		get(t, s, nil, "", base+"/welcome").want(t, 200, "<h1>Welcome</h1>")
		get(t, s, nil, "", base+"/nope").want(t, 404, "Page not found")
		get(t, s, nil, "", "/sites/unknown/").want(t, 404)
		other := f.newSpace(t, "Other", "# Elsewhere\n")
		get(t, s, nil, "", base+"/other").want(t, 404)
		get(t, s, nil, "", base+"/"+other).want(t, 404)
		// The API is untouched.
		s.Do(t, "", "GET", "/v1/nope", nil).WantStatus(t, 404)
		f.s.Do(t, f.admin, "POST", f.siteAPI+"/unpublish", nil).WantStatus(t, 200)
		get(t, s, nil, "", base+"/").want(t, 404)
	})
}

// siteSpace returns the id of the site's first site space.
func (f *fixture) siteSpace(t *testing.T) string {
	t.Helper()
	var l struct{ Items []struct{ ID string } }
	f.s.Do(t, f.admin, "GET", f.siteAPI+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &l)
	if len(l.Items) == 0 {
		t.Fatal("no site space")
	}
	return l.Items[0].ID
}

// TestRoutingByHost serves a site on its custom hostname under its
// basename, and leaves the API and other hosts alone.
func TestRoutingByHost(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		s.Do(t, f.admin, "PATCH", f.siteAPI, map[string]any{"hostname": "docs.example.com", "basename": "guide"}).WantStatus(t, 200)
		// Unpublished: the host is the site's, so the reader answers 404.
		get(t, s, nil, "docs.example.com", "/guide/").want(t, 404, "Page not found")
		f.publish(t)
		get(t, s, nil, "docs.example.com", "/guide/").want(t, 200, "<h1>Welcome</h1>",
			`<link rel="canonical" href="https://docs.example.com/guide/welcome">`)
		get(t, s, nil, "docs.example.com:8080", "/guide/welcome").want(t, 200, "<h1>Welcome</h1>")
		get(t, s, nil, "docs.example.com", "/").want(t, 404)
		get(t, s, nil, "docs.example.com", "/guidebook").want(t, 404)
		// A site with its own hostname is served there only.
		get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 404)
		get(t, s, nil, "other.example.com", "/guide/").want(t, 404)
		if p := get(t, s, nil, "other.example.com", "/guide/"); strings.Contains(p.body, "<html") {
			t.Fatalf("an unknown host got a reader page:\n%s", p.body)
		}
		// The API answers on the site's host too.
		if p := get(t, s, nil, "docs.example.com", "/v1/orgs/"+f.org); p.status != 401 {
			t.Fatalf("API on the site's host: %d %s", p.status, p.body)
		}
	})
}

// TestShareLink opens a share-link site with a key, keeps it in a cookie,
// and closes it as soon as the key is revoked.
func TestShareLink(t *testing.T) {
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
		base := "/sites/" + f.site
		get(t, s, nil, "", base+"/").want(t, 404)
		get(t, s, nil, "", base+"/?share=wrong").want(t, 404)
		p := get(t, s, nil, "", base+"/?share="+key).want(t, 200, "<h1>Welcome</h1>", `<meta name="robots" content="noindex">`)
		cookie := p.header.Get("Set-Cookie")
		for _, want := range []string{"folio_share=" + key, "HttpOnly", "Path=" + base + "/", "SameSite=Lax"} {
			if !strings.Contains(cookie, want) {
				t.Fatalf("cookie %q lacks %q", cookie, want)
			}
		}
		// The cookie alone opens the next pages.
		withCookie := func(path string) page {
			req, _ := http.NewRequest("GET", s.URL+path, nil)
			req.AddCookie(&http.Cookie{Name: "folio_share", Value: key})
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return page{status: res.StatusCode, header: res.Header, body: string(b)}
		}
		withCookie(base+"/welcome").want(t, 200, "<h1>Welcome</h1>")
		// The reference's ?shareKey= works too.
		get(t, s, nil, "", base+"/?shareKey="+key).want(t, 200)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/share-links/"+link.ID, map[string]any{"active": false}).WantStatus(t, 200)
		withCookie(base+"/welcome").want(t, 404)
		get(t, s, nil, "", base+"/?share="+key).want(t, 404)
	})
}

// TestSitemapRobotsNoindex: public sites serve sitemap.xml and robots.txt;
// unlisted ones carry noindex and have no sitemap.
func TestSitemapRobotsNoindex(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		base := "/sites/" + f.site
		p := get(t, s, nil, "", base+"/sitemap.xml").want(t, 200, "<urlset", "<loc>"+apitest.PublicURL+base+"/welcome</loc>")
		if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") {
			t.Fatalf("sitemap content type %q", ct)
		}
		get(t, s, nil, "", base+"/robots.txt").want(t, 200, "Allow: /", "Sitemap: "+apitest.PublicURL+base+"/sitemap.xml")

		u := newFixture(t, s, guide, map[string]any{"visibility": "unlisted"})
		u.publish(t)
		ubase := "/sites/" + u.site
		get(t, s, nil, "", ubase+"/").want(t, 200, `<meta name="robots" content="noindex">`)
		get(t, s, nil, "", ubase+"/sitemap.xml").want(t, 404)
		get(t, s, nil, "", ubase+"/robots.txt").want(t, 200, "Disallow: /")
	})
}

// TestRedirects: a path that is a redirect's source answers 302 to its
// destination.
func TestRedirects(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		ss := f.siteSpace(t)
		var rev struct{ Pages []struct{ ID string } }
		s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		s.Do(t, f.admin, "POST", f.siteAPI+"/redirects", map[string]any{"source": "/old",
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}).WantStatus(t, 201)
		s.Do(t, f.admin, "POST", f.siteAPI+"/redirects", map[string]any{"source": "/old/page",
			"destination": map[string]any{"kind": "site-page", "siteSpaceId": ss, "pageId": rev.Pages[0].ID}}).WantStatus(t, 201)
		base := "/sites/" + f.site
		if p := get(t, s, nil, "", base+"/old"); p.status != 302 || p.header.Get("Location") != base+"/" {
			t.Fatalf("redirect: %d %q", p.status, p.header.Get("Location"))
		}
		if p := get(t, s, nil, "", base+"/old/page"); p.status != 302 || p.header.Get("Location") != base+"/welcome" {
			t.Fatalf("page redirect: %d %q", p.status, p.header.Get("Location"))
		}
		get(t, s, nil, "", base+"/older").want(t, 404)
	})
}

// TestHostileContent: markup in a page title, a customization's title,
// header links and footer, and javascript: URLs produce no script and no
// javascript: link.
func TestHostileContent(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		md := "# <script>alert(1)</script>\n\n[click](javascript:alert(1)) and <img src=x onerror=alert(1)>\n"
		f := newFixture(t, s, md, map[string]any{})
		f.publish(t)
		ss := f.siteSpace(t)
		s.DoUnchecked(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ss+"/customization", map[string]any{
			"title": "<script>alert(2)</script>",
			"header": map[string]any{"links": []any{
				map[string]any{"title": "<b onmouseover=alert(3)>x</b>", "to": map[string]any{"kind": "url", "url": "javascript:alert(4)"}},
				map[string]any{"title": "ok", "to": map[string]any{"kind": "url", "url": `https://example.com/"><script>alert(5)</script>`}},
			}},
			"footer": map[string]any{"copyright": `</footer><script>alert(6)</script>`},
		}).WantStatus(t, 200)
		p := get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200, "&lt;script&gt;alert(2)&lt;/script&gt;",
			"&lt;b onmouseover=alert(3)&gt;x&lt;/b&gt;", "&lt;/footer&gt;&lt;script&gt;alert(6)")
		noHostile(t, p)
	})
}

// noHostile fails if a page holds any script but the reader's own, a
// javascript: URL or live hostile markup, or if its CSP allows inline
// scripts.
func noHostile(t *testing.T, p page) {
	t.Helper()
	lower := strings.ToLower(scriptTag.ReplaceAllString(p.body, ""))
	for _, bad := range []string{"<script", "javascript:", "<img src=x", "<b onmouseover", "<mark onclick"} {
		if strings.Contains(lower, bad) {
			t.Fatalf("hostile %q in page:\n%s", bad, p.body)
		}
	}
	if n := len(scriptTag.FindAllString(p.body, -1)); n > 1 {
		t.Fatalf("%d script tags", n)
	}
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self';") {
		t.Fatalf("CSP %q", csp)
	}
}

// scriptTag is the reader's own script tag.
var scriptTag = regexp.MustCompile(`<script src="[^"<>]*/~/reader\.js\?v=[0-9a-f]+" defer></script>`)

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestNavigationAndSections: the page tree, breadcrumbs and
// previous/next of a nested space, and a site with sections, where the
// root shows the default section and a section's path its site space.
func TestNavigationAndSections(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, "", map[string]any{})
		archive := zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Intro](README.md)\n* [Setup](setup/README.md)\n  * [Install](setup/install.md)\n* [FAQ](faq.md)\n",
			"README.md":  "# Intro\n\nHello.\n", "setup/README.md": "# Setup\n\nSetting up.\n",
			"setup/install.md": "# Install\n\nRun it.\n", "faq.md": "# FAQ\n\nAsk.\n",
		})
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
			map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
		f.publish(t)
		base := "/sites/" + f.site
		get(t, s, nil, "", base+"/").want(t, 200, "<h1>Intro</h1>", `rel="next" href="`+base+`/setup"`)
		get(t, s, nil, "", base+"/setup/install").want(t, 200, "<h1>Install</h1>",
			`<ol class="breadcrumbs" aria-label="Breadcrumbs"><li><a href="`+base+`/setup">Setup</a></li></ol>`,
			`rel="prev" href="`+base+`/setup"`, `rel="next" href="`+base+`/faq"`,
			`<li class="current"><a href="`+base+`/setup/install" aria-current="page">Install</a>`, `<a href="`+base+`/faq">FAQ</a>`)

		// Sections: the existing site space moves into the first section.
		api := f.newSpace(t, "API", "# Endpoints\n\nGET things.\n")
		var sec struct{ ID, Path string }
		s.Do(t, f.admin, "POST", f.siteAPI+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &sec)
		get(t, s, nil, "", base+"/").want(t, 200, "<h1>Intro</h1>", `class="section current"`)
		get(t, s, nil, "", base+"/"+sec.Path).want(t, 200, "<h1>Endpoints</h1>", `>API</a>`)
		get(t, s, nil, "", base+"/"+sec.Path+"/nope").want(t, 404)
		// The request path is decoded once: %2561 is "%61", not "a".
		get(t, s, nil, "", base+"/"+fmt.Sprintf("%%25%02x", sec.Path[0])+sec.Path[1:]).want(t, 404)
	})
}

// TestFilesAndCustomization: images of the revision use signed download
// URLs, and the site customization shows in the chrome.
func TestFilesAndCustomization(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, "", map[string]any{})
		png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
		archive := zipOf(t, map[string]string{"README.md": "# Pictures\n\n![A dot](dot.png)\n", "dot.png": png})
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/content/import",
			map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(archive)}).WantStatus(t, 201)
		f.publish(t)
		ss := f.siteSpace(t)
		s.DoUnchecked(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+ss+"/customization", map[string]any{
			"title":   "Handbook",
			"styling": map[string]any{"primaryColor": map[string]any{"light": "#112233", "dark": "#445566"}},
			"themes":  map[string]any{"default": "dark"},
			"favicon": map[string]any{"icon": map[string]any{"light": "https://cdn.example/l.ico", "dark": "https://cdn.example/d.ico"}},
			"header": map[string]any{"logo": map[string]any{"light": "https://cdn.example/l.png", "dark": "https://cdn.example/d.png"},
				"links": []any{map[string]any{"title": "Home", "to": map[string]any{"kind": "url", "url": "https://example.com/"}}}},
			"footer": map[string]any{"copyright": "© Example"},
		}).WantStatus(t, 200)
		p := get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200, "<title>Pictures | Handbook</title>",
			"--primary-dark:#445566", `data-theme="dark"`, `<link rel="icon" href="https://cdn.example/d.ico">`,
			`src="https://cdn.example/d.png"`, `<a href="https://example.com/">Home</a>`, "© Example", `alt="A dot"`)
		i := strings.Index(p.body, `alt="A dot"`)
		j := strings.LastIndex(p.body[:i], ` src="`)
		src := html.UnescapeString(p.body[j+len(` src="`) : i-2])
		if !strings.HasPrefix(src, apitest.PublicURL+"/v1/files/") || !strings.Contains(src, "sig=") {
			t.Fatalf("image src %q", src)
		}
		// The signed URL downloads the file.
		dl := get(t, s, nil, "", strings.TrimPrefix(src, apitest.PublicURL))
		if dl.status != 200 || dl.body != png {
			t.Fatalf("download: %d, %d bytes", dl.status, len(dl.body))
		}
	})
}
