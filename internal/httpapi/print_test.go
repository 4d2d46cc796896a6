package httpapi_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
)

// printSpace imports a space of several pages for printing: nested pages,
// code, headings, an image, and a page with hostile title and text.
func printSpace(t *testing.T, s *apitest.Server, token, org, title string) (space string, rev revisionBody) {
	t.Helper()
	space = newSpace(t, s, token, org, title)
	importInto(t, s, token, space, "", "zip", zipOf(t, map[string]string{
		"SUMMARY.md": "# Summary\n\n* [Getting started](start.md)\n  * [Installation steps](install.md)\n" +
			"* [Reference manual](reference.md)\n* [<script>alert(1)</script> Hostile](hostile.md)\n",
		"start.md": "# Getting started\n\nWelcome to the handbook.\n\n## First heading\n\nSee [the reference](reference.md).\n",
		"install.md": "# Installation steps\n\n```go\npackage main\n\nfunc main() { println(\"installation code sample with a rather long line that must wrap when printed on paper of any usual size\") }\n```\n\n" +
			"![Logo](.gitbook/assets/logo.png)\n",
		"reference.md":             "# Reference manual\n\n## Options heading\n\n| Flag | Meaning |\n| --- | --- |\n| -v | verbose |\n",
		"hostile.md":               "# Hostile\n\nText <img src=x onerror=alert(2)> and <script>alert(3)</script> [link](javascript:alert(4)).\n",
		".gitbook/assets/logo.png": string(tinyPNG()),
	}))
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
	return space, rev
}

// pageID finds a page of a revision by title, at any depth.
func pageID(t *testing.T, pages []pageBody, title string) string {
	t.Helper()
	for _, p := range pages {
		if p.Title == title {
			return p.ID
		}
		if id := findPageID(p.Pages, title); id != "" {
			return id
		}
	}
	t.Fatalf("no page %q", title)
	return ""
}

func findPageID(pages []pageBody, title string) string {
	for _, p := range pages {
		if p.Title == title {
			return p.ID
		}
		if id := findPageID(p.Pages, title); id != "" {
			return id
		}
	}
	return ""
}

// printPath asks for a print URL and returns it as a path on the test
// server (the URL names the public URL).
func printPath(t testing.TB, s *apitest.Server, token, path string) string {
	t.Helper()
	var out struct{ URL string }
	s.Do(t, token, "GET", path, nil).WantStatus(t, 200).JSON(t, &out)
	if !strings.HasPrefix(out.URL, apitest.PublicURL+"/v1/print/spaces/") {
		t.Fatalf("print URL %q", out.URL)
	}
	return strings.TrimPrefix(out.URL, apitest.PublicURL)
}

// TestPrintPDFMatrix: whoever may read a space or change request may
// export it; other callers, and unknown change requests and pages, 404.
func TestPrintPDFMatrix(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		admin := a.Tokens[apitest.Admin]
		space, rev := printSpace(t, s, admin, a.Org, "Handbook")
		page := pageID(t, rev.Pages, "Reference manual")
		theirs, _ := printSpace(t, s, a.Tokens[apitest.OtherOrg], a.OtherOrg, "Theirs")
		var cr crBody
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Edits"}).WantStatus(t, 201).JSON(t, &cr)

		viewers := apitest.Want(apitest.NoAccess, apitest.AnyActor, 200)
		nobody := map[string]int{apitest.AnyActor: 404}
		fixed := func(p string) func(*apitest.Actors) string { return func(*apitest.Actors) string { return p } }
		var cases []apitest.Case
		for _, base := range []struct{ name, path string }{
			{"getSpacePDF", "/v1/spaces/" + space + "/pdf"},
			{"getChangeRequestPDF", crPath(space, cr) + "/pdf"},
			{"getChangeRequestPDF by number", "/v1/spaces/" + space + "/change-requests/1/pdf"},
		} {
			cases = append(cases,
				apitest.Case{Name: base.name, Method: "GET", Path: fixed(base.path), Want: viewers},
				apitest.Case{Name: base.name + " page", Method: "GET", Path: fixed(base.path + "?page=" + page), Want: viewers},
				apitest.Case{Name: base.name + " only page", Method: "GET", Path: fixed(base.path + "?only=true&page=" + page), Want: viewers},
				apitest.Case{Name: base.name + " unknown page", Method: "GET", Path: fixed(base.path + "?page=nope"),
					Want: apitest.Want(apitest.NoAccess, apitest.AnyActor, 404)},
				apitest.Case{Name: base.name + " only without page", Method: "GET", Path: fixed(base.path + "?only=true"),
					Want: apitest.Want(apitest.NoAccess, apitest.AnyActor, 400)},
				apitest.Case{Name: base.name + " only not a boolean", Method: "GET", Path: fixed(base.path + "?only=maybe&page=" + page),
					Want: apitest.Want(apitest.NoAccess, apitest.AnyActor, 400)},
			)
		}
		cases = append(cases,
			apitest.Case{Name: "unknown change request", Method: "GET", Path: fixed("/v1/spaces/" + space + "/change-requests/nope/pdf"), Want: nobody},
			apitest.Case{Name: "another organization's space", Method: "GET", Path: fixed("/v1/spaces/" + theirs + "/pdf"),
				Want: apitest.Want(nobody, apitest.OtherOrg, 200)},
			apitest.Case{Name: "unknown space", Method: "GET", Path: fixed("/v1/spaces/nope/pdf"), Want: nobody},
		)
		apitest.Matrix(t, s, a, cases)

		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/pdf?only=true", nil).WantError(t, 400, "only needs a page")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/pdf?page=nope", nil).WantError(t, 404, "page not found")
		s.Do(t, "", "GET", "/v1/spaces/"+space+"/pdf", nil).WantStatus(t, 401)
	})
}

