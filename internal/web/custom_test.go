package web_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// postMultipart sends a form with files as the customization page does.
func (b *browser) postMultipart(t *testing.T, path string, form url.Values, files map[string][]byte) page {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if _, ok := form["csrf"]; !ok {
		mw.WriteField("csrf", b.csrf)
	}
	for k, vs := range form {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	for k, data := range files {
		w, _ := mw.CreateFormFile(k, k+".png")
		w.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", b.s.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", b.s.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.do(t, req)
}

// pngImage is a small PNG of one colour.
func customPNG(t *testing.T, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for x := range 8 {
		for y := range 8 {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// customSite makes an organization with a space published on a site, and
// its admin signed in.
func customSite(t *testing.T, s *apitest.Server) (org, site, admin string, b *browser) {
	t.Helper()
	org, admin = s.Org(t)
	u := userOf(t, s, admin)
	sp := space(t, s, org, admin, "Guide", "# Welcome\n\nHello, readers.\n")
	var st struct{ ID string }
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{sp}}).WantStatus(t, 201).JSON(t, &st)
	user, err := s.App.GetAuthenticatedUser(context.Background(), folio.Caller{UserID: u})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.App.SetPassword(context.Background(), user.Email, password); err != nil {
		t.Fatal(err)
	}
	return org, st.ID, admin, signIn(t, s, user.Email)
}

// customization is the site's customization as the API answers it.
func customization(t *testing.T, s *apitest.Server, tok, org, site string) map[string]any {
	t.Helper()
	var doc map[string]any
	s.Do(t, tok, "GET", "/v1/orgs/"+org+"/sites/"+site+"/customization", nil).WantStatus(t, 200).JSON(t, &doc)
	return doc
}

// customForm is a complete, valid post of the customization form.
func customForm() url.Values {
	return url.Values{"v": {"1"}, "title": {"Handbook"}, "primary_light": {"#0b5394"}, "primary_dark": {"#9fc5e8"},
		"tint": {"on"}, "tint_light": {"#eef4fb"}, "tint_dark": {"#101820"}, "theme": {"dark"}, "locale": {"fr"},
		"header_title": {"Status", ""}, "header_url": {"https://status.example.com", ""}, "header_extra": {"", ""},
		"group_title": {"Company", ""}, "group0_title": {"About", "Jobs"}, "group0_url": {"https://example.com/about", "https://example.com/jobs"},
		"group0_extra": {"", ""}, "copyright": {"© Example"}, "edit_link": {"on"}}
}

func docAt(doc map[string]any, path ...string) any {
	var v any = doc
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// TestCustomizeSite saves every part of the form and reads the site's
// customization back through the API: title, colours, tint, theme,
// language, header and footer links, copyright, the edit link; the parts
// the form does not show are kept. The page then shows the saved values.
func TestCustomizeSite(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, b := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize"
		// A part the form does not show, set through the API, is kept.
		before := customization(t, s, admin, org, site)
		before["styling"].(map[string]any)["font"] = "Roboto"
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/sites/"+site+"/customization", before).WantStatus(t, 200)

		b.get(t, path).want(t, 200, `<label for="title">Title</label>`, `<label for="primary_light">Primary colour, light theme</label>`,
			`<label for="header_title_0">Link 1 title</label>`, `<label for="group_title_0">Group 1 title</label>`,
			`enctype="multipart/form-data"`, `<iframe id="preview" src="/o/`+org+`/sites/`+site+`/customize/preview"`,
			`sandbox="allow-scripts allow-forms"`, `value="#346ddb"`)
		b.postMultipart(t, path, customForm(), nil).redirect(t, path+"?saved=1")

		doc := customization(t, s, admin, org, site)
		for _, c := range []struct {
			path []string
			want any
		}{
			{[]string{"title"}, "Handbook"},
			{[]string{"styling", "primaryColor"}, map[string]any{"light": "#0b5394", "dark": "#9fc5e8"}},
			{[]string{"styling", "tint"}, map[string]any{"color": map[string]any{"light": "#eef4fb", "dark": "#101820"}}},
			{[]string{"styling", "font"}, "Roboto"},
			{[]string{"themes"}, map[string]any{"default": "dark", "toggeable": false}},
			{[]string{"internationalization", "locale"}, "fr"},
			{[]string{"header", "links"}, []any{map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.example.com"}, "links": []any{}}}},
			{[]string{"footer", "groups"}, []any{map[string]any{"title": "Company", "links": []any{
				map[string]any{"title": "About", "to": map[string]any{"kind": "url", "url": "https://example.com/about"}},
				map[string]any{"title": "Jobs", "to": map[string]any{"kind": "url", "url": "https://example.com/jobs"}}}}}},
			{[]string{"footer", "copyright"}, "© Example"},
			{[]string{"git", "showEditLink"}, true},
		} {
			if d := cmp.Diff(c.want, docAt(doc, c.path...)); d != "" {
				t.Errorf("%v (-want +got):\n%s", c.path, d)
			}
		}
		b.get(t, path+"?saved=1").want(t, 200, "Saved: the site shows the new settings.", `value="Handbook"`, `value="#0b5394"`,
			`value="https://status.example.com"`, `value="© Example"`, `<option value="fr" selected>`,
			`name="theme" value="dark" checked`, `name="edit_link" id="edit_link" checked`)

		// A link to a page of the site (set through the API) keeps its target
		// when the form is saved again.
		doc["header"].(map[string]any)["links"] = []any{map[string]any{"title": "Guide", "to": map[string]any{"kind": "page", "page": "p1"}, "links": []any{}}}
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/sites/"+site+"/customization", doc).WantStatus(t, 200)
		form := b.get(t, path).want(t, 200, `value="Guide"`).Body
		extra := customFind(t, form, `name="header_extra" value="([^"]*)"`)
		f := customForm()
		f["header_title"], f["header_url"], f["header_extra"] = []string{"Guide"}, []string{""}, []string{customUnescape(extra)}
		b.postMultipart(t, path, f, nil).redirect(t, path+"?saved=1")
		if d := cmp.Diff([]any{map[string]any{"title": "Guide", "to": map[string]any{"kind": "page", "page": "p1"}, "links": []any{}}},
			docAt(customization(t, s, admin, org, site), "header", "links")); d != "" {
			t.Errorf("page link (-want +got):\n%s", d)
		}
	})
}

// TestCustomizeContrastWarning: a primary colour below 4.5:1 against the
// reader's background of its theme is named on the page; one above is not.
func TestCustomizeContrastWarning(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, _, b := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize"
		f := customForm()
		f.Set("primary_light", "#ffff00") // 1.1:1 on white
		f.Set("primary_dark", "#101010")  // 1.0:1 on #0d1117
		b.postMultipart(t, path, f, nil).redirect(t, path+"?saved=1")
		b.get(t, path).want(t, 200,
			"The primary colour for the light theme (#ffff00) has a contrast of 1.0:1 with the light background (#ffffff): WCAG AA asks 4.5:1 for text.",
			"The primary colour for the dark theme (#101010) has a contrast of 1.0:1 with the dark background (#0d1117)")
		b.postMultipart(t, path, customForm(), nil).redirect(t, path+"?saved=1")
		if p := b.get(t, path).want(t, 200); strings.Contains(p.Body, "WCAG AA asks") {
			t.Fatalf("readable colours warned about:\n%s", p.Body)
		}
	})
}

// TestCustomizeValidation: a bad colour, a bad link URL, a link without a
// title, a file that is not an image and one too large are refused with
// a message saying what to fix, the form as posted, and nothing saved.
func TestCustomizeValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, b := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize"
		before := customization(t, s, admin, org, site)
		big := append(customPNG(t, color.White), make([]byte, app.MaxCustomImageBytes)...)
		for _, c := range []struct {
			name   string
			change func(url.Values)
			files  map[string][]byte
			status int
			want   string
		}{
			{"colour/not hex", func(f url.Values) { f.Set("primary_light", "blue") }, nil, 400,
				"The primary colour (light) must be a hex colour such as #346DDB, not &#34;blue&#34;"},
			{"colour/bad tint", func(f url.Values) { f.Set("tint_dark", "#12345") }, nil, 400, "The tint (dark) must be a hex colour"},
			{"url/not http", func(f url.Values) { f["header_url"] = []string{"javascript:alert(1)", ""} }, nil, 400,
				"Header link 1: &#34;javascript:alert(1)&#34; is not a web address"},
			{"url/footer relative", func(f url.Values) { f["group0_url"] = []string{"/about", ""} }, nil, 400,
				"Footer group 1, link 1: &#34;/about&#34; is not a web address"},
			{"link/no title", func(f url.Values) { f["header_title"] = []string{"", ""} }, nil, 400, "Header link 1 needs a title"},
			{"theme/unknown", func(f url.Values) { f.Set("theme", "sepia") }, nil, 400, "The default theme must be light or dark"},
			{"title/too short", func(f url.Values) { f.Set("title", "x") }, nil, 400, "The title must be 2 to 128 characters"},
			{"upload/not an image", nil, map[string][]byte{"logo": []byte("<html><script>alert(1)</script></html>")}, 400,
				"Logo must be a PNG, JPEG, GIF, WebP or ICO image, not text/html"},
			{"upload/too large", nil, map[string][]byte{"favicon": big}, 413, "Favicon: the image is larger than 1024 KiB"},
		} {
			t.Run(c.name, func(t *testing.T) {
				f := customForm()
				f.Set("copyright", "posted "+c.name)
				if c.change != nil {
					c.change(f)
				}
				// The form comes back as posted, with the message.
				b.postMultipart(t, path, f, c.files).want(t, c.status, `<p class="notice error" role="alert" id="form-error">`, c.want,
					`value="posted `+c.name+`"`)
				if d := cmp.Diff(before, customization(t, s, admin, org, site)); d != "" {
					t.Fatalf("refused form changed the customization (-before +after):\n%s", d)
				}
			})
		}
		// A form larger than any the page makes is not read at all.
		b.postMultipart(t, path, customForm(), map[string][]byte{"logo": make([]byte, 9<<20)}).want(t, 413, "the form is larger than 8 MiB")
		if d := cmp.Diff(before, customization(t, s, admin, org, site)); d != "" {
			t.Fatalf("a too large form changed the customization:\n%s", d)
		}
	})
}

