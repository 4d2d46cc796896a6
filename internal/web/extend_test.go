package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
)

// gitRepo is a repository of two pages served over HTTP on loopback
// (git-http-backend behind basic auth); it returns its URL without the
// credentials.
func gitRepo(t *testing.T) string {
	t.Helper()
	gittest.Require(t, true)
	root := t.TempDir()
	repo := gittest.BareIn(t, root, "docs.git")
	gittest.Commit(t, repo, "main", map[string]string{
		"docs/README.md":  "# Welcome from git\n\nImported over HTTP.\n",
		"docs/SUMMARY.md": "# Table of contents\n\n* [Welcome from git](README.md)\n* [Guide](guide.md)\n",
		"docs/guide.md":   "# Guide\n\nSteps.\n",
	}, "docs")
	return gittest.HTTPServer(t, root, "alice", "s3cret-pass") + "/docs.git"
}

func runJobs(t *testing.T, s *apitest.Server) {
	t.Helper()
	if _, err := s.Jobs.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestGitSyncPage(t *testing.T) {
	repo := gitRepo(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Start\n\nHello.\n")
		u, _ := member(t, s, org, folio.RoleAdmin)
		reader, _ := member(t, s, org, folio.RoleRead)
		b := signIn(t, s, u.Email)
		base := "/s/" + sp + "/~/git"

		b.get(t, "/s/"+sp).want(t, 200, `<a href="`+base+`">Git sync</a>`)
		empty := b.get(t, base)
		// The page may fetch its status (progress.js), from its own origin only.
		if csp := empty.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.HasSuffix(csp, "; connect-src 'self'") {
			t.Fatalf("CSP %q", csp)
		}
		empty.want(t, 200, "<h1>Git sync</h1>", "not connected to a git repository", `<label for="git-url">Repository URL</label>`,
			`<label for="git-pass">Password or access token</label>`, `value="import"`, `value="export"`)

		// Bad input: a clear message, and nothing is connected.
		b.post(t, base, url.Values{"url": {repo}, "branch": {"ma..in"}, "direction": {"import"}}).want(t, 400, "ref must be a branch")
		b.post(t, base, url.Values{"url": {"ftp://example.com/x.git"}, "branch": {"main"}, "direction": {"import"}}).want(t, 400, "url must be an absolute")
		b.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "direction": {"sideways"}}).want(t, 400, "choose import or export")
		b.get(t, base).want(t, 200, "not connected")

		b.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "directory": {"docs"}, "username": {"alice"},
			"password": {"s3cret-pass"}, "direction": {"import"}}).redirect(t, base+"?done=queued")
		p := b.get(t, base+"?done=queued").want(t, 200, "The git sync is queued", "Import queued: waiting for its turn.",
			`data-progress="`+base+`/status"`, `<a href="">Refresh</a>`, "<code>"+repo+"</code>", "<code>docs</code>")
		if strings.Contains(p.Body, "s3cret-pass") {
			t.Fatal("the page shows the password")
		}
		var st map[string]any
		status := b.get(t, base+"/status").want(t, 200)
		if err := json.Unmarshal([]byte(status.Body), &st); err != nil || st["state"] != "queued" || st["ended"] != false {
			t.Fatalf("status %s", status.Body)
		}
		runJobs(t, s)
		b.get(t, base).want(t, 200, "Last sync", "Import done: the space has the repository", `data-ended="true"`, "The revision it made")
		status = b.get(t, base+"/status").want(t, 200, `"state":"success"`, `"ended":true`)
		if got := titles(t, s, admin, sp); got != "Welcome from git,Guide" {
			t.Fatalf("pages after the import: %s", got)
		}
		// The audit log names the sync without the credentials.
		audit := b.get(t, "/o/"+org+"/audit?action=space.git_sync_import").want(t, 200, "space.git_sync_import", u.DisplayName)
		if strings.Contains(audit.Body, "s3cret-pass") {
			t.Fatal("the audit log shows the password")
		}

		// A wrong password: the sync fails and says why.
		b.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "directory": {"docs"}, "username": {"alice"},
			"password": {"wrong"}, "direction": {"import"}}).redirect(t, base+"?done=queued")
		runJobs(t, s)
		b.get(t, base).want(t, 200, "Import failed.", `class="progress-error notice error">`)

		// A reader is offered nothing, and a forged sync is refused.
		rb := signIn(t, s, reader.Email)
		rp := rb.get(t, "/s/"+sp).want(t, 200)
		if strings.Contains(rp.Body, "Git sync") {
			t.Fatal("a reader is offered git sync")
		}
		if p := rb.get(t, base).want(t, 200, "<code>"+repo+"</code>"); strings.Contains(p.Body, `action="`+base+`"`) {
			t.Fatal("a reader is offered the sync form")
		}
		ops := len(gitOps(t, s, admin, sp))
		rb.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "direction": {"import"}}).want(t, 403, "you cannot sync this space")
		rb.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "direction": {"export"}}).want(t, 403)
		rb.post(t, base+"/disconnect", nil).want(t, 403)
		if n := len(gitOps(t, s, admin, sp)); n != ops {
			t.Fatalf("refused syncs recorded operations: %d, was %d", n, ops)
		}
		// Someone of another organization learns nothing.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, base).want(t, 404)
		sb.get(t, base+"/status").want(t, 404)
		sb.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "direction": {"import"}}).want(t, 404)

		// Export pushes a commit to the branch.
		b.post(t, base, url.Values{"url": {repo}, "branch": {"main"}, "directory": {"docs"}, "username": {"alice"},
			"password": {"s3cret-pass"}, "direction": {"export"}, "message": {"From the web"}}).redirect(t, base+"?done=queued")
		runJobs(t, s)
		b.get(t, base).want(t, 200, "Export done: ")

		b.post(t, base+"/disconnect", nil).redirect(t, base+"?done=disconnected")
		b.get(t, base+"?done=disconnected").want(t, 200, "no longer connected", "not connected to a git repository")
	})
}

