package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/webhook"
)

// receiver is a webhook endpoint on loopback: it checks signatures with the
// secret it is given, records what it accepted, and answers the statuses
// queued in fail (then 200).
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	secret   []byte
	fail     []int
	accepted []map[string]any
	keys     map[string]int
	bad      int
	now      func() time.Time // the server's clock: signatures carry its time
}

func newReceiver(t *testing.T, now func() time.Time) *receiver {
	rc := &receiver{keys: map[string]int{}, now: now}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if err := webhook.Verify(rc.secret, r.Header.Get(webhook.SignatureHeader), body, rc.now(), time.Hour); err != nil {
			rc.bad++
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		if len(rc.fail) > 0 {
			status := rc.fail[0]
			rc.fail = rc.fail[1:]
			w.WriteHeader(status)
			return
		}
		var e map[string]any
		json.Unmarshal(body, &e)
		rc.accepted = append(rc.accepted, e)
		rc.keys[r.Header.Get(webhook.IdempotencyHeader)]++
	}))
	t.Cleanup(rc.Close)
	return rc
}

type webhookBody struct {
	Object, ID, URL, Secret, DisabledReason string
	Events                                  []string
	Active                                  bool
	Failures                                int
}

type deliveryBody struct {
	ID, State, LastError string
	Attempts, LastStatus int
	Event                struct{ ID, Type string }
}

func listDeliveries(t *testing.T, s *apitest.Server, token, org, hook string) []deliveryBody {
	t.Helper()
	var l struct{ Items []deliveryBody }
	s.Do(t, token, "GET", "/v1/orgs/"+org+"/webhooks/"+hook+"/deliveries", nil).WantStatus(t, 200).JSON(t, &l)
	return l.Items
}

func TestWebhookDeliveries(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		rc := newReceiver(t, s.Clock.Now)
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.URL + "/hook",
			"events": []string{"space_gitsync_completed"}}).WantStatus(t, 201).JSON(t, &hook)
		if hook.Object != "webhook" || len(hook.Secret) != 64 || !hook.Active || len(hook.Events) != 1 {
			t.Fatalf("created %+v", hook)
		}
		rc.secret = []byte(hook.Secret)
		var again webhookBody
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 200).JSON(t, &again)
		if again.Secret != "" {
			t.Fatal("the secret is shown after creation")
		}

		// A git sync emits space_gitsync_started (not subscribed) and
		// space_gitsync_completed (delivered, signed).
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n"}, "init")
		wantGitState(t, gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}), "success", "revision")
		runJobs(t, s)
		rc.mu.Lock()
		if len(rc.accepted) != 1 || rc.accepted[0]["type"] != "space_gitsync_completed" || rc.accepted[0]["state"] != "success" || rc.bad != 0 {
			t.Fatalf("received %v (bad signatures %d)", rc.accepted, rc.bad)
		}
		rc.mu.Unlock()
		ds := listDeliveries(t, s, admin, org, hook.ID)
		if len(ds) != 1 || ds[0].State != "delivered" || ds[0].Attempts != 1 || ds[0].LastStatus != 200 || ds[0].Event.Type != "space_gitsync_completed" {
			t.Fatalf("deliveries %+v", ds)
		}

		// The receiver fails twice, then recovers: retried with backoff.
		rc.mu.Lock()
		rc.fail = []int{500, 503}
		rc.mu.Unlock()
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nTwo.\n"}, "two")
		gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
		for range 3 {
			runJobs(t, s)
			s.Clock.Advance(2 * time.Hour)
		}
		ds = listDeliveries(t, s, admin, org, hook.ID)
		if ds[0].State != "delivered" || ds[0].Attempts != 3 || ds[0].LastStatus != 200 {
			t.Fatalf("retried delivery %+v", ds[0])
		}
		rc.mu.Lock()
		for key, n := range rc.keys {
			if n != 1 {
				t.Errorf("delivery %s accepted %d times", key, n)
			}
		}
		rc.mu.Unlock()

		// A 400 is final; redelivering sends it again.
		rc.mu.Lock()
		rc.fail = []int{400}
		rc.mu.Unlock()
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nThree.\n"}, "three")
		gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
		runJobs(t, s)
		ds = listDeliveries(t, s, admin, org, hook.ID)
		if ds[0].State != "failed" || ds[0].LastStatus != 400 || ds[0].Attempts != 1 {
			t.Fatalf("final failure %+v", ds[0])
		}
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks/"+hook.ID+"/deliveries/"+ds[0].ID+"/redeliver", nil).WantStatus(t, 202)
		runJobs(t, s)
		ds = listDeliveries(t, s, admin, org, hook.ID)
		if ds[0].State != "delivered" || ds[0].Attempts != 2 {
			t.Fatalf("redelivered %+v", ds[0])
		}
	})
}

func TestWebhookDisabledAfterFailures(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		rc := newReceiver(t, s.Clock.Now)
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.URL, "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &hook)
		rc.secret = []byte(hook.Secret)
		rc.fail = []int{410, 410, 410, 410, 410, 410, 410, 410, 410, 410}
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		for i := range 3 {
			gittest.Commit(t, repo, "main", map[string]string{"README.md": "# v" + string(rune('0'+i)) + "\n"}, "c")
			gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
			runJobs(t, s)
		}
		var got webhookBody
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 200).JSON(t, &got)
		if got.Active || got.Failures < webhook.DisableAfterFailures || got.DisabledReason == "" {
			t.Fatalf("webhook after failures %+v", got)
		}
		// Activating it again clears the failures.
		got = webhookBody{}
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/webhooks/"+hook.ID, map[string]any{"active": true}).WantStatus(t, 200).JSON(t, &got)
		if !got.Active || got.Failures != 0 || got.DisabledReason != "" {
			t.Fatalf("reactivated %+v", got)
		}
	})
}

func TestWebhookValidationAndAccess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, tc := range []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"no url", map[string]any{"events": []string{"*"}}, "url is required"},
			{"bad url", map[string]any{"url": "ftp://x", "events": []string{"*"}}, "url must be an absolute http or https URL without credentials, at most 2048 characters"},
			{"credentials", map[string]any{"url": "https://a:b@example.com", "events": []string{"*"}}, "url must be an absolute http or https URL without credentials, at most 2048 characters"},
			{"no events", map[string]any{"url": "https://example.com"}, "events is required"},
			{"empty events", map[string]any{"url": "https://example.com", "events": []string{}}, "events lists 1 to 50 event types"},
			{"unknown event", map[string]any{"url": "https://example.com", "events": []string{"space_eaten"}}, "space_eaten is not an event type webhooks can subscribe to"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", tc.body).WantError(t, 400, tc.msg)
			})
		}
		var l struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("refused requests created %d webhooks", l.Count)
		}
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": "https://example.com/h", "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &hook)
		_, creator := s.Member(t, org, folio.RoleCreate)
		_, outsider := s.Org(t)
		s.Do(t, creator, "GET", "/v1/orgs/"+org+"/webhooks", nil).WantError(t, 403, "only organization admins manage webhooks")
		s.Do(t, creator, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": "https://example.com/x", "events": []string{"*"}}).WantStatus(t, 403)
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 404)
		s.Do(t, outsider, "DELETE", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 404)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks/nope", nil).WantError(t, 404, "webhook not found")
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/webhooks/"+hook.ID, nil).WantError(t, 404, "webhook not found")
	})
}