// TestCustomizeImages uploads a logo and favicons: the customization holds
// URLs of this server that anyone can load (the published site shows
// them), with the light image for the dark theme unless one is given;
// removing them takes them out.
func TestCustomizeImages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, b := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize"
		logo, fav, favDark := customPNG(t, color.RGBA{200, 0, 0, 255}), customPNG(t, color.RGBA{0, 200, 0, 255}), customPNG(t, color.RGBA{0, 0, 200, 255})
		b.postMultipart(t, path, customForm(), map[string][]byte{"logo": logo, "favicon": fav, "favicon_dark": favDark}).redirect(t, path+"?saved=1")
		doc := customization(t, s, admin, org, site)
		light, _ := docAt(doc, "header", "logo", "light").(string)
		if !strings.HasPrefix(light, apitest.PublicURL+"/images/") || !strings.HasSuffix(light, ".png") {
			t.Fatalf("logo URL %q", light)
		}
		if d := docAt(doc, "header", "logo", "dark"); d != light {
			t.Fatalf("dark logo %v, want the light one %s", d, light)
		}
		fl, fd := docAt(doc, "favicon", "icon", "light").(string), docAt(doc, "favicon", "icon", "dark").(string)
		if fl == fd || fl == "" || fd == "" {
			t.Fatalf("favicons %q %q", fl, fd)
		}
		// Anyone loads them, as the published site's visitors do.
		for u, want := range map[string][]byte{light: logo, fl: fav, fd: favDark} {
			p := newBrowser(s).get(t, strings.TrimPrefix(u, apitest.PublicURL)).want(t, 200)
			if p.Body != string(want) || p.Header.Get("Content-Type") != "image/png" || !strings.Contains(p.Header.Get("Cache-Control"), "immutable") {
				t.Fatalf("%s: %d bytes, %v", u, len(p.Body), p.Header)
			}
		}
		newBrowser(s).get(t, "/images/"+strings.Repeat("0", 64)+".png").want(t, 404)
		newBrowser(s).get(t, "/images/..%2Fblobs%2Fx").want(t, 404)
		b.get(t, path).want(t, 200, `alt="Current Logo"`, `name="logo_remove"`, "Replace the Logo")

		// Saving without files keeps them; removing takes them out.
		b.postMultipart(t, path, customForm(), nil).redirect(t, path+"?saved=1")
		if got := docAt(customization(t, s, admin, org, site), "header", "logo", "light"); got != light {
			t.Fatalf("logo after a save without files: %v", got)
		}
		f := customForm()
		f.Set("logo_remove", "on")
		f.Set("favicon_remove", "on")
		b.postMultipart(t, path, f, nil).redirect(t, path+"?saved=1")
		doc = customization(t, s, admin, org, site)
		if l := docAt(doc, "header", "logo"); l != nil {
			t.Fatalf("logo after removal: %v", l)
		}
		if d := cmp.Diff(map[string]any{}, docAt(doc, "favicon")); d != "" {
			t.Fatalf("favicon after removal: %s", d)
		}
	})
}

