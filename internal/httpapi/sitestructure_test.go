package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

type siteSpaceBody struct {
	ID        string
	Path      string
	Section   string
	Default   bool
	Hidden    bool
	Condition string
	Title     string
	Space     struct{ ID string }
}

type sectionBody struct {
	ID           string
	Title        string
	Path         string
	Default      bool
	Icon         string
	Description  string
	Condition    string
	SectionGroup string
	SiteSpaces   []siteSpaceBody
}

type groupBody struct {
	ID           string
	Title        string
	Icon         string
	SectionGroup string
	Children     []struct {
		Object string
		ID     string
	}
}

// structureFixture is a site with its base path and an admin token.
type structureFixture struct {
	s     *apitest.Server
	admin string
	org   string
	base  string // /v1/orgs/{org}/sites/{site}
}

func newStructure(t *testing.T, s *apitest.Server, spaces ...string) (*structureFixture, []string) {
	t.Helper()
	org, admin := s.Org(t)
	var ids []string
	for _, title := range spaces {
		ids = append(ids, newSpace(t, s, admin, org, title))
	}
	st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": ids})
	return &structureFixture{s: s, admin: admin, org: org, base: "/v1/orgs/" + org + "/sites/" + st.ID}, ids
}

func (f *structureFixture) space(t *testing.T, title string) string {
	t.Helper()
	return newSpace(t, f.s, f.admin, f.org, title)
}

func (f *structureFixture) addSection(t *testing.T, spaceID string, title any) sectionBody {
	t.Helper()
	var out sectionBody
	body := map[string]any{"spaceId": spaceID}
	if title != nil {
		body["title"] = title
	}
	f.s.Do(t, f.admin, "POST", f.base+"/sections", body).WantStatus(t, 201).JSON(t, &out)
	return out
}

func (f *structureFixture) addSiteSpace(t *testing.T, spaceID, sectionID string) siteSpaceBody {
	t.Helper()
	var out siteSpaceBody
	body := map[string]any{"spaceId": spaceID}
	if sectionID != "" {
		body["sectionId"] = sectionID
	}
	f.s.Do(t, f.admin, "POST", f.base+"/site-spaces", body).WantStatus(t, 201).JSON(t, &out)
	return out
}

func (f *structureFixture) sections(t *testing.T) []sectionBody {
	t.Helper()
	var l struct {
		Items []sectionBody
		Count int
	}
	f.s.Do(t, f.admin, "GET", f.base+"/sections?limit=1000", nil).WantStatus(t, 200).JSON(t, &l)
	return l.Items
}

func (f *structureFixture) siteSpaces(t *testing.T, query string) []siteSpaceBody {
	t.Helper()
	var l struct {
		Items []siteSpaceBody
		Count int
	}
	f.s.Do(t, f.admin, "GET", f.base+"/site-spaces?limit=1000"+query, nil).WantStatus(t, 200).JSON(t, &l)
	if l.Count != len(l.Items) {
		t.Fatalf("site spaces: count %d for %d items", l.Count, len(l.Items))
	}
	return l.Items
}

// check verifies every invariant of the structure: one default site space
// per section (or at the root without sections), one default section,
// unique paths among siblings, the site's siteSpaces count, and the
// listing of site spaces in structure order; it returns the layout as
// "section:path*,path|section:..." (* marks defaults) for comparisons.
func (f *structureFixture) check(t *testing.T) string {
	t.Helper()
	secs := f.sections(t)
	all := f.siteSpaces(t, "")
	var site struct{ SiteSpaces int }
	f.s.Do(t, f.admin, "GET", f.base, nil).WantStatus(t, 200).JSON(t, &site)
	if site.SiteSpaces != len(all) {
		t.Fatalf("site counts %d site spaces, the list has %d", site.SiteSpaces, len(all))
	}
	defaults := f.siteSpaces(t, "&default=true")
	others := f.siteSpaces(t, "&default=false")
	if len(defaults)+len(others) != len(all) {
		t.Fatalf("default filter: %d + %d != %d", len(defaults), len(others), len(all))
	}
	var layout []string
	if len(secs) == 0 {
		if len(all) > 0 && len(defaults) != 1 {
			t.Fatalf("site without sections has %d default site spaces", len(defaults))
		}
		var parts []string
		paths := map[string]bool{}
		for _, ss := range all {
			if ss.Section != "" {
				t.Fatalf("site space %s in section %s of a site without sections", ss.ID, ss.Section)
			}
			if paths[ss.Path] {
				t.Fatalf("path %q twice at the root", ss.Path)
			}
			paths[ss.Path] = true
			parts = append(parts, ss.Path+star(ss.Default))
		}
		return strings.Join(parts, ",")
	}
	if len(defaults) != len(secs) {
		t.Fatalf("%d default site spaces for %d sections", len(defaults), len(secs))
	}
	defSections, secPaths, k := 0, map[string]bool{}, 0
	for _, sec := range secs {
		if sec.Default {
			defSections++
		}
		if secPaths[sec.Path] {
			t.Fatalf("section path %q twice", sec.Path)
		}
		secPaths[sec.Path] = true
		if len(sec.SiteSpaces) == 0 {
			t.Fatalf("section %s is empty", sec.ID)
		}
		n, paths := 0, map[string]bool{}
		var parts []string
		for _, ss := range sec.SiteSpaces {
			if ss.Section != sec.ID {
				t.Fatalf("site space %s of section %s names section %q", ss.ID, sec.ID, ss.Section)
			}
			if ss.Default {
				n++
			}
			if paths[ss.Path] {
				t.Fatalf("path %q twice in section %s", ss.Path, sec.Path)
			}
			paths[ss.Path] = true
			if k >= len(all) || all[k].ID != ss.ID {
				t.Fatalf("site space list out of structure order at %d", k)
			}
			k++
			parts = append(parts, ss.Path+star(ss.Default))
		}
		if n != 1 {
			t.Fatalf("section %s has %d default site spaces", sec.Path, n)
		}
		layout = append(layout, sec.Path+star(sec.Default)+":"+strings.Join(parts, ","))
	}
	if k != len(all) {
		t.Fatalf("%d site spaces outside sections", len(all)-k)
	}
	if defSections != 1 {
		t.Fatalf("%d default sections", defSections)
	}
	return strings.Join(layout, "|")
}

