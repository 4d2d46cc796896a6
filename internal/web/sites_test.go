package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// siteOf reads a site as the app holds it.
func siteOf(t *testing.T, s *apitest.Server, user folio.ID, org, id string) *folio.SiteView {
	t.Helper()
	v, err := s.App.GetSite(context.Background(), folio.Caller{UserID: user}, org, id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// structureOf lists a site's structure in words: sections (with their
// site spaces in brackets, * for defaults) and groups, or site spaces.
func structureOf(t *testing.T, s *apitest.Server, user folio.ID, org, id string) string {
	t.Helper()
	st, err := s.App.GetSiteStructure(context.Background(), folio.Caller{UserID: user}, org, id, "")
	if err != nil {
		t.Fatal(err)
	}
	spaces := func(l []folio.SiteSpaceView) string {
		var out []string
		for _, ss := range l {
			n := ss.Space.Title
			if ss.Default {
				n += "*"
			}
			if ss.Condition != "" {
				n += "?" + ss.Condition
			}
			out = append(out, n)
		}
		return strings.Join(out, ",")
	}
	if !st.Sectioned {
		return spaces(st.SiteSpaces)
	}
	var nodes func([]folio.SiteStructureNode) string
	nodes = func(ns []folio.SiteStructureNode) string {
		var out []string
		for _, n := range ns {
			if n.Section != nil {
				d := ""
				if n.Section.Default {
					d = "*"
				}
				out = append(out, n.Section.Title+d+"["+spaces(n.Section.SiteSpaces)+"]")
			} else {
				out = append(out, "group "+n.Group.Title+"{"+nodes(n.Group.Children)+"}")
			}
		}
		return strings.Join(out, " ")
	}
	return nodes(st.Nodes)
}

// newSite creates a site through the form and returns its id.
func newSite(t *testing.T, b *browser, org, title string, spaces ...string) string {
	t.Helper()
	p := b.post(t, "/o/"+org+"/sites", url.Values{"title": {title}, "space": spaces})
	loc := p.Header.Get("Location")
	if p.Status != 303 || !strings.HasPrefix(loc, "/o/"+org+"/sites/") {
		t.Fatalf("create site: %d %s\n%s", p.Status, loc, p.Body)
	}
	return strings.TrimPrefix(loc, "/o/"+org+"/sites/")
}

// items maps the titles of a site page's structure items to their kind
// and id, as the page names them.
func items(t *testing.T, s *apitest.Server, user folio.ID, org, id string) map[string][2]string {
	t.Helper()
	st, err := s.App.GetSiteStructure(context.Background(), folio.Caller{UserID: user}, org, id, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]string{}
	for _, ss := range st.SiteSpaces {
		out[ss.Space.Title] = [2]string{folio.KindSiteSpace, ss.ID}
	}
	var walk func([]folio.SiteStructureNode)
	walk = func(ns []folio.SiteStructureNode) {
		for _, n := range ns {
			if n.Section != nil {
				out["section "+n.Section.Title] = [2]string{folio.KindSiteSection, n.Section.ID}
				for _, ss := range n.Section.SiteSpaces {
					out[ss.Space.Title] = [2]string{folio.KindSiteSpace, ss.ID}
				}
			} else {
				out["group "+n.Group.Title] = [2]string{folio.KindSiteSectionGroup, n.Group.ID}
				walk(n.Group.Children)
			}
		}
	}
	walk(st.Nodes)
	return out
}

func TestSitesListAndStructureForms(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		guide := space(t, s, org, admin, "Guide", "# Start\n\nHello.\n")
		api := space(t, s, org, admin, "API", "# Reference\n\nCalls.\n")
		faq := space(t, s, org, admin, "FAQ", "# Questions\n\nAnswers.\n")
		b := signIn(t, s, u.Email)
		b.get(t, "/o/"+org+"/sites").want(t, 200, "No sites yet", `<label for="site-title">Title</label>`, "Create site",
			`<input type="checkbox" name="space" value="`+guide+`"> Guide</label>`, `aria-current="page">Sites</a>`)
		// A title the app refuses shows the form again with the reason.
		b.post(t, "/o/"+org+"/sites", url.Values{"title": {"x"}}).want(t, 400, "title must be 2 to 128 characters", `value="x"`)
		if l, _ := s.App.ListSites(context.Background(), folio.Caller{UserID: u.ID}, org, folio.SiteFilter{}, folio.ListOptions{Limit: 10}); l.Count != 0 {
			t.Fatalf("a refused form created %d sites", l.Count)
		}

		id := newSite(t, b, org, "Docs", guide, api)
		page := "/o/" + org + "/sites/" + id
		b.get(t, "/o/"+org+"/sites").want(t, 200, `<a href="`+page+`">Docs</a>`, "Not published", "2 spaces")
		b.get(t, page).want(t, 200, "<h1>Docs</h1>", "Guide", "API", "Add a space", "Add a section", `href="`+page+`/customize"`)
		if got := structureOf(t, s, u.ID, org, id); got != "Guide*,API" {
			t.Fatalf("new site %s", got)
		}
		// urls.app of the API lands on this page.
		var api1 struct{ URLs struct{ App string } }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/"+id, nil).WantStatus(t, 200).JSON(t, &api1)
		if api1.URLs.App != apitest.PublicURL+page {
			t.Fatalf("urls.app %s, want %s", api1.URLs.App, page)
		}

		// Reorder site spaces, then refuse a move past the end.
		it := items(t, s, u.ID, org, id)
		b.post(t, page+"/move", url.Values{"kind": {it["API"][0]}, "id": {it["API"][1]}, "dir": {"up"}}).redirect(t, page+"?done=moved#structure")
		if got := structureOf(t, s, u.ID, org, id); got != "API,Guide*" {
			t.Fatalf("after up: %s", got)
		}
		b.post(t, page+"/move", url.Values{"kind": {it["API"][0]}, "id": {it["API"][1]}, "dir": {"up"}}).want(t, 400, "cannot move further up")
		b.post(t, page+"/default", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["API"][1]}}).redirect(t, page+"?done=default#structure")
		if got := structureOf(t, s, u.ID, org, id); got != "API*,Guide" {
			t.Fatalf("after default: %s", got)
		}
		b.post(t, page+"/default", url.Values{"kind": {folio.KindSiteSpace}, "id": {guide}}).want(t, 400, "not found in the site")
		b.post(t, page+"/remove", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["Guide"][1]}}).redirect(t, page+"?done=removed#structure")
		if got := structureOf(t, s, u.ID, org, id); got != "API*" {
			t.Fatalf("after remove: %s", got)
		}
		b.post(t, page+"/space", url.Values{"space": {guide}}).redirect(t, page+"?done=space#structure")
		b.get(t, page+"?done=space").want(t, 200, "The space was added.")

		// Sections: the first gathers the site's spaces into one.
		b.post(t, page+"/section", url.Values{"space": {faq}, "title": {"Help"}}).redirect(t, page+"?done=section#structure")
		if got := structureOf(t, s, u.ID, org, id); got != "API*[API*,Guide] Help[FAQ*]" {
			t.Fatalf("after a section: %s", got)
		}
		b.post(t, page+"/section", url.Values{"space": {"nope"}}).want(t, 400, "space nope not found")
		it = items(t, s, u.ID, org, id)
		b.get(t, page).want(t, 200, "Section</span> <strong>Help</strong>", `name="dir" value="down">Down<span class="sr">: move API down`,
			`<select id="add-space-section" name="section">`)
		b.post(t, page+"/move", url.Values{"kind": {folio.KindSiteSection}, "id": {it["section Help"][1]}, "dir": {"up"}}).want(t, 303)
		b.post(t, page+"/default", url.Values{"kind": {folio.KindSiteSection}, "id": {it["section Help"][1]}}).want(t, 303)
		if got := structureOf(t, s, u.ID, org, id); got != "Help*[FAQ*] API[API*,Guide]" {
			t.Fatalf("after moving and defaulting a section: %s", got)
		}
		// Drag and drop posts a place and a target.
		b.post(t, page+"/move", url.Values{"kind": {folio.KindSiteSection}, "id": {it["section Help"][1]}, "place": {"after"},
			"target-kind": {folio.KindSiteSection}, "target": {it["section API"][1]}}).want(t, 303)
		if got := structureOf(t, s, u.ID, org, id); got != "API[API*,Guide] Help*[FAQ*]" {
			t.Fatalf("after a drop: %s", got)
		}
		// Groups.
		b.post(t, page+"/group", url.Values{"title": {"More"}}).want(t, 303)
		it = items(t, s, u.ID, org, id)
		b.post(t, page+"/grouping", url.Values{"id": {it["section Help"][1]}, "group": {it["group More"][1]}}).want(t, 303)
		if got := structureOf(t, s, u.ID, org, id); got != "API[API*,Guide] group More{Help*[FAQ*]}" {
			t.Fatalf("after grouping: %s", got)
		}
		b.get(t, page).want(t, 200, `<option value="`+it["group More"][1]+`" selected>More</option>`)
		b.post(t, page+"/grouping", url.Values{"id": {it["section Help"][1]}, "group": {""}}).want(t, 303)
		b.post(t, page+"/remove", url.Values{"kind": {folio.KindSiteSectionGroup}, "id": {it["group More"][1]}}).want(t, 303)
		b.post(t, page+"/remove", url.Values{"kind": {folio.KindSiteSection}, "id": {it["section API"][1]}}).want(t, 303)
		if got := structureOf(t, s, u.ID, org, id); got != "Help*[FAQ*]" {
			t.Fatalf("after removals: %s", got)
		}
		b.post(t, page+"/remove", url.Values{"kind": {folio.KindSiteSection}, "id": {it["section API"][1]}}).want(t, 404)

		// Publish and unpublish.
		b.post(t, page+"/publish", nil).redirect(t, page+"?done=published")
		if !siteOf(t, s, u.ID, org, id).Published {
			t.Fatal("not published")
		}
		b.get(t, page+"?done=published").want(t, 200, "The site is published.", "Published", ">Unpublish</button>",
			`Readers find it at <a href="`+apitest.PublicURL+`/sites/`+id+`">`)
		b.get(t, "/sites/"+id).want(t, 200, "Questions")
		b.post(t, page+"/unpublish", nil).redirect(t, page+"?done=unpublished")
		if siteOf(t, s, u.ID, org, id).Published {
			t.Fatal("still published")
		}
		b.get(t, "/sites/"+id).want(t, 404)
		b.post(t, page+"/rename-it", nil).want(t, 404)
		b.post(t, page+"/title", url.Values{"title": {"Handbook"}}).redirect(t, page+"?done=title")
		if got := siteOf(t, s, u.ID, org, id).Title; got != "Handbook" {
			t.Fatalf("title %q", got)
		}
		// Delete: only with the box ticked.
		b.post(t, page+"/delete", nil).want(t, 400, "tick the box")
		siteOf(t, s, u.ID, org, id)
		b.post(t, page+"/delete", url.Values{"confirm": {"yes"}}).redirect(t, "/o/"+org+"/sites?deleted=1")
		b.get(t, "/o/"+org+"/sites?deleted=1").want(t, 200, "The site was deleted", "No sites yet")
		b.get(t, page).want(t, 404)
		b.post(t, page+"/publish", nil).want(t, 404)
	})
}

