package apitest

import (
	"testing"

	"github.com/foliodocs/folio"
)

// Actor names of an authorization matrix: one per role, then a guest, a
// user of no organization and the admin of another organization.
const (
	Admin    = "admin"
	Create   = "create"
	Review   = "review"
	Edit     = "edit"
	Comment  = "comment"
	Read     = "read"
	Guest    = "guest"
	Outsider = "outsider"
	OtherOrg = "other-org-admin"
	AnyActor = "*"
)

// ActorNames lists every actor, in the order matrices run them.
var ActorNames = []string{Admin, Create, Review, Edit, Comment, Read, Guest, Outsider, OtherOrg}

// Actors is an organization with one caller per actor name.
type Actors struct {
	Org      folio.ID
	OtherOrg folio.ID
	Tokens   map[string]string
	Users    map[string]*folio.User
}

// Actors creates an organization and a caller for every actor.
func (s *Server) Actors(t testing.TB) *Actors {
	t.Helper()
	org, adminToken := s.Org(t)
	other, otherToken := s.Org(t)
	a := &Actors{Org: org, OtherOrg: other, Tokens: map[string]string{Admin: adminToken, OtherOrg: otherToken},
		Users: map[string]*folio.User{}}
	for name, role := range map[string]folio.Role{Create: folio.RoleCreate, Review: folio.RoleReview, Edit: folio.RoleEdit,
		Comment: folio.RoleComment, Read: folio.RoleRead, Guest: folio.RoleGuest} {
		a.Users[name], a.Tokens[name] = s.Member(t, org, role)
	}
	a.Users[Outsider], a.Tokens[Outsider] = s.User(t)
	return a
}

// Case is one operation of an authorization matrix: the request, and the
// status each actor must get (AnyActor for the others).
type Case struct {
	Name   string
	Method string
	Path   func(a *Actors) string
	Body   any
	Want   map[string]int
}

// Matrix runs every case as every actor and checks the statuses.
func Matrix(t *testing.T, s *Server, a *Actors, cases []Case) {
	t.Helper()
	for _, c := range cases {
		for _, actor := range ActorNames {
			want, ok := c.Want[actor]
			if !ok {
				want, ok = c.Want[AnyActor]
			}
			if !ok {
				t.Fatalf("%s: no expected status for %s", c.Name, actor)
			}
			r := s.Do(t, a.Tokens[actor], c.Method, c.Path(a), c.Body)
			if r.Status != want {
				t.Errorf("%s as %s: status %d, want %d (body %s)", c.Name, actor, r.Status, want, r.Body)
			}
		}
	}
}

// Want builds the expected statuses of a Case: base, then actor and status
// pairs that override it, e.g. Want(Hidden, Admin, 200, AnyActor, 403).
func Want(base map[string]int, kv ...any) map[string]int {
	out := make(map[string]int, len(base)+len(kv)/2)
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(int)
	}
	return out
}

// NotMembers are the callers outside the organization: they get 404.
var NotMembers = map[string]int{Outsider: 404, OtherOrg: 404}

// NoAccess adds guests without grants, who get 404 for content too.
var NoAccess = map[string]int{Guest: 404, Outsider: 404, OtherOrg: 404}
