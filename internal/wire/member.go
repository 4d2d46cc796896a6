package wire

import (
	"github.com/foliodocs/folio"
)

// Member is the GitBook OrganizationMember object.
type Member struct {
	Object     string  `json:"object"`
	ID         string  `json:"id"`
	Role       *string `json:"role"`
	User       User    `json:"user"`
	Disabled   bool    `json:"disabled"`
	JoinedAt   string  `json:"joinedAt"`
	LastSeenAt *string `json:"lastSeenAt,omitempty"`
	SSO        bool    `json:"sso"`
	Spaces     int     `json:"spaces"`
	Teams      int     `json:"teams"`
}

// role converts a role to its nullable wire form.
func role(r folio.Role) *string {
	if r == folio.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}

// NewMember converts a member.
func (u URLs) NewMember(m *folio.MemberView) Member {
	return Member{Object: "member", ID: m.UserID, Role: role(m.Role), User: u.NewUser(&m.User), Disabled: m.Disabled,
		JoinedAt: Time(m.JoinedAt), LastSeenAt: TimePtr(m.LastSeenAt), SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams}
}

// MemberSpace is the GitBook MemberContentPermission object: a member's
// role on a space, with the space as the caller sees it.
type MemberSpace struct {
	Permission string `json:"permission"`
	Space      Space  `json:"space"`
}

// NewMemberSpace converts a space with a member's role on it.
func (u URLs) NewMemberSpace(r folio.Role, space *folio.SpaceView) MemberSpace {
	return MemberSpace{Permission: string(r), Space: u.NewSpace(space)}
}

// Team is the GitBook OrganizationTeam object.
type Team struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Members     int             `json:"members"`
	Spaces      int             `json:"spaces"`
	CreatedAt   string          `json:"createdAt"`
	Permissions TeamPermissions `json:"permissions"`
}

// TeamPermissions are the caller's permissions on a team.
type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// NewTeam converts a team.
func NewTeam(t *folio.TeamView) Team {
	return Team{Object: "team", ID: t.ID, Title: t.Title, Members: t.Members, Spaces: t.Spaces, CreatedAt: Time(t.CreatedAt),
		Permissions: TeamPermissions{Admin: t.CanAdmin, View: t.CanView}}
}

// TeamRole is a member's role in a team.
type TeamRole struct {
	Role string `json:"role"`
}

// MemberTeam is an item of a member's teams.
type MemberTeam struct {
	Team   Team     `json:"team"`
	Member TeamRole `json:"member"`
}

// NewMemberTeam converts a team with a member's role in it.
func NewMemberTeam(t *folio.MemberTeam) MemberTeam {
	return MemberTeam{Team: NewTeam(&t.Team), Member: TeamRole{Role: string(t.Role)}}
}

// TeamMember is the GitBook OrganizationTeamMember object.
type TeamMember struct {
	Organization Member   `json:"organization"`
	Team         TeamRole `json:"team"`
	Permissions  struct {
		View bool `json:"view"`
	} `json:"permissions"`
}

// NewTeamMember converts a team member; whoever may list them may view them.
func (u URLs) NewTeamMember(m *folio.TeamMemberView) TeamMember {
	out := TeamMember{Organization: u.NewMember(&m.Member), Team: TeamRole{Role: string(m.Role)}}
	out.Permissions.View = true
	return out
}

// InviteLink is the GitBook InviteLinkToOrganization object.
type InviteLink struct {
	Object    string  `json:"object"`
	ID        string  `json:"id"`
	Role      *string `json:"role"`
	Redundant bool    `json:"redundant"`
}

// NewInviteLink converts a link invite for a caller with a role: it is
// redundant when the caller already holds the role it grants.
func NewInviteLink(inv *folio.InviteLink, callerRole folio.Role) InviteLink {
	return InviteLink{Object: "invite", ID: inv.ID, Role: role(inv.Role), Redundant: callerRole.Rank() >= inv.Role.Rank()}
}
