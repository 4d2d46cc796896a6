package wire

import "github.com/foliodocs/folio"

// Organization is the GitBook Organization object.
type Organization struct {
	Object         string                  `json:"object"`
	ID             string                  `json:"id"`
	Title          string                  `json:"title"`
	CreatedAt      string                  `json:"createdAt"`
	EmailDomains   []string                `json:"emailDomains"`
	Hostname       string                  `json:"hostname,omitempty"`
	Type           string                  `json:"type"`
	UseCase        string                  `json:"useCase,omitempty"`
	CommunityType  string                  `json:"communityType,omitempty"`
	DefaultRole    *string                 `json:"defaultRole"`
	DefaultContent *folio.SitePointer      `json:"defaultContent,omitempty"`
	SSO            bool                    `json:"sso"`
	AI             bool                    `json:"ai"`
	InviteLinks    bool                    `json:"inviteLinks"`
	Plan           string                  `json:"plan"`
	Billing        *Billing                `json:"billing,omitempty"`
	MergeRules     MergeRules              `json:"mergeRules"`
	URLs           OrganizationURLs        `json:"urls"`
	Trial          Trial                   `json:"trial"`
	Permissions    OrganizationPermissions `json:"permissions"`
}

// OrganizationURLs are the URLs of an organization.
type OrganizationURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
	Logo     string `json:"logo,omitempty"`
}

// Trial is the trial state; a self-hosted server has none.
type Trial struct {
	Status string `json:"status"`
}

// Billing is the billing state; a self-hosted server bills nothing.
type Billing struct {
	Interval            string                `json:"interval"`
	EndDate             *string               `json:"endDate"`
	HasPaymentFailed    bool                  `json:"hasPaymentFailed"`
	IsScheduledToCancel bool                  `json:"isScheduledToCancel"`
	Pricing             Pricing               `json:"pricing"`
	UsageAddons         map[string]UsageAddon `json:"usageAddons"`
}

// Pricing lists prices, all zero on a self-hosted server.
type Pricing struct {
	Members struct {
		Plus PricePair `json:"plus_2024"`
		Pro  PricePair `json:"pro_2024"`
	} `json:"members"`
	Sites struct {
		Premium  PricePair `json:"premium"`
		Ultimate PricePair `json:"ultimate"`
	} `json:"sites"`
}

// PricePair is a monthly and a yearly price.
type PricePair struct {
	Monthly float64 `json:"monthly"`
	Yearly  float64 `json:"yearly"`
}

// UsageAddon is a usage-based add-on.
type UsageAddon struct {
	Enabled bool `json:"enabled"`
}

// OrganizationPermissions are the caller's permissions on an organization.
type OrganizationPermissions struct {
	View                bool `json:"view"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// SelfHostedPlan is the plan every organization of a Folio server reports:
// every feature is available and nothing is billed.
const SelfHostedPlan = "enterprise_2024"

// NewOrganization converts an organization as seen by a caller.
func (u URLs) NewOrganization(v *folio.OrganizationView) Organization {
	o := &v.Organization
	p := v.Permissions()
	out := Organization{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: Time(o.CreatedAt),
		EmailDomains: o.EmailDomains, Hostname: o.Hostname, Type: o.Type, UseCase: o.UseCase,
		CommunityType: o.CommunityType, DefaultContent: o.DefaultContent,
		SSO: o.SSO, AI: o.AI, InviteLinks: o.InviteLinks, Plan: SelfHostedPlan, MergeRules: NewMergeRules(o.MergeRules),
		URLs:  OrganizationURLs{Location: u.API("/orgs/" + o.ID), App: u.App("/o/" + o.ID), Logo: o.Logo},
		Trial: Trial{Status: "notapplicable"},
		Permissions: OrganizationPermissions{
			View: p.View, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
			CreateOpenAPISpec: p.CreateOpenAPISpec, IngestConversations: p.IngestConversations,
			ViewBilling: p.ViewBilling, ListMembers: p.ListMembers, ListTeams: p.ListTeams,
			ListIntegrations: p.ListIntegrations, ListInstallations: p.ListInstallations,
			InstallIntegration: p.InstallIntegration,
		},
	}
	if o.EmailDomains == nil {
		out.EmailDomains = []string{}
	}
	if o.DefaultRole != folio.RoleGuest {
		r := string(o.DefaultRole)
		out.DefaultRole = &r
	}
	if p.ViewBilling {
		out.Billing = &Billing{Interval: "yearly", UsageAddons: map[string]UsageAddon{}}
	}
	return out
}

// MergeRules is a merge rules configuration; rules is present exactly when
// the type is "rules".
type MergeRules struct {
	Type  string             `json:"type"`
	Rules *[]folio.MergeRule `json:"rules,omitempty"`
}

// NewMergeRules converts a merge rules configuration.
func NewMergeRules(m folio.MergeRules) MergeRules {
	out := MergeRules{Type: m.Type}
	if m.Type == "rules" {
		rules := m.Rules
		if rules == nil {
			rules = []folio.MergeRule{}
		}
		out.Rules = &rules
	}
	return out
}
