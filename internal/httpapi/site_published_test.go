package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestSiteDefaultSectionAndPublishedSections sets a site's default section
// through PATCH (a section of another site is refused and changes nothing)
// and reads the published profile of a site with sections, which has the
// sections structure.
func TestSiteDefaultSectionAndPublishedSections(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		other := newSite(t, s, admin, org, map[string]any{"title": "Other", "spaces": []string{guide}})
		base := "/v1/orgs/" + org + "/sites/"
		var sec, foreign struct{ ID string }
		s.Do(t, admin, "POST", base+st.ID+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &sec)
		s.Do(t, admin, "POST", base+other.ID+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201).JSON(t, &foreign)

		before := s.Do(t, admin, "GET", base+st.ID, nil).WantStatus(t, 200).Body
		s.Do(t, admin, "PATCH", base+st.ID, map[string]any{"defaultSiteSection": foreign.ID}).WantError(t, 400, "not found in the site")
		if after := s.Do(t, admin, "GET", base+st.ID, nil).Body; string(after) != string(before) {
			t.Fatalf("a refused default section changed the site:\n%s\n%s", before, after)
		}
		var structure struct {
			Type      string
			Structure []struct {
				ID      string
				Default bool
			}
		}
		s.Do(t, admin, "PATCH", base+st.ID, map[string]any{"defaultSiteSection": sec.ID}).WantStatus(t, 200)
		s.Do(t, admin, "GET", base+st.ID+"/structure", nil).WantStatus(t, 200).JSON(t, &structure)
		if structure.Type != "sections" || len(structure.Structure) != 2 {
			t.Fatalf("structure %+v", structure)
		}
		for _, n := range structure.Structure {
			if n.Default != (n.ID == sec.ID) {
				t.Fatalf("section %s default %v, want the API section to be the default: %+v", n.ID, n.Default, structure)
			}
		}
		var published struct {
			Object    string
			Structure struct {
				Type      string
				Structure []struct{ ID, Title string }
			}
		}
		s.Do(t, admin, "GET", base+st.ID+"/published", nil).WantStatus(t, 200).JSON(t, &published)
		if published.Object != "published-content-site" || published.Structure.Type != "sections" || len(published.Structure.Structure) != 2 {
			t.Fatalf("published %+v", published)
		}
	})
}

// TestSiteSectionAndGroupLimit fills a site with folio.MaxSiteSections
// sections and groups: one more of either is refused and changes nothing.
func TestSiteSectionAndGroupLimit(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		api := newSpace(t, s, admin, org, "API")
		more := newSpace(t, s, admin, org, "More")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		// The first section gathers the root site spaces into a section of
		// their own: two sections.
		s.Do(t, admin, "POST", base+"/sections", map[string]any{"spaceId": api, "title": "API"}).WantStatus(t, 201)
		for i := 2; i < folio.MaxSiteSections; i++ {
			s.Do(t, admin, "POST", base+"/section-groups", map[string]any{"title": fmt.Sprintf("Group %d", i)}).WantStatus(t, 201)
		}
		before := s.Do(t, admin, "GET", base+"/structure", nil).WantStatus(t, 200).Body
		s.Do(t, admin, "POST", base+"/section-groups", map[string]any{"title": "One too many"}).
			WantError(t, 409, fmt.Sprintf("at most %d sections", folio.MaxSiteSections))
		s.Do(t, admin, "POST", base+"/sections", map[string]any{"spaceId": more, "title": "More"}).
			WantError(t, 409, fmt.Sprintf("at most %d sections", folio.MaxSiteSections))
		if after := s.Do(t, admin, "GET", base+"/structure", nil).Body; string(after) != string(before) {
			t.Fatal("a refused section or group changed the structure")
		}
	})
}
