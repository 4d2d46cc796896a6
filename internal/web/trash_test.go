package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

func TestSpaceActionsAndTrash(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, tok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, tok, "Handbook", "# Welcome\n\nHello.\n")
		a, e := signIn(t, s, admin.Email), signIn(t, s, editor.Email)
		ctx, ac := context.Background(), folio.Caller{UserID: admin.ID}
		spaces := func(o folio.ID) string {
			l, err := s.App.ListSpaces(ctx, ac, o, "", folio.ListOptions{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, v := range l.Items {
				out = append(out, v.Title)
			}
			return strings.Join(out, ",")
		}
		base := "/s/" + sp + "/~"

		// Refused to an editor, and nothing changes.
		e.post(t, base+"/delete", nil).want(t, 403, "only admins of the space")
		e.post(t, base+"/move", url.Values{"parent": {""}}).want(t, 403)
		e.post(t, base+"/transfer", url.Values{"organization": {org}}).want(t, 403)
		e.post(t, base+"/duplicate", nil).want(t, 403)
		if got := spaces(org); got != "Handbook" {
			t.Fatalf("spaces after refused posts: %s", got)
		}

		// Duplicate.
		p := a.post(t, base+"/duplicate", nil)
		if p.Status != 303 || !strings.HasPrefix(p.Header.Get("Location"), "/s/") {
			t.Fatalf("duplicate: %d %s", p.Status, p.Header.Get("Location"))
		}
		if got := spaces(org); got != "Handbook,Handbook (copy)" {
			t.Fatalf("spaces after duplicate: %s", got)
		}

		// Move into a collection.
		col, err := s.App.CreateCollection(ctx, ac, org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		a.post(t, base+"/move", url.Values{"parent": {col.ID}}).redirect(t, base+"/permissions?done=moved")
		if v, _ := s.App.GetSpace(ctx, ac, sp); v.Parent != col.ID {
			t.Fatalf("space parent %q", v.Parent)
		}
		a.get(t, base+"/permissions").want(t, 200, `<option value="`+col.ID+`" selected>Guides</option>`)

		// Delete: it leaves the list and shows in the trash for its admins.
		a.post(t, base+"/delete", nil).redirect(t, "/o/"+org+"/trash?done=spacegone")
		if got := spaces(org); strings.Contains(got, "Handbook,") || got == "Handbook" {
			t.Fatalf("deleted space still listed: %s", got)
		}
		a.get(t, "/o/"+org+"/trash?done=spacegone").want(t, 200, "<h1>Trash</h1>", "The space was deleted", "Handbook",
			`action="/o/`+org+`/trash/`+sp+`/restore"`, `aria-current="page">Trash</a>`)
		if p := e.get(t, "/o/"+org+"/trash").want(t, 200, "The trash is empty."); strings.Contains(p.Body, sp) {
			t.Fatal("an editor sees a space they cannot restore")
		}
		e.post(t, "/o/"+org+"/trash/"+sp+"/restore", nil).want(t, 404)
		// Another organization's trash does not restore it.
		org2, tok2 := s.Org(t)
		s.Do(t, tok2, "POST", "/v1/orgs/"+org2+"/invites", map[string]any{"emails": []string{admin.Email}, "role": "admin"}).WantStatus(t, 200)
		a.post(t, "/o/"+org2+"/trash/"+sp+"/restore", nil).want(t, 404)
		if _, err := s.App.GetSpace(ctx, ac, sp); !folio.IsNotFound(err) {
			t.Fatalf("restored from another organization's trash: %v", err)
		}
		a.post(t, "/o/"+org+"/trash/"+sp+"/restore", nil).redirect(t, "/s/"+sp+"?done=restored")
		if _, err := s.App.GetSpace(ctx, ac, sp); err != nil {
			t.Fatal(err)
		}
		a.get(t, "/o/"+org+"/trash").want(t, 200, "The trash is empty.")

		// Deleted more than 7 days ago, it is gone from the trash.
		a.get(t, base+"/permissions")
		a.post(t, base+"/delete", nil).want(t, 303)
		s.Clock.Advance(folio.SpaceRetention + 1)
		a = signIn(t, s, admin.Email) // the session was idle for as long
		if p := a.get(t, "/o/"+org+"/trash").want(t, 200, "The trash is empty."); strings.Contains(p.Body, sp) {
			t.Fatal("a space deleted 7 days ago is still in the trash")
		}
		a.post(t, "/o/"+org+"/trash/"+sp+"/restore", nil).want(t, 404)
	})
}

func TestSpaceTransfer(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, tok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		sp := space(t, s, org, tok, "Handbook", "")
		org2, tok2 := s.Org(t)
		org3, _ := s.Org(t)
		s.Do(t, tok2, "POST", "/v1/orgs/"+org2+"/invites", map[string]any{"emails": []string{admin.Email}, "role": "admin"}).WantStatus(t, 200)
		a := signIn(t, s, admin.Email)
		base := "/s/" + sp + "/~"
		p := a.get(t, base+"/permissions").want(t, 200, `<label for="transfer-to">Transfer to the organization</label>`, `<option value="`+org2+`">`)
		if strings.Contains(p.Body, org3) {
			t.Fatal("transfer offers an organization the user is not in")
		}
		a.post(t, base+"/transfer", url.Values{"organization": {org3}}).want(t, 404)
		a.post(t, base+"/transfer", url.Values{"organization": {org2}}).redirect(t, "/s/"+sp)
		v, err := s.App.GetSpace(context.Background(), folio.Caller{UserID: admin.ID}, sp)
		if err != nil || v.OrganizationID != org2 {
			t.Fatalf("transferred space: %v %v", v, err)
		}
	})
}
