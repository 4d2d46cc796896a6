package folio

import "time"

// Member is a user's membership of an organization. A RoleGuest member is a
// guest: they belong to the organization but hold no organization-wide role.
type Member struct {
	OrganizationID ID
	UserID         ID
	Role           Role
	JoinedAt       time.Time
	LastSeenAt     *time.Time
	SSO            bool
	Disabled       bool
}

// MemberView is a membership with its user and counts, as listed.
type MemberView struct {
	Member
	User   User
	Spaces int
	Teams  int
}

// MemberFilter narrows a member list.
type MemberFilter struct {
	Role       *Role  // nil: any role; RoleGuest: guests only
	Search     string // case-insensitive substring of display name or email
	Disabled   *bool  // nil: any; true: disabled members only; false: enabled members only
	ByLastSeen bool   // sort by lastSeenAt (members never seen are left out) instead of joinedAt
}

// ParseMemberRoleFilter reads the role query parameter: a role or "guest".
func ParseMemberRoleFilter(s string) (*Role, error) {
	if s == "" {
		return nil, nil
	}
	if s == "guest" {
		r := RoleGuest
		return &r, nil
	}
	r, err := ParseRole("role", s)
	if err != nil {
		return nil, FieldErrorf("role", "role must be one of admin, create, review, edit, comment, read, guest")
	}
	return &r, nil
}

// AgentInstructions are an organization's instructions to its docs agent.
type AgentInstructions struct {
	OrganizationID ID
	Document       []byte // the instructions Document, JSON
	UpdatedAt      time.Time
	UpdatedBy      ID
}

// MemberUpdate is the body of PATCH /orgs/{organizationId}/members/{userId}:
// the role (null makes a guest) and, beyond the reference's body, whether
// the membership is disabled.
type MemberUpdate struct {
	Role     Optional[string] `json:"role"`
	Disabled Optional[bool]   `json:"disabled"`
}

// Access is what a caller is in one organization: the basis of every
// permission check on it and on what it owns.
type Access struct {
	OrganizationID ID
	UserID         ID
	Role           Role
	MemberSSO      bool // the caller is an SSO member
	OrgSSO         bool // the organization enforces SSO
	OwnsTeam       bool // the caller owns at least one team
	SSOToken       bool // the caller's token came from this organization's SSO
	Disabled       bool // an admin disabled the caller's membership
}

// Permissions returns the caller's organization permissions.
func (a Access) Permissions() OrganizationPermissions { return OrgPermissions(a.Role, a.OwnsTeam) }

// SSOBlocked reports whether the SSO rule shuts the caller out: when an
// organization enforces SSO, only its SSO members using a token from its
// SSO, and its admins (who must be able to fix a broken configuration),
// may use it.
func (a Access) SSOBlocked() bool {
	return a.OrgSSO && a.Role != RoleAdmin && !(a.MemberSSO && a.SSOToken)
}
