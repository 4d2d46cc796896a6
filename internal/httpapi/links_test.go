package httpapi_test

import (
	"net/url"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

type linkList struct {
	Count int
	Items []struct {
		Status, Relation string
		TargetReference  *struct {
			Kind, URL string
			Page      *struct{ ID, Title string }
			File      *struct{ ID, Name string }
		}
		LocationReferences []struct {
			Kind         string
			Organization struct{ ID string }
			Space        struct{ ID string }
			Page         struct{ ID, Title string }
		}
		Ref map[string]any
	}
	Stats struct {
		Total  int
		Broken struct{ Total, ChangeRequest int }
	}
}

// pagedLinks is a page of a links list.
type pagedLinks struct {
	linkList
	Next *struct{ Page string }
}

// refKey names a link target by its reference: "page:ID", "file:ID", a URL,
// or the kind of other references.
func refKey(ref map[string]any) string {
	kind, _ := ref["kind"].(string)
	switch kind {
	case "url":
		u, _ := ref["url"].(string)
		return u
	case "page":
		p, _ := ref["page"].(string)
		return "page:" + p
	}
	return kind
}

func TestLinksAndBacklinks(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"target.md": "# Target\n\nThe page others point at.\n",
			"source.md": "# Source\n\nSee [the target](target.md), [a gone page](page:missingpage), " +
				"[the web](https://example.com/docs), [another space](" + apitest.PublicURL + "/s/xyz/intro) " +
				"and [the target again](target.md).\n\n![Logo](assets/logo.png)\n",
			"assets/logo.png": string(tinyPNG()),
		}))
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		pages := map[string]string{}
		for _, p := range rev.Pages {
			pages[p.Title] = p.ID
		}
		source, target, file := pages["Source"], pages["Target"], rev.Files[0].ID

		var l linkList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 5 || l.Stats.Total != 5 || l.Stats.Broken.Total != 1 {
			t.Fatalf("links %+v", l)
		}
		status := map[string]string{}
		for _, it := range l.Items {
			kind, _ := it.Ref["kind"].(string)
			key := kind
			switch kind {
			case "url":
				key = it.Ref["url"].(string)
			case "page":
				key = "page:" + it.Ref["page"].(string)
			}
			status[key] = it.Status + "/" + it.Relation
			if len(it.LocationReferences) != 1 || it.LocationReferences[0].Page.ID != source ||
				it.LocationReferences[0].Space.ID != space || it.LocationReferences[0].Organization.ID != org {
				t.Fatalf("locations of %s: %+v", key, it.LocationReferences)
			}
		}
		want := map[string]string{
			"page:" + target:                   "ok/reference",
			"page:missingpage":                 "broken/reference",
			"https://example.com/docs":         "ok/reference",
			apitest.PublicURL + "/s/xyz/intro": "in-app/reference",
			"file":                             "ok/dependsOn",
		}
		for k, v := range want {
			if status[k] != v {
				t.Errorf("link %s: %q, want %q (all: %v)", k, status[k], v, status)
			}
		}
		for _, it := range l.Items {
			if it.Status == "ok" && it.TargetReference == nil {
				t.Errorf("ok link without a target: %+v", it)
			}
		}

		// The status filter narrows the list, not the stats.
		for _, tt := range []struct {
			status string
			want   []string // refs of the items, in order of first use
		}{
			{"broken", []string{"page:missingpage"}},
			{"ok", []string{"page:" + target, "https://example.com/docs", "file"}},
			{"in-app", []string{apitest.PublicURL + "/s/xyz/intro"}},
		} {
			t.Run("status="+tt.status, func(t *testing.T) {
				var l linkList
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?status="+tt.status, nil).WantStatus(t, 200).JSON(t, &l)
				var got []string
				for _, it := range l.Items {
					if it.Status != tt.status {
						t.Errorf("status=%s lists a %s link: %v", tt.status, it.Status, it.Ref)
					}
					got = append(got, refKey(it.Ref))
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("links with status %s (-want +got):\n%s", tt.status, diff)
				}
				if l.Count != len(tt.want) || l.Stats.Total != 5 || l.Stats.Broken.Total != 1 {
					t.Errorf("count %d, stats %+v", l.Count, l.Stats)
				}
			})
		}
		// Following the cursor from limit=2 lists every link once, in the
		// order of the whole list.
		var all linkList
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links", nil).WantStatus(t, 200).JSON(t, &all)
		var whole, paged []string
		for _, it := range all.Items {
			whole = append(whole, refKey(it.Ref))
		}
		path, n := "/v1/spaces/"+space+"/links?limit=2", 0
		for {
			var p pagedLinks
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &p)
			n++
			if p.Count != 5 || len(p.Items) == 0 || len(p.Items) > 2 || p.Stats.Total != 5 {
				t.Fatalf("page %d of links %+v", n, p)
			}
			for _, it := range p.Items {
				paged = append(paged, refKey(it.Ref))
			}
			if p.Next == nil {
				break
			}
			if n > 5 {
				t.Fatal("the links cursor does not end")
			}
			path = "/v1/spaces/" + space + "/links?limit=2&page=" + url.QueryEscape(p.Next.Page)
		}
		if n != 3 {
			t.Errorf("5 links in pages of 2 took %d pages", n)
		}
		if diff := cmp.Diff(whole, paged); diff != "" {
			t.Errorf("links by page (-whole list +pages):\n%s", diff)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?page=nope", nil).WantError(t, 400, "page")
		s.DoUnchecked(t, admin, "GET", "/v1/spaces/"+space+"/links?status=weird", nil).WantError(t, 400, "status")

		// Per page: the source has them all, the target none.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+source+"/links", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 5 {
			t.Fatalf("source links %+v", l)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+target+"/links", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 0 || l.Stats.Total != 0 {
			t.Fatalf("target links %+v", l)
		}

		// Backlinks: the target page and the file are used by the source,
		// once each whatever the number of links.
		type backlinks struct {
			Count int
			Items []struct {
				Kind         string
				Organization struct{ ID string }
				Space        struct{ ID, Title string }
				Page         struct{ ID, Title string }
			}
		}
		var b backlinks
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+target+"/backlinks", nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 1 || b.Items[0].Kind != "page" || b.Items[0].Page.ID != source || b.Items[0].Space.Title != "Docs" ||
			b.Items[0].Organization.ID != org {
			t.Fatalf("page backlinks %+v", b)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files/"+file+"/backlinks", nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 1 || b.Items[0].Page.ID != source {
			t.Fatalf("file backlinks %+v", b)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+source+"/backlinks", nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 0 {
			t.Fatalf("source backlinks %+v", b)
		}

		// Unknown targets and other organizations.
		s.Do(t, admin, "GET", "/v1/spaces/nope/links", nil).WantError(t, 404, "space not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/nope/links", nil).WantError(t, 404, "page not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/nope/backlinks", nil).WantError(t, 404, "page not found")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/files/nope/backlinks", nil).WantError(t, 404, "file not found")
		_, other := s.Org(t)
		s.Do(t, other, "GET", "/v1/spaces/"+space+"/links", nil).WantError(t, 404, "space not found")
		s.Do(t, other, "GET", "/v1/spaces/"+space+"/content/page/"+target+"/backlinks", nil).WantError(t, 404, "space not found")
	})
}

