package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// roleOf is a member's role and whether they are disabled; "gone" when
// they are not a member.
func roleOf(t *testing.T, s *apitest.Server, org, admin, user folio.ID) string {
	t.Helper()
	m, err := s.App.GetMember(context.Background(), folio.Caller{UserID: admin}, org, user)
	if folio.IsNotFound(err) {
		return "gone"
	}
	if err != nil {
		t.Fatal(err)
	}
	r := string(m.Role)
	if r == "" {
		r = "guest"
	}
	if m.Disabled {
		r += " disabled"
	}
	return r
}

// outsider is a user with a password who belongs to another organization
// (the app has no sign-up: a user without any membership cannot sign in).
func outsider(t *testing.T, s *apitest.Server) *folio.User {
	t.Helper()
	org, _ := s.Org(t)
	u, _ := member(t, s, org, folio.RoleRead)
	return u
}

func TestMembersPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		reader, _ := member(t, s, org, folio.RoleRead)
		a := signIn(t, s, admin.Email)
		e := signIn(t, s, editor.Email)
		rb := signIn(t, s, reader.Email)
		path := "/o/" + org + "/members"

		p := a.get(t, path).want(t, 200, "<h1>Members</h1>", editor.DisplayName, editor.Email, reader.Email,
			`<label for="f-q">Name or email</label>`, `<label for="f-role">Role</label>`, `<label for="f-state">Status</label>`,
			`<label for="role-`+editor.ID+`" class="sr">Role of `+editor.DisplayName+`</label>`,
			`action="/o/`+org+`/members/`+editor.ID+`/remove"`, "Create invite link", `<label for="domains">Email domains</label>`,
			`aria-current="page">Members</a>`)
		if !strings.Contains(p.Body, `<option value="edit" selected>Edit</option>`) {
			t.Fatal("the editor's role is not selected in their row")
		}
		// Filters: role, search, status.
		p = a.get(t, path+"?role=edit").want(t, 200, editor.Email, "Members shown: 1 of 1")
		if strings.Contains(p.Body, reader.Email) {
			t.Fatal("the role filter kept a reader")
		}
		a.get(t, path+"?q="+url.QueryEscape(reader.Email)).want(t, 200, reader.Email, "Members shown: 1 of 1")
		a.get(t, path+"?role=owner").want(t, 400, "role must be one of")

		// The editor sees the list and no forms; their forged posts are
		// refused and change nothing.
		p = e.get(t, path).want(t, 200, reader.Email)
		for _, offered := range []string{"/role\"", "/disabled\"", "Create invite link", "Email domains", "/members/" + reader.ID + "/remove"} {
			if strings.Contains(p.Body, offered) {
				t.Fatalf("a non-admin is offered %q", offered)
			}
		}
		e.post(t, "/o/"+org+"/members/"+reader.ID+"/role", url.Values{"role": {"admin"}}).want(t, 403, "only organization admins")
		e.post(t, "/o/"+org+"/members/"+reader.ID+"/disabled", url.Values{"disabled": {"true"}}).want(t, 403)
		e.post(t, "/o/"+org+"/members/"+reader.ID+"/remove", nil).want(t, 403)
		e.post(t, "/o/"+org+"/members/"+editor.ID+"/role", url.Values{"role": {"admin"}}).want(t, 403)
		if got := roleOf(t, s, org, admin.ID, reader.ID); got != "read" {
			t.Fatalf("refused posts changed the reader to %s", got)
		}
		if got := roleOf(t, s, org, admin.ID, editor.ID); got != "edit" {
			t.Fatalf("the editor made themself %s", got)
		}
		// Another organization's members page is not found.
		other, _ := s.Org(t)
		a.get(t, "/o/"+other+"/members").want(t, 404)
		a.post(t, "/o/"+other+"/members/"+reader.ID+"/role", url.Values{"role": {"admin"}}).want(t, 404)

		// Bad input is refused.
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/role", url.Values{"role": {"owner"}}).want(t, 400, "role must be one of")
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/disabled", url.Values{"disabled": {"maybe"}}).want(t, 400)
		if got := roleOf(t, s, org, admin.ID, reader.ID); got != "read" {
			t.Fatalf("bad input changed the reader to %s", got)
		}

		// Change role, to guest and back.
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/role", url.Values{"role": {"comment"}}).redirect(t, path+"?done=role")
		a.get(t, path+"?done=role").want(t, 200, "The role was changed.")
		if got := roleOf(t, s, org, admin.ID, reader.ID); got != "comment" {
			t.Fatalf("role %s", got)
		}
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/role", url.Values{"role": {"guest"}}).want(t, 303)
		if got := roleOf(t, s, org, admin.ID, reader.ID); got != "guest" {
			t.Fatalf("role %s", got)
		}
		a.get(t, path+"?role=guest").want(t, 200, reader.Email, "Members shown: 1 of 1")
		// A guest may not list the members.
		rb.get(t, path).want(t, 403)

		// Disable: the member's session ends at once; enabled again, they
		// sign in again.
		rb.get(t, "/o/"+org).want(t, 200)
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/disabled", url.Values{"disabled": {"true"}}).redirect(t, path+"?done=disabled")
		if got := roleOf(t, s, org, admin.ID, reader.ID); got != "guest disabled" {
			t.Fatalf("after disabling: %s", got)
		}
		rb.get(t, "/o/"+org).redirect(t, "/signin?next=%2Fo%2F"+org)
		a.get(t, path+"?state=disabled").want(t, 200, reader.Email, `<span class="badge badge-off">disabled</span>`, "Enable<span class=\"sr\"> "+reader.DisplayName)
		if p := a.get(t, path+"?state=enabled"); strings.Contains(p.Body, reader.Email) {
			t.Fatal("the enabled filter lists a disabled member")
		}
		a.post(t, "/o/"+org+"/members/"+reader.ID+"/disabled", url.Values{"disabled": {"false"}}).redirect(t, path+"?done=enabled")
		signIn(t, s, reader.Email).get(t, "/o/"+org).want(t, 200)

		// The last admin cannot be removed; another admin can be demoted.
		first, _ := s.App.ListMembers(context.Background(), folio.Caller{UserID: admin.ID}, org, folio.MemberFilter{}, folio.ListOptions{Limit: 10})
		var creator folio.ID
		for _, m := range first.Items {
			if m.Role == folio.RoleAdmin && m.UserID != admin.ID {
				creator = m.UserID
			}
		}
		a.post(t, "/o/"+org+"/members/"+creator+"/remove", nil).want(t, 303)
		a.post(t, "/o/"+org+"/members/"+admin.ID+"/role", url.Values{"role": {"read"}}).want(t, 409, "last admin")
		if got := roleOf(t, s, org, admin.ID, admin.ID); got != "admin" {
			t.Fatalf("the last admin became %s", got)
		}

		// A member who is not an admin may leave, and only themself.
		leaver, _ := member(t, s, org, folio.RoleRead)
		lb := signIn(t, s, leaver.Email)
		p = lb.get(t, path).want(t, 200, "Leave the organization", `action="/o/`+org+`/members/`+leaver.ID+`/remove"`)
		if strings.Count(p.Body, "/remove\"") != 1 {
			t.Fatal("a non-admin is offered removing someone else")
		}
		lb.post(t, "/o/"+org+"/members/"+leaver.ID+"/remove", nil).redirect(t, "/")
		if got := roleOf(t, s, org, admin.ID, leaver.ID); got != "gone" {
			t.Fatalf("after leaving: %s", got)
		}

		// Remove: the member's session ends at once.
		e.get(t, "/o/"+org).want(t, 200)
		a.post(t, "/o/"+org+"/members/"+editor.ID+"/remove", nil).redirect(t, path+"?done=removed")
		if got := roleOf(t, s, org, admin.ID, editor.ID); got != "gone" {
			t.Fatalf("removed member: %s", got)
		}
		e.get(t, "/o/"+org).redirect(t, "/signin?next=%2Fo%2F"+org)
	})
}