// TestCustomizeRefused: a member who may not manage sites is not offered
// the page and a forged post changes nothing; another organization's site
// is not found.
func TestCustomizeRefused(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, _ := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize"
		before := customization(t, s, admin, org, site)
		u, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		if p := b.get(t, path).want(t, 403, "only members with the create role or higher can customize sites"); strings.Contains(p.Body, "<form method=\"post\" action=\""+path) {
			t.Fatal("the form is offered to an editor")
		}
		b.postMultipart(t, path, customForm(), map[string][]byte{"logo": customPNG(t, color.Black)}).want(t, 403)
		b.get(t, path+"/preview").want(t, 403)
		b.get(t, path+"/preview?v=1&title=Forged").want(t, 403)
		if d := cmp.Diff(before, customization(t, s, admin, org, site)); d != "" {
			t.Fatalf("forged post changed the customization:\n%s", d)
		}
		// An admin of another organization: not found.
		other, _ := s.Org(t)
		ou, _ := member(t, s, other, folio.RoleAdmin)
		ob := signIn(t, s, ou.Email)
		ob.get(t, path).want(t, 404)
		ob.postMultipart(t, path, customForm(), nil).want(t, 404)
		ob.get(t, "/o/"+other+"/sites/"+site+"/customize").want(t, 404)
		// A member with the create role may.
		c, _ := member(t, s, org, folio.RoleCreate)
		signIn(t, s, c.Email).get(t, path).want(t, 200, "Customize Docs")
		if d := cmp.Diff(before, customization(t, s, admin, org, site)); d != "" {
			t.Fatalf("refused requests changed the customization:\n%s", d)
		}
	})
}