// try sends a write and checks its status; a refused write (400 or more)
// must leave the site's structure and adaptive schema as they were.
func (f *structureFixture) try(t *testing.T, name, method, path string, body any, want int) {
	t.Helper()
	before := f.snapshot(t)
	r := f.s.Do(t, f.admin, method, path, body)
	if r.Status != want {
		t.Errorf("%s: %d, want %d (%s)", name, r.Status, want, r.Body)
		return
	}
	if want >= 400 {
		if after := f.snapshot(t); after != before {
			t.Errorf("%s: refused, yet the structure changed:\n%s\n%s", name, before, after)
		}
	}
}

func (f *structureFixture) snapshot(t *testing.T) string {
	t.Helper()
	st := f.s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).Body
	groups := f.s.Do(t, f.admin, "GET", f.base+"/section-groups", nil).WantStatus(t, 200).Body
	schema := f.s.Do(t, f.admin, "GET", f.base+"/adaptive-schema", nil).Body
	return string(st) + string(groups) + string(schema)
}

func star(b bool) string {
	if b {
		return "*"
	}
	return ""
}

func wantLayout(t *testing.T, f *structureFixture, want string) {
	t.Helper()
	if got := f.check(t); got != want {
		t.Fatalf("layout %q, want %q", got, want)
	}
}

// TestSiteStructureSections adds sections to a site that publishes spaces
// at its root, reads the structure, and deletes sections and site spaces
// down to nothing, checking the invariants at every step.
func TestSiteStructureSections(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, sp := newStructure(t, s, "Guide", "API")
		wantLayout(t, f, "guide*,api")
		var st struct {
			Type      string
			Structure []map[string]any
		}
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		if st.Type != "siteSpaces" || len(st.Structure) != 2 {
			t.Fatalf("structure %+v", st)
		}
		// The first section gathers the root's site spaces into a section
		// of their own, titled after the default one.
		blog := f.addSection(t, f.space(t, "Blog"), nil)
		if blog.Title != "Blog" || blog.Path != "blog" || blog.Default || len(blog.SiteSpaces) != 1 || !blog.SiteSpaces[0].Default {
			t.Fatalf("section %+v", blog)
		}
		wantLayout(t, f, "guide*:guide*,api|blog:blog*")
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		if st.Type != "sections" || len(st.Structure) != 2 || st.Structure[1]["id"] != blog.ID {
			t.Fatalf("structure %+v", st)
		}
		// A new site space goes to the default section, or the one named.
		f.addSiteSpace(t, f.space(t, "Changelog"), "")
		f.addSiteSpace(t, sp[0], blog.ID)
		wantLayout(t, f, "guide*:guide*,api,changelog|blog:blog*,guide")
		// Deleting a default site space elects the first remaining one.
		secs := f.sections(t)
		s.Do(t, f.admin, "DELETE", f.base+"/site-spaces/"+secs[0].SiteSpaces[0].ID, nil).WantStatus(t, 204)
		s.Do(t, f.admin, "DELETE", f.base+"/site-spaces/"+secs[0].SiteSpaces[0].ID, nil).WantStatus(t, 204)
		wantLayout(t, f, "guide*:api*,changelog|blog:blog*,guide")
		// Deleting the default section makes the next one the default.
		s.Do(t, f.admin, "DELETE", f.base+"/sections/"+secs[0].ID, nil).WantStatus(t, 204)
		s.Do(t, f.admin, "DELETE", f.base+"/sections/"+secs[0].ID, nil).WantStatus(t, 204)
		wantLayout(t, f, "blog*:blog*,guide")
		// Deleting the last site space of a section removes the section.
		third := f.addSection(t, f.space(t, "Extra"), "Extra things")
		wantLayout(t, f, "blog*:blog*,guide|extra-things:extra*")
		s.Do(t, f.admin, "DELETE", f.base+"/site-spaces/"+third.SiteSpaces[0].ID, nil).WantStatus(t, 204)
		wantLayout(t, f, "blog*:blog*,guide")
		// Pages of sections.
		f.addSection(t, f.space(t, "Three"), nil)
		f.addSection(t, f.space(t, "Four"), nil)
		var page struct {
			Items []sectionBody
			Count int
			Next  *struct{ Page string }
		}
		s.Do(t, f.admin, "GET", f.base+"/sections?limit=2", nil).WantStatus(t, 200).JSON(t, &page)
		if page.Count != 3 || len(page.Items) != 2 || page.Next == nil {
			t.Fatalf("first page %+v", page)
		}
		var second struct {
			Items []sectionBody
			Next  *struct{ Page string }
		}
		s.Do(t, f.admin, "GET", f.base+"/sections?limit=2&page="+page.Next.Page, nil).WantStatus(t, 200).JSON(t, &second)
		if len(second.Items) != 1 || second.Items[0].Path != "four" || second.Next != nil {
			t.Fatalf("second page %+v", second)
		}
		s.Do(t, f.admin, "GET", f.base+"/sections?page=nonsense", nil).WantStatus(t, 400)
	})
}

