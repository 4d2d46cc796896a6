package reader_test

import (
	"regexp"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

// TestHeadingAnchorsAgreeWithTheAPI checks that the reader's heading ids
// and "On this page" links are the headings' meta.id in the API's document,
// the anchors GitBook's renderer uses: repeated headings included.
func TestHeadingAnchorsAgreeWithTheAPI(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		md := "# Welcome\n\nHi.\n\n## Install steps\n\nOne.\n\n## Install steps\n\nTwo.\n\n### Déjà vu\n\n> **Note** inside.\n\n## Last words\n\nEnd.\n"
		f := newFixture(t, s, md, map[string]any{})
		f.publish(t)

		var pages struct{ Pages []struct{ ID string } }
		s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).WantStatus(t, 200).JSON(t, &pages)
		var sp struct{ Revision string }
		s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space, nil).WantStatus(t, 200).JSON(t, &sp)
		var doc struct {
			Nodes []struct {
				Type string
				Meta struct{ ID string }
			}
		}
		s.Do(t, f.admin, "GET", "/v1/spaces/"+f.space+"/revisions/"+sp.Revision+"/page/"+pages.Pages[0].ID+"/document", nil).
			WantStatus(t, 200).JSON(t, &doc)
		var api []string
		for _, n := range doc.Nodes {
			if n.Meta.ID != "" {
				api = append(api, n.Meta.ID)
			}
		}
		if len(api) < 3 || api[0] != "install-steps" || api[1] != "install-steps-1" || api[2] != "deja-vu" {
			t.Fatalf("API anchors %q", api)
		}

		p := get(t, s, nil, "", "/sites/"+f.site+"/").want(t, 200)
		var ids, links []string
		for _, m := range regexp.MustCompile(`<h[2-4] id="([^"]*)"`).FindAllStringSubmatch(p.body, -1) {
			ids = append(ids, m[1])
		}
		toc := regexp.MustCompile(`(?s)<aside class="toc"[^>]*>.*?</aside>`).FindString(p.body)
		for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllStringSubmatch(toc, -1) {
			links = append(links, m[1])
		}
		if diff := cmp.Diff(api, ids); diff != "" {
			t.Errorf("reader heading ids (-api +reader):\n%s", diff)
		}
		if diff := cmp.Diff(api, links); diff != "" {
			t.Errorf("reader outline links (-api +reader):\n%s", diff)
		}
	})
}
