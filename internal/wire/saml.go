package wire

import "github.com/foliodocs/folio"

// SAMLProvider is the GitBook OrganizationSAMLProvider object.
type SAMLProvider struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	SSOURL      string   `json:"ssoURL"`
	EntityID    string   `json:"entityID"`
	Certificate string   `json:"certificate"`
	DefaultTeam *Team    `json:"defaultTeam,omitempty"`
	DefaultRole *string  `json:"defaultRole"`
	CreatedAt   string   `json:"createdAt"`
	Status      string   `json:"status"`
	Service     SAMLSP   `json:"service"`
	URLs        UserURLs `json:"urls"`
}

// SAMLSP describes the service-provider side Folio serves for a provider.
type SAMLSP struct {
	ACSURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// NewSAMLProvider converts a provider, its default team (nil for none) and
// the service-provider endpoints.
func (u URLs) NewSAMLProvider(p *folio.SAMLProvider, team *folio.TeamView, sp SAMLSP) SAMLProvider {
	out := SAMLProvider{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL, EntityID: p.EntityID,
		Certificate: p.Certificate, DefaultRole: role(p.DefaultRole), CreatedAt: Time(p.CreatedAt), Status: "pending",
		Service: sp, URLs: UserURLs{Location: u.API("/orgs/" + p.OrganizationID + "/saml/" + p.ID)}}
	if p.Active() {
		out.Status = "active"
	}
	if team != nil {
		t := NewTeam(team)
		out.DefaultTeam = &t
	}
	return out
}

// SSOLogin is the GitBook OrganizationSSOProviderLogin object.
type SSOLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}

// AgentInstructions is the GitBook OrganizationAgentInstructions object;
// the instructions are the stored Document JSON.
type AgentInstructions struct {
	Object       string   `json:"object"`
	Instructions rawJSON  `json:"instructions"`
	UpdatedAt    string   `json:"updatedAt"`
	UpdatedBy    string   `json:"updatedBy"`
	URLs         UserURLs `json:"urls"`
}

// rawJSON is JSON written as is.
type rawJSON []byte

// MarshalJSON returns the bytes unchanged.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// NewAgentInstructions converts an organization's agent instructions.
func (u URLs) NewAgentInstructions(ai *folio.AgentInstructions) AgentInstructions {
	return AgentInstructions{Object: "agent-instructions", Instructions: rawJSON(ai.Document), UpdatedAt: Time(ai.UpdatedAt),
		UpdatedBy: ai.UpdatedBy, URLs: UserURLs{Location: u.API("/orgs/" + ai.OrganizationID + "/agent-instructions")}}
}
