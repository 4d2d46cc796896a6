package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// siteSearchList is a searchSiteContent answer.
type siteSearchList struct {
	Count int
	Next  *struct{ Page string }
	Items []siteSearchItem
}

type siteSearchItem struct {
	ID, Title string
	Pages     []struct {
		ID, Title, Path string
		Sections        []struct{ ID, Title, Path, Body string }
	}
}

// spaces lists the answer as "space: page, page" lines.
func (l siteSearchList) spaces() []string {
	var out []string
	for _, it := range l.Items {
		var pages []string
		for _, p := range it.Pages {
			pages = append(pages, p.Title)
		}
		out = append(out, it.Title+": "+strings.Join(pages, ", "))
	}
	return out
}

// TestSearchSiteContent: a site's search finds the current content of
// the site spaces the caller may see, and nothing else: not a space the
// site does not publish, not another site's; a site API token sees the
// spaces of its grant only; another organization's site is 404. Scopes
// narrow it; pages of results are groups of spaces; every input is
// bounded.
func TestSearchSiteContent(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		unpublished := newSpace(t, s, admin, org, "Drafts")
		elsewhere := newSpace(t, s, admin, org, "Elsewhere")
		importInto(t, s, admin, guide, "", "markdown", []byte("# Deploying\n\nRun the kubernetes chart.\n\n## Backups\n\nKubernetes volumes.\n"))
		importInto(t, s, admin, api, "", "markdown", []byte("# Endpoints\n\nThe kubernetes operator answers here.\n"))
		importInto(t, s, admin, unpublished, "", "markdown", []byte("# Secret plans\n\nKubernetes secrets.\n"))
		importInto(t, s, admin, elsewhere, "", "markdown", []byte("# Other site\n\nKubernetes elsewhere.\n"))
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		other := newSite(t, s, admin, org, map[string]any{"title": "Other", "spaces": []string{elsewhere}})
		sites := "/v1/orgs/" + org + "/sites/"
		var sec struct{ ID string }
		s.Do(t, admin, "POST", sites+st.ID+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &sec)
		var sss struct {
			Items []struct {
				ID, Section string
				Space       struct{ ID string }
			}
		}
		s.Do(t, admin, "GET", sites+st.ID+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &sss)
		var apiSS string
		for _, ss := range sss.Items {
			if ss.Space.ID == api {
				apiSS = ss.ID
			}
		}
		search := func(tok, site, query string, body map[string]any) siteSearchList {
			t.Helper()
			if body == nil {
				body = map[string]any{"scope": map[string]any{"mode": "all"}}
			}
			body["query"] = query
			var l siteSearchList
			s.Do(t, tok, "POST", sites+site+"/search", body).WantStatus(t, 200).JSON(t, &l)
			return l
		}
		// want compares in any order: spaces are ranked by their best hit.
		want := func(l siteSearchList, lines ...string) {
			t.Helper()
			got := l.spaces()
			slices.Sort(got)
			slices.Sort(lines)
			if !slices.Equal(got, lines) {
				t.Fatalf("results %q, want %q", got, lines)
			}
		}

		// A member previews the site before it is published: its two
		// spaces, never a space it does not show.
		l := search(admin, st.ID, "kubernetes", nil)
		want(l, "Guide: Deploying", "API: Endpoints")
		if l.Count != 2 || !slices.ContainsFunc(l.Items, func(it siteSearchItem) bool {
			return it.ID == guide && it.Pages[0].Path == "deploying" && len(it.Pages[0].Sections) == 2
		}) {
			t.Fatalf("answer %+v", l)
		}
		want(search(admin, st.ID, "secrets", nil))
		want(search(admin, other.ID, "kubernetes", nil), "Elsewhere: Other site")

		// Scopes.
		want(search(admin, st.ID, "kubernetes", map[string]any{"scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{apiSS}}}), "API: Endpoints")
		want(search(admin, st.ID, "kubernetes", map[string]any{"siteSpaceIds": []string{apiSS, "nope"}}), "API: Endpoints")
		want(search(admin, st.ID, "kubernetes", map[string]any{"mode": "current", "siteSpaceId": apiSS}), "Guide: Deploying", "API: Endpoints")
		want(search(admin, st.ID, "kubernetes", map[string]any{"scope": map[string]any{"mode": "default"}}), "Guide: Deploying", "API: Endpoints")
		want(search(admin, st.ID, "kubernetes", map[string]any{"mode": "all"}), "Guide: Deploying", "API: Endpoints")
		// A site space of another site is not this site's.
		var otherSS struct{ Items []struct{ ID string } }
		s.Do(t, admin, "GET", sites+other.ID+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &otherSS)
		want(search(admin, st.ID, "kubernetes", map[string]any{"scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{otherSS.Items[0].ID}}}))

		// Pages of results are groups of spaces.
		var p1, p2 siteSearchList
		body := map[string]any{"query": "kubernetes", "scope": map[string]any{"mode": "all"}}
		s.Do(t, admin, "POST", sites+st.ID+"/search?limit=1", body).WantStatus(t, 200).JSON(t, &p1)
		if p1.Next == nil || p1.Count != 2 || len(p1.Items) != 1 {
			t.Fatalf("first page %+v", p1)
		}
		s.Do(t, admin, "POST", sites+st.ID+"/search?limit=1&page="+p1.Next.Page, body).WantStatus(t, 200).JSON(t, &p2)
		want(p2, "API: Endpoints")
		if p2.Next != nil {
			t.Fatalf("second page %+v", p2)
		}

		// Another organization: 404, on its path or on this one.
		org2, admin2 := s.Org(t)
		s.Do(t, admin2, "POST", sites+st.ID+"/search", body).WantError(t, 404, "site not found")
		s.Do(t, admin2, "POST", "/v1/orgs/"+org2+"/sites/"+st.ID+"/search", body).WantStatus(t, 404)
		s.Do(t, admin, "POST", "/v1/orgs/"+org2+"/sites/"+st.ID+"/search", body).WantStatus(t, 404)

		// A site API token: its site's spaces, not a site space added
		// after it was issued, not another site.
		s.Do(t, admin, "POST", sites+st.ID+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "POST", sites+other.ID+"/publish", nil).WantStatus(t, 200)
		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken
		want(search(tok, st.ID, "kubernetes", nil), "Guide: Deploying", "API: Endpoints")
		s.Do(t, admin, "POST", sites+st.ID+"/site-spaces", map[string]any{"spaceId": unpublished, "sectionId": sec.ID}).WantStatus(t, 201)
		want(search(tok, st.ID, "kubernetes", nil), "Guide: Deploying", "API: Endpoints")
		want(search(admin, st.ID, "kubernetes", nil), "Guide: Deploying", "API: Endpoints", "Drafts: Secret plans")
		s.Do(t, tok, "POST", sites+other.ID+"/search", body).WantStatus(t, 404)
		// Anyone signed in reads a published public site, as its profile.
		want(search(admin2, st.ID, "kubernetes", nil), "Guide: Deploying", "API: Endpoints", "Drafts: Secret plans")
		s.Do(t, admin, "POST", sites+st.ID+"/unpublish", nil).WantStatus(t, 200)
		s.Do(t, tok, "POST", sites+st.ID+"/search", body).WantStatus(t, 404)
		s.Do(t, admin2, "POST", sites+st.ID+"/search", body).WantStatus(t, 404)

		// Bounds: each refused with 400.
		many := make([]string, 101)
		for i := range many {
			many[i] = fmt.Sprint("ss", i)
		}
		for _, c := range []struct {
			name string
			body map[string]any
		}{
			{"query/empty", map[string]any{"query": "", "scope": map[string]any{"mode": "all"}}},
			{"query/missing", map[string]any{"scope": map[string]any{"mode": "all"}}},
			{"query/too long", map[string]any{"query": strings.Repeat("a", 513), "scope": map[string]any{"mode": "all"}}},
			{"scope/missing", map[string]any{"query": "x"}},
			{"scope/unknown mode", map[string]any{"query": "x", "scope": map[string]any{"mode": "everything"}}},
			{"scope/current is not a scope", map[string]any{"query": "x", "scope": map[string]any{"mode": "current"}}},
			{"scope/specific without ids", map[string]any{"query": "x", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{}}}},
			{"scope/too many ids", map[string]any{"query": "x", "scope": map[string]any{"mode": "specific", "siteSpaceIds": many}}},
			{"scope/too many included", map[string]any{"query": "x", "scope": map[string]any{"mode": "default", "includedSiteSpaces": many}}},
			{"scope/long id", map[string]any{"query": "x", "scope": map[string]any{"mode": "default", "currentSiteSpace": strings.Repeat("x", 65)}}},
			{"current/without site space", map[string]any{"query": "x", "mode": "current"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				s.DoUnchecked(t, admin, "POST", sites+st.ID+"/search", c.body).WantStatus(t, 400)
			})
		}
		s.Do(t, admin, "POST", sites+st.ID+"/search?limit=1001", body).WantStatus(t, 400)
		s.Do(t, admin, "POST", sites+st.ID+"/search?page=bogus", body).WantStatus(t, 400)
		// Authorization comes first: a bad request to a site one may not
		// read is 404.
		s.DoUnchecked(t, admin2, "POST", sites+st.ID+"/search", map[string]any{"query": ""}).WantStatus(t, 404)
	})
}