var keyRE = regexp.MustCompile(`<code id="visitor-key">([0-9a-f]{64})</code>`)

func TestSiteVisibilityShareLinksAndVisitorKey(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleCreate)
		guide := space(t, s, org, admin, "Guide", "# Start\n\nHello readers.\n")
		b := signIn(t, s, u.Email)
		id := newSite(t, b, org, "Docs", guide)
		page := "/o/" + org + "/sites/" + id
		b.post(t, page+"/publish", nil).want(t, 303)
		b.get(t, page).want(t, 200, `<input type="radio" name="visibility" value="public" checked> Public`)
		b.post(t, page+"/link", url.Values{"name": {"Partners"}}).want(t, 400, "only for sites whose visibility is share-link")
		b.post(t, page+"/visibility", url.Values{"visibility": {"secret"}}).want(t, 400, "visibility must be one of")
		if v := siteOf(t, s, u.ID, org, id).Visibility; v != "public" {
			t.Fatalf("visibility %s after refused forms", v)
		}

		b.post(t, page+"/visibility", url.Values{"visibility": {"share-link"}}).redirect(t, page+"?done=visibility#visibility")
		b.get(t, page).want(t, 200, "No share links yet", `<label for="link-name">`)
		b.get(t, "/sites/"+id).want(t, 404)
		b.post(t, page+"/link", url.Values{"name": {strings.Repeat("n", 51)}}).want(t, 400, "name must be at most 50 characters")
		b.post(t, page+"/link", url.Values{"name": {"Partners"}}).redirect(t, page+"?done=link#visibility")
		_, links, err := s.App.ListShareLinks(context.Background(), folio.Caller{UserID: u.ID}, org, id, folio.ListOptions{Limit: 10})
		if err != nil || len(links.Items) != 1 {
			t.Fatalf("share links %v %v", links, err)
		}
		l := links.Items[0]
		shared := apitest.PublicURL + "/sites/" + id + "?shareKey=" + url.QueryEscape(l.Key)
		b.get(t, page).want(t, 200, "Partners", `<code id="link-`+l.ID+`">`+shared+`</code>`,
			`<button type="button" class="copy" data-copy="link-`+l.ID+`" aria-label="Copy the URL of Partners" hidden>Copy</button>`)
		reader := newBrowser(s)
		reader.get(t, strings.TrimPrefix(shared, apitest.PublicURL)).want(t, 200, "Hello readers.")
		b.post(t, page+"/revoke", url.Values{"id": {l.ID}}).redirect(t, page+"?done=revoked#visibility")
		newBrowser(s).get(t, strings.TrimPrefix(shared, apitest.PublicURL)).want(t, 404)
		p := b.get(t, page).want(t, 200, "revoked")
		if strings.Contains(p.Body, l.Key) {
			t.Fatal("a revoked link's URL is still offered")
		}

		// Visitor authentication: the key shows once after it is made,
		// and after each regeneration.
		p = b.post(t, page+"/visibility", url.Values{"visibility": {"visitor-auth"}}).want(t, 200, "this page shows it only once", "Regenerate the visitor key")
		m := keyRE.FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no key shown:\n%s", p.Body)
		}
		auth, err := s.App.GetSitePublishingAuth(context.Background(), folio.Caller{UserID: u.ID}, org, id)
		if err != nil || auth.PrivateKey != m[1] {
			t.Fatalf("shown key %s, site's %v %v", m[1], auth, err)
		}
		if p := b.get(t, page).want(t, 200, "Visitor authentication"); strings.Contains(p.Body, m[1]) {
			t.Fatal("the key is shown again")
		}
		if p := b.post(t, page+"/visibility", url.Values{"visibility": {"visitor-auth"}}).want(t, 303); strings.Contains(p.Body, m[1]) {
			t.Fatal("saving the same visibility shows the key again")
		}
		p = b.post(t, page+"/visitor-key", nil).want(t, 200, "this page shows it only once")
		m2 := keyRE.FindStringSubmatch(p.Body)
		if m2 == nil || m2[1] == m[1] {
			t.Fatalf("regenerated key %v, was %s", m2, m[1])
		}
		if auth, _ := s.App.GetSitePublishingAuth(context.Background(), folio.Caller{UserID: u.ID}, org, id); auth.PrivateKey != m2[1] {
			t.Fatal("the shown key is not the site's")
		}
		newBrowser(s).get(t, "/sites/"+id).want(t, 401)
	})
}

