package httpapi_test

import (
	"context"
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
	"github.com/foliodocs/folio/internal/jobs"
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
	// hold is how many requests to keep open until the sender gives up
	// (a timeout, or a server stopping); held signals each one.
	hold int
	held chan struct{}
}

func newReceiver(t *testing.T, now func() time.Time) *receiver {
	rc := &receiver{keys: map[string]int{}, now: now, held: make(chan struct{}, 10)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		if rc.hold > 0 {
			rc.hold--
			rc.mu.Unlock()
			rc.held <- struct{}{}
			<-r.Context().Done()
			return
		}
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

// TestWebhookEventTypes makes one change of each kind a webhook can hear
// about and checks that each arrives once, with its fields.
func TestWebhookEventTypes(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		rc := newReceiver(t, s.Clock.Now)
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.URL, "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &hook)
		rc.secret = []byte(hook.Secret)

		space := newSpace(t, s, admin, org, "Docs")
		rev := importInto(t, s, admin, space, "", "markdown", []byte("# Home\n\nHello.\n")).Revision
		cr := newCR(t, s, admin, space, "Change")
		s.Do(t, admin, "PATCH", crPath(space, cr), map[string]any{"subject": "Renamed"}).WantStatus(t, 200)
		importIntoCR(t, s, admin, space, cr, "", "# Home\n\nChanged.\n")
		s.Do(t, admin, "POST", crPath(space, cr)+"/merge", nil).WantStatus(t, 200)
		c := postComment(t, s, admin, space, md("Looks good"))
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/comments/"+c.ID+"/replies", md("Thanks")).WantStatus(t, 200)
		var inv struct{ Users []string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/invites", map[string]any{"emails": []string{"new@example.com"}, "role": "read"}).
			WantStatus(t, 200).JSON(t, &inv)
		if len(inv.Users) != 1 {
			t.Fatalf("invited %v", inv.Users)
		}
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/members/"+inv.Users[0], map[string]any{"role": "edit"}).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/members/"+inv.Users[0], nil).WantStatus(t, 204)
		site := newSite(t, s, admin, org, map[string]any{"title": "Site"})
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site.ID+"/publish", nil).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site.ID+"/unpublish", nil).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+space, nil).WantStatus(t, 204)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/restore", nil).WantStatus(t, 200)
		runJobs(t, s)

		rc.mu.Lock()
		defer rc.mu.Unlock()
		got := map[string][]map[string]any{}
		for _, e := range rc.accepted {
			got[e["type"].(string)] = append(got[e["type"].(string)], e)
		}
		want := map[string]int{
			folio.EventSpaceContentUpdated:  2,
			folio.EventChangeRequestCreated: 1, folio.EventChangeRequestUpdated: 1, folio.EventChangeRequestMerged: 1,
			folio.EventCommentCreated: 1, folio.EventCommentReplyCreated: 1,
			folio.EventMemberAdded: 1, folio.EventMemberUpdated: 1, folio.EventMemberRemoved: 1,
			folio.EventSitePublished: 1, folio.EventSiteUnpublished: 1, folio.EventSpaceDeleted: 1, folio.EventSpaceRestored: 1,
		}
		for typ, n := range want {
			if len(got[typ]) != n {
				t.Errorf("%s: received %d, want %d", typ, len(got[typ]), n)
			}
		}
		if len(rc.accepted) != 14 || rc.bad != 0 {
			t.Errorf("received %d events (%d badly signed): %v", len(rc.accepted), rc.bad, rc.accepted)
		}
		for _, check := range []struct {
			typ, field string
			want       any
		}{
			{folio.EventSpaceContentUpdated, "revisionId", rev},
			{folio.EventChangeRequestCreated, "changeRequestId", cr.ID},
			{folio.EventChangeRequestMerged, "changeRequestId", cr.ID},
			{folio.EventCommentReplyCreated, "commentId", c.ID},
			{folio.EventMemberUpdated, "previousRole", "read"},
			{folio.EventMemberUpdated, "role", "edit"},
			{folio.EventMemberRemoved, "userId", inv.Users[0]},
			{folio.EventSitePublished, "siteId", site.ID},
			{folio.EventSpaceDeleted, "spaceId", space},
		} {
			if es := got[check.typ]; len(es) == 0 || es[0][check.field] != check.want {
				t.Errorf("%s.%s: got %v, want %v", check.typ, check.field, es, check.want)
			}
			if es := got[check.typ]; len(es) > 0 && es[0]["eventId"] == "" {
				t.Errorf("%s has no eventId", check.typ)
			}
		}
	})
}

// TestWebhookTimeoutAndRestart holds deliveries open: one past the
// delivery timeout (retried later), one while the server stops (recorded,
// retried after the restart). Each event reaches the receiver once, and
// running the jobs again after it acknowledged sends nothing more.
func TestWebhookTimeoutAndRestart(t *testing.T) {
	apitest.RunOptions(t, apitest.Options{WebhookTimeout: 300 * time.Millisecond}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		rc := newReceiver(t, s.Clock.Now)
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.URL,
			"events": []string{folio.EventChangeRequestCreated}}).WantStatus(t, 201).JSON(t, &hook)
		rc.secret = []byte(hook.Secret)
		space := newSpace(t, s, admin, org, "Docs")

		// A receiver slower than the timeout: the attempt fails, the next
		// one (after its backoff) is accepted.
		rc.mu.Lock()
		rc.hold = 1
		rc.mu.Unlock()
		newCR(t, s, admin, space, "First")
		runJobs(t, s)
		<-rc.held
		ds := listDeliveries(t, s, admin, org, hook.ID)
		if len(ds) != 1 || ds[0].State != "pending" || ds[0].Attempts != 1 || ds[0].LastError == "" {
			t.Fatalf("after a timeout %+v", ds)
		}
		s.Clock.Advance(time.Hour)
		runJobs(t, s)
		ds = listDeliveries(t, s, admin, org, hook.ID)
		if ds[0].State != "delivered" || ds[0].Attempts != 2 {
			t.Fatalf("after recovery %+v", ds[0])
		}

		// The server stops while a request is out: the attempt is recorded
		// and retried by the next server over the same database.
		rc.mu.Lock()
		rc.hold = 1
		rc.mu.Unlock()
		newCR(t, s, admin, space, "Second")
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Jobs.RunDue(ctx)
		}()
		<-rc.held
		stop()
		<-done
		restarted := jobs.NewRunner(s.DB, nil, s.App.JobHandlers())
		s.Clock.Advance(time.Hour)
		for range 5 {
			if _, err := restarted.RunDue(context.Background()); err != nil {
				t.Fatal(err)
			}
			s.Clock.Advance(time.Hour)
		}
		ds = listDeliveries(t, s, admin, org, hook.ID)
		if len(ds) != 2 || ds[0].State != "delivered" || ds[1].State != "delivered" {
			t.Fatalf("after the restart %+v", ds)
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.accepted) != 2 || len(rc.keys) != 2 {
			t.Fatalf("accepted %d deliveries with %d keys", len(rc.accepted), len(rc.keys))
		}
		for key, n := range rc.keys {
			if n != 1 {
				t.Errorf("delivery %s accepted %d times", key, n)
			}
		}
	})
}