func gitOps(t *testing.T, s *apitest.Server, tok, spaceID string) []folio.GitOperation {
	t.Helper()
	ops, err := s.App.ListGitOperations(context.Background(), folio.Caller{UserID: userOf(t, s, tok)}, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

// receiver is a loopback HTTP endpoint that counts what it receives.
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []string // event types
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var e struct{ Type string }
		json.NewDecoder(r.Body).Decode(&e)
		rc.mu.Lock()
		rc.got = append(rc.got, e.Type)
		rc.mu.Unlock()
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) events() string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return strings.Join(rc.got, ",")
}

func webhookCount(t *testing.T, s *apitest.Server, admin, org string) int {
	t.Helper()
	l, err := s.App.ListWebhooks(context.Background(), folio.Caller{UserID: userOf(t, s, admin)}, org, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return l.Count
}

func TestWebhookPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		creator, _ := member(t, s, org, folio.RoleCreate)
		rc := newReceiver(t)
		b := signIn(t, s, u.Email)
		list := "/o/" + org + "/webhooks"
		b.get(t, list).want(t, 200, "<h1>Webhooks</h1>", "No webhooks yet.", `<label for="wh-url">URL</label>`, "<legend>Events</legend>",
			`value="member_added"`, `<a href="`+list+`" aria-current="page">Webhooks</a>`)

		b.post(t, list, url.Values{"url": {"not a url"}, "event": {"member_added"}}).want(t, 400, "url must be an absolute http or https URL")
		b.post(t, list, url.Values{"url": {rc.srv.URL}}).want(t, 400, "events lists 1 to")
		b.post(t, list, url.Values{"url": {rc.srv.URL}, "event": {"no_such_event"}}).want(t, 400, "no_such_event is not an event type")
		if n := webhookCount(t, s, admin, org); n != 0 {
			t.Fatalf("refused forms made %d webhooks", n)
		}
		created := b.post(t, list, url.Values{"url": {rc.srv.URL}, "event": {"member_added", "member_removed"}}).
			want(t, 201, "Copy the secret now", "Signing secret", `value="member_added" checked`, `value="member_removed" checked`)
		hooks, err := s.App.ListWebhooks(context.Background(), folio.Caller{UserID: u.ID}, org, folio.ListOptions{Limit: 10})
		if err != nil || len(hooks.Items) != 1 {
			t.Fatalf("webhooks %v %v", hooks, err)
		}
		hook := hooks.Items[0]
		if m := regexp.MustCompile(`<code class="secret">([0-9a-f]{64})</code>`).FindStringSubmatch(created.Body); m == nil {
			t.Fatalf("no secret on the created page:\n%s", created.Body)
		}
		page := list + "/" + hook.ID
		b.get(t, list).want(t, 200, `<a href="`+page+`"><code>`+rc.srv.URL+`</code></a>`, "active · 2 event types")
		if p := b.get(t, page).want(t, 200, "Nothing delivered yet.", "Send a test event"); strings.Contains(p.Body, "Signing secret") {
			t.Fatal("the secret shows again")
		}

		b.post(t, page+"/test", nil).redirect(t, page+"?done=tested")
		b.get(t, page+"?done=tested").want(t, 200, "A test event is on its way", "<strong>webhook_test</strong> <span class=\"badge\">pending</span>")
		runJobs(t, s)
		if got := rc.events(); got != "webhook_test" {
			t.Fatalf("received %q", got)
		}
		p := b.get(t, page).want(t, 200, `<span class="badge">delivered</span>`, "HTTP 200", ">Redeliver</button>")
		d := regexp.MustCompile(`action="` + regexp.QuoteMeta(page) + `/deliveries/([^/]+)/redeliver"`).FindStringSubmatch(p.Body)
		if d == nil {
			t.Fatalf("no redeliver form:\n%s", p.Body)
		}
		b.post(t, page+"/deliveries/"+d[1]+"/redeliver", nil).redirect(t, page+"?done=redelivered")
		runJobs(t, s)
		if got := rc.events(); got != "webhook_test,webhook_test" {
			t.Fatalf("received %q after redelivering", got)
		}

		// Update: unsubscribe member_removed, disable.
		b.post(t, page+"/update", url.Values{"url": {rc.srv.URL}, "event": {"member_added"}}).redirect(t, page+"?done=updated")
		b.get(t, page).want(t, 200, `<span class="badge">Disabled</span>`, `value="member_added" checked`, `value="member_removed">`)
		b.post(t, page+"/update", url.Values{"url": {"ftp://x"}, "event": {"member_added"}, "active": {"yes"}}).want(t, 400)
		b.get(t, page).want(t, 200, `<span class="badge">Disabled</span>`)

		// Someone who is not an admin is offered nothing and refused.
		cb := signIn(t, s, creator.Email)
		if p := cb.get(t, "/o/"+org).want(t, 200); strings.Contains(p.Body, ">Webhooks<") || strings.Contains(p.Body, ">Audit log<") {
			t.Fatal("a creator is offered webhooks or the audit log")
		}
		cb.get(t, list).want(t, 403, "only organization admins manage webhooks")
		cb.get(t, page).want(t, 403)
		cb.post(t, list, url.Values{"url": {rc.srv.URL}, "event": {"member_added"}}).want(t, 403)
		cb.post(t, page+"/test", nil).want(t, 403)
		cb.post(t, page+"/deliveries/"+d[1]+"/redeliver", nil).want(t, 403)
		cb.post(t, page+"/update", url.Values{"url": {"https://evil.example"}, "event": {"member_added"}, "active": {"yes"}}).want(t, 403)
		cb.post(t, page+"/delete", url.Values{"confirm": {"yes"}}).want(t, 403)
		runJobs(t, s)
		if n, got := webhookCount(t, s, admin, org), rc.events(); n != 1 || got != "webhook_test,webhook_test" {
			t.Fatalf("refused forms changed things: %d webhooks, received %q", n, got)
		}
		if w, _ := s.App.GetWebhook(context.Background(), folio.Caller{UserID: u.ID}, org, hook.ID); w.URL != rc.srv.URL || w.Active {
			t.Fatalf("a refused update changed the webhook: %+v", w)
		}
		// Another organization's admin learns nothing.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, page).want(t, 404)
		sb.post(t, page+"/test", nil).want(t, 404)
		sb.get(t, "/o/"+other+"/webhooks/"+hook.ID).want(t, 404)

		b.post(t, page+"/delete", nil).want(t, 400, "tick the box")
		b.post(t, page+"/delete", url.Values{"confirm": {"yes"}}).redirect(t, list+"?done=deleted")
		if n := webhookCount(t, s, admin, org); n != 0 {
			t.Fatalf("%d webhooks after deleting", n)
		}
	})
}

