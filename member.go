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