func TestSiteRedirectsAdaptiveAndDomain(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		guide := space(t, s, org, admin, "Guide", "# Start\n\nHello.\n")
		b := signIn(t, s, u.Email)
		id := newSite(t, b, org, "Docs", guide)
		page := "/o/" + org + "/sites/" + id
		ss := items(t, s, u.ID, org, id)["Guide"][1]

		// Redirects.
		b.get(t, page).want(t, 200, "No redirects.", `<option value="site-space:`+ss+`">Space Guide</option>`)
		b.post(t, page+"/redirect", url.Values{"source": {"no slash"}, "destination": {"site-space:" + ss}}).
			want(t, 400, "source must be a path", `value="no slash"`)
		b.post(t, page+"/redirect", url.Values{"source": {"/old/start"}, "destination": {""}}).want(t, 400, "choose where the redirect leads")
		b.post(t, page+"/redirect", url.Values{"source": {"/old/start"}, "destination": {"site-space:" + ss}}).redirect(t, page+"?done=redirect#redirects")
		rl, _ := s.App.ListRedirects(context.Background(), folio.Caller{UserID: u.ID}, org, id, "", folio.ListOptions{Limit: 10})
		if rl.Count != 1 || rl.Items[0].Source != "/old/start" {
			t.Fatalf("redirects %+v", rl)
		}
		b.get(t, page).want(t, 200, "<code>/old/start</code> → space Guide")
		b.post(t, page+"/unredirect", url.Values{"id": {rl.Items[0].ID}}).redirect(t, page+"?done=removed#redirects")
		b.post(t, page+"/unredirect", url.Values{"id": {rl.Items[0].ID}}).want(t, 404)
		b.get(t, page).want(t, 200, "No redirects.")

		// Adaptive content: the schema's and the conditions' errors are
		// shown by their forms, with what was sent.
		b.post(t, page+"/adaptive", url.Values{"enabled": {"on"}}).redirect(t, page+"?done=adaptive#adaptive")
		if !siteOf(t, s, u.ID, org, id).AdaptiveContent {
			t.Fatal("adaptive content off")
		}
		b.post(t, page+"/schema", url.Values{"schema": {`{"type": "object", "properties": `}}).want(t, 400, `aria-invalid="true"`,
			`{&#34;type&#34;: &#34;object&#34;, &#34;properties&#34;: </textarea>`)
		schema := `{"type": "object", "properties": {"plan": {"type": "string", "description": "Plan", "enum": ["free", "pro"]}, "seats": {"type": "number", "description": "Seats"}}, "additionalProperties": false}`
		b.post(t, page+"/schema", url.Values{"schema": {schema}}).redirect(t, page+"?done=schema#adaptive")
		b.get(t, page).want(t, 200, "&#34;plan&#34;", `<datalist id="conditions"><option value="visitor.claims.plan == &#34;free&#34;">Plan: free</option>`)
		p := b.post(t, page+"/condition", url.Values{"kind": {folio.KindSiteSpace}, "id": {ss}, "condition": {`visitor.claims.plan > 3`}})
		p.want(t, 400, `value="visitor.claims.plan &gt; 3"`, "<details class=\"menu item-menu\" open>")
		if !regexp.MustCompile(`<p class="notice error" role="alert">condition: line 1, column \d+: [^<]+</p>`).MatchString(p.Body) {
			t.Fatalf("the type error is not shown by its form:\n%s", p.Body)
		}
		if got := structureOf(t, s, u.ID, org, id); got != "Guide*" {
			t.Fatalf("a refused condition changed the site: %s", got)
		}
		b.post(t, page+"/condition", url.Values{"kind": {folio.KindSiteSpace}, "id": {ss}, "condition": {`visitor.claims.plan == "pro"`}}).
			redirect(t, page+"?done=condition#structure")
		if got := structureOf(t, s, u.ID, org, id); got != `Guide*?visitor.claims.plan == "pro"` {
			t.Fatalf("condition %s", got)
		}
		b.post(t, page+"/condition", url.Values{"kind": {folio.KindSiteSpace}, "id": {ss}, "condition": {""}}).want(t, 303)
		if got := structureOf(t, s, u.ID, org, id); got != "Guide*" {
			t.Fatalf("condition not removed: %s", got)
		}

		// Domain: hostname and basename, then a proxy, with their steps.
		b.get(t, page).want(t, 200, "No hostname or proxy: this server serves the site at")
		b.post(t, page+"/domain", url.Values{"hostname": {"localhost"}}).want(t, 400, "hostname must be", `value="localhost"`)
		if got := siteOf(t, s, u.ID, org, id).Hostname; got != "" {
			t.Fatalf("a refused hostname was saved: %q", got)
		}
		b.post(t, page+"/domain", url.Values{"hostname": {"Docs.Example.com"}, "basename": {"help"}}).redirect(t, page+"?done=domain#domain")
		if got := siteOf(t, s, u.ID, org, id); got.Hostname != "docs.example.com" || got.Basename != "help" {
			t.Fatalf("domain %q %q", got.Hostname, got.Basename)
		}
		b.get(t, page).want(t, 200, "CNAME record from <code>docs.example.com</code> to <code>folio.test</code>",
			`<a href="https://docs.example.com/help">`, "answers under <code>/help</code> only")
		b.post(t, page+"/domain", url.Values{"hostname": {""}, "proxy": {"https://example.com/docs/"}}).want(t, 303)
		if got := siteOf(t, s, u.ID, org, id); got.Hostname != "" || got.ProxyOrigin != "example.com/docs" {
			t.Fatalf("proxy: %q %q", got.Hostname, got.ProxyOrigin)
		}
		b.get(t, page).want(t, 200, "Steps for the proxy", "forward every request under <code>/docs</code> to <code>"+apitest.PublicURL+"/sites/"+id+"</code>")
		b.post(t, page+"/domain", url.Values{"proxy": {"not a proxy"}}).want(t, 400, "proxy must be")
		if got := siteOf(t, s, u.ID, org, id).ProxyOrigin; got != "example.com/docs" {
			t.Fatalf("a refused proxy changed it: %q", got)
		}
	})
}

