package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// grants lists who has which role on a space or collection: "Name=role"
// in the order the app lists them.
func grants(t *testing.T, s *apitest.Server, admin folio.ID, kind string, id folio.ID) string {
	t.Helper()
	ctx, c := context.Background(), folio.Caller{UserID: admin}
	us, err := s.App.ListUserGrants(ctx, c, kind, id, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.App.ListTeamGrants(ctx, c, kind, id, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range us.Items {
		out = append(out, g.User.DisplayName+"="+string(g.Role))
	}
	for _, g := range ts.Items {
		out = append(out, g.Team.Title+"="+string(g.Role))
	}
	return strings.Join(out, ",")
}

func TestSpacePermissionsPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, tok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		reader, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, tok, "Handbook", "# Welcome\n\nHello.\n")
		team, err := s.App.CreateTeam(context.Background(), folio.Caller{UserID: admin.ID}, org, "Writers", nil)
		if err != nil {
			t.Fatal(err)
		}
		a, e := signIn(t, s, admin.Email), signIn(t, s, editor.Email)
		path := "/s/" + sp + "/~/permissions"

		// The link is in the space's tabs for its admins only.
		a.get(t, "/s/"+sp).want(t, 200, `<a href="/s/`+sp+`/~/permissions">Permissions</a>`)
		if p := e.get(t, "/s/"+sp).want(t, 200); strings.Contains(p.Body, "/~/permissions") {
			t.Fatal("an editor is offered the permissions page")
		}
		e.get(t, path).want(t, 403, "only admins of the space")

		p := a.get(t, path).want(t, 200, "Permissions of Handbook", `aria-current="page">Permissions</a>`,
			"No one has been given a role here", `<label for="grant-who">Member or team</label>`, `<label for="grant-role">Role</label>`,
			`<option value="user:`+reader.ID+`">`+reader.DisplayName, `<option value="team:`+team.ID+`">Team: Writers</option>`,
			`<label for="level">`, `<option value="inherit" selected>`, "Duplicate the space", "Delete the space", `<label for="move-to">Move into</label>`)
		if strings.Contains(p.Body, "transfer-to") {
			t.Fatal("transfer offered with no other organization to administer")
		}

		// Grant a member and a team; change a role; revoke.
		a.post(t, path, url.Values{"principal": {"user:" + reader.ID}, "role": {"edit"}}).redirect(t, path+"?done=granted")
		a.post(t, path, url.Values{"principal": {"team:" + team.ID}, "role": {"review"}}).redirect(t, path+"?done=granted")
		if got := grants(t, s, admin.ID, folio.TargetSpace, sp); got != reader.DisplayName+"=edit,Writers=review" {
			t.Fatalf("grants %s", got)
		}
		p = a.get(t, path+"?done=granted").want(t, 200, "Access was granted.", `<label for="g-user:`+reader.ID+`" class="sr">Role of `+reader.DisplayName+`</label>`)
		if strings.Contains(p.Body, `<option value="user:`+reader.ID+`">`) {
			t.Fatal("a member with a role is still offered in Give access")
		}
		a.post(t, path, url.Values{"principal": {"user:" + reader.ID}, "role": {"comment"}}).want(t, 303)
		a.post(t, path+"/revoke", url.Values{"principal": {"team:" + team.ID}}).redirect(t, path+"?done=ungranted")
		if got := grants(t, s, admin.ID, folio.TargetSpace, sp); got != reader.DisplayName+"=comment" {
			t.Fatalf("grants %s", got)
		}

		// Bad input and forged posts change nothing.
		a.post(t, path, url.Values{"principal": {"robot:x"}, "role": {"edit"}}).want(t, 400, "choose a member or a team")
		a.post(t, path, url.Values{"principal": {"user:" + editor.ID}, "role": {"guest"}}).want(t, 400, "choose a role")
		a.post(t, path, url.Values{"principal": {"user:nobody"}, "role": {"edit"}}).want(t, 404)
		a.post(t, path+"/level", url.Values{"level": {"owner"}}).want(t, 400)
		e.post(t, path, url.Values{"principal": {"user:" + editor.ID}, "role": {"admin"}}).want(t, 403, "only admins of the space")
		e.post(t, path+"/revoke", url.Values{"principal": {"user:" + reader.ID}}).want(t, 403)
		e.post(t, path+"/level", url.Values{"level": {"admin"}}).want(t, 403)
		if got := grants(t, s, admin.ID, folio.TargetSpace, sp); got != reader.DisplayName+"=comment" {
			t.Fatalf("refused posts changed the grants: %s", got)
		}

		// Default level: none, then a role.
		level := func() string {
			v, err := s.App.GetSpace(context.Background(), folio.Caller{UserID: admin.ID}, sp)
			if err != nil {
				t.Fatal(err)
			}
			return v.DefaultLevel.String()
		}
		before := level()
		a.post(t, path+"/level", url.Values{"level": {"none"}}).redirect(t, path+"?done=level")
		if got := level(); got != "none" {
			t.Fatalf("level %s (was %s)", got, before)
		}
		a.get(t, path).want(t, 200, `<option value="none" selected>`)
		a.post(t, path+"/level", url.Values{"level": {"read"}}).want(t, 303)
		if got := level(); got != "read" {
			t.Fatalf("level %s", got)
		}

		// Another organization's admin gets 404.
		org2, _ := s.Org(t)
		stranger, _ := member(t, s, org2, folio.RoleAdmin)
		x := signIn(t, s, stranger.Email)
		x.get(t, path).want(t, 404)
		x.post(t, path, url.Values{"principal": {"user:" + stranger.ID}, "role": {"admin"}}).want(t, 404)
	})
}

func TestCollectionPermissionsPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		a, e := signIn(t, s, admin.Email), signIn(t, s, editor.Email)

		// New collection: offered to creators, refused to editors.
		a.get(t, "/o/"+org).want(t, 200, `href="/o/`+org+`/collections/new"`)
		if p := e.get(t, "/o/"+org).want(t, 200); strings.Contains(p.Body, "collections/new") {
			t.Fatal("an editor is offered New collection")
		}
		e.get(t, "/o/"+org+"/collections/new").want(t, 403)
		e.post(t, "/o/"+org+"/collections", url.Values{"title": {"Forged"}}).want(t, 403)
		a.post(t, "/o/"+org+"/collections", url.Values{"title": {""}}).want(t, 400, "give the collection a title")
		cols := func() []folio.CollectionView {
			l, err := s.App.ListCollections(context.Background(), folio.Caller{UserID: admin.ID}, org, true, folio.ListOptions{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			return l.Items
		}
		if n := len(cols()); n != 0 {
			t.Fatalf("%d collections after refused posts", n)
		}
		a.get(t, "/o/"+org+"/collections/new").want(t, 200, `<label for="col-title">Title</label>`, `<label for="col-parent">Inside</label>`)
		p := a.post(t, "/o/"+org+"/collections", url.Values{"title": {"Guides"}})
		cs := cols()
		if len(cs) != 1 || cs[0].Title != "Guides" {
			t.Fatalf("collections %+v", cs)
		}
		guides := cs[0].ID
		p.redirect(t, "/c/"+guides)
		a.post(t, "/o/"+org+"/collections", url.Values{"title": {"Tutorials"}, "parent": {guides}}).want(t, 303)
		var tutorials folio.ID
		for _, c := range cols() {
			if c.Title == "Tutorials" {
				tutorials = c.ID
				if c.Parent != guides {
					t.Fatalf("Tutorials is under %q", c.Parent)
				}
			}
		}

		path := "/c/" + guides + "/~/permissions"
		a.get(t, "/c/"+guides).want(t, 200, `href="/c/`+guides+`/~/permissions"`)
		if p := e.get(t, "/c/"+guides).want(t, 200); strings.Contains(p.Body, "/~/permissions") {
			t.Fatal("an editor is offered the collection's permissions")
		}
		a.get(t, path).want(t, 200, "Permissions of the collection Guides", `<label for="grant-who">`, `<label for="move-to">Move into</label>`)
		e.get(t, path).want(t, 403)
		a.post(t, path, url.Values{"principal": {"user:" + editor.ID}, "role": {"admin"}}).redirect(t, path+"?done=granted")
		if got := grants(t, s, admin.ID, folio.TargetCollection, guides); got != editor.DisplayName+"=admin" {
			t.Fatalf("grants %s", got)
		}
		// Now the editor administers it.
		e.get(t, path).want(t, 200)
		a.post(t, path+"/revoke", url.Values{"principal": {"user:" + editor.ID}}).want(t, 303)
		e.post(t, path+"/level", url.Values{"level": {"admin"}}).want(t, 403)
		a.post(t, path+"/level", url.Values{"level": {"comment"}}).redirect(t, path+"?done=level")
		c, _ := s.App.GetCollection(context.Background(), folio.Caller{UserID: admin.ID}, guides)
		if c.DefaultLevel.String() != "comment" {
			t.Fatalf("level %s", c.DefaultLevel.String())
		}

		// Move Tutorials to the top level, then into itself (refused).
		tpath := "/c/" + tutorials + "/~"
		e.post(t, tpath+"/move", url.Values{"parent": {""}}).want(t, 403)
		a.post(t, tpath+"/move", url.Values{"parent": {""}}).redirect(t, tpath+"/permissions?done=moved")
		a.post(t, "/c/"+guides+"/~/move", url.Values{"parent": {tutorials}}).want(t, 303)
		a.post(t, tpath+"/move", url.Values{"parent": {guides}}).want(t, 400)
		for _, c := range cols() {
			if c.ID == tutorials && c.Parent != "" || c.ID == guides && c.Parent != tutorials {
				t.Fatalf("after moves: %s under %q", c.Title, c.Parent)
			}
		}

		// Transfer to another organization the admin administers.
		org2, tok2 := s.Org(t)
		s.Do(t, tok2, "POST", "/v1/orgs/"+org2+"/invites", map[string]any{"emails": []string{admin.Email}, "role": "admin"}).WantStatus(t, 200)
		a.get(t, tpath+"/permissions").want(t, 200, `<label for="transfer-to">Transfer to the organization</label>`)
		e.post(t, tpath+"/transfer", url.Values{"organization": {org2}}).want(t, 403)
		a.post(t, tpath+"/transfer", url.Values{"organization": {org2}}).redirect(t, "/c/"+tutorials)
		moved, _ := s.App.GetCollection(context.Background(), folio.Caller{UserID: admin.ID}, tutorials)
		if moved.OrganizationID != org2 {
			t.Fatalf("transferred collection is in %s", moved.OrganizationID)
		}
	})
}