func TestAuditLogPage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, _ := s.Org(t)
		u, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		ctx := context.Background()
		caller := folio.Caller{UserID: u.ID}
		hookURL, events := "https://example.com/hook", []string{"member_added"}
		w, _, err := s.App.CreateWebhook(ctx, caller, org, app.WebhookInput{URL: &hookURL, Events: &events})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			u := fmt.Sprintf("https://example.com/hook/%d", i)
			if _, err := s.App.UpdateWebhook(ctx, caller, org, w.ID, app.WebhookInput{URL: &u}); err != nil {
				t.Fatal(err)
			}
		}
		b := signIn(t, s, u.Email)
		audit := "/o/" + org + "/audit"
		p := b.get(t, audit).want(t, 200, "<h1>Audit log</h1>", `<label for="f-action">Action</label>`, `<label for="f-from">From</label>`,
			"webhook.updated", u.DisplayName, `rel="next">Older entries</a>`)
		if n := strings.Count(p.Body, "<li>\n  <span><strong class=\"action\">"); n != 25 {
			t.Fatalf("first page shows %d entries, want 25", n)
		}
		next := regexp.MustCompile(`<a href="([^"]+)" rel="next">`).FindStringSubmatch(p.Body)[1]
		p2 := b.get(t, strings.ReplaceAll(next, "&amp;", "&")).want(t, 200, "webhook.created")
		if strings.Contains(p2.Body, `rel="next"`) {
			t.Fatal("the last page links to a next one")
		}
		// Filters: an action, a target, dates.
		f := b.get(t, audit+"?action=webhook.created").want(t, 200, "1 entry match", "webhook.created", "Clear the filters")
		if strings.Contains(f.Body, "webhook.updated") {
			t.Fatal("the action filter let other actions through")
		}
		b.get(t, audit+"?target=nothing-here").want(t, 200, "0 entries match", "No entries match these filters.")
		today := s.Clock.Now().UTC().Format("2006-01-02")
		b.get(t, audit+"?action=webhook.created&from="+today+"&to="+today).want(t, 200, "1 entry match")
		b.get(t, audit+"?from=yesterday").want(t, 400, "from must be a date")
		b.get(t, audit+"?from="+today+"&to=2000-01-01").want(t, 400, "from must be before to")
		b.get(t, audit+"?page=garbage").want(t, 400, "the page link is not valid")

		eb := signIn(t, s, editor.Email)
		eb.get(t, audit).want(t, 403, "only organization admins read the audit log")
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, stranger.Email).get(t, audit).want(t, 404)
	})
}