// TestSiteStructureSpaceDeletion deletes a space published in two places
// of two sites: its site spaces go, defaults move and an emptied section
// goes, and restoring the space does not bring them back.
func TestSiteStructureSpaceDeletion(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, sp := newStructure(t, s, "Guide", "API")
		other := newSite(t, s, f.admin, f.org, map[string]any{"title": "Other", "spaces": sp})
		g := &structureFixture{s: s, admin: f.admin, org: f.org, base: "/v1/orgs/" + f.org + "/sites/" + other.ID}
		lone := f.addSection(t, f.space(t, "Lone"), nil)
		f.addSiteSpace(t, sp[0], lone.ID)
		wantLayout(t, f, "guide*:guide*,api|lone:lone*,guide")
		s.Do(t, f.admin, "DELETE", "/v1/spaces/"+sp[0], nil).WantStatus(t, 204)
		wantLayout(t, f, "guide*:api*|lone:lone*")
		wantLayout(t, g, "api*")
		s.Do(t, f.admin, "DELETE", "/v1/spaces/"+sp[1], nil).WantStatus(t, 204)
		// The first section lost its last site space: it goes, and the
		// other becomes the default section.
		wantLayout(t, f, "lone*:lone*")
		wantLayout(t, g, "")
		s.Do(t, f.admin, "POST", "/v1/spaces/"+sp[1]+"/restore", nil).WantStatus(t, 200)
		wantLayout(t, g, "")
	})
}

