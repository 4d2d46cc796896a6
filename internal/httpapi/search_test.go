package httpapi_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type searchList struct {
	Count int
	Next  *struct{ Page string }
	Items []struct {
		ID, Title, Path string
		Sections        []struct {
			ID, Title, Path, Body string
			URLs                  struct{ App string }
		}
		Ancestors []struct{ Title string }
		URLs      struct{ App string }
	}
}

func (l searchList) titles() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.Title
	}
	return out
}

func TestSearchSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Deployment](deploy.md)\n  * [Kubernetes](deploy/k8s.md)\n    * [Operators](deploy/operators.md)\n* [Overview](overview.md)\n* [Glossary](glossary.md)\n",
			"deploy.md":  "# Deployment\n\nHow to run the server in production.\n\n## Backups\n\nCopy the data folder every night.\n",
			"deploy/k8s.md": "# Kubernetes\n\nA chart for clusters.\n\n## Storage\n\nMount a volume for the data folder; " +
				"the installation takes a minute.\n",
			"deploy/operators.md": "# Operators\n\nReconcilers are written with tiller.\n",
			"overview.md":         "# Overview\n\nThis page mentions deployment once, in passing.\n",
			"glossary.md":         "# Glossary\n\nNothing relevant here.\n",
		}))
		search := func(q string) searchList {
			t.Helper()
			var l searchList
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query="+url.QueryEscape(q), nil).WantStatus(t, 200).JSON(t, &l)
			return l
		}

		// A title hit ranks above a body hit.
		l := search("deployment")
		if got := l.titles(); len(got) != 2 || got[0] != "Deployment" || got[1] != "Overview" || l.Count != 2 {
			t.Fatalf("deployment: %v", got)
		}
		if l.Items[0].Path != "deploy" || l.Items[0].URLs.App != apitest.PublicURL+"/s/"+space+"/deploy" {
			t.Fatalf("hit %+v", l.Items[0])
		}
		// Section hits carry the heading's anchor, an excerpt and ancestors.
		l = search("volume")
		if len(l.Items) != 1 || l.Items[0].Title != "Kubernetes" || len(l.Items[0].Ancestors) != 1 ||
			l.Items[0].Ancestors[0].Title != "Deployment" {
			t.Fatalf("volume: %+v", l.Items)
		}
		if l := search("tiller"); len(l.Items) != 1 || len(l.Items[0].Ancestors) != 2 ||
			l.Items[0].Ancestors[0].Title != "Deployment" || l.Items[0].Ancestors[1].Title != "Kubernetes" {
			t.Fatalf("tiller: ancestors must list the pages above, top first: %+v", l.Items)
		}
		sec := l.Items[0].Sections[0]
		if sec.ID != "storage" || sec.Title != "Storage" || sec.Path != "deploy/k8s#storage" ||
			!strings.Contains(sec.Body, "volume") || !strings.HasSuffix(sec.URLs.App, "/deploy/k8s#storage") {
			t.Fatalf("section %+v", sec)
		}
		// The last word matches as a prefix, and a typo in its second half
		// still finds it.
		if got := search("instal").titles(); len(got) != 1 || got[0] != "Kubernetes" {
			t.Fatalf("prefix: %v", got)
		}
		if got := search("data instalation").titles(); len(got) != 1 || got[0] != "Kubernetes" {
			t.Fatalf("typo: %v", got)
		}
		// Every word is required; nothing found is an empty list.
		if l := search("backups kubernetes"); l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("and: %v", l.titles())
		}
		// Operators typed by users are words, not syntax.
		for _, q := range []string{`"`, `*`, `NEAR(a b)`, `a:*&|!`, `'); DROP TABLE spaces; --`} {
			search(q)
		}
		// Pagination by limit.
		var first searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?limit=1&query=data", nil).WantStatus(t, 200).JSON(t, &first)
		if first.Count != 2 || len(first.Items) != 1 || first.Next == nil {
			t.Fatalf("first page %+v", first)
		}
		var second searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?limit=1&query=data&page="+first.Next.Page, nil).WantStatus(t, 200).JSON(t, &second)
		if len(second.Items) != 1 || second.Next != nil || second.Items[0].ID == first.Items[0].ID {
			t.Fatalf("second page %+v", second)
		}

		// The index follows the current revision: a page import that
		// replaces a document drops its old words.
		importInto(t, s, admin, space, l.Items[0].ID, "markdown", []byte("# Kubernetes\n\nHelm only.\n"))
		if got := search("volume").titles(); len(got) != 0 {
			t.Fatalf("stale hit after edit: %v", got)
		}
		if got := search("helm").titles(); len(got) != 1 {
			t.Fatalf("new words not indexed: %v", got)
		}

		// Errors.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search", nil).WantError(t, 400, "query is required")
		var atLimit searchList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query="+strings.Repeat("a", 512), nil).WantStatus(t, 200).JSON(t, &atLimit)
		if atLimit.Count != 0 || atLimit.Items == nil || len(atLimit.Items) != 0 {
			t.Fatalf("512-character query: %+v", atLimit)
		}
		s.DoUnchecked(t, admin, "GET", "/v1/spaces/"+space+"/search?query="+strings.Repeat("a", 513), nil).WantError(t, 400, "at most 512")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=x&limit=0", nil).WantError(t, 400, "limit")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/search?query=x&page=nope", nil).WantError(t, 400, "page")
		_, other := s.Org(t)
		s.Do(t, other, "GET", "/v1/spaces/"+space+"/search?query=data", nil).WantError(t, 404, "space not found")
	})
}

