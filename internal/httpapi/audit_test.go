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
		want := "member.added space.created member.role_updated webhook.created site.published site.visibility_updated space.deleted member.removed"
		if got := strings.Join(actions, " "); got != want {
			t.Fatalf("actions %q, want %q", got, want)
		}
		role := entries[len(entries)-3]
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
			{"?actor=" + adminID, 7},
			{"?actor=nobody", 0},
			{"?from=" + url.QueryEscape(start.Add(-time.Hour).Format(time.RFC3339)), 8},
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