// TestSiteSectionValidation covers every limit of addSectionToSite and
// updateSiteSectionById and the omitted-versus-null rules.
func TestSiteSectionValidation(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, _ := newStructure(t, s, "Guide")
		sp := f.space(t, "Other")
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"spaceId/missing", map[string]any{"title": "Docs"}, 400},
			{"spaceId/unknown", map[string]any{"spaceId": "nope"}, 400},
			{"title/too short", map[string]any{"spaceId": sp, "title": "D"}, 400},
			{"title/too long", map[string]any{"spaceId": sp, "title": strings.Repeat("a", 129)}, 400},
			{"icon/too long", map[string]any{"spaceId": sp, "icon": strings.Repeat("i", 51)}, 400},
			{"title/shortest", map[string]any{"spaceId": sp, "title": "Do"}, 201},
			{"title/longest", map[string]any{"spaceId": sp, "title": strings.Repeat("a", 128)}, 201},
			{"title/null", map[string]any{"spaceId": sp, "title": nil}, 201},
			{"icon/longest", map[string]any{"spaceId": sp, "icon": strings.Repeat("i", 50)}, 201},
			{"icon/null", map[string]any{"spaceId": sp, "icon": nil}, 201},
		} {
			f.try(t, "add "+c.name, "POST", f.base+"/sections", c.body, c.want)
		}
		f.check(t)
		sec := f.addSection(t, f.space(t, "Target"), "Target")
		other := f.addSiteSpace(t, f.space(t, "Variant"), sec.ID)
		path := f.base + "/sections/" + sec.ID
		for _, c := range []struct {
			name string
			body string
			want int
		}{
			{"title/too short", `{"title":"D"}`, 400},
			{"title/too long", `{"title":"` + strings.Repeat("a", 129) + `"}`, 400},
			{"title/null", `{"title":null}`, 400},
			{"path/empty", `{"path":""}`, 400},
			{"path/too long", `{"path":"` + strings.Repeat("p", 101) + `"}`, 400},
			{"path/slash", `{"path":"a/b"}`, 400},
			{"path/null", `{"path":null}`, 400},
			{"path/taken", `{"path":"guide"}`, 409},
			{"defaultSiteSpace/unknown", `{"defaultSiteSpace":"nope"}`, 400},
			{"defaultSiteSpace/null", `{"defaultSiteSpace":null}`, 400},
			{"condition/too long", `{"condition":"` + strings.Repeat(" ", 1001) + `visitor.claims.a == true` + `"}`, 400},
			{"condition/syntax", `{"condition":"visitor.claims.a &&"}`, 400},
			{"icon/too long", `{"icon":"` + strings.Repeat("i", 51) + `"}`, 400},
			{"description/too long", `{"description":"` + strings.Repeat("d", 257) + `"}`, 400},
		} {
			f.try(t, "patch "+c.name, "PATCH", path, c.body, c.want)
		}
		var got sectionBody
		s.Do(t, f.admin, "PATCH", path, map[string]any{"title": "Renamed", "path": strings.Repeat("p", 100),
			"condition": "visitor.claims.beta == true", "icon": strings.Repeat("i", 50),
			"description": strings.Repeat("d", 256), "defaultSiteSpace": other.ID}).WantStatus(t, 200).JSON(t, &got)
		if got.Title != "Renamed" || got.Condition != "visitor.claims.beta == true" || len(got.Description) != 256 ||
			got.SiteSpaces[1].ID != other.ID || !got.SiteSpaces[1].Default || got.SiteSpaces[0].Default {
			t.Fatalf("patched %+v", got)
		}
		// Omitted fields stay as they are.
		got = sectionBody{}
		s.Do(t, f.admin, "PATCH", path, `{}`).WantStatus(t, 200).JSON(t, &got)
		if got.Title != "Renamed" || got.Condition == "" || got.Icon == "" || got.Description == "" {
			t.Fatalf("empty patch changed %+v", got)
		}
		// null removes the condition, the icon and the description.
		got = sectionBody{}
		s.Do(t, f.admin, "PATCH", path, `{"condition":null,"icon":null,"description":null}`).WantStatus(t, 200).JSON(t, &got)
		if got.Condition != "" || got.Icon != "" || got.Description != "" || got.Title != "Renamed" {
			t.Fatalf("null patch %+v", got)
		}
		f.check(t)
	})
}

// TestSiteSpaceValidation covers addSpaceToSite and updateSiteSpaceById.
func TestSiteSpaceValidation(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, sp := newStructure(t, s, "Guide", "API")
		for _, c := range []struct {
			name string
			body map[string]any
			want int
		}{
			{"spaceId/missing", map[string]any{}, 400},
			{"spaceId/unknown", map[string]any{"spaceId": "nope"}, 400},
			{"sectionId/unknown", map[string]any{"spaceId": sp[0], "sectionId": "nope"}, 400},
		} {
			f.try(t, "add "+c.name, "POST", f.base+"/site-spaces", c.body, c.want)
		}
		// The same space twice at the root gets a path of its own.
		dup := f.addSiteSpace(t, sp[0], "")
		if dup.Path != "guide-2" || dup.Default {
			t.Fatalf("second site space %+v", dup)
		}
		all := f.siteSpaces(t, "")
		path := f.base + "/site-spaces/" + all[1].ID
		for _, c := range []struct {
			name string
			body string
			want int
		}{
			{"path/empty", `{"path":""}`, 400},
			{"path/too long", `{"path":"` + strings.Repeat("p", 101) + `"}`, 400},
			{"path/null", `{"path":null}`, 400},
			{"path/taken", `{"path":"guide"}`, 409},
			{"condition/too long", `{"condition":"` + strings.Repeat("c", 1025) + `"}`, 400},
			{"condition/not boolean", `{"condition":"\"text\""}`, 400},
			{"spaceId/unknown", `{"spaceId":"nope"}`, 400},
			{"spaceId/null", `{"spaceId":null}`, 400},
			{"hidden/null", `{"hidden":null}`, 400},
			{"hidden/string", `{"hidden":"yes"}`, 400},
		} {
			f.try(t, "patch "+c.name, "PATCH", path, c.body, c.want)
		}
		var got siteSpaceBody
		s.Do(t, f.admin, "PATCH", path, map[string]any{"path": strings.Repeat("p", 100), "condition": "visitor.claims.x",
			"spaceId": sp[0], "hidden": true}).WantStatus(t, 200).JSON(t, &got)
		if got.Path != strings.Repeat("p", 100) || got.Condition != "visitor.claims.x" || got.Space.ID != sp[0] || !got.Hidden {
			t.Fatalf("patched %+v", got)
		}
		got = siteSpaceBody{}
		s.Do(t, f.admin, "PATCH", path, `{}`).WantStatus(t, 200).JSON(t, &got)
		if got.Condition == "" || !got.Hidden || got.Space.ID != sp[0] {
			t.Fatalf("empty patch changed %+v", got)
		}
		got = siteSpaceBody{}
		s.Do(t, f.admin, "PATCH", path, `{"condition":null}`).WantStatus(t, 200).JSON(t, &got)
		if got.Condition != "" || !got.Hidden {
			t.Fatalf("null condition %+v", got)
		}
		s.Do(t, f.admin, "GET", f.base+"/site-spaces?default=maybe", nil).WantStatus(t, 400)
		f.check(t)
	})
}

