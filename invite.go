package folio

import "time"

// InviteLink lets whoever holds its id join an organization with a role.
type InviteLink struct {
	ID             ID
	OrganizationID ID
	Role           Role // RoleGuest joins as a guest
	CreatedBy      ID
	CreatedAt      time.Time
}

// EmailInvite is one address of POST /orgs/{organizationId}/invites, with its
// role when given per address.
type EmailInvite struct {
	Email   string
	Role    Role
	HasRole bool
}

// MaxEmailInvites bounds one invitation request.
const MaxEmailInvites = 500