// backlinkList is a page of a backlinks list.
type backlinkList struct {
	Count int
	Next  *struct{ Page string }
	Items []struct {
		Kind  string
		Space struct{ ID string }
		Page  struct{ ID, Title string }
	}
}

// pageIDs maps the titles of a space's top-level pages to their ids.
func pageIDs(t testing.TB, s *apitest.Server, token, space string) map[string]string {
	t.Helper()
	var rev revisionBody
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
	ids := map[string]string{}
	for _, p := range rev.Pages {
		ids[p.Title] = p.ID
	}
	return ids
}

func TestBacklinksPaginationAndBrokenFiles(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"target.md": "# Target\n\nPointed at.\n",
			"a.md":      "# A\n\nSee [the target](target.md) and [a gone file](file:nofile).\n",
			"b.md":      "# B\n\nSee [the target](target.md).\n",
			"c.md":      "# C\n\nSee [the target](target.md), twice: [again](target.md).\n",
		}))
		ids := pageIDs(t, s, admin, space)
		backlinks := "/v1/spaces/" + space + "/content/page/" + ids["Target"] + "/backlinks"

		t.Run("pages", func(t *testing.T) {
			var got []string
			path, pages := backlinks+"?limit=1", 0
			for {
				var b backlinkList
				s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &b)
				pages++
				if b.Count != 3 || len(b.Items) != 1 || b.Items[0].Kind != "page" || b.Items[0].Space.ID != space {
					t.Fatalf("backlinks page %d: %+v", pages, b)
				}
				got = append(got, b.Items[0].Page.Title)
				if b.Next == nil {
					break
				}
				if pages > 3 {
					t.Fatal("the backlinks cursor does not end")
				}
				path = backlinks + "?limit=1&page=" + url.QueryEscape(b.Next.Page)
			}
			var whole backlinkList
			s.Do(t, admin, "GET", backlinks, nil).WantStatus(t, 200).JSON(t, &whole)
			var want []string
			for _, it := range whole.Items {
				want = append(want, it.Page.Title)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("backlinks by page (-whole list +pages):\n%s", diff)
			}
			if len(got) != 3 || got[0] == got[1] || got[1] == got[2] || got[0] == got[2] {
				t.Fatalf("backlinks %v, want A, B and C once each", got)
			}
		})
		t.Run("errors", func(t *testing.T) {
			for _, tt := range []struct{ name, query, msg string }{
				{"limit=0", "?limit=0", "limit"},
				{"limit too large", "?limit=1001", "limit"},
				{"bad cursor", "?page=nope", "page"},
			} {
				t.Run(tt.name, func(t *testing.T) {
					s.DoUnchecked(t, admin, "GET", backlinks+tt.query, nil).WantError(t, 400, tt.msg)
				})
			}
		})
		t.Run("broken file", func(t *testing.T) {
			var l linkList
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?status=broken", nil).WantStatus(t, 200).JSON(t, &l)
			if l.Count != 1 || l.Stats.Broken.Total != 1 || l.Stats.Total != 2 {
				t.Fatalf("broken links %+v", l)
			}
			it := l.Items[0]
			if diff := cmp.Diff(map[string]any{"kind": "file", "file": "nofile"}, it.Ref); diff != "" {
				t.Errorf("broken ref (-want +got):\n%s", diff)
			}
			if it.Status != "broken" || it.Relation != "reference" || it.TargetReference != nil ||
				len(it.LocationReferences) != 1 || it.LocationReferences[0].Page.ID != ids["A"] {
				t.Fatalf("broken file link %+v", it)
			}
		})
	})
}

