package folio_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

func TestSiteStructureValidate(t *testing.T) {
	t.Parallel()
	s := func(v string) folio.Optional[string] { return folio.Some(v) }
	null := folio.Null[string]()
	ptr := func(typ, id string) *folio.StructurePointer { return &folio.StructurePointer{Type: typ, ID: id} }
	for _, c := range []struct {
		name  string
		v     interface{ Validate() error }
		field string // "" when valid
	}{
		{"section/ok", folio.NewSiteSection{SpaceID: "x", Title: s("Do"), Icon: s(strings.Repeat("i", 50))}, ""},
		{"section/null title and icon", folio.NewSiteSection{SpaceID: "x", Title: null, Icon: null}, ""},
		{"section/no space", folio.NewSiteSection{}, "spaceId"},
		{"section/short title", folio.NewSiteSection{SpaceID: "x", Title: s("D")}, "title"},
		{"section/long title", folio.NewSiteSection{SpaceID: "x", Title: s(strings.Repeat("t", 129))}, "title"},
		{"section/long icon", folio.NewSiteSection{SpaceID: "x", Icon: s(strings.Repeat("i", 51))}, "icon"},
		{"update/empty", folio.SiteSectionUpdate{}, ""},
		{"update/nulls", folio.SiteSectionUpdate{Condition: null, Icon: null, Description: null}, ""},
		{"update/null title", folio.SiteSectionUpdate{Title: null}, "title"},
		{"update/null path", folio.SiteSectionUpdate{Path: null}, "path"},
		{"update/null default", folio.SiteSectionUpdate{DefaultSiteSpace: null}, "defaultSiteSpace"},
		{"update/longest path", folio.SiteSectionUpdate{Path: s(strings.Repeat("p", 100))}, ""},
		{"update/long path", folio.SiteSectionUpdate{Path: s(strings.Repeat("p", 101))}, "path"},
		{"update/path with slash", folio.SiteSectionUpdate{Path: s("a/b")}, "path"},
		{"update/path dot dot", folio.SiteSectionUpdate{Path: s("..")}, "path"},
		{"update/longest condition", folio.SiteSectionUpdate{Condition: s(strings.Repeat("c", 1024))}, ""},
		{"update/long condition", folio.SiteSectionUpdate{Condition: s(strings.Repeat("c", 1025))}, "condition"},
		{"update/longest description", folio.SiteSectionUpdate{Description: s(strings.Repeat("d", 256))}, ""},
		{"update/long description", folio.SiteSectionUpdate{Description: s(strings.Repeat("d", 257))}, "description"},
		{"site space/empty", folio.SiteSpaceUpdate{}, ""},
		{"site space/null condition", folio.SiteSpaceUpdate{Condition: null}, ""},
		{"site space/null path", folio.SiteSpaceUpdate{Path: null}, "path"},
		{"site space/null space", folio.SiteSpaceUpdate{SpaceID: null}, "spaceId"},
		{"site space/null hidden", folio.SiteSpaceUpdate{Hidden: folio.Null[bool]()}, "hidden"},
		{"site space/long condition", folio.SiteSpaceUpdate{Condition: s(strings.Repeat("c", 1025))}, "condition"},
		{"group/ok", folio.NewSiteSectionGroup{Title: strings.Repeat("t", 100)}, ""},
		{"group/empty title", folio.NewSiteSectionGroup{}, "title"},
		{"group/long title", folio.NewSiteSectionGroup{Title: strings.Repeat("t", 101)}, "title"},
		{"group update/null title", folio.SiteSectionGroupUpdate{Title: null}, "title"},
		{"group update/null icon", folio.SiteSectionGroupUpdate{Icon: null}, ""},
		{"position/none", folio.StructurePosition{}, ""},
		{"position/both", folio.StructurePosition{Before: ptr("site-space", "a"), After: ptr("site-space", "b")}, "position"},
		{"position/bad type", folio.StructurePosition{Before: ptr("page", "a")}, "position"},
		{"position/no id", folio.StructurePosition{After: ptr("site-section", "")}, "position"},
	} {
		err := c.v.Validate()
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var fe *folio.Error
		if e, ok := err.(*folio.Error); ok {
			fe = e
		}
		if fe == nil || fe.Kind != folio.Invalid || fe.Field != c.field {
			t.Errorf("%s: got %v, want an Invalid error on %s", c.name, err, c.field)
		}
	}
}
