package folio

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of the site structure, as in the service description and the
// reference (group titles), and Folio's own bound on sections per site.
const (
	MinSiteSectionTitle      = 2
	MaxSiteSectionTitle      = 128
	MaxSitePath              = 100 // section and site space paths
	MaxSiteSectionIcon       = 50
	MaxSiteSectionDesc       = 256
	MinSiteSectionGroupTitle = 1
	MaxSiteSectionGroupTitle = 100
	MaxSiteSectionGroupAdded = 100 // sections named by one addSectionGroupToSite
	MaxSiteSections          = 200 // sections and groups of one site
)

// SiteSection groups site spaces (variants) under one title in a site.
// GroupID is empty at the site's root; Default is true for the site's
// default section. Icon, Description and Condition are empty when unset.
type SiteSection struct {
	ID          ID
	SiteID      ID
	GroupID     ID
	Title       string
	Path        string
	Icon        string
	Description string
	Condition   string
	Position    int64
	Default     bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SiteSectionGroup groups sections and other groups; ParentID is empty at
// the site's root.
type SiteSectionGroup struct {
	ID        ID
	SiteID    ID
	ParentID  ID
	Title     string
	Icon      string
	Position  int64
	CreatedAt time.Time
}

// Kinds of the items of a site structure, as the reference names them in
// move positions.
const (
	KindSiteSpace        = "site-space"
	KindSiteSection      = "site-section"
	KindSiteSectionGroup = "site-section-group"
)

// StructurePointer names one item of a site structure.
type StructurePointer struct {
	Type string
	ID   ID
}

// StructurePosition places a moved item before or after another; both
// empty means the end of the site (or of the section, for site spaces).
type StructurePosition struct {
	Before *StructurePointer
	After  *StructurePointer
}

// Validate checks that at most one of Before and After is given and that it
// names an item.
func (p StructurePosition) Validate() error {
	if p.Before != nil && p.After != nil {
		return FieldErrorf("position", "position takes either before or after, not both")
	}
	for _, q := range []*StructurePointer{p.Before, p.After} {
		if q == nil {
			continue
		}
		switch q.Type {
		case KindSiteSpace, KindSiteSection, KindSiteSectionGroup:
		default:
			return FieldErrorf("position", "position type must be site-space, site-section or site-section-group")
		}
		if q.ID == "" {
			return FieldErrorf("position", "position must name an item")
		}
	}
	return nil
}

// Target returns the pointer of the position and whether it is "before".
func (p StructurePosition) Target() (*StructurePointer, bool) {
	if p.Before != nil {
		return p.Before, true
	}
	return p.After, false
}

// NewSiteSection is the body of addSectionToSite.
type NewSiteSection struct {
	SpaceID ID
	Title   Optional[string]
	Icon    Optional[string]
}

// Validate checks the limits of a new section.
func (n NewSiteSection) Validate() error {
	if n.SpaceID == "" {
		return FieldErrorf("spaceId", "spaceId is required")
	}
	if n.Title.Present() {
		if err := ValidateSiteSectionTitle(n.Title.Value); err != nil {
			return err
		}
	}
	if n.Icon.Present() {
		if err := validateIcon(n.Icon.Value); err != nil {
			return err
		}
	}
	return nil
}

// SiteSectionUpdate is the body of updateSiteSectionById: each field absent
// leaves the section unchanged; null removes condition, icon and description.
type SiteSectionUpdate struct {
	Title            Optional[string]
	Path             Optional[string]
	DefaultSiteSpace Optional[ID]
	Condition        Optional[string]
	Icon             Optional[string]
	Description      Optional[string]
}

// Validate checks the limits of each field present. The condition's
// expression is checked by the application against the site's schema.
func (u SiteSectionUpdate) Validate() error {
	for _, f := range []struct {
		name string
		o    Optional[string]
	}{{"title", u.Title}, {"path", u.Path}, {"defaultSiteSpace", u.DefaultSiteSpace}} {
		if f.o.Set && f.o.Null {
			return FieldErrorf(f.name, "%s cannot be null", f.name)
		}
	}
	if u.Title.Present() {
		if err := ValidateSiteSectionTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.Path.Present() {
		if err := ValidateSitePath(u.Path.Value); err != nil {
			return err
		}
	}
	if u.DefaultSiteSpace.Present() && u.DefaultSiteSpace.Value == "" {
		return FieldErrorf("defaultSiteSpace", "defaultSiteSpace must name a site space")
	}
	if u.Condition.Present() && utf8.RuneCountInString(u.Condition.Value) > MaxConditionLength {
		return FieldErrorf("condition", "condition must be at most %d characters", MaxConditionLength)
	}
	if u.Icon.Present() {
		if err := validateIcon(u.Icon.Value); err != nil {
			return err
		}
	}
	if u.Description.Present() && utf8.RuneCountInString(u.Description.Value) > MaxSiteSectionDesc {
		return FieldErrorf("description", "description must be at most %d characters", MaxSiteSectionDesc)
	}
	return nil
}

// SiteSpaceUpdate is the body of updateSiteSpaceById: each field absent
// leaves the site space unchanged; null removes the condition.
type SiteSpaceUpdate struct {
	Path      Optional[string]
	Condition Optional[string]
	SpaceID   Optional[ID]
	Hidden    Optional[bool]
}

// Validate checks the limits of each field present.
func (u SiteSpaceUpdate) Validate() error {
	if u.Path.Set && u.Path.Null {
		return FieldErrorf("path", "path cannot be null")
	}
	if u.SpaceID.Set && (u.SpaceID.Null || u.SpaceID.Value == "") {
		return FieldErrorf("spaceId", "spaceId must name a space")
	}
	if u.Hidden.Set && u.Hidden.Null {
		return FieldErrorf("hidden", "hidden cannot be null")
	}
	if u.Path.Present() {
		if err := ValidateSitePath(u.Path.Value); err != nil {
			return err
		}
	}
	if u.Condition.Present() && utf8.RuneCountInString(u.Condition.Value) > MaxConditionLength {
		return FieldErrorf("condition", "condition must be at most %d characters", MaxConditionLength)
	}
	return nil
}

// NewSiteSectionGroup is the body of addSectionGroupToSite.
type NewSiteSectionGroup struct {
	Title    string
	Icon     Optional[string]
	Sections []ID
	Parent   ID
}

// Validate checks the limits of a new group.
func (n NewSiteSectionGroup) Validate() error {
	if err := ValidateSiteSectionGroupTitle(n.Title); err != nil {
		return err
	}
	if n.Icon.Present() {
		if err := validateIcon(n.Icon.Value); err != nil {
			return err
		}
	}
	if len(n.Sections) > MaxSiteSectionGroupAdded {
		return FieldErrorf("sections", "sections must list at most %d sections", MaxSiteSectionGroupAdded)
	}
	return nil
}

// SiteSectionGroupUpdate is the body of updateSiteSectionGroupById.
type SiteSectionGroupUpdate struct {
	Title Optional[string]
	Icon  Optional[string]
}

// Validate checks the limits of each field present.
func (u SiteSectionGroupUpdate) Validate() error {
	if u.Title.Set {
		if u.Title.Null {
			return FieldErrorf("title", "title cannot be null")
		}
		if err := ValidateSiteSectionGroupTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.Icon.Present() {
		return validateIcon(u.Icon.Value)
	}
	return nil
}

// ValidateSiteSectionTitle checks a section title: 2 to 128 characters.
func ValidateSiteSectionTitle(s string) error {
	if n := utf8.RuneCountInString(s); n < MinSiteSectionTitle || n > MaxSiteSectionTitle {
		return FieldErrorf("title", "title must be %d to %d characters", MinSiteSectionTitle, MaxSiteSectionTitle)
	}
	return nil
}

// ValidateSiteSectionGroupTitle checks a group title: 1 to 100 characters.
func ValidateSiteSectionGroupTitle(s string) error {
	if n := utf8.RuneCountInString(s); n < MinSiteSectionGroupTitle || n > MaxSiteSectionGroupTitle {
		return FieldErrorf("title", "title must be %d to %d characters", MinSiteSectionGroupTitle, MaxSiteSectionGroupTitle)
	}
	return nil
}

// ValidateSitePath checks a section or site space path: 1 to 100
// characters making one URL segment (no slash, no white space).
func ValidateSitePath(s string) error {
	if n := utf8.RuneCountInString(s); n < 1 || n > MaxSitePath {
		return FieldErrorf("path", "path must be 1 to %d characters", MaxSitePath)
	}
	if strings.ContainsAny(s, "/ \t\r\n?#") || s == "." || s == ".." {
		return FieldErrorf("path", "path must be one URL segment, without slashes, spaces, ? or #")
	}
	return nil
}

func validateIcon(s string) error {
	if n := utf8.RuneCountInString(s); n < 1 || n > MaxSiteSectionIcon {
		return FieldErrorf("icon", "icon must be 1 to %d characters", MaxSiteSectionIcon)
	}
	return nil
}

// SiteSectionView is a section with its site spaces, in order.
type SiteSectionView struct {
	SiteSection
	SiteSpaces []SiteSpaceView
}

// SiteSectionGroupView is a group with its children (sections and groups)
// in order.
type SiteSectionGroupView struct {
	SiteSectionGroup
	Children []SiteStructureNode
}

// SiteStructureNode is one child in a site's structure: a section or a
// group.
type SiteStructureNode struct {
	Section *SiteSectionView
	Group   *SiteSectionGroupView
}

// SiteStructure is the whole structure of a site: its sections and groups
// when it has sections (Sectioned), its site spaces otherwise.
type SiteStructure struct {
	Site       *SiteView
	Sectioned  bool
	Nodes      []SiteStructureNode
	SiteSpaces []SiteSpaceView
}

// PlacedSiteSpace is a site space with the section it sits in (nil at the
// site's root), which its published URL depends on.
type PlacedSiteSpace struct {
	SiteSpaceView
	Section *SiteSection
}