var inviteRE = regexp.MustCompile(`value="(http[^"]+/join/[^"]+)"`)

func TestInviteLinks(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		a := signIn(t, s, admin.Email)
		path := "/o/" + org + "/members"
		a.get(t, path).want(t, 200, "No invite links yet.")

		// Forged by a non-admin: refused, no link made.
		e := signIn(t, s, editor.Email)
		e.post(t, "/o/"+org+"/invites", url.Values{"role": {"admin"}}).want(t, 403, "only organization admins")
		links, _, err := s.App.ListInviteLinks(context.Background(), folio.Caller{UserID: admin.ID}, org, folio.ListOptions{Limit: 10})
		if err != nil || links.Count != 0 {
			t.Fatalf("links after a refused post: %v %v", links, err)
		}
		a.post(t, "/o/"+org+"/invites", url.Values{"role": {"boss"}}).want(t, 400)

		p := a.post(t, "/o/"+org+"/invites", url.Values{"role": {"edit"}})
		loc := p.Header.Get("Location")
		if p.Status != 303 || !strings.HasPrefix(loc, path+"?link=") {
			t.Fatalf("create invite: %d %s", p.Status, loc)
		}
		p = a.get(t, loc).want(t, 200, "The invite link was created.", "New link for the Edit role", `class="invite-url"`, "readonly",
			`data-copy="link-`, "/assets/copy.")
		m := inviteRE.FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no invite URL in\n%s", p.Body)
		}
		u, err := url.Parse(m[1])
		if err != nil || !strings.HasPrefix(m[1], apitest.PublicURL+"/join/"+org+"/") {
			t.Fatalf("invite URL %q", m[1])
		}
		join := u.Path

		// A person without a session is sent to sign in and back.
		out := outsider(t, s)
		b := newBrowser(s)
		b.get(t, join).want(t, 200, "Join an organization", `href="/signin?next=`+url.QueryEscape(join)+`"`)
		b.post(t, "/signin", url.Values{"email": {out.Email}, "password": {password}, "next": {join}}).redirect(t, join)
		b.get(t, join).want(t, 200, "Join an organization", out.Email, `<button type="submit" class="primary">Join the organization</button>`)
		if got := roleOf(t, s, org, admin.ID, out.ID); got != "gone" {
			t.Fatalf("opening the link joined: %s", got)
		}
		b.post(t, join, nil).redirect(t, "/o/"+org)
		if got := roleOf(t, s, org, admin.ID, out.ID); got != "edit" {
			t.Fatalf("joined as %s", got)
		}
		b.get(t, "/o/"+org).want(t, 200)

		// Revoked, the link no longer works.
		id := strings.TrimPrefix(join, "/join/"+org+"/")
		e.post(t, "/o/"+org+"/invites/"+id+"/revoke", nil).want(t, 403)
		a.post(t, "/o/"+org+"/invites/"+id+"/revoke", nil).redirect(t, path+"?done=revoked")
		a.get(t, path+"?done=revoked").want(t, 200, "The invite link was revoked", "No invite links yet.")
		late := outsider(t, s)
		lb := newBrowser(s)
		lb.post(t, "/signin", url.Values{"email": {late.Email}, "password": {password}, "next": {join}}).redirect(t, join)
		lb.get(t, join).want(t, 200, "Join the organization")
		lb.post(t, join, nil).want(t, 404, "this invite link does not work")
		if got := roleOf(t, s, org, admin.ID, late.ID); got != "gone" {
			t.Fatalf("a revoked link joined: %s", got)
		}

		// With invite links turned off the page says so and offers none.
		if _, err := s.App.UpdateOrganization(context.Background(), folio.Caller{UserID: admin.ID}, org,
			&folio.OrganizationUpdate{InviteLinks: folio.Some(false)}); err != nil {
			t.Fatal(err)
		}
		p = a.get(t, path).want(t, 200, "Invite links are turned off", `href="/o/`+org+`/settings"`)
		if strings.Contains(p.Body, "Create invite link") {
			t.Fatal("invite links off, the page offers one")
		}
	})
}