// TestCustomizePreview: the preview is the site's reader page with the
// saved settings, or with the query's unsaved ones, framable by the app's
// own pages only; it needs no publishing, and a bad value in the query is an error in the frame, not a change.
func TestCustomizePreview(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, b := customSite(t, s)
		path := "/o/" + org + "/sites/" + site + "/customize/preview"
		p := b.get(t, path).want(t, 200, "<title>", "Docs", "Hello, readers.", `href="`+path+`/~/reader.css?v=`)
		if xfo := p.Header.Get("X-Frame-Options"); xfo != "SAMEORIGIN" {
			t.Fatalf("X-Frame-Options %q", xfo)
		}
		if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") || strings.Contains(csp, "frame-ancestors 'none'") {
			t.Fatalf("CSP %q", csp)
		}
		q := customForm()
		q.Set("title", "Unsaved title")
		q.Set("primary_light", "#aa0000")
		q.Set("theme", "dark")
		b.get(t, path+"?"+q.Encode()).want(t, 200, "Unsaved title", "#aa0000", `data-theme="dark"`, `lang="fr"`, "status.example.com", "© Example")
		if d := docAt(customization(t, s, admin, org, site), "title"); d != nil {
			t.Fatalf("the preview saved the title: %v", d)
		}
		q.Set("primary_light", "red")
		if p := b.get(t, path+"?"+q.Encode()).want(t, 400, "must be a hex colour"); p.Header.Get("X-Frame-Options") != "SAMEORIGIN" {
			t.Fatalf("error in the frame: X-Frame-Options %q", p.Header.Get("X-Frame-Options"))
		}
		// The reader's assets load without a session (the frame is
		// sandboxed: its requests carry no cookie); pages do not.
		css := customFind(t, b.get(t, path).Body, `href="(`+path+`/~/reader.css\?v=[^"]+)"`)
		anon := newBrowser(s)
		if c := anon.get(t, customUnescape(css)).want(t, 200); !strings.Contains(c.Header.Get("Content-Type"), "text/css") {
			t.Fatalf("stylesheet: %v", c.Header)
		}
		anon.get(t, path).want(t, 401)
		// The customization page's policy allows this frame.
		if csp := b.get(t, "/o/"+org+"/sites/"+site+"/customize").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self'") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Fatalf("customization page CSP %q", csp)
		}
		// Other pages of the app are still never framed.
		if xfo := b.get(t, "/").Header.Get("X-Frame-Options"); xfo != "DENY" {
			t.Fatalf("home X-Frame-Options %q", xfo)
		}
	})
}

