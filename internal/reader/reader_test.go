package reader_test

import (
	"encoding/base64"
	"io"
	"net/http"
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