// TestSiteStructureMoves moves site spaces and sections with the
// deprecated moves and with sortSiteStructure.
func TestSiteStructureMoves(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, _ := newStructure(t, s, "A1", "A2", "A3")
		ss := f.siteSpaces(t, "")
		move := func(id, where, ref string) *apitest.Response {
			return s.Do(t, f.admin, "POST", f.base+"/site-spaces/"+id+"/move",
				map[string]any{"position": map[string]any{where: map[string]any{"type": "site-space", "siteSpace": ref}}})
		}
		move(ss[2].ID, "before", ss[0].ID).WantStatus(t, 200)
		wantLayout(t, f, "a3,a1*,a2")
		move(ss[0].ID, "after", ss[1].ID).WantStatus(t, 200)
		wantLayout(t, f, "a3,a2,a1*")
		s.Do(t, f.admin, "POST", f.base+"/site-spaces/"+ss[2].ID+"/move", `{}`).WantStatus(t, 200)
		wantLayout(t, f, "a2,a1*,a3")
		pos := func(where, ref string) map[string]any {
			return map[string]any{"position": map[string]any{where: map[string]any{"type": "site-space", "siteSpace": ref}}}
		}
		f.try(t, "move after itself", "POST", f.base+"/site-spaces/"+ss[0].ID+"/move", pos("after", ss[0].ID), 400)
		f.try(t, "move after unknown", "POST", f.base+"/site-spaces/"+ss[0].ID+"/move", pos("after", "nope"), 400)
		f.try(t, "move unknown", "POST", f.base+"/site-spaces/nope/move", pos("after", ss[0].ID), 404)
		f.try(t, "move before and after", "POST", f.base+"/site-spaces/"+ss[0].ID+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": ss[1].ID},
				"after": map[string]any{"type": "site-space", "siteSpace": ss[1].ID}}}, 400)
		wantLayout(t, f, "a2,a1*,a3")

		b := f.addSection(t, f.space(t, "B1"), nil)
		c := f.addSection(t, f.space(t, "C1"), nil)
		wantLayout(t, f, "a1*:a2,a1*,a3|b1:b1*|c1:c1*")
		// A site space moves to another section; the last one of a
		// section cannot.
		move(ss[1].ID, "before", b.SiteSpaces[0].ID).WantStatus(t, 200)
		wantLayout(t, f, "a1*:a1*,a3|b1:a2,b1*|c1:c1*")
		f.try(t, "move the last of a section", "POST", f.base+"/site-spaces/"+c.SiteSpaces[0].ID+"/move", pos("after", ss[0].ID), 400)
		// Sections move among themselves.
		s.Do(t, f.admin, "POST", f.base+"/sections/"+c.ID+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": b.ID}}}).WantStatus(t, 200)
		wantLayout(t, f, "a1*:a1*,a3|c1:c1*|b1:a2,b1*")
		s.Do(t, f.admin, "POST", f.base+"/sections/"+c.ID+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": c.ID}}}).WantStatus(t, 400)
		s.Do(t, f.admin, "POST", f.base+"/sections/nope/move", `{}`).WantStatus(t, 404)
		// sortSiteStructure moves any item.
		sort := func(typ, id, where, refType, ref string) *apitest.Response {
			return s.Do(t, f.admin, "PATCH", f.base+"/structure/sort", map[string]any{"item": map[string]any{"type": typ, "id": id},
				"position": map[string]any{where: map[string]any{"type": refType, "id": ref}}})
		}
		secs := f.sections(t)
		sort("site-section", secs[0].ID, "after", "site-section", b.ID).WantStatus(t, 200)
		wantLayout(t, f, "c1:c1*|b1:a2,b1*|a1*:a1*,a3")
		sort("site-space", ss[2].ID, "before", "site-space", ss[0].ID).WantStatus(t, 200)
		wantLayout(t, f, "c1:c1*|b1:a2,b1*|a1*:a3,a1*")
		sortBody := func(typ, id, refType, ref string) map[string]any {
			return map[string]any{"item": map[string]any{"type": typ, "id": id},
				"position": map[string]any{"before": map[string]any{"type": refType, "id": ref}}}
		}
		f.try(t, "sort a site space next to a section", "PATCH", f.base+"/structure/sort", sortBody("site-space", ss[2].ID, "site-section", b.ID), 400)
		f.try(t, "sort an unknown section", "PATCH", f.base+"/structure/sort", sortBody("site-section", "nope", "site-section", b.ID), 404)
		f.try(t, "sort a widget", "PATCH", f.base+"/structure/sort", sortBody("widget", "x", "site-section", b.ID), 400)
		f.try(t, "sort without item", "PATCH", f.base+"/structure/sort", map[string]any{"position": map[string]any{}}, 400)
		wantLayout(t, f, "c1:c1*|b1:a2,b1*|a1*:a3,a1*")
	})
}