func TestLinksFollowTheCurrentRevision(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"target.md": "# Target\n\nPointed at.\n",
			"source.md": "# Source\n\nSee [the target](target.md) and [the old site](https://example.com/old).\n",
		}))
		ids := pageIDs(t, s, admin, space)
		links := func(path string) []string {
			t.Helper()
			var l linkList
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &l)
			out := []string{}
			for _, it := range l.Items {
				out = append(out, refKey(it.Ref))
			}
			if l.Count != len(out) || l.Stats.Total != len(out) {
				t.Fatalf("%s: count %d, stats %+v, items %v", path, l.Count, l.Stats, out)
			}
			return out
		}
		backlinks := "/v1/spaces/" + space + "/content/page/" + ids["Target"] + "/backlinks"
		if diff := cmp.Diff([]string{"page:" + ids["Target"], "https://example.com/old"}, links("/v1/spaces/"+space+"/links")); diff != "" {
			t.Fatalf("links before the edit (-want +got):\n%s", diff)
		}
		var b backlinkList
		s.Do(t, admin, "GET", backlinks, nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 1 || b.Items[0].Page.ID != ids["Source"] {
			t.Fatalf("backlinks before the edit %+v", b)
		}

		// A page import replaces the source's document and its links.
		importInto(t, s, admin, space, ids["Source"], "markdown", []byte("# Source\n\nOnly [the new site](https://example.com/new).\n"))
		want := []string{"https://example.com/new"}
		if diff := cmp.Diff(want, links("/v1/spaces/"+space+"/links")); diff != "" {
			t.Errorf("space links after the edit (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(want, links("/v1/spaces/"+space+"/content/page/"+ids["Source"]+"/links")); diff != "" {
			t.Errorf("page links after the edit (-want +got):\n%s", diff)
		}
		s.Do(t, admin, "GET", backlinks, nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 0 || len(b.Items) != 0 {
			t.Fatalf("backlinks after the edit %+v", b)
		}
	})
}

func TestLinksOfAReader(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "zip", zipOf(t, map[string]string{
			"target.md": "# Target\n\nPointed at.\n",
			"source.md": "# Source\n\nSee [the target](target.md).\n",
		}))
		ids := pageIDs(t, s, admin, space)
		_, reader := s.Member(t, org, folio.RoleRead)
		var l linkList
		s.Do(t, reader, "GET", "/v1/spaces/"+space+"/links", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].Status != "ok" || refKey(l.Items[0].Ref) != "page:"+ids["Target"] {
			t.Fatalf("reader's links %+v", l)
		}
		var b backlinkList
		s.Do(t, reader, "GET", "/v1/spaces/"+space+"/content/page/"+ids["Target"]+"/backlinks", nil).WantStatus(t, 200).JSON(t, &b)
		if b.Count != 1 || b.Items[0].Page.ID != ids["Source"] {
			t.Fatalf("reader's backlinks %+v", b)
		}
		// A guest without a grant does not learn the space exists.
		_, guest := s.Member(t, org, folio.RoleGuest)
		s.Do(t, guest, "GET", "/v1/spaces/"+space+"/links", nil).WantError(t, 404, "space not found")
		s.Do(t, guest, "GET", "/v1/spaces/"+space+"/content/page/"+ids["Target"]+"/backlinks", nil).WantError(t, 404, "space not found")
	})
}