// TestSiteFormsRefusedToNonManagers: members below the create role see a
// site without its controls, and their forged forms change nothing;
// guests and strangers get 404.
func TestSiteFormsRefusedToNonManagers(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		a, _ := member(t, s, org, folio.RoleAdmin)
		e, _ := member(t, s, org, folio.RoleEdit)
		guide := space(t, s, org, admin, "Guide", "# Start\n\nHello.\n")
		api := space(t, s, org, admin, "API", "")
		ab := signIn(t, s, a.Email)
		id := newSite(t, ab, org, "Docs", guide, api)
		page := "/o/" + org + "/sites/" + id
		ab.post(t, page+"/visibility", url.Values{"visibility": {"share-link"}}).want(t, 303)
		ab.post(t, page+"/link", url.Values{"name": {"Partners"}}).want(t, 303)
		ab.post(t, page+"/redirect", url.Values{"source": {"/old"}, "destination": {"site-space:" + items(t, s, a.ID, org, id)["Guide"][1]}}).want(t, 303)
		before := siteOf(t, s, a.ID, org, id)
		beforeStructure := structureOf(t, s, a.ID, org, id)
		it := items(t, s, a.ID, org, id)

		eb := signIn(t, s, e.Email)
		lp := eb.get(t, "/o/"+org+"/sites").want(t, 200, "Docs", "Members with the create role or higher create and manage sites")
		if strings.Contains(lp.Body, "Create site") {
			t.Fatal("an editor is offered Create site")
		}
		p := eb.get(t, page).want(t, 200, "<h1>Docs</h1>", "Guide", "API", "<code>/old</code>", "Share links: only whoever holds a link")
		for _, control := range []string{"publish", "visibility", "space", "section", "move", "remove", "link", "revoke",
			"redirect", "unredirect", "schema", "domain", "customize", "delete"} {
			if strings.Contains(p.Body, page+"/"+control) {
				t.Fatalf("an editor is offered %q", control)
			}
		}
		for _, control := range []string{"shareKey", "Options", `<form method="post" action="` + page, ">Publish<", "Save", "Add "} {
			if strings.Contains(p.Body, control) {
				t.Fatalf("an editor is offered %q", control)
			}
		}
		forged := []struct {
			action string
			form   url.Values
		}{
			{"publish", nil},
			{"title", url.Values{"title": {"Forged"}}},
			{"visibility", url.Values{"visibility": {"public"}}},
			{"visitor-key", nil},
			{"space", url.Values{"space": {guide}}},
			{"section", url.Values{"space": {guide}}},
			{"group", url.Values{"title": {"Forged"}}},
			{"move", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["API"][1]}, "dir": {"up"}}},
			{"remove", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["API"][1]}}},
			{"default", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["API"][1]}}},
			{"condition", url.Values{"kind": {folio.KindSiteSpace}, "id": {it["API"][1]}, "condition": {"true"}}},
			{"link", url.Values{"name": {"Forged"}}},
			{"redirect", url.Values{"source": {"/forged"}, "destination": {"site-space:" + it["API"][1]}}},
			{"adaptive", url.Values{"enabled": {"on"}}},
			{"schema", url.Values{"schema": {`{"type": "object"}`}}},
			{"domain", url.Values{"hostname": {"docs.example.com"}}},
			{"delete", url.Values{"confirm": {"yes"}}},
		}
		for _, f := range forged {
			eb.post(t, page+"/"+f.action, f.form).want(t, 403, "only members with the create role or higher can manage sites")
		}
		eb.post(t, "/o/"+org+"/sites", url.Values{"title": {"Forged"}}).want(t, 403)
		after := siteOf(t, s, a.ID, org, id)
		if after.Title != before.Title || after.Published != before.Published || after.Visibility != before.Visibility ||
			after.Hostname != "" || after.AdaptiveContent || !after.UpdatedAt.Equal(before.UpdatedAt) {
			t.Fatalf("forged forms changed the site: %+v, was %+v", after.Site, before.Site)
		}
		if got := structureOf(t, s, a.ID, org, id); got != beforeStructure {
			t.Fatalf("forged forms changed the structure: %s, was %s", got, beforeStructure)
		}
		_, links, _ := s.App.ListShareLinks(context.Background(), folio.Caller{UserID: a.ID}, org, id, folio.ListOptions{Limit: 10})
		rl, _ := s.App.ListRedirects(context.Background(), folio.Caller{UserID: a.ID}, org, id, "", folio.ListOptions{Limit: 10})
		if len(links.Items) != 1 || rl.Count != 1 {
			t.Fatalf("forged forms changed links or redirects: %d links, %d redirects", len(links.Items), rl.Count)
		}
		if l, _ := s.App.ListSites(context.Background(), folio.Caller{UserID: a.ID}, org, folio.SiteFilter{}, folio.ListOptions{Limit: 10}); l.Count != 1 {
			t.Fatalf("%d sites", l.Count)
		}
		// Revoking is refused too.
		eb.post(t, page+"/revoke", url.Values{"id": {links.Items[0].ID}}).want(t, 403)
		if _, links, _ = s.App.ListShareLinks(context.Background(), folio.Caller{UserID: a.ID}, org, id, folio.ListOptions{Limit: 10}); !links.Items[0].Active {
			t.Fatal("a forged revoke revoked the link")
		}

		// A stranger does not learn the site exists.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, page).want(t, 404)
		sb.post(t, page+"/publish", nil).want(t, 404)
		sb.get(t, "/o/"+other+"/sites/"+id).want(t, 404)
		sb.post(t, "/o/"+other+"/sites/"+id+"/publish", nil).want(t, 404)
		if siteOf(t, s, a.ID, org, id).Published {
			t.Fatal("a stranger published the site")
		}
	})
}
