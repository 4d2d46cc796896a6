package web_test

import (
	"context"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// TestInviteRaisingRoleIsAudited: a member who joins again with an invite
// link of a higher role gets it, and the audit log records the change
// (the role, the one before and the invite link), as it records any role
// change; a lower invite changes nothing and records nothing.
func TestInviteRaisingRoleIsAudited(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		u, _ := member(t, s, org, folio.RoleRead)
		ac := folio.Caller{UserID: admin.ID}
		edit, _, err := s.App.CreateInviteLink(context.Background(), ac, org, &app.InviteLinkInput{Role: folio.Some("edit")})
		if err != nil {
			t.Fatal(err)
		}
		read, _, err := s.App.CreateInviteLink(context.Background(), ac, org, &app.InviteLinkInput{Role: folio.Some("read")})
		if err != nil {
			t.Fatal(err)
		}
		b := signIn(t, s, u.Email)
		b.get(t, "/join/"+org+"/"+edit.ID).want(t, 200, "Join the organization")
		b.post(t, "/join/"+org+"/"+edit.ID, nil).want(t, 303)
		if got := roleOf(t, s, org, admin.ID, u.ID); got != "edit" {
			t.Fatalf("after joining with an edit invite: %s", got)
		}
		ab := signIn(t, s, admin.Email)
		ab.get(t, "/o/"+org+"/audit?action=member.role_updated").want(t, 200, "1 entry match", "member.role_updated", "by "+u.DisplayName,
			`{&#34;inviteLink&#34;:&#34;`+edit.ID+`&#34;,&#34;previousRole&#34;:&#34;read&#34;,&#34;role&#34;:&#34;edit&#34;}`)
		b.post(t, "/join/"+org+"/"+read.ID, nil).want(t, 303)
		if got := roleOf(t, s, org, admin.ID, u.ID); got != "edit" {
			t.Fatalf("a lower invite changed the role to %s", got)
		}
		ab.get(t, "/o/"+org+"/audit?action=member.role_updated").want(t, 200, "1 entry match")
	})
}
