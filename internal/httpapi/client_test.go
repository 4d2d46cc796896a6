package httpapi_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
)

// TestOfficialClient drives the server with GitBook's own TypeScript client
// (@gitbook/api, fetched beside the reference by scripts/gitbook-spec),
// as scripts written for GitBook do: a second opinion on wire compatibility
// besides the reference's schema checks. It needs node and the client; CI
// has both.
func TestOfficialClient(t *testing.T) {
	// CI has node and the client: there, missing either fails the run.
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node is not installed")
	}
	spec := apitest.SpecPath()
	client := filepath.Join(filepath.Dir(filepath.Dir(spec)), "dist", "index.js")
	if _, err := os.Stat(client); spec == "" || err != nil {
		skip("the @gitbook/api client is not available beside the reference (%q)", spec)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "gitbook_client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# From git\n\nHello.\n"}, "for the client")
		// The git sync the script triggers runs on the job runner.
		ctx, stop := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { s.Jobs.WithPoll(50 * time.Millisecond).Run(ctx); close(done) }()
		defer func() { stop(); <-done }()
		cmd := exec.CommandContext(t.Context(), node, script)
		cmd.Env = append(os.Environ(), "GITBOOK_CLIENT="+client, "FOLIO_URL="+s.URL, "FOLIO_TOKEN="+token, "FOLIO_ORG="+org,
			"FOLIO_GIT_REPO="+fileURL(repo))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the official client failed: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "checks passed") {
			t.Fatalf("the script ended early:\n%s", out)
		}
	})
}