// TestOrgSettings: an admin changes the name, default role, email
// domains, merge rules and AI flag in one save, and uploads a logo; the
// organization reads them back through the API. Rules the form has no box
// for are kept.
func TestOrgSettings(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _, admin, b := customSite(t, s)
		path := "/o/" + org + "/settings"
		other, _ := member(t, s, org, folio.RoleReview)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_specific_reviewers", "users": []string{other.ID}}}}}).WantStatus(t, 200)
		b.get(t, path).want(t, 200, `<label for="title">Name</label>`, `<label for="email_domains">Email domains</label>`,
			`<label for="default_role">Default role</label>`, `aria-current="page">Settings</a>`, "require specific reviewers (1 person)")
		form := url.Values{"title": {"Renamed Org"}, "default_role": {"comment"}, "email_domains": {"Example.com\n@docs.example.org"},
			"merge_rules": {"rules"}, "rule_require_at_least_one_review": {"on"}, "ai": {"on"}}
		b.postMultipart(t, path, form, map[string][]byte{"logo": customPNG(t, color.White)}).redirect(t, path+"?saved=1")
		var o struct {
			Title        string
			DefaultRole  *string
			EmailDomains []string
			URLs         struct{ Logo string }
			AI           bool
			MergeRules   folio.MergeRules
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		if o.Title != "Renamed Org" || o.DefaultRole == nil || *o.DefaultRole != "comment" || !o.AI ||
			!strings.HasPrefix(o.URLs.Logo, apitest.PublicURL+"/images/") {
			t.Fatalf("organization %+v", o)
		}
		if d := cmp.Diff([]string{"example.com", "docs.example.org"}, o.EmailDomains); d != "" {
			t.Errorf("domains: %s", d)
		}
		if d := cmp.Diff(folio.MergeRules{Type: "rules", Rules: []folio.MergeRule{{Rule: "require_at_least_one_review"},
			{Rule: "require_specific_reviewers", Users: []folio.ID{other.ID}}}}, o.MergeRules); d != "" {
			t.Errorf("merge rules: %s", d)
		}
		b.get(t, path+"?saved=1").want(t, 200, "Saved.", `value="Renamed Org"`, `<img src="`+strings.TrimPrefix(o.URLs.Logo, apitest.PublicURL)+`" alt="Current logo"`, "example.com\ndocs.example.org",
			`<option value="comment" selected>`, `name="ai" id="ai" checked`, `name="rule_require_at_least_one_review" checked`)
		// Guests by default, no domains, no rules, no AI, no logo.
		b.postMultipart(t, path, url.Values{"title": {"Renamed Org"}, "default_role": {""}, "email_domains": {""},
			"merge_rules": {"none"}, "logo_remove": {"on"}}, nil).redirect(t, path+"?saved=1")
		o.DefaultRole, o.EmailDomains, o.URLs.Logo = nil, nil, ""
		s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).JSON(t, &o)
		if o.DefaultRole != nil || len(o.EmailDomains) != 0 || o.AI || o.URLs.Logo != "" || o.MergeRules.Type != "none" {
			t.Fatalf("organization after clearing %+v", o)
		}
	})
}

