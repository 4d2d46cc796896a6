package reader_test

import (
	"context"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
)

// TestPageIcons shows a page's icon before its title in the navigation
// and in the page header when Folio draws that name (inline SVG, hidden
// from assistive technology), and nothing for a name it does not draw.
// The icons come from the pages' front matter in a git import.
func TestPageIcons(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f := newFixture(t, s, "", map[string]any{})
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Start](README.md)\n* [Keys](keys.md)\n* [Odd](odd.md)\n",
			"README.md":  "---\nicon: rocket\n---\n\n# Start\n\nHello.\n",
			"keys.md":    "---\nicon: Key\n---\n\n# Keys\n\nSecrets.\n",
			"odd.md":     "---\nicon: face-grin-tongue-wink\n---\n\n# Odd\n\nStrange.\n",
		}, "Docs with icons")
		s.Do(t, f.admin, "POST", "/v1/spaces/"+f.space+"/git/import", map[string]any{
			"url": (&url.URL{Scheme: "file", Path: filepath.ToSlash(repo)}).String(), "ref": "refs/heads/main"}).WantStatus(t, 204)
		for range 10 {
			if n, err := s.Jobs.RunDue(context.Background()); err != nil {
				t.Fatal(err)
			} else if n == 0 {
				break
			}
		}
		f.publish(t)
		base := "/sites/" + f.site
		icon := regexp.MustCompile(`<svg class="page-icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">(.*?)</svg>`)
		rocket := `<circle cx="12" cy="9" r="1.5"/>`
		key := `<circle cx="8" cy="15" r="4"/>`

		p := get(t, s, nil, "", base+"/").want(t, 200)
		nav := p.body[strings.Index(p.body, `<nav class="tree"`):]
		nav = nav[:strings.Index(nav, "</nav>")]
		links := regexp.MustCompile(`<a href="[^"]*"[^>]*>(.*?)</a>`).FindAllStringSubmatch(nav, -1)
		if len(links) != 3 {
			t.Fatalf("navigation links %q", links)
		}
		for i, want := range []struct{ title, icon string }{{"Start", rocket}, {"Keys", key}, {"Odd", ""}} {
			got := links[i][1]
			m := icon.FindStringSubmatch(got)
			switch {
			case want.icon == "" && (m != nil || strings.Contains(got, "<svg")):
				t.Fatalf("%s: an icon Folio does not draw is shown: %q", want.title, got)
			case want.icon != "" && (m == nil || !strings.Contains(m[1], want.icon) || !strings.HasPrefix(got, "<svg") || !strings.HasSuffix(got, "</svg>"+want.title)):
				t.Fatalf("%s: navigation link %q, want its icon before the title", want.title, got)
			}
		}
		h1 := regexp.MustCompile(`<h1>(.*?)</h1>`)
		if m := h1.FindStringSubmatch(p.body); m == nil || !strings.HasPrefix(m[1], `<svg class="page-icon"`) || !strings.Contains(m[1], rocket) || !strings.HasSuffix(m[1], "</svg> Start") {
			t.Fatalf("page header %q", m)
		}
		k := get(t, s, nil, "", base+"/keys").want(t, 200)
		if m := h1.FindStringSubmatch(k.body); m == nil || !strings.Contains(m[1], key) || !strings.HasSuffix(m[1], "</svg> Keys") {
			t.Fatalf("page header %q", m)
		}
		get(t, s, nil, "", base+"/odd").want(t, 200, "<h1>Odd</h1>")
	})
}
