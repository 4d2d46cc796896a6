package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
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
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?status=broken", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 1 || l.Items[0].Status != "broken" || l.Stats.Total != 5 {
			t.Fatalf("broken links %+v", l)
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/links?limit=2", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 5 || len(l.Items) != 2 {
			t.Fatalf("first page of links %+v", l)
		}
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
