package folio

// Role is a member's level of access. Roles are ordered
// admin > create > review > edit > comment > read; the empty role stands for
// a guest (null on the wire), who has no organization-wide access.
type Role string

// The roles, highest first.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
	RoleGuest   Role = "" // null on the wire
)

// Rank orders roles: a higher rank includes every right of a lower one.
// Unknown roles rank like guests.
func (r Role) Rank() int {
	switch r {
	case RoleAdmin:
		return 6
	case RoleCreate:
		return 5
	case RoleReview:
		return 4
	case RoleEdit:
		return 3
	case RoleComment:
		return 2
	case RoleRead:
		return 1
	}
	return 0
}

// AtLeast reports whether r includes every right of min.
func (r Role) AtLeast(min Role) bool { return r.Rank() >= min.Rank() }

// Valid reports whether r is one of the roles (guest included).
func (r Role) Valid() bool { return r == RoleGuest || r.Rank() > 0 }

// ParseRole validates a role sent by a client; guests are sent as null and
// never reach this function.
func ParseRole(field, s string) (Role, error) {
	r := Role(s)
	if r.Rank() == 0 {
		return "", FieldErrorf(field, "%s must be one of admin, create, review, edit, comment, read", field)
	}
	return r, nil
}

// OrganizationPermissions is what a caller may do with an organization.
// It is the only place that decides it; docs/permissions.md mirrors it.
type OrganizationPermissions struct {
	View                bool
	Admin               bool
	OwnTeam             bool
	CreateContent       bool
	CreateOpenAPISpec   bool
	IngestConversations bool
	ViewBilling         bool
	ListMembers         bool
	ListTeams           bool
	ListIntegrations    bool
	ListInstallations   bool
	InstallIntegration  bool
}

// OrgPermissions derives a member's organization permissions from their
// role and whether they own at least one team. Guests (RoleGuest) see the
// organization and nothing else; non-members are never given permissions:
// the organization answers 404 to them.
func OrgPermissions(role Role, ownTeam bool) OrganizationPermissions {
	admin := role == RoleAdmin
	member := role != RoleGuest
	return OrganizationPermissions{
		View:                true,
		Admin:               admin,
		OwnTeam:             ownTeam,
		CreateContent:       role.AtLeast(RoleCreate),
		CreateOpenAPISpec:   role.AtLeast(RoleCreate),
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         member,
		ListTeams:           member,
		ListIntegrations:    member,
		ListInstallations:   admin,
		InstallIntegration:  admin,
	}
}
