package web_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
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
		b.get(t, base).want(t, 200, "<h1>Git sync</h1>", "not connected to a git repository", `<label for="git-url">Repository URL</label>`,
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