func TestEmailDomainsForm(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		a, e := signIn(t, s, admin.Email), signIn(t, s, editor.Email)
		path := "/o/" + org + "/members"
		domains := func() string {
			o, err := s.App.GetOrganization(context.Background(), folio.Caller{UserID: admin.ID}, org)
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(o.EmailDomains, ",")
		}
		a.post(t, "/o/"+org+"/email-domains", url.Values{"domains": {"example.com, Example.org"}}).redirect(t, path+"?done=domains")
		if got := domains(); got != "example.com,example.org" {
			t.Fatalf("domains %q", got)
		}
		a.get(t, path).want(t, 200, `value="example.com, example.org"`)
		a.post(t, "/o/"+org+"/email-domains", url.Values{"domains": {"not a domain!"}}).want(t, 400)
		e.post(t, "/o/"+org+"/email-domains", url.Values{"domains": {""}}).want(t, 403)
		if got := domains(); got != "example.com,example.org" {
			t.Fatalf("refused posts changed the domains to %q", got)
		}
		e.get(t, path).want(t, 200, "People with an email address at example.com, example.org may join")
	})
}

func TestTeamsPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		reader, _ := member(t, s, org, folio.RoleRead)
		a, e := signIn(t, s, admin.Email), signIn(t, s, editor.Email)
		ac := folio.Caller{UserID: admin.ID}
		teams := func() []folio.TeamView {
			l, err := s.App.ListTeams(context.Background(), ac, org, folio.TeamFilter{}, folio.ListOptions{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return l.Items
		}
		path := "/o/" + org + "/teams"
		a.get(t, path).want(t, 200, "<h1>Teams</h1>", "No teams yet.", `<label for="team-title">New team</label>`)
		p := e.get(t, path).want(t, 200, "No teams yet.")
		if strings.Contains(p.Body, "New team") {
			t.Fatal("a non-admin is offered New team")
		}
		e.post(t, path, url.Values{"title": {"Forged"}}).want(t, 403, "only organization admins")
		a.post(t, path, url.Values{"title": {"  "}}).want(t, 400, "title must be")
		if n := len(teams()); n != 0 {
			t.Fatalf("%d teams after refused posts", n)
		}
		p = a.post(t, path, url.Values{"title": {"Writers"}})
		ts := teams()
		if len(ts) != 1 || ts[0].Title != "Writers" {
			t.Fatalf("teams %v", ts)
		}
		team := path + "/" + ts[0].ID
		p.redirect(t, team+"?done=team")
		a.get(t, team).want(t, 200, "<h1>Writers</h1>", "No members yet.", `<label for="add-user">Member</label>`, editor.Email)

		// Add, change the team role, remove.
		a.post(t, team+"/members", url.Values{"user": {editor.ID}, "role": {"member"}}).redirect(t, team+"?done=added")
		a.post(t, team+"/members", url.Values{"user": {reader.ID}, "role": {"owner"}}).want(t, 303)
		a.post(t, team+"/members", url.Values{"user": {reader.ID}, "role": {"chief"}}).want(t, 400)
		p = a.get(t, team).want(t, 200, "Members (2)", editor.DisplayName, `<option value="owner" selected>Owner</option>`)
		a.post(t, team+"/members/"+editor.ID+"/role", url.Values{"role": {"owner"}}).redirect(t, team+"?done=teamrole")
		// The editor now owns the team: they manage its members and name,
		// but only organization admins delete it.
		p = e.get(t, team).want(t, 200, "Remove from team", `id="rename"`)
		if strings.Contains(p.Body, "Delete the team") {
			t.Fatal("a team owner is offered deleting the team")
		}
		e.post(t, team+"/delete", nil).want(t, 403, "only organization admins")
		if n := len(teams()); n != 1 {
			t.Fatalf("%d teams after a refused delete", n)
		}
		e.post(t, team+"/members/"+reader.ID+"/remove", nil).redirect(t, team+"?done=left")
		ms, _ := s.App.ListTeamMembers(context.Background(), ac, org, ts[0].ID, folio.ListOptions{Limit: 10})
		if len(ms.Items) != 1 || ms.Items[0].Member.UserID != editor.ID || ms.Items[0].Role != folio.TeamOwner {
			t.Fatalf("team members %+v", ms.Items)
		}
		// A reader who owns nothing cannot change the team.
		rb := signIn(t, s, reader.Email)
		p = rb.get(t, team).want(t, 200, editor.DisplayName)
		if strings.Contains(p.Body, "Remove from team") || strings.Contains(p.Body, `id="rename"`) || strings.Contains(p.Body, "Add to team") {
			t.Fatal("a reader is offered managing the team")
		}
		rb.post(t, team+"/members", url.Values{"user": {reader.ID}, "role": {"owner"}}).want(t, 403)
		rb.post(t, team+"/rename", url.Values{"title": {"Mine"}}).want(t, 403)
		if ts := teams(); ts[0].Title != "Writers" || ts[0].Members != 1 {
			t.Fatalf("refused posts changed the team: %+v", ts[0])
		}

		a.post(t, team+"/rename", url.Values{"title": {"Authors"}}).redirect(t, team+"?done=renamed")
		a.get(t, team+"?done=renamed").want(t, 200, "<h1>Authors</h1>", "The team was renamed.")
		a.post(t, team+"/delete", nil).redirect(t, path+"?done=deleted")
		if n := len(teams()); n != 0 {
			t.Fatalf("%d teams after delete", n)
		}
		a.get(t, team).want(t, 404)
	})
}

func TestTokensPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		other, otherTok := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		b.get(t, "/account").want(t, 200, `href="/account/tokens"`)
		b.get(t, "/account/tokens").want(t, 200, "<h1>API tokens</h1>", `<label for="token-label">Label of a new token</label>`, "first token")
		p := b.post(t, "/account/tokens", url.Values{"label": {"CI publishing"}}).want(t, 200, "Your new token “CI publishing”",
			"it is shown only this once", `<label for="new-token">Token</label>`)
		m := regexp.MustCompile(`id="new-token" class="secret" value="(folio_[^"]+)"`).FindStringSubmatch(p.Body)
		if m == nil {
			t.Fatalf("no secret in\n%s", p.Body)
		}
		secret := m[1]
		s.Do(t, secret, "GET", "/v1/user", nil).WantStatus(t, 200)
		p = b.get(t, "/account/tokens").want(t, 200, "CI publishing")
		if strings.Contains(p.Body, secret) {
			t.Fatal("the token list shows a secret again")
		}
		b.post(t, "/account/tokens", url.Values{"label": {strings.Repeat("x", 101)}}).want(t, 400, "label must be at most 100")

		var id folio.ID
		l, _ := s.App.ListTokens(context.Background(), folio.Caller{UserID: u.ID}, folio.ListOptions{Limit: 10})
		for _, tok := range l.Items {
			if tok.Label == "CI publishing" {
				id = tok.ID
			}
		}
		// Another user's token is not theirs to revoke: nothing happens.
		ol, _ := s.App.ListTokens(context.Background(), folio.Caller{UserID: other.ID}, folio.ListOptions{Limit: 10})
		b.post(t, "/account/tokens/"+ol.Items[0].ID+"/revoke", nil).want(t, 303)
		s.Do(t, otherTok, "GET", "/v1/user", nil).WantStatus(t, 200)

		b.post(t, "/account/tokens/"+id+"/revoke", nil).redirect(t, "/account/tokens?done=tokengone")
		b.get(t, "/account/tokens?done=tokengone").want(t, 200, "The token was revoked")
		s.DoUnchecked(t, secret, "GET", "/v1/user", nil).WantStatus(t, 401)
		// Without the CSRF token nothing is made.
		b.post(t, "/account/tokens", url.Values{"label": {"forged"}, "csrf": {""}}).want(t, 403)
		l, _ = s.App.ListTokens(context.Background(), folio.Caller{UserID: u.ID}, folio.ListOptions{Limit: 10})
		for _, tok := range l.Items {
			if tok.Label == "forged" {
				t.Fatal("a cross-site post made a token")
			}
		}
	})
}