// TestSiteSectionGroups adds, nests, fills, moves and deletes groups.
func TestSiteSectionGroups(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, _ := newStructure(t, s, "A")
		b := f.addSection(t, f.space(t, "B"), nil)
		c := f.addSection(t, f.space(t, "C"), nil)
		a := f.sections(t)[0]
		for _, body := range []map[string]any{
			{}, {"title": ""}, {"title": strings.Repeat("t", 101)}, {"title": "G", "icon": strings.Repeat("i", 51)},
			{"title": "G", "sections": []string{"nope"}}, {"title": "G", "parent": "nope"},
		} {
			f.try(t, fmt.Sprint("add group ", body), "POST", f.base+"/section-groups", body, 400)
		}
		var g, inner groupBody
		s.Do(t, f.admin, "POST", f.base+"/section-groups", map[string]any{"title": strings.Repeat("t", 100),
			"icon": "book", "sections": []string{c.ID, b.ID}}).WantStatus(t, 201).JSON(t, &g)
		if len(g.Children) != 2 || g.Children[0].ID != c.ID || g.Children[1].ID != b.ID {
			t.Fatalf("group %+v", g)
		}
		s.Do(t, f.admin, "POST", f.base+"/section-groups", map[string]any{"title": "Inner", "parent": g.ID}).WantStatus(t, 201).JSON(t, &inner)
		if inner.SectionGroup != g.ID {
			t.Fatalf("inner %+v", inner)
		}
		s.Do(t, f.admin, "POST", f.base+"/section-groups/"+inner.ID+"/sections", map[string]any{"sectionId": b.ID}).WantStatus(t, 201).JSON(t, &inner)
		if len(inner.Children) != 1 {
			t.Fatalf("inner %+v", inner)
		}
		f.try(t, "add an unknown section", "POST", f.base+"/section-groups/"+inner.ID+"/sections", map[string]any{"sectionId": "nope"}, 400)
		f.try(t, "add to an unknown group", "POST", f.base+"/section-groups/nope/sections", map[string]any{"sectionId": b.ID}, 404)
		var st struct {
			Structure []struct {
				Object   string
				ID       string
				Children []struct {
					Object   string
					ID       string
					Children []struct{ ID string }
				}
			}
		}
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		if len(st.Structure) != 2 || st.Structure[0].ID != a.ID || st.Structure[1].ID != g.ID ||
			len(st.Structure[1].Children) != 2 || st.Structure[1].Children[1].ID != inner.ID ||
			len(st.Structure[1].Children[1].Children) != 1 || st.Structure[1].Children[1].Children[0].ID != b.ID {
			t.Fatalf("structure %+v", st)
		}
		// Moves: a group cannot move into itself; unknown ones are 404.
		mv := func(id, where, typ, ref string) *apitest.Response {
			return s.Do(t, f.admin, "POST", f.base+"/section-groups/"+id+"/move",
				map[string]any{"position": map[string]any{where: map[string]any{"type": typ, "id": ref}}})
		}
		mvBody := func(typ, ref string) map[string]any {
			return map[string]any{"position": map[string]any{"before": map[string]any{"type": typ, "id": ref}}}
		}
		f.try(t, "move a group into itself", "POST", f.base+"/section-groups/"+g.ID+"/move", mvBody("site-section", b.ID), 400)
		f.try(t, "move a group into its child", "POST", f.base+"/section-groups/"+g.ID+"/move", mvBody("site-section-group", inner.ID), 400)
		f.try(t, "move a group next to nothing", "POST", f.base+"/section-groups/"+g.ID+"/move", mvBody("site-section", "nope"), 400)
		f.try(t, "move an unknown group", "POST", f.base+"/section-groups/nope/move", mvBody("site-section", a.ID), 404)
		mv(g.ID, "before", "site-section", a.ID).WantStatus(t, 200)
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		if st.Structure[0].ID != g.ID {
			t.Fatalf("after move %+v", st)
		}
		// Removing a section: 204, and 204 again now that it is not in the group.
		s.Do(t, f.admin, "DELETE", f.base+"/section-groups/"+inner.ID+"/sections/"+b.ID, nil).WantStatus(t, 204)
		s.Do(t, f.admin, "DELETE", f.base+"/section-groups/"+inner.ID+"/sections/"+b.ID, nil).WantStatus(t, 204)
		g0 := g.ID
		f.try(t, "group title null", "PATCH", f.base+"/section-groups/"+g.ID, `{"title":null}`, 400)
		f.try(t, "group title empty", "PATCH", f.base+"/section-groups/"+g.ID, `{"title":""}`, 400)
		f.try(t, "group icon too long", "PATCH", f.base+"/section-groups/"+g.ID, `{"icon":"`+strings.Repeat("i", 51)+`"}`, 400)
		g = groupBody{}
		s.Do(t, f.admin, "PATCH", f.base+"/section-groups/"+g0, `{"icon":null}`).WantStatus(t, 200).JSON(t, &g)
		if g.Icon != "" || len(g.Title) != 100 {
			t.Fatalf("patched %+v", g)
		}
		// Deleting a group puts its children in its place.
		s.Do(t, f.admin, "DELETE", f.base+"/section-groups/"+g.ID, nil).WantStatus(t, 204)
		s.Do(t, f.admin, "DELETE", f.base+"/section-groups/"+g.ID, nil).WantStatus(t, 204)
		var groups struct{ Count int }
		s.Do(t, f.admin, "GET", f.base+"/section-groups", nil).WantStatus(t, 200).JSON(t, &groups)
		if groups.Count != 1 {
			t.Fatalf("%d groups left", groups.Count)
		}
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 200).JSON(t, &st)
		var ids []string
		for _, n := range st.Structure {
			ids = append(ids, n.Object)
		}
		if fmt.Sprint(ids) != "[site-section site-section-group site-section site-section]" {
			t.Fatalf("after delete %v", ids)
		}
		f.check(t)
		// Lists take the usual page sizes.
		for _, l := range []string{"/sections", "/site-spaces", "/section-groups"} {
			s.Do(t, f.admin, "GET", f.base+l+"?limit=1001", nil).WantStatus(t, 400)
			s.Do(t, f.admin, "GET", f.base+l+"?limit=1000", nil).WantStatus(t, 200)
		}
		// Deleting the site takes its whole structure and schema with it.
		s.Do(t, f.admin, "PUT", f.base+"/adaptive-schema", adaptiveSchemaBody).WantStatus(t, 200)
		s.Do(t, f.admin, "DELETE", f.base, nil).WantStatus(t, 204)
		s.Do(t, f.admin, "GET", f.base+"/structure", nil).WantStatus(t, 404)
	})
}