const petstore = `openapi: 3.0.3
info:
  title: Pets
  version: "1.0"
paths:
  /pets:
    get:
      summary: List pets
      responses:
        "200":
          description: The pets
`

func specCount(t *testing.T, s *apitest.Server, userID, org string) int {
	t.Helper()
	l, err := s.App.ListOpenAPISpecs(context.Background(), folio.Caller{UserID: userID}, org, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return l.Count
}

func TestOpenAPIPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleCreate)
		reader, _ := member(t, s, org, folio.RoleRead)
		files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/pets.yaml" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(petstore))
		}))
		t.Cleanup(files.Close)
		b := signIn(t, s, u.Email)
		list := "/o/" + org + "/openapi"
		b.get(t, list).want(t, 200, "<h1>OpenAPI specifications</h1>", "No OpenAPI specifications yet.", `<label for="spec-slug">Slug</label>`,
			`<label for="spec-url">URL of the specification</label>`, `<label for="spec-text">Text of the specification</label>`)

		b.post(t, list, url.Values{"slug": {"bad slug"}, "url": {files.URL + "/pets.yaml"}}).want(t, 400, "slug must be at most")
		b.post(t, list, url.Values{"slug": {"pets"}, "url": {"ftp://example.com/x"}}).want(t, 400, "source.url must be an absolute http or https URL")
		b.post(t, list, url.Values{"slug": {"pets"}, "from": {"text"}, "text": {"  "}}).want(t, 400, "source.text must not be empty")
		if n := specCount(t, s, u.ID, org); n != 0 {
			t.Fatalf("refused forms made %d specifications", n)
		}

		spec := list + "/pets"
		b.post(t, list, url.Values{"slug": {"pets"}, "from": {"url"}, "url": {files.URL + "/pets.yaml"}}).redirect(t, spec+"?done=processing")
		b.get(t, spec+"?done=processing").want(t, 200, "<h1>pets</h1>", "Waiting to be processed.", `data-progress="`+spec+`/status"`,
			"No version yet.", "<code>"+files.URL+"/pets.yaml</code>")
		b.get(t, spec+"/status").want(t, 200, `"state":"pending"`, `"ended":false`)
		runJobs(t, s)
		b.get(t, spec+"/status").want(t, 200, `"state":"complete"`, `"text":"Processed."`, `"ended":true`)
		b.get(t, spec).want(t, 200, "1 version;", "Process again", "Delete the specification")
		b.get(t, list).want(t, 200, `<a href="`+spec+`"><strong>pets</strong></a>`, "Processed.")

		// Given as text (uploaded or pasted); broken text shows its errors.
		b.post(t, list, url.Values{"slug": {"broken"}, "from": {"text"}, "text": {"openapi: 3.0.3\ninfo: [not, an, object\n"}}).
			redirect(t, list+"/broken?done=processing")
		runJobs(t, s)
		b.get(t, list+"/broken").want(t, 200, "given as text", "Processed with errors (PARSE_ERROR).", `class="progress-error notice error">`)
		b.post(t, list+"/broken/source", url.Values{"from": {"text"}, "text": {petstore}}).redirect(t, list+"/broken?done=processing")
		runJobs(t, s)
		b.get(t, list+"/broken").want(t, 200, "Processed.", `class="progress-error notice error" hidden>`)
		b.post(t, spec+"/visibility", url.Values{"visibility": {"public"}}).redirect(t, spec+"?done=updated")
		b.get(t, spec).want(t, 200, "<dt>Visibility</dt><dd>public</dd>")
		b.post(t, spec+"/visibility", url.Values{"visibility": {"everyone"}}).want(t, 400)

		// The API's urls.app lands on the page; the old link redirects.
		var v struct{ URLs struct{ App string } }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/openapi/pets", nil).WantStatus(t, 200).JSON(t, &v)
		if v.URLs.App != apitest.PublicURL+spec {
			t.Fatalf("urls.app %q", v.URLs.App)
		}
		b.get(t, strings.TrimPrefix(v.URLs.App, apitest.PublicURL)).want(t, 200, "<h1>pets</h1>")
		b.get(t, "/openapi/pets").redirect(t, spec)
		b.get(t, "/openapi/nothing").want(t, 404)

		// A reader sees the specifications, is offered no change and is refused one.
		rb := signIn(t, s, reader.Email)
		rp := rb.get(t, list).want(t, 200, "<strong>pets</strong>")
		if strings.Contains(rp.Body, "Add a specification") {
			t.Fatal("a reader is offered adding a specification")
		}
		if p := rb.get(t, spec).want(t, 200, "1 version;"); strings.Contains(p.Body, "Process again") || strings.Contains(p.Body, "Delete the specification") {
			t.Fatal("a reader is offered changes")
		}
		rb.post(t, list, url.Values{"slug": {"mine"}, "url": {files.URL + "/pets.yaml"}}).want(t, 403, "you cannot change this organization&#39;s OpenAPI specifications")
		rb.post(t, spec+"/source", url.Values{"url": {files.URL + "/other.yaml"}}).want(t, 403)
		rb.post(t, spec+"/visibility", url.Values{"visibility": {"private"}}).want(t, 403)
		rb.post(t, spec+"/delete", url.Values{"confirm": {"yes"}}).want(t, 403)
		if n := specCount(t, s, u.ID, org); n != 2 {
			t.Fatalf("%d specifications after refused forms", n)
		}
		if sv, _ := s.App.GetOpenAPISpec(context.Background(), folio.Caller{UserID: u.ID}, org, "pets"); sv.Visibility != "public" || sv.SourceURL != files.URL+"/pets.yaml" {
			t.Fatalf("refused forms changed the specification: %+v", sv)
		}
		// Another organization's member learns nothing.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, spec).want(t, 404)
		sb.get(t, spec+"/status").want(t, 404)
		sb.get(t, "/openapi/pets").want(t, 404)

		b.post(t, spec+"/delete", nil).want(t, 400, "tick the box")
		b.post(t, spec+"/delete", url.Values{"confirm": {"yes"}}).redirect(t, list+"?done=deleted")
		b.get(t, spec).want(t, 404)
	})
}

func TestTranslationPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Start\n\nHello.\n")
		u, _ := member(t, s, org, folio.RoleCreate)
		editor, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		list := "/o/" + org + "/translations"
		b.get(t, list).want(t, 200, "<h1>Translations</h1>", "No translations yet.", `<label for="tr-space">Space to translate</label>`,
			`<option value="`+sp+`">Handbook</option>`)
		count := func() int {
			l, err := s.App.ListTranslations(context.Background(), folio.Caller{UserID: u.ID}, org, folio.ListOptions{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return l.Count
		}
		b.post(t, list, url.Values{"space": {sp}, "source_language": {"en"}, "language": {"en"}}).want(t, 400, "language must differ")
		b.post(t, list, url.Values{"space": {sp}, "source_language": {"en"}, "language": {"klingon"}}).want(t, 400, "language must be one of")
		b.post(t, list, url.Values{"space": {"nope"}, "source_language": {"en"}, "language": {"fr"}}).want(t, 400, "source space nope not found")
		if n := count(); n != 0 {
			t.Fatalf("refused forms made %d translations", n)
		}
		p := b.post(t, list, url.Values{"space": {sp}, "source_language": {"en"}, "language": {"fr"}}).want(t, 303)
		page := strings.TrimSuffix(p.Header.Get("Location"), "?done=created")
		b.get(t, page).want(t, 200, "Handbook: en → fr", "Not run yet.", "made by the first run", "Run the translation")
		b.post(t, page+"/run", nil).redirect(t, page+"?done=running")
		b.get(t, page+"?done=running").want(t, 200, "The translation run is queued", "Run queued: waiting for its turn.", `data-progress="`+page+`/status"`)
		b.get(t, page+"/status").want(t, 200, `"state":"queued"`, `"ended":false`)
		runJobs(t, s) // no translation engine on the test server: the run fails and says why
		b.get(t, page+"/status").want(t, 200, `"ended":true`, "no translation engine is configured")
		b.get(t, page).want(t, 200, "The last run failed.", "no translation engine is configured", "<dt>Runs</dt><dd>1</dd>")
		b.get(t, list).want(t, 200, "Handbook</strong>: en → fr", "The last run failed.")

		eb := signIn(t, s, editor.Email)
		if p := eb.get(t, page).want(t, 200, "Handbook: en → fr"); strings.Contains(p.Body, "Run the translation") {
			t.Fatal("an editor is offered running the translation")
		}
		if p := eb.get(t, list).want(t, 200); strings.Contains(p.Body, "New translation") {
			t.Fatal("an editor is offered creating a translation")
		}
		eb.post(t, list, url.Values{"space": {sp}, "source_language": {"en"}, "language": {"de"}}).want(t, 403, "you cannot change this organization&#39;s translations")
		eb.post(t, page+"/run", nil).want(t, 403)
		eb.post(t, page+"/delete", url.Values{"confirm": {"yes"}}).want(t, 403)
		if n := count(); n != 1 {
			t.Fatalf("%d translations after refused forms", n)
		}
		if n, _ := s.Jobs.RunDue(context.Background()); n != 0 {
			t.Fatalf("a refused run queued %d jobs", n)
		}
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, page).want(t, 404)
		sb.post(t, page+"/run", nil).want(t, 404)

		b.post(t, page+"/delete", url.Values{"confirm": {"yes"}}).redirect(t, list+"?done=deleted")
		if n := count(); n != 0 {
			t.Fatalf("%d translations after deleting", n)
		}
	})
}

func TestIntegrationPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "")
		var site struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Public docs"}).WantStatus(t, 201).JSON(t, &site)
		var pub struct{ URLs struct{ App string } }
		s.Do(t, admin, "POST", "/v1/integrations/web-hello", map[string]any{"runtime": "v2", "title": "Hello", "description": "Says hello",
			"scopes": []string{"space:content:read"}, "organization": org, "previewImages": []string{}, "target": "all", "visibility": "public",
			"script": "export default {fetch: async () => new Response('hi')};"}).WantStatus(t, 200).JSON(t, &pub)
		u, _ := member(t, s, org, folio.RoleAdmin)
		editor, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		list := "/o/" + org + "/integrations"
		page := list + "/web-hello"
		b.get(t, list).want(t, 200, "<h1>Integrations</h1>", "Nothing installed.", `<label for="int-q">Search integrations</label>`,
			`<a href="`+page+`"><strong>Hello</strong></a>`)
		b.get(t, list+"?q=nothing-like-it").want(t, 200, "No integrations match")
		b.get(t, page).want(t, 200, "<h1>Hello</h1>", "not installed", ">Install in ")

		status := func() string {
			st, err := s.App.OrganizationInstallationStatus(context.Background(), folio.Caller{UserID: u.ID}, org, "web-hello")
			if folio.KindOf(err) == folio.NotFound {
				return "none"
			}
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		// An editor may not install.
		eb := signIn(t, s, editor.Email)
		if p := eb.get(t, page).want(t, 200, "not installed"); strings.Contains(p.Body, ">Install in ") {
			t.Fatal("an editor is offered installing")
		}
		eb.post(t, page+"/install", nil).want(t, 403, "only organization admins install integrations")
		if st := status(); st != "none" {
			t.Fatalf("a refused install installed: %s", st)
		}

		b.post(t, page+"/install", nil).redirect(t, page+"?done=installed")
		b.get(t, page+"?done=installed").want(t, 200, "Installed.", "installed (active)", `<label for="int-config">Configuration (a JSON object)</label>`,
			`<option value="`+sp+`">Handbook</option>`, `<option value="`+site.ID+`">Public docs</option>`, "Installed on no space or site yet.")
		b.get(t, list).want(t, 200, `<a href="`+page+`"><strong>Hello</strong></a>`+"\n"+`<span class="badge">active</span>`)

		b.post(t, page+"/configure", url.Values{"configuration": {"{not json"}}).want(t, 400, "must be a JSON object")
		b.post(t, page+"/configure", url.Values{"configuration": {"[1, 2]"}}).want(t, 400, "must be a JSON object")
		b.post(t, page+"/configure", url.Values{"configuration": {`{"greeting": "bonjour"}`}}).redirect(t, page+"?done=updated")
		b.get(t, page).want(t, 200, "&#34;greeting&#34;: &#34;bonjour&#34;")
		b.post(t, page+"/targets", url.Values{"kind": {"space"}, "target": {sp}}).redirect(t, page+"?done=target-added")
		b.post(t, page+"/targets", url.Values{"kind": {"site"}, "target": {site.ID}}).redirect(t, page+"?done=target-added")
		p := b.get(t, page).want(t, 200, `space: <a href="/s/`+sp+`">Handbook</a>`, "site: Public docs", `aria-label="Remove from Handbook"`)
		if strings.Contains(p.Body, `<option value="`+sp+`">`) {
			t.Fatal("the space it is installed on is offered again")
		}
		b.post(t, page+"/targets", url.Values{"kind": {"space"}, "target": {"no-such-space"}}).want(t, 404)

		// The editor sees it installed, manages nothing, and is refused.
		if p := eb.get(t, page).want(t, 200, "installed (active)"); strings.Contains(p.Body, "int-config") || strings.Contains(p.Body, "Uninstall") {
			t.Fatal("an editor is offered managing the installation")
		}
		eb.post(t, page+"/configure", url.Values{"configuration": {`{"greeting": "evil"}`}}).want(t, 403)
		eb.post(t, page+"/untarget", url.Values{"kind": {"space"}, "target": {sp}}).want(t, 403)
		eb.post(t, page+"/uninstall", url.Values{"confirm": {"yes"}}).want(t, 403)
		b.get(t, page).want(t, 200, "&#34;greeting&#34;: &#34;bonjour&#34;", `space: <a href="/s/`+sp+`">Handbook</a>`)
		// Another organization's admin learns nothing of this installation.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, page).want(t, 404)
		sb.post(t, page+"/uninstall", url.Values{"confirm": {"yes"}}).want(t, 404)

		// urls.app lands on the page in the organization it is installed in.
		path := strings.TrimPrefix(pub.URLs.App, apitest.PublicURL)
		if path != "/integrations/web-hello" {
			t.Fatalf("urls.app %q", pub.URLs.App)
		}
		b.get(t, path).redirect(t, page)
		sb.get(t, path).redirect(t, "/o/"+other+"/integrations/web-hello")
		newBrowser(s).get(t, path).redirect(t, "/signin?next=%2Fintegrations%2Fweb-hello")

		b.post(t, page+"/untarget", url.Values{"kind": {"space"}, "target": {sp}}).redirect(t, page+"?done=target-remove")
		b.get(t, page).want(t, 200, `<option value="`+sp+`">Handbook</option>`)
		b.post(t, page+"/uninstall", nil).want(t, 400, "tick the box")
		b.post(t, page+"/uninstall", url.Values{"confirm": {"yes"}}).redirect(t, list+"?done=uninstalled")
		if st := status(); st != "none" {
			t.Fatalf("status after uninstalling: %s", st)
		}
		b.get(t, list+"?done=uninstalled").want(t, 200, "Uninstalled.", "Nothing installed.")
	})
}