// TestMembersPages: the members list is paged (100 a page) and its status
// filter is applied by the store, so a disabled member past the first
// hundred is found, and the count is the filtered total.
func TestMembersPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		var last *folio.User
		for range 101 {
			last, _ = s.Member(t, org, folio.RoleRead)
		}
		a := signIn(t, s, admin.Email)
		path := "/o/" + org + "/members"
		if _, err := s.App.UpdateMember(context.Background(), folio.Caller{UserID: admin.ID}, org, last.ID, &folio.MemberUpdate{Disabled: folio.Some(true)}); err != nil {
			t.Fatal(err)
		}
		// 103 members: the organization's creator, the admin and 101 readers.
		p := a.get(t, path).want(t, 200, "Members on this page: 100 of 103", `rel="next">Next page</a>`)
		if strings.Contains(p.Body, last.Email) || strings.Contains(p.Body, "First page") {
			t.Fatal("the first page shows the newest member or a link to itself")
		}
		next := regexp.MustCompile(`<a href="([^"]+)" rel="next">`).FindStringSubmatch(p.Body)
		p = a.get(t, strings.ReplaceAll(next[1], "&amp;", "&")).want(t, 200, "Members on this page: 3 of 103", last.Email,
			`<a href="`+path+`">First page</a>`)
		if strings.Contains(p.Body, `rel="next"`) {
			t.Fatal("the last page links to a next one")
		}
		a.get(t, path+"?state=disabled").want(t, 200, "Members shown: 1 of 1", last.Email)
		p = a.get(t, path+"?state=enabled&role=read").want(t, 200, "Members shown: 100 of 100")
		if strings.Contains(p.Body, last.Email) {
			t.Fatal("the enabled filter lists a disabled member")
		}
		a.get(t, path+"?state=sleeping").want(t, 400, "the state filter must be enabled or disabled")
		a.get(t, path+"?page=nonsense").want(t, 400, "the page link is not valid")
	})
}
