package wire

import (
	"encoding/json"
	"net/url"

	"github.com/foliodocs/folio"
)

// SiteSection is the GitBook SiteSection object.
type SiteSection struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Description  string        `json:"description,omitempty"`
	Default      bool          `json:"default"`
	Path         string        `json:"path"`
	Condition    string        `json:"condition,omitempty"`
	SectionGroup string        `json:"sectionGroup,omitempty"`
	Icon         string        `json:"icon,omitempty"`
	SiteSpaces   []SiteSpace   `json:"siteSpaces"`
	URLs         SiteSpaceURLs `json:"urls"`
}

// SiteSectionGroup is the GitBook SiteSectionGroup object. Sections is the
// deprecated list of the sections directly in the group; Children holds
// sections and groups in order.
type SiteSectionGroup struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	SectionGroup string        `json:"sectionGroup,omitempty"`
	Icon         string        `json:"icon,omitempty"`
	Sections     []SiteSection `json:"sections"`
	Children     []any         `json:"children"`
}

// SiteAdaptiveSchema is the GitBook SiteAdaptiveSchema object.
type SiteAdaptiveSchema struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  string          `json:"updatedAt"`
}

// TemplateCondition is the GitBook SiteAdaptiveTemplateCondition object.
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// sectionPublished is the published URL of a section: the site's own for
// the default section, the site's plus the section's path otherwise.
func (u URLs) sectionPublished(s *folio.Site, sec *folio.SiteSection) string {
	if sec.Default {
		return u.SitePublished(s)
	}
	return u.SitePublished(s) + "/" + url.PathEscape(sec.Path)
}

// NewSectionSiteSpace converts a site space of a section: its published URL
// is the section's, plus its own path unless it is the section's default.
func (u URLs) NewSectionSiteSpace(s *folio.Site, sec *folio.SiteSection, v *folio.SiteSpaceView) SiteSpace {
	out := u.NewSiteSpace(s, v)
	if s.Published {
		out.URLs.Published = u.sectionPublished(s, sec)
		if !v.Default {
			out.URLs.Published += "/" + url.PathEscape(v.Path)
		}
	}
	return out
}

// NewSiteSection converts a section with its site spaces.
func (u URLs) NewSiteSection(s *folio.Site, v *folio.SiteSectionView) SiteSection {
	out := SiteSection{Object: "site-section", ID: v.ID, Title: v.Title, Description: v.Description, Default: v.Default,
		Path: v.Path, Condition: v.Condition, SectionGroup: v.GroupID, Icon: v.Icon, SiteSpaces: []SiteSpace{}}
	for i := range v.SiteSpaces {
		out.SiteSpaces = append(out.SiteSpaces, u.NewSectionSiteSpace(s, &v.SiteSection, &v.SiteSpaces[i]))
	}
	if s.Published {
		out.URLs.Published = u.sectionPublished(s, &v.SiteSection)
	}
	return out
}

// NewSiteSectionGroup converts a group with its children.
func (u URLs) NewSiteSectionGroup(s *folio.Site, v *folio.SiteSectionGroupView) SiteSectionGroup {
	out := SiteSectionGroup{Object: "site-section-group", ID: v.ID, Title: v.Title, SectionGroup: v.ParentID,
		Icon: v.Icon, Sections: []SiteSection{}, Children: u.structureNodes(s, v.Children)}
	for _, c := range v.Children {
		if c.Section != nil {
			out.Sections = append(out.Sections, u.NewSiteSection(s, c.Section))
		}
	}
	return out
}

func (u URLs) structureNodes(s *folio.Site, nodes []folio.SiteStructureNode) []any {
	out := make([]any, 0, len(nodes))
	for _, n := range nodes {
		if n.Section != nil {
			out = append(out, u.NewSiteSection(s, n.Section))
		} else {
			out = append(out, u.NewSiteSectionGroup(s, n.Group))
		}
	}
	return out
}

// NewSiteStructure converts a site's structure.
func (u URLs) NewSiteStructure(v *folio.SiteStructure) SiteStructure {
	s := &v.Site.Site
	if v.Sectioned {
		return SiteStructure{Type: "sections", Structure: u.structureNodes(s, v.Nodes)}
	}
	spaces := make([]SiteSpace, 0, len(v.SiteSpaces))
	for i := range v.SiteSpaces {
		spaces = append(spaces, u.NewSiteSpace(s, &v.SiteSpaces[i]))
	}
	return SiteStructure{Type: "siteSpaces", Structure: spaces}
}

// NewSiteAdaptiveSchema converts a site's adaptive schema.
func NewSiteAdaptiveSchema(v *folio.AdaptiveSchema) SiteAdaptiveSchema {
	return SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: v.JSONSchema, UpdatedAt: Time(v.UpdatedAt)}
}

// NewTemplateCondition converts a template condition.
func NewTemplateCondition(v *folio.TemplateCondition) TemplateCondition {
	return TemplateCondition{Description: v.Description, Condition: v.Condition}
}

// NewPlacedSiteSpace converts a site space, in its section when it has one.
func (u URLs) NewPlacedSiteSpace(s *folio.Site, v *folio.PlacedSiteSpace) SiteSpace {
	if v.Section != nil {
		return u.NewSectionSiteSpace(s, v.Section, &v.SiteSpaceView)
	}
	return u.NewSiteSpace(s, &v.SiteSpaceView)
}
