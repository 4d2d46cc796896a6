package httpapi_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

type auditBody struct {
	Actor, Action, RequestID, CreatedAt string
	Target                              struct{ Type, ID string }
	Fields                              map[string]any
}

func auditLog(t *testing.T, s *apitest.Server, token, org, query string) []auditBody {
	t.Helper()
	var l struct{ Items []auditBody }
	s.Do(t, token, "GET", "/v1/orgs/"+org+"/audit-log"+query, nil).WantStatus(t, 200).JSON(t, &l)
	return l.Items
}

func TestAuditLog(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		adminID := whoami(t, s, admin)
		start := s.Clock.Now()
		user, _ := s.Member(t, org, folio.RoleRead)
		space := newSpace(t, s, admin, org, "Docs")
		r := s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/members/"+user.ID, map[string]any{"role": "edit"}).WantStatus(t, 200)
		requestID := r.Header.Get("X-Request-Id")
		var hook struct{ ID, Secret string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": "https://hooks.example/in?token=abc123",
			"events": []string{"*"}}).WantStatus(t, 201).JSON(t, &hook)
		site := newSite(t, s, admin, org, map[string]any{"title": "Site"})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site.ID+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/sites/"+site.ID, map[string]any{"visibility": "unlisted"}).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+space, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/members/"+user.ID, nil).WantStatus(t, 204)

		entries := auditLog(t, s, admin, org, "")
		var actions []string
		for i := len(entries) - 1; i >= 0; i-- {
			actions = append(actions, entries[i].Action)
		}
		want := "organization.created member.added space.created member.role_updated webhook.created site.created site.published site.visibility_updated space.deleted member.removed"
		if got := strings.Join(actions, " "); got != want {
			t.Fatalf("actions %q, want %q", got, want)
		}
		role := entries[len(entries)-4]
		if role.Actor != adminID || role.Target.Type != "member" || role.Target.ID != user.ID || role.RequestID != requestID ||
			role.Fields["role"] != "edit" || role.Fields["previousRole"] != "read" {
			t.Fatalf("role entry %+v (request %s)", role, requestID)
		}
		// Never a secret: the webhook's secret, nor its URL's query.
		all := string(s.Do(t, admin, "GET", "/v1/orgs/"+org+"/audit-log", nil).WantStatus(t, 200).Body)
		if strings.Contains(all, hook.Secret) || strings.Contains(all, "abc123") {
			t.Fatal("the audit log holds a secret")
		}

		for _, tc := range []struct {
			query string
			n     int
		}{
			{"?action=member.role_updated", 1},
			{"?target=" + user.ID, 3},
			{"?actor=" + adminID, 9},
			{"?actor=nobody", 0},
			{"?from=" + url.QueryEscape(start.Add(-time.Hour).Format(time.RFC3339)), 10},
			{"?to=" + url.QueryEscape(start.Add(-time.Hour).Format(time.RFC3339)), 0},
			{"?limit=2", 2},
		} {
			if got := auditLog(t, s, admin, org, tc.query); len(got) != tc.n {
				t.Errorf("%s: %d entries, want %d", tc.query, len(got), tc.n)
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/audit-log?from=yesterday", nil).WantError(t, 400,
			"from must be an RFC 3339 time such as 2026-01-02T15:04:05Z")
		_, editor := s.Member(t, org, folio.RoleEdit)
		_, outsider := s.Org(t)
		s.Do(t, editor, "GET", "/v1/orgs/"+org+"/audit-log", nil).WantError(t, 403, "only organization admins read the audit log")
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/audit-log", nil).WantStatus(t, 404)

		// Retention: the prune job drops entries older than a year.
		s.Clock.Advance(folio.DefaultAuditRetention + time.Hour)
		if err := s.App.PruneAuditJob(t.Context(), "{}"); err != nil {
			t.Fatal(err)
		}
		if got := auditLog(t, s, admin, org, ""); len(got) != 0 {
			t.Fatalf("%d entries survived the retention", len(got))
		}
	})
}

