package folio

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Organization owns spaces, collections, sites, teams and members.
type Organization struct {
	ID             ID
	Title          string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	EmailDomains   []string
	Hostname       string // empty when unset
	Type           string // business or community
	UseCase        string // empty when unset
	CommunityType  string // empty when unset
	DefaultRole    Role   // RoleGuest (null) makes joiners guests
	DefaultContent *SitePointer
	Logo           string // empty when unset
	SSO            bool
	AI             bool
	InviteLinks    bool
	MergeRules     MergeRules
}

// SitePointer points at a site, used as an organization's default content.
type SitePointer struct {
	Type string `json:"type"`
	Site ID     `json:"site"`
}

// MergeRules configure what a change request needs before it can merge.
// Type is "none" or "rules" for organizations, and also "inherit" for spaces.
type MergeRules struct {
	Type  string      `json:"type"`
	Rules []MergeRule `json:"rules,omitempty"`
}

// MergeRule is one rule of a "rules" configuration.
type MergeRule struct {
	Rule       string  `json:"rule"`
	Users      []ID    `json:"users,omitempty"`
	Expression *string `json:"expression,omitempty"`
}

// OrganizationView is an organization as seen by one caller: their role in
// it, from which its permissions follow.
type OrganizationView struct {
	Organization
	CallerRole     Role
	CallerSSO      bool
	CallerOwnsTeam bool
}

// Access returns the caller's access to the organization.
func (v *OrganizationView) Access(c Caller) Access {
	return Access{OrganizationID: v.ID, UserID: c.UserID, Role: v.CallerRole, MemberSSO: v.CallerSSO,
		OrgSSO: v.SSO, OwnsTeam: v.CallerOwnsTeam, SSOToken: c.Org == v.ID}
}

// Permissions returns the caller's permissions on the organization.
func (v *OrganizationView) Permissions() OrganizationPermissions {
	return OrgPermissions(v.CallerRole, v.CallerOwnsTeam)
}

// Value sets of organization fields, as in the GitBook reference.
var (
	OrganizationTypes    = []string{"business", "community"}
	OrganizationUseCases = []string{"internalDocs", "docsSite", "audienceControlledSite", "productDocs",
		"teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other"}
	CommunityTypes = []string{"nonProfit", "openSource", "education"}
)

// MaxEmailDomains bounds the emailDomains list of an organization.
const MaxEmailDomains = 100

var hostnamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$`)

// NewOrganization describes an organization to create (POST /orgs).
type NewOrganization struct {
	Title         string `json:"title"`
	Type          string `json:"type"`
	UseCase       string `json:"useCase"`
	CommunityType string `json:"communityType"`
	Hostname      string `json:"hostname"`
}

// Validate checks a new organization and fills defaults. It returns Invalid errors.
func (n *NewOrganization) Validate() error {
	if err := validateOrgTitle(n.Title); err != nil {
		return err
	}
	if n.Type == "" {
		n.Type = "business"
	}
	if err := oneOf("type", n.Type, OrganizationTypes); err != nil {
		return err
	}
	if n.UseCase != "" {
		if err := oneOf("useCase", n.UseCase, OrganizationUseCases); err != nil {
			return err
		}
	}
	if n.CommunityType != "" {
		if err := oneOf("communityType", n.CommunityType, CommunityTypes); err != nil {
			return err
		}
	}
	if n.Hostname != "" {
		return validateHostname(n.Hostname)
	}
	return nil
}

// OrganizationUpdate is the body of PATCH /orgs/{organizationId}.
type OrganizationUpdate struct {
	Title          Optional[string]      `json:"title"`
	EmailDomains   Optional[[]string]    `json:"emailDomains"`
	Hostname       Optional[string]      `json:"hostname"`
	DefaultRole    Optional[string]      `json:"defaultRole"`
	DefaultContent Optional[SitePointer] `json:"defaultContent"`
	Logo           Optional[string]      `json:"logo"`
	SSO            Optional[bool]        `json:"sso"`
	AI             Optional[bool]        `json:"ai"`
	InviteLinks    Optional[bool]        `json:"inviteLinks"`
	MergeRules     Optional[MergeRules]  `json:"mergeRules"`
}

// Validate checks every present field against its documented limits and
// normalizes email domains. It returns Invalid errors naming the field.
func (u *OrganizationUpdate) Validate() error {
	if u.Title.Set {
		if u.Title.Null {
			return FieldErrorf("title", "title cannot be null")
		}
		if err := validateOrgTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.EmailDomains.Set {
		if u.EmailDomains.Null {
			return FieldErrorf("emailDomains", "emailDomains cannot be null; send [] to remove every domain")
		}
		domains, err := normalizeEmailDomains(u.EmailDomains.Value)
		if err != nil {
			return err
		}
		u.EmailDomains.Value = domains
	}
	if u.Hostname.Set {
		if u.Hostname.Null {
			return FieldErrorf("hostname", "hostname cannot be null")
		}
		if err := validateHostname(u.Hostname.Value); err != nil {
			return err
		}
	}
	if u.DefaultRole.Present() {
		if _, err := ParseRole("defaultRole", u.DefaultRole.Value); err != nil {
			return err
		}
	}
	if u.DefaultContent.Present() {
		dc := u.DefaultContent.Value
		if dc.Type != "site" || dc.Site == "" {
			return FieldErrorf("defaultContent", `defaultContent must be {"type":"site","site":SITE_ID} or null`)
		}
	}
	if u.Logo.Present() {
		if err := ValidateURL("logo", u.Logo.Value); err != nil {
			return err
		}
	}
	for name, b := range map[string]Optional[bool]{"sso": u.SSO, "ai": u.AI, "inviteLinks": u.InviteLinks} {
		if b.Set && b.Null {
			return FieldErrorf(name, "%s must be a boolean", name)
		}
	}
	if u.MergeRules.Set {
		if u.MergeRules.Null {
			return FieldErrorf("mergeRules", "mergeRules cannot be null")
		}
		if err := u.MergeRules.Value.Validate(false); err != nil {
			return err
		}
	}
	return nil
}

// Empty reports whether the update changes nothing.
func (u *OrganizationUpdate) Empty() bool {
	return !u.Title.Set && !u.EmailDomains.Set && !u.Hostname.Set && !u.DefaultRole.Set &&
		!u.DefaultContent.Set && !u.Logo.Set && !u.SSO.Set && !u.AI.Set && !u.InviteLinks.Set && !u.MergeRules.Set
}

// Merge rule names, as in the GitBook reference.
var (
	userListRules = []string{"require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"}
	plainRules    = []string{"require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
		"require_up_to_date_change_request", "require_change_request_subject", "require_change_request_description"}
)

// MaxMergeRules bounds the number of rules and of users in one rule.
const MaxMergeRules = 50

// Validate checks the shape of a merge rules configuration. inherit allows
// the "inherit" type, which only spaces have. It returns Invalid errors.
func (m *MergeRules) Validate(inherit bool) error {
	const field = "mergeRules"
	switch m.Type {
	case "none", "rules":
	case "inherit":
		if !inherit {
			return FieldErrorf(field, `mergeRules.type must be "none" or "rules"`)
		}
	default:
		if inherit {
			return FieldErrorf(field, `mergeRules.type must be "inherit", "none" or "rules"`)
		}
		return FieldErrorf(field, `mergeRules.type must be "none" or "rules"`)
	}
	if m.Type != "rules" {
		if len(m.Rules) > 0 {
			return FieldErrorf(field, `mergeRules.rules is only allowed with type "rules"`)
		}
		return nil
	}
	if len(m.Rules) > MaxMergeRules {
		return FieldErrorf(field, "mergeRules.rules can hold at most %d rules", MaxMergeRules)
	}
	for i := range m.Rules {
		r := &m.Rules[i]
		switch {
		case slices.Contains(userListRules, r.Rule):
			if r.Users == nil {
				return FieldErrorf(field, "mergeRules rule %q needs a users list", r.Rule)
			}
			if len(r.Users) > MaxMergeRules {
				return FieldErrorf(field, "mergeRules rule %q can name at most %d users", r.Rule, MaxMergeRules)
			}
		case slices.Contains(plainRules, r.Rule):
			if len(r.Users) > 0 {
				return FieldErrorf(field, "mergeRules rule %q takes no users", r.Rule)
			}
		case r.Rule == "custom":
			if r.Expression == nil || utf8.RuneCountInString(*r.Expression) > 1024 {
				return FieldErrorf(field, "mergeRules custom rule needs an expression of at most 1024 characters")
			}
		default:
			return FieldErrorf(field, "mergeRules rule %q is not a known rule", r.Rule)
		}
		if r.Rule != "custom" && r.Expression != nil {
			return FieldErrorf(field, "mergeRules rule %q takes no expression", r.Rule)
		}
	}
	return nil
}

// UserIDs returns every user named by the rules, for existence checks.
func (m *MergeRules) UserIDs() []ID {
	var ids []ID
	for _, r := range m.Rules {
		ids = append(ids, r.Users...)
	}
	return ids
}

func validateOrgTitle(t string) error {
	n := utf8.RuneCountInString(t)
	if n < 2 || n > 255 {
		return FieldErrorf("title", "title must be 2 to 255 characters")
	}
	if strings.TrimSpace(t) == "" {
		return FieldErrorf("title", "title must not be blank")
	}
	return nil
}

func validateHostname(h string) error {
	if !hostnamePattern.MatchString(h) {
		return FieldErrorf("hostname", "hostname must be 3 to 32 lowercase letters, digits or hyphens, not starting or ending with a hyphen")
	}
	return nil
}

var domainLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// normalizeEmailDomains lowercases, checks and deduplicates email domains.
func normalizeEmailDomains(in []string) ([]string, error) {
	if len(in) > MaxEmailDomains {
		return nil, FieldErrorf("emailDomains", "emailDomains can hold at most %d domains", MaxEmailDomains)
	}
	out := make([]string, 0, len(in))
	seen := make(map[string]bool, len(in))
	for _, d := range in {
		d = strings.ToLower(strings.TrimSpace(d))
		labels := strings.Split(d, ".")
		ok := len(d) <= 253 && len(labels) >= 2
		for _, l := range labels {
			ok = ok && domainLabel.MatchString(l)
		}
		if !ok {
			return nil, FieldErrorf("emailDomains", "emailDomains: %q is not a domain name", d)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

// ValidateURL checks an absolute http(s) URL of at most 2048 characters.
func ValidateURL(field, s string) error {
	if len(s) > 2048 {
		return FieldErrorf(field, "%s must be at most 2048 characters", field)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return FieldErrorf(field, "%s must be an absolute http or https URL", field)
	}
	return nil
}

func oneOf(field, v string, set []string) error {
	if !slices.Contains(set, v) {
		return FieldErrorf(field, "%s must be one of %s", field, strings.Join(set, ", "))
	}
	return nil
}

// MarshalJSON writes users exactly for the rules that take users, so an
// empty list survives a round trip.
func (r MergeRule) MarshalJSON() ([]byte, error) {
	type plain struct {
		Rule       string  `json:"rule"`
		Users      *[]ID   `json:"users,omitempty"`
		Expression *string `json:"expression,omitempty"`
	}
	p := plain{Rule: r.Rule, Expression: r.Expression}
	if slices.Contains(userListRules, r.Rule) {
		users := r.Users
		if users == nil {
			users = []ID{}
		}
		p.Users = &users
	}
	return json.Marshal(p)
}
