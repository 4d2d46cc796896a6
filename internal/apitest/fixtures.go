package apitest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

var seq atomic.Int64

// User creates a user with an API token and returns both.
func (s *Server) User(t testing.TB) (*folio.User, string) {
	t.Helper()
	n := seq.Add(1)
	acc, err := s.App.CreateAccount(context.Background(), app.NewAccount{
		Email: fmt.Sprintf("user%d@example.com", n), Name: fmt.Sprintf("User %d", n)})
	if err != nil {
		t.Fatalf("create user: %v", err)
	}
	return acc.User, acc.Token
}

// Org creates an organization with a new admin and returns the
// organization id and the admin's token.
func (s *Server) Org(t testing.TB) (folio.ID, string) {
	t.Helper()
	u, token := s.User(t)
	v, err := s.App.CreateOrganization(context.Background(), folio.Caller{UserID: u.ID},
		folio.NewOrganization{Title: fmt.Sprintf("Org %d", seq.Add(1))})
	if err != nil {
		t.Fatalf("create organization: %v", err)
	}
	return v.ID, token
}

// Member creates a user who is a member of org with role (RoleGuest for a
// guest) and returns them with their token.
func (s *Server) Member(t testing.TB, org folio.ID, role folio.Role) (*folio.User, string) {
	t.Helper()
	n := seq.Add(1)
	acc, err := s.App.CreateAccount(context.Background(), app.NewAccount{
		Email: fmt.Sprintf("member%d@example.com", n), Name: fmt.Sprintf("Member %d", n),
		Organization: org, Role: role})
	if err != nil {
		t.Fatalf("create member: %v", err)
	}
	return acc.User, acc.Token
}