func TestSearchOrganization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		open := newSpace(t, s, admin, org, "Public handbook")
		secret := newSpace(t, s, admin, org, "Secret plans")
		importInto(t, s, admin, open, "", "markdown", []byte("# Onboarding\n\nThe welcome checklist.\n"))
		importInto(t, s, admin, secret, "", "markdown", []byte("# Merger\n\nThe welcome party is a cover.\n"))
		// Only the admin and invited members see the secret space.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+secret, map[string]any{"defaultLevel": nil}).WantStatus(t, 200)
		_, guest := s.Member(t, org, folio.RoleGuest)
		var guestUser struct{ ID string }
		s.Do(t, guest, "GET", "/v1/user", nil).JSON(t, &guestUser)
		s.Do(t, admin, "POST", "/v1/spaces/"+open+"/permissions", map[string]any{"role": "read", "users": []string{guestUser.ID}}).WantStatus(t, 204)

		type orgHits struct {
			Count int
			Items []struct {
				ID, Title string
				Pages     []struct{ ID, Title string }
			}
		}
		var all orgHits
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/search?query=welcome", nil).WantStatus(t, 200).JSON(t, &all)
		if all.Count != 2 || len(all.Items) != 2 {
			t.Fatalf("admin sees %+v", all)
		}
		var limited orgHits
		s.Do(t, guest, "GET", "/v1/orgs/"+org+"/search?query=welcome", nil).WantStatus(t, 200).JSON(t, &limited)
		if limited.Count != 1 || limited.Items[0].ID != open || limited.Items[0].Title != "Public handbook" ||
			len(limited.Items[0].Pages) != 1 || limited.Items[0].Pages[0].Title != "Onboarding" {
			t.Fatalf("guest sees %+v", limited)
		}
		// A member who is not a guest sees every space through the
		// organization's default role, read, which joiners get.
		_, member := s.Member(t, org, folio.RoleRead)
		var seen orgHits
		s.Do(t, member, "GET", "/v1/orgs/"+org+"/search?query=welcome", nil).WantStatus(t, 200).JSON(t, &seen)
		got := map[string]string{}
		for _, it := range seen.Items {
			if len(it.Pages) != 1 {
				t.Fatalf("member's hits in %s: %+v", it.Title, it.Pages)
			}
			got[it.ID] = it.Pages[0].Title
		}
		if diff := cmp.Diff(map[string]string{open: "Onboarding", secret: "Merger"}, got); diff != "" || seen.Count != 2 {
			t.Fatalf("member's hits (-want +got):\n%s (count %d)", diff, seen.Count)
		}
		// A 512-character query is allowed.
		s.Do(t, member, "GET", "/v1/orgs/"+org+"/search?query="+strings.Repeat("é", 512), nil).WantStatus(t, 200).JSON(t, &seen)
		if seen.Count != 0 {
			t.Fatalf("512-character query: %+v", seen)
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/search", nil).WantError(t, 400, "query is required")
		s.DoUnchecked(t, admin, "GET", "/v1/orgs/"+org+"/search?query="+strings.Repeat("é", 513), nil).WantError(t, 400, "at most 512")
		_, other := s.Org(t)
		s.Do(t, other, "GET", "/v1/orgs/"+org+"/search?query=welcome", nil).WantError(t, 404, "")
		// A deleted space drops out of results.
		s.Do(t, admin, "DELETE", "/v1/spaces/"+open, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/search?query=checklist", nil).WantStatus(t, 200).JSON(t, &all)
		if all.Count != 0 {
			t.Fatalf("deleted space still found: %+v", all)
		}
	})
}
