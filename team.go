package folio

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Team is a group of organization members, managed by its owners.
type Team struct {
	ID             ID
	OrganizationID ID
	Title          string
	CreatedAt      time.Time
	Members        int // count
	Spaces         int // count of spaces the team has access to
}

// TeamView is a team as seen by a caller, who may manage it when they are an
// organization admin or one of its owners.
type TeamView struct {
	Team
	CanAdmin bool
	CanView  bool
}

// TeamRole is a member's role in a team.
type TeamRole string

// The team roles.
const (
	TeamOwner  TeamRole = "owner"
	TeamMember TeamRole = "member"
)

// ParseTeamRole validates a team role.
func ParseTeamRole(field, s string) (TeamRole, error) {
	if r := TeamRole(s); r == TeamOwner || r == TeamMember {
		return r, nil
	}
	return "", FieldErrorf(field, "%s must be owner or member", field)
}

// ValidateTeamTitle checks a team title: 1 to 64 characters, not blank.
func ValidateTeamTitle(title string) error {
	if n := utf8.RuneCountInString(title); n < 1 || n > 64 || strings.TrimSpace(title) == "" {
		return FieldErrorf("title", "title must be 1 to 64 characters and not blank")
	}
	return nil
}

// TeamMembersUpdate is the body of PUT .../teams/{teamId}/members. Add and
// Remove hold user ids or emails; a user in both is removed.
type TeamMembersUpdate struct {
	Add         []string                  `json:"add"`
	Remove      []string                  `json:"remove"`
	Memberships map[string]TeamMembership `json:"memberships"`
}

// TeamMembership is a member's role in a team on the wire.
type TeamMembership struct {
	Role string `json:"role"`
}

// MaxTeamMembersUpdate bounds the users one update may name.
const MaxTeamMembersUpdate = 1000

// Validate checks the shape of the update. It returns Invalid errors.
func (u *TeamMembersUpdate) Validate() error {
	if len(u.Add)+len(u.Remove)+len(u.Memberships) > MaxTeamMembersUpdate {
		return FieldErrorf("add", "one update can name at most %d users", MaxTeamMembersUpdate)
	}
	for id, m := range u.Memberships {
		if _, err := ParseTeamRole("memberships", m.Role); err != nil {
			return FieldErrorf("memberships", "memberships[%s].role must be owner or member", id)
		}
	}
	return nil
}

// TeamFilter narrows a team list.
type TeamFilter struct {
	Owner ID     // only teams this member can manage
	Title string // case-insensitive substring
}

// MemberTeam is a team and one member's role in it.
type MemberTeam struct {
	Team TeamView
	Role TeamRole
}

// TeamMemberView is a team member: their organization membership and team role.
type TeamMemberView struct {
	Member MemberView
	Role   TeamRole
}
