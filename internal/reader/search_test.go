package reader_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// addSiteSpace adds a space to the fixture's site and returns the new
// site space's id and path.
func (f *fixture) addSiteSpace(t *testing.T, space string) (id, path string) {
	t.Helper()
	var ss struct{ ID, Path string }
	f.s.Do(t, f.admin, "POST", f.siteAPI+"/site-spaces", map[string]any{"spaceId": space}).WantStatus(t, 201).JSON(t, &ss)
	return ss.ID, ss.Path
}

// TestSearch: the search page lists the matching pages of the site spaces
// a visitor may see, linked to the reader's URLs, with the matched words
// marked; never a space the site does not publish, nor one under a
// condition the visitor does not meet; empty and overlong queries.
func TestSearch(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, "# Deploying\n\nRun the kubernetes chart.\n\n## Backups\n\nSnapshot the volumes nightly.\n", map[string]any{})
		api := f.newSpace(t, "API", "# Endpoints\n\nThe Kubernetes operator answers here.\n")
		beta := f.newSpace(t, "Beta", "# Preview\n\nKubernetes beta features.\n")
		f.newSpace(t, "Drafts", "# Plans\n\nKubernetes drafts.\n")
		_, apiPath := f.addSiteSpace(t, api)
		betaSS, _ := f.addSiteSpace(t, beta)
		s.Do(t, f.admin, "PATCH", f.siteAPI+"/site-spaces/"+betaSS, map[string]any{"condition": "visitor.claims.beta == true"}).WantStatus(t, 200)
		base := "/sites/" + f.site
		get(t, s, nil, "", base+"/~/search?q=kubernetes").want(t, 404)
		f.publish(t)

		home := get(t, s, nil, "", base+"/").want(t, 200,
			`<form class="search" role="search" method="get" action="`+base+`/~/search" data-endpoint="`+base+`/~/search.json">`, `name="q"`)
		p := get(t, s, nil, "", base+"/~/search?q=kubernetes").want(t, 200, "<title>Search | Docs</title>",
			`value="kubernetes"`, "2 pages match",
			`<a class="result-title" href="`+base+`/deploying">Deploying</a>`,
			`<a class="result-title" href="`+base+`/`+apiPath+`/endpoints">Endpoints</a>`,
			`Run the <mark>kubernetes</mark> chart.`, `The <mark>Kubernetes</mark> operator answers here.`,
			`<meta name="robots" content="noindex">`)
		for _, absent := range []string{"Preview", "Plans", "drafts"} {
			if strings.Contains(p.body, absent) {
				t.Fatalf("search shows %q:\n%s", absent, p.body)
			}
		}
		// A section hit links to its anchor.
		get(t, s, nil, "", base+"/~/search?q=snapshot").want(t, 200, "1 page matches",
			`<a href="`+base+`/deploying#backups">Backups</a> — <mark>Snapshot</mark> the volumes nightly.`)
		// Typos in the second half of the last word are forgiven, and the
		// words found are still marked.
		get(t, s, nil, "", base+"/~/search?q=kubernetix").want(t, 200, "<mark>kubernetes</mark>")
		get(t, s, nil, "", base+"/~/search?q=nothing-like-it").want(t, 200, "No page matches")
		get(t, s, nil, "", base+"/~/search").want(t, 200, "Type words to find")
		get(t, s, nil, "", base+"/~/search?q="+strings.Repeat("a", 513)).want(t, 400, "The search is too long")
		get(t, s, nil, "", base+"/~/search?q="+strings.Repeat("é", 512)).want(t, 200, "No page matches")
		// The dialog's JSON: the same pages, for this visitor only.
		jp := get(t, s, nil, "", base+"/~/search.json?q=kubernetes").want(t, 200)
		if jp.header.Get("Content-Type") != "application/json; charset=utf-8" || jp.header.Get("Cache-Control") != "private, no-store" {
			t.Fatalf("search.json headers %v", jp.header)
		}
		var res struct {
			Query   string
			More    bool
			Results []struct {
				Title, Href, Space string
				Sections           []struct {
					Href  string
					Spans []struct {
						Text  string
						Match bool
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(jp.body), &res); err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, r := range res.Results {
			titles = append(titles, r.Title+" "+r.Href)
		}
		sort.Strings(titles)
		if res.Query != "kubernetes" || res.More || fmt.Sprint(titles) != "[Deploying "+base+"/deploying Endpoints "+base+"/"+apiPath+"/endpoints]" {
			t.Fatalf("search.json %s", jp.body)
		}
		if strings.Contains(jp.body, "Preview") || strings.Contains(jp.body, "Plans") || !strings.Contains(jp.body, `{"Text":"kubernetes","Match":true}`) {
			t.Fatalf("search.json %s", jp.body)
		}
		get(t, s, nil, "", base+"/~/search.json").want(t, 200, `{"query":"","results":[],"more":false}`)
		get(t, s, nil, "", base+"/~/search.json?q="+strings.Repeat("a", 513)).want(t, 400,
			`{"error":{"code":400,"message":"The search is too long: at most 512 characters."}}`)
		// The script is served with a type the browser runs and nosniff.
		js := get(t, s, nil, "", base+"/~/reader.js").want(t, 200, "folio_theme")
		if ct := js.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") || js.header.Get("X-Content-Type-Options") != "nosniff" ||
			js.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("script headers %v", js.header)
		}
		css := get(t, s, nil, "", base+"/~/reader.css").want(t, 200, "@layer tokens", `[data-theme="dark"] .chroma .k{`)
		if ct := css.header.Get("Content-Type"); ct != "text/css; charset=utf-8" || css.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("stylesheet headers %v", css.header)
		}
		// The page links both with a hash of their content.
		if !regexp.MustCompile(`<link rel="stylesheet" href="`+base+`/~/reader.css\?v=[0-9a-f]{12}">`).MatchString(home.body) ||
			!regexp.MustCompile(`<script src="`+base+`/~/reader.js\?v=[0-9a-f]{12}" defer></script>`).MatchString(home.body) {
			t.Fatalf("asset links in %s", home.body)
		}
	})
}