// TestPrintPage: the signed URL opens the print page without a token, for
// an hour; every page title is there, content is escaped, and a tampered
// or expired URL is not found.
func TestPrintPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space, rev := printSpace(t, s, admin, org, "Handbook <b>bold</b>")
		path := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf")
		r := s.Do(t, "", "GET", path, nil).WantStatus(t, 200)
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Fatalf("Content-Type %q", ct)
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'none'") {
			t.Fatalf("CSP %q", csp)
		}
		body := string(r.Body)
		for _, want := range []string{"Getting started", "Installation steps", "Reference manual", "First heading",
			"Options heading", "installation code sample", "Contents", "Handbook &lt;b&gt;bold&lt;/b&gt;",
			"&lt;script&gt;alert(1)&lt;/script&gt; Hostile", `href="#page-` + pageID(t, rev.Pages, "Reference manual") + `"`,
			apitest.PublicURL + "/v1/files/"} {
			if !strings.Contains(body, want) {
				t.Errorf("print page lacks %q", want)
			}
		}
		for _, bad := range []string{"<script>", "<img src=x", "javascript:", "<b>bold"} {
			if strings.Contains(body, bad) {
				t.Errorf("print page has %q", bad)
			}
		}
		// Tree order: a page's subpages follow it.
		if i, j, k := strings.Index(body, "<h1>Getting started"), strings.Index(body, "<h1>Installation steps"),
			strings.Index(body, "<h1>Reference manual"); !(i >= 0 && i < j && j < k) {
			t.Errorf("pages out of tree order: %d %d %d", i, j, k)
		}

		// One page alone, and a page with its subpages.
		start := pageID(t, rev.Pages, "Getting started")
		only := string(s.Do(t, "", "GET", printPath(t, s, admin, "/v1/spaces/"+space+"/pdf?only=true&page="+start), nil).WantStatus(t, 200).Body)
		if !strings.Contains(only, "<h1>Getting started") || strings.Contains(only, "Installation steps") || strings.Contains(only, "Reference manual") {
			t.Errorf("only=true prints more than the page:\n%s", only)
		}
		sub := string(s.Do(t, "", "GET", printPath(t, s, admin, "/v1/spaces/"+space+"/pdf?page="+start), nil).WantStatus(t, 200).Body)
		if !strings.Contains(sub, "Installation steps") || strings.Contains(sub, "Reference manual") {
			t.Errorf("page= does not print the page with its subpages")
		}

		// Tampering with any signed part, or the signature, is not found.
		u, _ := url.Parse(path)
		for name, edit := range map[string]func(q url.Values){
			"signature": func(q url.Values) { q.Set("sig", "AAAA"+q.Get("sig")[4:]) },
			"page":      func(q url.Values) { q.Set("page", start) },
			"only":      func(q url.Values) { q.Set("only", "true") },
			"expires":   func(q url.Values) { q.Set("expires", "99999999999") },
			"no sig":    func(q url.Values) { q.Del("sig") },
		} {
			q := u.Query()
			edit(q)
			s.Do(t, "", "GET", u.Path+"?"+q.Encode(), nil).WantError(t, 404, "print link not found or expired")
			_ = name
		}
		other := newSpace(t, s, admin, org, "Other")
		s.Do(t, "", "GET", strings.Replace(path, space, other, 1), nil).WantError(t, 404, "print link not found or expired")
		s.Do(t, "", "GET", path+"&format=doc", nil).WantStatus(t, 400)

		// The URL works for an hour.
		s.Clock.Set(time.Now())
		path = printPath(t, s, admin, "/v1/spaces/"+space+"/pdf")
		s.Clock.Advance(59 * time.Minute)
		s.Do(t, "", "GET", path, nil).WantStatus(t, 200)
		s.Clock.Advance(2 * time.Minute)
		s.Do(t, "", "GET", path, nil).WantError(t, 404, "print link not found or expired")
	})
}

// TestPrintChangeRequest: a change request prints its head, named on the
// cover.
func TestPrintChangeRequest(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space, _ := printSpace(t, s, admin, org, "Handbook")
		var cr crBody
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "New <chapter>"}).WantStatus(t, 201).JSON(t, &cr)
		importIntoCR(t, s, admin, space, cr, "", "# Draft chapter\n\nOnly in the change request.\n")
		body := string(s.Do(t, "", "GET", printPath(t, s, admin, crPath(space, cr)+"/pdf"), nil).WantStatus(t, 200).Body)
		for _, want := range []string{"Draft chapter", "Only in the change request.", "Change request #1: New &lt;chapter&gt; in Handbook"} {
			if !strings.Contains(body, want) {
				t.Errorf("change request print lacks %q", want)
			}
		}
		main := string(s.Do(t, "", "GET", printPath(t, s, admin, "/v1/spaces/"+space+"/pdf"), nil).WantStatus(t, 200).Body)
		if strings.Contains(main, "Draft chapter") {
			t.Error("the space's print shows the change request's content")
		}
	})
}
