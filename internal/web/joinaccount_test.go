package web_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/foliodocs/folio/internal/store"
)

// newLink makes an invite link of org for role and returns its join path.
func newLink(t *testing.T, s *apitest.Server, org, admin folio.ID, role string) string {
	t.Helper()
	inv, _, err := s.App.CreateInviteLink(context.Background(), folio.Caller{UserID: admin}, org,
		&app.InviteLinkInput{Role: folio.Some(role)})
	if err != nil {
		t.Fatal(err)
	}
	return "/join/" + org + "/" + inv.ID
}

// userByEmail is the user with an email, or nil.
func userByEmail(t *testing.T, s *apitest.Server, email string) *folio.User {
	t.Helper()
	var u *folio.User
	err := s.DB.Read(context.Background(), func(tx *store.Tx) (err error) {
		u, err = store.GetUserByEmail(context.Background(), tx, email)
		return err
	})
	if folio.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestJoinWithNewAccount: a person without an account opens an invite
// link signed out, creates an account on the join page and lands in the
// organization as a member with the link's role, signed in (a database
// session), with the join in the audit log. Every refused form changes
// nothing: a bad email, a short password, an email that has an account, a
// revoked link, another organization's link id, invite links turned off.
func TestJoinWithNewAccount(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		bg := context.Background()
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		ac := folio.Caller{UserID: admin.ID}
		join := newLink(t, s, org, admin.ID, "edit")
		form := func(name, email, pw string) url.Values {
			return url.Values{"name": {name}, "email": {email}, "password": {pw}}
		}

		o, err := s.App.GetOrganization(bg, ac, org)
		if err != nil {
			t.Fatal(err)
		}
		b := newBrowser(s)
		b.get(t, join).want(t, 200, "Join an organization", "You were invited to join <strong>"+o.Title+"</strong> on Folio with the Edit role.",
			"Sign in to join", "Create your account",
			`action="`+join+`/account"`, `autocomplete="new-password"`, `minlength="10"`, "At least 10 characters.",
			`<label for="join-name">`, `<label for="join-email">`, `<label for="join-password">`)

		// Refused: nothing is created, no session starts, what was typed
		// (password aside) comes back.
		existing := outsider(t, s)
		other, _ := s.Org(t)
		otherAdmin, _ := member(t, s, other, folio.RoleAdmin)
		otherJoin := newLink(t, s, other, otherAdmin.ID, "admin")
		otherID := strings.TrimPrefix(otherJoin, "/join/"+other+"/")
		for _, c := range []struct {
			name, path string
			form       url.Values
			status     int
			want       []string
		}{
			{"bad email", join, form("Ada", "ada at example", password), 400, []string{"email must be a valid email address", `value="Ada"`, `value="ada at example"`, `aria-invalid="true"`}},
			{"short password", join, form("Ada", "ada@example.com", "short"), 400, []string{"the password must be at least 10 characters", `value="ada@example.com"`}},
			{"existing email", join, form("Ada", strings.ToUpper(existing.Email), password), 409, []string{"an account with this email already exists: sign in to join instead", "Sign in to join"}},
			{"another organization's link id", "/join/" + org + "/" + otherID, form("Ada", "ada@example.com", password), 404, []string{"this invite link does not work"}},
			{"unknown organization", "/join/nope/" + otherID, form("Ada", "ada@example.com", password), 404, []string{"this invite link does not work"}},
		} {
			p := b.post(t, c.path+"/account", c.form).want(t, c.status, c.want...)
			if p.Header.Get("Set-Cookie") != "" || strings.Contains(p.Body, password) {
				t.Fatalf("%s: cookie %q or the password in the page", c.name, p.Header.Get("Set-Cookie"))
			}
			if userByEmail(t, s, "ada@example.com") != nil || userByEmail(t, s, "ada at example") != nil {
				t.Fatalf("%s: a user was created", c.name)
			}
		}
		if got := roleOf(t, s, org, admin.ID, existing.ID); got != "gone" {
			t.Fatalf("the existing email joined: %s", got)
		}
		if got := roleOf(t, s, other, otherAdmin.ID, existing.ID); got != "gone" {
			t.Fatalf("another organization's link joined: %s", got)
		}

		// A new person joins.
		p := b.post(t, join+"/account", form("  Ada Lovelace ", "Ada@Example.com", password)).redirect(t, "/o/"+org)
		if !strings.Contains(p.Header.Get("Set-Cookie"), "folio_session=") {
			t.Fatalf("no session: %v", p.Header)
		}
		u := userByEmail(t, s, "ada@example.com")
		if u == nil || u.DisplayName != "Ada Lovelace" || u.EmailVerified {
			t.Fatalf("user %+v", u)
		}
		if got := roleOf(t, s, org, admin.ID, u.ID); got != "edit" {
			t.Fatalf("joined as %s", got)
		}
		b.get(t, "/o/"+org).want(t, 200, "Ada Lovelace")
		b.get(t, "/account").want(t, 200, "ada@example.com", "Change password")
		// The session is a database one: it ends when the user signs out,
		// and the password signs in again.
		b.post(t, "/signout", nil).redirect(t, "/signin")
		b.get(t, "/o/"+org).redirect(t, "/signin?next="+url.QueryEscape("/o/"+org))
		signIn(t, s, "ada@example.com").get(t, "/o/"+org).want(t, 200)

		log, err := s.App.ListAuditLog(bg, ac, org, folio.AuditFilter{Actor: u.ID}, folio.ListOptions{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		actions := map[string]string{}
		for _, e := range log.Items {
			actions[e.Action] = e.TargetID
			if e.Action == "invite_link.used" {
				var f map[string]any
				if err := json.Unmarshal(e.Fields, &f); err != nil || f["user"] != u.ID || f["newAccount"] != true || f["role"] != "edit" {
					t.Fatalf("invite_link.used fields %s", e.Fields)
				}
			}
		}
		if actions["member.added"] != u.ID || actions["invite_link.used"] != strings.TrimPrefix(join, "/join/"+org+"/") {
			t.Fatalf("audit entries %v", actions)
		}

		// Signed in, the form's address goes back to the join page.
		signIn(t, s, existing.Email).post(t, join+"/account", form("X", "x@example.com", password)).redirect(t, join)

		// Revoked, the link creates no account.
		if err := s.App.DeleteInviteLink(bg, ac, org, strings.TrimPrefix(join, "/join/"+org+"/")); err != nil {
			t.Fatal(err)
		}
		newBrowser(s).get(t, join).want(t, 404, "this invite link does not work")
		newBrowser(s).post(t, join+"/account", form("Bob", "bob@example.com", password)).want(t, 404, "this invite link does not work")
		if userByEmail(t, s, "bob@example.com") != nil {
			t.Fatal("a revoked link created a user")
		}

		// An organization that requires single sign-on: a password account
		// could not open it, so none is made.
		live := newLink(t, s, org, admin.ID, "read")
		setSSO := func(on bool) {
			t.Helper()
			if _, err := s.App.UpdateOrganization(bg, ac, org, &folio.OrganizationUpdate{SSO: folio.Some(on)}); err != nil {
				t.Fatal(err)
			}
		}
		setSSO(true)
		newBrowser(s).post(t, live+"/account", form("Bob", "bob@example.com", password)).want(t, 403, "this organization requires single sign-on")
		if userByEmail(t, s, "bob@example.com") != nil {
			t.Fatal("an SSO organization got a password account")
		}
		setSSO(false)

		// Invite links turned off: refused with the reason.
		if _, err := s.App.UpdateOrganization(bg, ac, org, &folio.OrganizationUpdate{InviteLinks: folio.Some(false)}); err != nil {
			t.Fatal(err)
		}
		newBrowser(s).get(t, live).want(t, 400, "invite links are disabled")
		newBrowser(s).post(t, live+"/account", form("Bob", "bob@example.com", password)).want(t, 400, "invite links are disabled")
		if userByEmail(t, s, "bob@example.com") != nil {
			t.Fatal("invite links off, a user was created")
		}
	})
}

// TestJoinWithNewAccountRateLimit: creating an account counts against the
// sign-in budget of the client address.
func TestJoinWithNewAccountRateLimit(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{RateLimits: httpapi.RateLimits{Sensitive: 3}}, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		join := newLink(t, s, org, admin.ID, "read")
		b := newBrowser(s)
		for i := range 3 {
			b.post(t, join+"/account", url.Values{"name": {"X"}, "email": {"x" + string(rune('a'+i)) + "@example.com"}, "password": {"short"}}).want(t, 400)
		}
		p := b.post(t, join+"/account", url.Values{"name": {"X"}, "email": {"new@example.com"}, "password": {password}}).
			want(t, 429, "too many sign-in attempts")
		if p.Header.Get("Set-Cookie") != "" || userByEmail(t, s, "new@example.com") != nil {
			t.Fatal("a limited request created an account")
		}
	})
}