// TestOrgSettingsRefused: bad values are refused with a message and
// nothing changes; members who are not admins are not offered the page
// and their forged posts change nothing.
func TestOrgSettingsRefused(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _, admin, b := customSite(t, s)
		path := "/o/" + org + "/settings"
		orgJSON := func() string {
			return string(s.Do(t, admin, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).Body)
		}
		before := orgJSON()
		ok := url.Values{"title": {"Good name"}, "default_role": {"read"}, "email_domains": {"example.com"}, "merge_rules": {"none"}}
		for _, c := range []struct {
			name   string
			change func(url.Values)
			files  map[string][]byte
			status int
			want   string
		}{
			{"title/too short", func(f url.Values) { f.Set("title", "x") }, nil, 400, "title must be 2 to 255 characters"},
			{"domain/not a domain", func(f url.Values) { f.Set("email_domains", "example.com\nnot a domain!") }, nil, 400, "is not a domain name"},
			{"role/unknown", func(f url.Values) { f.Set("default_role", "owner") }, nil, 400, "defaultRole must be one of"},
			{"logo/not an image", nil, map[string][]byte{"logo": []byte("GIF? no")}, 400, "Logo must be a PNG, JPEG, GIF, WebP or ICO image"},
			{"logo/too large", nil, map[string][]byte{"logo": append(customPNG(t, color.White), make([]byte, app.MaxCustomImageBytes)...)}, 413,
				"Logo: the image is larger than 1024 KiB"},
		} {
			t.Run(c.name, func(t *testing.T) {
				f := url.Values{}
				for k, v := range ok {
					f[k] = append([]string(nil), v...)
				}
				if c.change != nil {
					c.change(f)
				}
				b.postMultipart(t, path, f, c.files).want(t, c.status, `role="alert"`, c.want)
				if after := orgJSON(); after != before {
					t.Fatalf("refused settings changed the organization:\n%s\n%s", before, after)
				}
			})
		}
		for _, role := range []folio.Role{folio.RoleCreate, folio.RoleRead} {
			u, _ := member(t, s, org, role)
			mb := signIn(t, s, u.Email)
			if p := mb.get(t, "/o/"+org).want(t, 200); strings.Contains(p.Body, `href="/o/`+org+`/settings"`) {
				t.Fatalf("%s member is offered the settings", role)
			}
			mb.get(t, path).want(t, 403, "only organization admins can change its settings")
			mb.postMultipart(t, path, url.Values{"title": {"Forged"}, "ai": {"on"}, "merge_rules": {"none"}}, nil).want(t, 403)
			mb.post(t, path, url.Values{"title": {"Forged"}, "ai": {"on"}}).want(t, 403)
		}
		other, _ := s.Org(t)
		ou, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, ou.Email).post(t, path, url.Values{"title": {"Forged"}}).want(t, 404)
		if after := orgJSON(); after != before {
			t.Fatalf("forged posts changed the organization:\n%s\n%s", before, after)
		}
	})
}

func customFind(t *testing.T, s, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in:\n%s", re, s)
	}
	return m[1]
}

func customUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

// TestCustomizePreviewRunsNoIntegrationScript: the published site embeds
// the scripts of integrations installed on it; its preview, on the app's
// origin, does not.
func TestCustomizePreviewRunsNoIntegrationScript(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, site, admin, b := customSite(t, s)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/integrations/widget", map[string]any{"title": "Widget", "description": "", "organization": org,
			"scopes": []string{"site:script:inject"},
			"script": "export default { async fetch() { return new Response('void 0', { headers: { 'content-type': 'application/javascript' } }); } }"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/integrations/widget/installations", map[string]any{"organization": org}).WantStatus(t, 201)
		s.Clock.Advance(time.Minute) // past the server's memory of the site's scripts
		newBrowser(s).get(t, "/sites/"+site+"/").want(t, 200, "/script.js")
		if p := b.get(t, "/o/"+org+"/sites/"+site+"/customize/preview").want(t, 200, "Hello, readers."); strings.Contains(p.Body, "script.js") {
			t.Fatalf("the preview embeds an integration's script:\n%s", p.Body)
		}
	})
}
