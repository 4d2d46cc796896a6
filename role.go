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

// Level is a defaultLevel of a space or collection: a role for every
// member of the organization who is not a guest, no role (null on the
// wire: only explicit grants give access), or inherit (the parent's level).
type Level struct {
	Inherit bool
	Role    Role // RoleGuest: none
}

// ContentNode is one step of the path from a space up to the organization:
// the space itself, then each collection above it. Grants holds the roles
// granted on that node to the caller or to one of their teams.
type ContentNode struct {
	DefaultLevel Level
	Grants       []Role
}

// EffectiveRole is a caller's role on a space (or collection): the highest
// of their organization role, every grant on the path to the top, and the
// nearest defaultLevel that does not inherit (for members who are not
// guests). path starts at the space or collection itself. RoleGuest means
// no access.
func EffectiveRole(orgRole Role, path []ContentNode) Role {
	best := orgRole
	raise := func(r Role) {
		if r.Rank() > best.Rank() {
			best = r
		}
	}
	levelFound := false
	for _, n := range path {
		for _, g := range n.Grants {
			raise(g)
		}
		if !levelFound && !n.DefaultLevel.Inherit {
			levelFound = true
			if orgRole != RoleGuest {
				raise(n.DefaultLevel.Role)
			}
		}
	}
	return best
}

// Space edit modes.
const (
	EditModeLive   = "live"
	EditModeLocked = "locked"
)

// SpacePermissions is what a caller may do with a space.
type SpacePermissions struct {
	View               bool
	Access             bool
	Admin              bool
	ViewInviteLinks    bool
	Edit               bool
	TriggerGitSync     bool
	Comment            bool
	Merge              bool
	Review             bool
	InstallIntegration bool
}

// SpacePerms derives a caller's permissions on a space from their effective
// role and the space's edit mode. Edit and Merge are about change requests
// (GitBook: "edit the content of the space by creating a change request"),
// so a locked space keeps them; it only refuses git syncs to everyone but
// admins here, and its live content to everyone (app.requireEditable). It
// is the only space permission table; docs/permissions.md mirrors it.
func SpacePerms(role Role, editMode string) SpacePermissions {
	admin := role == RoleAdmin
	writable := editMode != EditModeLocked || admin
	return SpacePermissions{
		View:               role.AtLeast(RoleRead),
		Access:             role.AtLeast(RoleRead),
		Admin:              admin,
		ViewInviteLinks:    admin,
		Edit:               role.AtLeast(RoleEdit),
		TriggerGitSync:     role.AtLeast(RoleEdit) && writable,
		Comment:            role.AtLeast(RoleComment),
		Merge:              role.AtLeast(RoleEdit),
		Review:             role.AtLeast(RoleReview),
		InstallIntegration: admin,
	}
}

// CollectionPermissions is what a caller may do with a collection.
type CollectionPermissions struct {
	View            bool
	Admin           bool
	ViewInviteLinks bool
	Create          bool
}

// CollectionPerms derives a caller's permissions on a collection from their
// effective role on it.
func CollectionPerms(role Role) CollectionPermissions {
	return CollectionPermissions{
		View:            role.AtLeast(RoleRead),
		Admin:           role == RoleAdmin,
		ViewInviteLinks: role == RoleAdmin,
		Create:          role.AtLeast(RoleCreate),
	}
}

// Kinds of grant targets and holders.
const (
	TargetSpace      = "space"
	TargetCollection = "collection"
	PrincipalUser    = "user"
	PrincipalTeam    = "team"
)

// UserGrant is a role granted to a user on a space or collection.
type UserGrant struct {
	User User
	Role Role
}

// TeamGrant is a role granted to a team on a space or collection.
type TeamGrant struct {
	Team TeamView
	Role Role
}
