package httpapi_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// An organization's default content is one of its own sites: another
// organization's site, or none, is refused and changes nothing; deleting
// the site clears it.
func TestOrganizationDefaultContent(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		other, otherAdmin := s.Org(t)
		mine := newSite(t, s, admin, org, map[string]any{"title": "Mine"})
		theirs := newSite(t, s, otherAdmin, other, map[string]any{"title": "Theirs"})
		path := "/v1/orgs/" + org
		type orgBody struct {
			DefaultContent *struct{ Type, Site string }
		}
		current := func() *struct{ Type, Site string } {
			var o orgBody
			s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &o)
			return o.DefaultContent
		}

		var o orgBody
		s.Do(t, admin, "PATCH", path, map[string]any{"defaultContent": map[string]any{"type": "site", "site": mine.ID}}).
			WantStatus(t, 200).JSON(t, &o)
		if o.DefaultContent == nil || o.DefaultContent.Type != "site" || o.DefaultContent.Site != mine.ID {
			t.Fatalf("default content %+v", o.DefaultContent)
		}
		if dc := current(); dc == nil || dc.Site != mine.ID {
			t.Fatalf("stored default content %+v", dc)
		}

		s.Do(t, admin, "PATCH", path, map[string]any{"defaultContent": map[string]any{"type": "site", "site": theirs.ID}}).
			WantError(t, 400, "defaultContent: site "+theirs.ID+" not found in the organization")
		s.Do(t, admin, "PATCH", path, map[string]any{"title": "Renamed", "defaultContent": map[string]any{"type": "site", "site": "nope"}}).
			WantError(t, 400, "defaultContent: site nope not found in the organization")
		var named struct{ Title string }
		s.Do(t, admin, "GET", path, nil).WantStatus(t, 200).JSON(t, &named)
		if dc := current(); dc == nil || dc.Site != mine.ID || named.Title == "Renamed" {
			t.Fatalf("a refused update changed the organization: %+v %q", dc, named.Title)
		}

		s.Do(t, admin, "DELETE", path+"/sites/"+mine.ID, nil).WantStatus(t, 204)
		if dc := current(); dc != nil {
			t.Fatalf("the deleted site is still the default content: %+v", dc)
		}
	})
}