const adaptiveSchemaBody = `{"jsonSchema":{"type":"object","properties":{
	"plan":{"type":"string","enum":["free","pro"],"description":"Plan"},
	"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","additionalProperties":false,
		"properties":{"beta":{"type":"boolean","description":"Beta testers"}}}},
	"additionalProperties":false}}`

// TestSiteAdaptiveSchema sets a schema, derives conditions from it and
// checks conditions against it, with the position of errors.
func TestSiteAdaptiveSchema(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, _ := newStructure(t, s, "Guide")
		s.Do(t, f.admin, "GET", f.base+"/adaptive-schema", nil).WantStatus(t, 404)
		var conds struct {
			Items []struct{ Description, Condition string }
		}
		s.Do(t, f.admin, "GET", f.base+"/adaptive-schema/template-conditions", nil).WantStatus(t, 200).JSON(t, &conds)
		if len(conds.Items) != 0 {
			t.Fatalf("conditions without a schema: %+v", conds)
		}
		s.Do(t, f.admin, "PUT", f.base+"/adaptive-schema", `{}`).WantError(t, 400, "jsonSchema is required")
		s.Do(t, f.admin, "PUT", f.base+"/adaptive-schema",
			`{"jsonSchema":{"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":false}}`).
			WantError(t, 400, "at /properties/a: missing property 'description'")
		s.Do(t, f.admin, "GET", f.base+"/adaptive-schema", nil).WantStatus(t, 404)
		var got struct {
			Object     string
			JSONSchema map[string]any
			UpdatedAt  string
		}
		s.Do(t, f.admin, "PUT", f.base+"/adaptive-schema", adaptiveSchemaBody).WantStatus(t, 200).JSON(t, &got)
		if got.Object != "site-adaptive-schema" || got.JSONSchema["type"] != "object" || got.UpdatedAt == "" {
			t.Fatalf("schema %+v", got)
		}
		s.Do(t, f.admin, "GET", f.base+"/adaptive-schema", nil).WantStatus(t, 200)
		s.Do(t, f.admin, "GET", f.base+"/adaptive-schema/template-conditions", nil).WantStatus(t, 200).JSON(t, &conds)
		if fmt.Sprint(conds.Items) != `[{Plan: free visitor.claims.plan == "free"} {Plan: pro visitor.claims.plan == "pro"} {Beta testers visitor.claims.unsigned.beta == true}]` {
			t.Fatalf("conditions %v", conds.Items)
		}
		ss := f.siteSpaces(t, "")[0]
		path := f.base + "/site-spaces/" + ss.ID
		s.Do(t, f.admin, "PATCH", path, map[string]any{"condition": `visitor.claims.plan == "pro" &&`}).
			WantError(t, 400, "condition: line 1, column")
		s.Do(t, f.admin, "PATCH", path, map[string]any{"condition": "visitor.claims.unsigned.alpha"}).
			WantError(t, 400, "condition: line 1, column")
		f.try(t, "condition comparing a string with a number", "PATCH", path, map[string]any{"condition": `visitor.claims.plan > 3`}, 400)
		f.try(t, "invalid schema over a valid one", "PUT", f.base+"/adaptive-schema", `{"jsonSchema":{"type":"object"}}`, 400)
		for _, c := range conds.Items {
			s.Do(t, f.admin, "PATCH", path, map[string]any{"condition": c.Condition}).WantStatus(t, 200)
		}
		var after siteSpaceBody
		s.Do(t, f.admin, "PATCH", path, map[string]any{"condition": "visitor.claims.unsigned.beta"}).WantStatus(t, 200).JSON(t, &after)
		if after.Condition != "visitor.claims.unsigned.beta" {
			t.Fatalf("condition %q", after.Condition)
		}
	})
}

