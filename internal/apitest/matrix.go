package apitest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/google/go-cmp/cmp"
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
	extra    []string // actors added with Add, run after ActorNames
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

// Add adds an actor of the test's own (a team owner, a guest with a grant)
// that matrices run after the standard ones.
func (a *Actors) Add(name string, u *folio.User, token string) {
	if _, dup := a.Tokens[name]; dup {
		panic("apitest: actor " + name + " added twice")
	}
	a.Users[name], a.Tokens[name] = u, token
	a.extra = append(a.extra, name)
}

// Names lists the actors in the order matrices run them.
func (a *Actors) Names() []string {
	return append(slices.Clone(ActorNames), a.extra...)
}

// Case is one operation of an authorization matrix: the request, and the
// status each actor must get (AnyActor for the others).
type Case struct {
	Name   string
	Method string
	// Path returns the request's path. It runs once per actor, so a case
	// whose request succeeds can make a fresh resource each time.
	Path func(a *Actors) string
	// Body is the request body, as for Server.Do; a func(*Actors) any is
	// called once per actor, so that every request would change something
	// (a new title, a new address) if it were let through.
	Body any
	Want map[string]int
	// Reset, when set, runs before each actor's request and brings the
	// fixture back to where the case starts, so that the request of an
	// actor who is refused would still have something to change.
	Reset func(a *Actors)
	// State names what a refused request must leave unchanged: GET paths,
	// given the request's path, that the organization's admin (or StateAs)
	// reads before (they must answer 200) and after it; the answers must be
	// equal. Every case that writes must have one (see Self, Trim, Paths)
	// or a NoState.
	State func(a *Actors, path string) []string
	// StateAs is the actor who reads the state, Admin when empty: the
	// other organization's admin reads what belongs to it.
	StateAs string
	// NoState opts a write out of the State check, with the reason, for a
	// write that no actor's refusal could show in a state (see Matrix).
	NoState string
	// Refused lists the actors whose success status is a refusal in
	// disguise, such as the 204 a DELETE answers to a caller who may not
	// see the resource: their request must change nothing either. An
	// answer of 400 or more is always a refusal.
	Refused []string
}

// Self is a Case.State that reads the request's own path back.
func Self(_ *Actors, path string) []string { return []string{path} }

// Trim returns a Case.State that reads the request's path without suffix,
// e.g. Trim("/move") reads the space that POST .../move would move.
func Trim(suffix string) func(*Actors, string) []string {
	return func(_ *Actors, path string) []string {
		if len(path) < len(suffix) || path[len(path)-len(suffix):] != suffix {
			panic("apitest: path " + path + " does not end with " + suffix)
		}
		return []string{path[:len(path)-len(suffix)]}
	}
}

// Paths returns a Case.State that reads fixed paths.
func Paths(paths ...func(a *Actors) string) func(*Actors, string) []string {
	return func(a *Actors, _ string) []string {
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = p(a)
		}
		return out
	}
}

// Strangers are the actors who may not see a resource of the organization
// that no grant opens to them; see Case.Refused.
var Strangers = []string{Guest, Outsider, OtherOrg}

// Matrix runs every case as every actor and checks the statuses. Around
// every request that must be refused (an expected status of 400 or more, or
// an actor in Refused) of a case with a State, it reads the state and checks
// that the request left it as it was. A write (POST, PUT, PATCH, DELETE)
// must have a State, or say in NoState why it has none.
func Matrix(t *testing.T, s *Server, a *Actors, cases []Case) {
	t.Helper()
	matrix(t, s, a, cases)
}

// matrix is Matrix for any testing.TB, so that its own test can catch
// the errors it reports.
func matrix(t testing.TB, s *Server, a *Actors, cases []Case) {
	t.Helper()
	for _, c := range cases {
		if c.State == nil && len(c.Refused) > 0 {
			t.Fatalf("%s: Refused without a State to compare", c.Name)
		}
		if c.State != nil && c.NoState != "" {
			t.Fatalf("%s: both a State and NoState (%s)", c.Name, c.NoState)
		}
		if c.State == nil && c.NoState == "" && writes(c.Method) {
			t.Fatalf("%s: a %s without a State: name what a refused request must leave unchanged, "+
				"or say in NoState why nothing can be checked", c.Name, c.Method)
		}
		for _, actor := range a.Names() {
			want, ok := c.Want[actor]
			if !ok {
				want, ok = c.Want[AnyActor]
			}
			if !ok {
				t.Fatalf("%s: no expected status for %s", c.Name, actor)
			}
			if c.Reset != nil {
				c.Reset(a)
			}
			path := c.Path(a)
			body := c.Body
			if f, ok := body.(func(*Actors) any); ok {
				body = f(a)
			}
			// The state is read around the requests that must be refused.
			refusal := c.State != nil && (want >= 400 || slices.Contains(c.Refused, actor))
			var before []stateRead
			if refusal {
				before = s.readState(t, a.Tokens[stateAs(c)], c.State(a, path))
				for _, b := range before {
					if b.Status != 200 {
						// A state that cannot be read proves nothing.
						t.Fatalf("%s as %s: state %s answers %d before the request, want 200 (body %v)",
							c.Name, actor, b.Path, b.Status, b.Body)
					}
				}
			}
			r := s.Do(t, a.Tokens[actor], c.Method, path, body)
			if r.Status != want {
				t.Errorf("%s as %s: status %d, want %d (body %s)", c.Name, actor, r.Status, want, r.Body)
			}
			if !refusal {
				continue
			}
			after := s.readState(t, a.Tokens[stateAs(c)], c.State(a, path))
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("%s as %s: refused with %d but changed the state (-before +after):\n%s", c.Name, actor, r.Status, d)
			}
		}
	}
}

// writes reports whether a method changes something when let through.
func writes(method string) bool {
	switch method {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// stateRead is one GET of a Case.State: its status and decoded body.
type stateRead struct {
	Path   string
	Status int
	Body   any
}

// stateAs returns the actor who reads a case's state.
func stateAs(c Case) string {
	if c.StateAs == "" {
		return Admin
	}
	return c.StateAs
}

// readState reads paths with token.
func (s *Server) readState(t testing.TB, token string, paths []string) []stateRead {
	t.Helper()
	out := make([]stateRead, len(paths))
	for i, p := range paths {
		r := s.Do(t, token, "GET", p, nil)
		out[i] = stateRead{Path: p, Status: r.Status}
		if err := json.Unmarshal(r.Body, &out[i].Body); err != nil {
			out[i].Body = string(r.Body)
		}
	}
	return out
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