// TestSearchHostileContent: markup in page titles, bodies and the query
// comes out as text, with only the reader's own <mark>s.
func TestSearchHostileContent(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		md := "# Evil <script>alert(1)</script> title\n\nEvil <img src=x onerror=alert(2)> and <mark onclick=alert(3)>x</mark> and [l](javascript:alert(4)).\n"
		f := newFixture(t, s, md, map[string]any{})
		f.publish(t)
		p := get(t, s, nil, "", "/sites/"+f.site+"/~/search?q=evil").want(t, 200,
			`&lt;script&gt;alert(1)&lt;/script&gt;`, `&lt;img src=x onerror=alert(2)&gt;`,
			`&lt;mark onclick=alert(3)&gt;`, `<mark>Evil</mark>`)
		noHostile(t, p)
		q := `zz "><script>alert(5)</script>`
		p = get(t, s, nil, "", "/sites/"+f.site+"/~/search?q="+url.QueryEscape(q)).want(t, 200,
			`value="zz &#34;&gt;&lt;script&gt;alert(5)&lt;/script&gt;"`, `No page matches “zz &#34;&gt;&lt;script&gt;alert(5)&lt;/script&gt;”`)
		noHostile(t, p)
		get(t, s, nil, "", "/sites/"+f.site+"/~/search?q=alert").want(t, 200, "<mark>alert</mark>(2)")
	})
}

// TestThemeSwitch: the switch sets a cookie scoped to the site and sends
// the visitor back to a path of the same site, never elsewhere; the
// chosen theme shows on every page, and the site's default applies
// without a choice or when the site does not let visitors choose.
func TestThemeSwitch(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, guide, map[string]any{})
		f.publish(t)
		base := "/sites/" + f.site
		p := get(t, s, nil, "", base+"/").want(t, 200, `data-theme="light"`,
			`<form class="theme-switch" method="get" action="`+base+`/~/theme" data-cookie-path="`+base+`/"`,
			`<input type="hidden" name="return" value="`+base+`/">`, `value="dark" aria-label="Dark theme" title="Dark theme" aria-pressed="false"`)
		noHostile(t, p)

		r := get(t, s, nil, "", base+"/~/theme?theme=dark&return="+url.QueryEscape(base+"/welcome?x=1"))
		if r.status != http.StatusSeeOther || r.header.Get("Location") != base+"/welcome?x=1" {
			t.Fatalf("switch: %d %q", r.status, r.header.Get("Location"))
		}
		c := r.header.Get("Set-Cookie")
		if !strings.HasPrefix(c, "folio_theme=dark;") || !strings.Contains(c, "Path="+base+"/;") || !strings.Contains(c, "SameSite=Lax") {
			t.Fatalf("cookie %q", c)
		}

		// Only paths of this site: everything else goes to its root.
		for _, ret := range []string{"", "https://evil.example/", "//evil.example/", "/\\evil.example", `/%5Cevil.example`,
			"javascript:alert(1)", "/sites/other/", base + "/../other/", base + "/x/../../other", "http:/evil.example",
			base + "/\r\nSet-Cookie: x=1", " /" + base, base + "x"} {
			r := get(t, s, nil, "", base+"/~/theme?theme=dark&return="+url.QueryEscape(ret))
			if r.status != http.StatusSeeOther || r.header.Get("Location") != base+"/" {
				t.Errorf("return %q: %d %q", ret, r.status, r.header.Get("Location"))
			}
		}
		// An unknown theme sets nothing.
		if c := get(t, s, nil, "", base+"/~/theme?theme=<b>&return="+base+"/").header.Get("Set-Cookie"); c != "" {
			t.Fatalf("cookie for an unknown theme: %q", c)
		}

		// The choice follows the visitor from page to page.
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar}
		get(t, s, client, "", base+"/~/theme?theme=system&return="+base+"/")
		get(t, s, client, "", base+"/").want(t, 200, `data-theme="system"`, `value="system" aria-label="System theme" title="System theme" aria-pressed="true"`)
		get(t, s, client, "", base+"/~/search?q=steps").want(t, 200, `data-theme="system"`)
		get(t, s, client, "", base+"/~/theme?theme=dark&return="+base+"/")
		get(t, s, client, "", base+"/").want(t, 200, `data-theme="dark"`)
		// A forged cookie value is ignored.
		u, _ := url.Parse(s.URL + base + "/")
		jar.SetCookies(u, []*http.Cookie{{Name: "folio_theme", Value: "x-onload", Path: base + "/"}})
		get(t, s, client, "", base+"/").want(t, 200, `data-theme="light"`)

		// A site that does not let visitors choose: no switch, no effect.
		s.DoUnchecked(t, f.admin, "PUT", f.siteAPI+"/customization", map[string]any{
			"themes": map[string]any{"default": "dark", "toggeable": false}}).WantStatus(t, 200)
		jar.SetCookies(u, []*http.Cookie{{Name: "folio_theme", Value: "light", Path: base + "/"}})
		p = get(t, s, client, "", base+"/").want(t, 200, `data-theme="dark"`)
		if strings.Contains(p.body, `<form class="theme-switch"`) {
			t.Fatal("switch shown on a site that is not toggleable")
		}
	})
}