// TestSiteStructureShareKey reads the structure of a published share-link
// site with a key and without, before and after the key is revoked, and
// checks the published URLs of sections and their site spaces.
func TestSiteStructureShareKey(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		_, stranger := s.User(t)
		sp := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Shared", "visibility": "share-link", "spaces": []string{sp}})
		f := &structureFixture{s: s, admin: admin, org: org, base: "/v1/orgs/" + org + "/sites/" + st.ID}
		api := f.addSection(t, f.space(t, "API"), nil)
		f.addSiteSpace(t, f.space(t, "API v2"), api.ID)
		var link struct {
			ID   string
			URLs struct{ Published string }
		}
		s.Do(t, admin, "POST", f.base+"/share-links", `{"name":"Partners"}`).WantStatus(t, 201).JSON(t, &link)
		_, key, _ := strings.Cut(link.URLs.Published, "?shareKey=")
		reads := []string{"/structure", "/sections", "/site-spaces"}
		for _, r := range reads {
			s.Do(t, stranger, "GET", f.base+r+"?shareKey="+key, nil).WantStatus(t, 404) // not published yet
		}
		var pub siteBody
		s.Do(t, admin, "POST", f.base+"/publish", nil).WantStatus(t, 200).JSON(t, &pub)
		for _, r := range reads {
			s.Do(t, stranger, "GET", f.base+r+"?shareKey="+key, nil).WantStatus(t, 200)
			s.Do(t, stranger, "GET", f.base+r, nil).WantStatus(t, 404)
			s.Do(t, stranger, "GET", f.base+r+"?shareKey=wrong", nil).WantStatus(t, 404)
		}
		// Writes never take a key.
		s.Do(t, stranger, "POST", f.base+"/site-spaces?shareKey="+key, map[string]any{"spaceId": sp}).WantStatus(t, 404)
		var l struct {
			Items []struct {
				Path string
				URLs struct{ Published string }
			}
		}
		s.Do(t, stranger, "GET", f.base+"/site-spaces?shareKey="+key, nil).WantStatus(t, 200).JSON(t, &l)
		want := []string{"", "/api", "/api/api-v2"}
		if len(l.Items) != 3 {
			t.Fatalf("site spaces %+v", l.Items)
		}
		for i, it := range l.Items {
			if it.URLs.Published != pub.URLs.Published+want[i] {
				t.Errorf("site space %s: published at %q, want %q", it.Path, it.URLs.Published, pub.URLs.Published+want[i])
			}
		}
		s.Do(t, admin, "PATCH", f.base+"/share-links/"+link.ID, `{"active":false}`).WantStatus(t, 200)
		for _, r := range reads {
			s.Do(t, stranger, "GET", f.base+r+"?shareKey="+key, nil).WantStatus(t, 404)
		}
	})
}

// TestSiteStructureConcurrentWrites deletes the site spaces of a section
// two at a time, concurrently, round after round: every write reads the
// whole structure, so without a lock on the site two deletions could each
// keep the default the other removes, leaving a section without one.
func TestSiteStructureConcurrentWrites(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		f, _ := newStructure(t, s, "Root")
		sp := f.space(t, "Variant")
		for round := range 8 {
			sec := f.addSection(t, sp, fmt.Sprint("Round ", round))
			for range 3 {
				f.addSiteSpace(t, sp, sec.ID)
			}
			var got sectionBody
			for _, x := range f.sections(t) {
				if x.ID == sec.ID {
					got = x
				}
			}
			done := make(chan int, 2)
			for _, ss := range got.SiteSpaces[:2] {
				go func() {
					done <- s.Do(t, f.admin, "DELETE", f.base+"/site-spaces/"+ss.ID, nil).Status
				}()
			}
			for range 2 {
				if st := <-done; st != 204 {
					t.Fatalf("round %d: delete answered %d", round, st)
				}
			}
			f.check(t)
		}
	})
}