// TestAuditLogCoversContentAccessAndTokens: collection and space
// lifecycle, share links, invite links, git sync settings and API tokens
// are recorded too, never with a key, a password or a token's secret.
func TestAuditLogCoversContentAccessAndTokens(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var col, inner struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}).WantStatus(t, 201).JSON(t, &col)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Inner"}).WantStatus(t, 201).JSON(t, &inner)
		s.Do(t, admin, "PATCH", "/v1/collections/"+col.ID, map[string]any{"title": "All guides", "description": "How-tos"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/collections/"+inner.ID+"/move", map[string]any{"parent": col.ID}).WantStatus(t, 200)
		space := newSpace(t, s, admin, org, "Docs")
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"emoji": "1f4d8"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/move", map[string]any{"parent": col.ID}).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", "/v1/collections/"+inner.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", map[string]any{
			"url": "https://alice:secret-pw@git.example.com/docs.git", "ref": "refs/heads/main"}).WantStatus(t, 204)

		site := newSite(t, s, admin, org, map[string]any{"title": "Site", "visibility": "share-link"})
		base := "/v1/orgs/" + org + "/sites/" + site.ID
		var link struct {
			ID   string
			URLs struct{ Published string }
		}
		s.Do(t, admin, "POST", base+"/share-links", map[string]any{"name": "partners"}).WantStatus(t, 201).JSON(t, &link)
		key := link.URLs.Published[strings.Index(link.URLs.Published, "shareKey=")+len("shareKey="):]
		s.Do(t, admin, "PATCH", base+"/share-links/"+link.ID, map[string]any{"active": false}).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", base+"/share-links/"+link.ID, nil).WantStatus(t, 204)

		var inv struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/link-invites", map[string]any{"role": "read"}).WantStatus(t, 201).JSON(t, &inv)
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/link-invites/"+inv.ID, map[string]any{"role": "edit"}).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/link-invites/"+inv.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/link-invites/"+inv.ID, nil).WantStatus(t, 204) // absent: not recorded

		var tok struct{ ID, Token string }
		s.Do(t, admin, "POST", "/v1/user/tokens", map[string]any{"label": "ci"}).WantStatus(t, 201).JSON(t, &tok)
		s.Do(t, admin, "DELETE", "/v1/user/tokens/"+tok.ID, nil).WantStatus(t, 204)

		entries := auditLog(t, s, admin, org, "?limit=100")
		var actions []string
		byAction := map[string]auditBody{}
		for i := len(entries) - 1; i >= 0; i-- {
			if a := entries[i].Action; a != "member.added" {
				actions = append(actions, a)
				byAction[a] = entries[i]
			}
		}
		// s.Org creates the organization through the API: its first entry.
		want := "organization.created collection.created collection.created collection.updated collection.moved space.created space.updated space.moved " +
			"collection.deleted space.git_sync_import site.created site.share_link_created site.share_link_updated site.share_link_deleted " +
			"invite_link.created invite_link.updated invite_link.deleted token.created token.revoked"
		if got := strings.Join(actions, " "); got != want {
			t.Fatalf("actions\n%s\nwant\n%s", got, want)
		}
		if f := byAction["collection.updated"].Fields; f["title"] != "All guides" || f["description"] != "How-tos" || len(f) != 2 {
			t.Errorf("collection update fields %v", f)
		}
		if f := byAction["space.moved"].Fields; f["parent"] != col.ID || f["from"] != "" {
			t.Errorf("space move fields %v", f)
		}
		if f := byAction["space.updated"].Fields; f["emoji"] != "1f4d8" || len(f) != 1 {
			t.Errorf("space update fields %v", f)
		}
		if f := byAction["space.git_sync_import"].Fields; f["url"] != "https://git.example.com/docs.git" || f["credentials"] != true {
			t.Errorf("git sync fields %v", f)
		}
		if f := byAction["site.share_link_updated"].Fields; f["active"] != false || f["shareLink"] != link.ID {
			t.Errorf("share link update fields %v", f)
		}
		if f := byAction["invite_link.updated"].Fields; f["role"] != "edit" {
			t.Errorf("invite link fields %v", f)
		}
		if e := byAction["token.created"]; e.Target.ID != tok.ID || e.Fields["label"] != "ci" {
			t.Errorf("token entry %+v", e)
		}
		all := string(s.Do(t, admin, "GET", "/v1/orgs/"+org+"/audit-log?limit=100", nil).WantStatus(t, 200).Body)
		for _, secret := range []string{key, "secret-pw", "alice", tok.Token} {
			if strings.Contains(all, secret) {
				t.Errorf("the audit log holds a secret: %q", secret)
			}
		}
	})
}
