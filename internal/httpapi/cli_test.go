package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
)

// gitbookCLIDir is where .ci/run installs GitBook's CLI and runtime
// (npm install --ignore-scripts @gitbook/cli @gitbook/runtime);
// FOLIO_GITBOOK_CLI names another folder.
func gitbookCLIDir() string {
	if d := os.Getenv("FOLIO_GITBOOK_CLI"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "folio", "gitbook-cli-0.25.1")
}

// gitbookCLI returns the path of GitBook's CLI and its folder, skipping the
// test (failing it under CI) when the CLI or node is missing.
func gitbookCLI(t *testing.T) (cli, dir string) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	dir = gitbookCLIDir()
	cli = filepath.Join(dir, "node_modules", ".bin", "gitbook")
	if _, err := os.Stat(cli); err != nil {
		skip("GitBook's CLI is not installed in %s (.ci/run installs it)", dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not installed")
	}
	return cli, dir
}

// cliProject copies testdata/name into a new folder beside the CLI's
// node_modules (linked), so that esbuild finds @gitbook/runtime.
func cliProject(t *testing.T, dir, name string) string {
	t.Helper()
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(project, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return project
}

// TestGitBookCLI publishes an integration written with @gitbook/runtime to
// Folio with GitBook's own CLI, as its authors do against GitBook: auth,
// publish (twice: a new version), unpublish.
func TestGitBookCLI(t *testing.T) {
	cli, dir := gitbookCLI(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		project := cliProject(t, dir, "cli-integration")
		home := t.TempDir()
		gitbook := func(stdin string, args ...string) string {
			t.Helper()
			cmd := exec.CommandContext(t.Context(), cli, args...)
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
				"TMPDIR="+home, "FOLIO_CLI_GREETING=bonjour", "NO_COLOR=1")
			cmd.Stdin = strings.NewReader(stdin)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("gitbook %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			return string(out)
		}
		if out := gitbook("", "auth", "--endpoint", s.URL, "--token", token); !strings.Contains(out, "You are now authenticated as User ") {
			t.Fatalf("auth printed:\n%s", out)
		}
		for version := 1; version <= 2; version++ {
			out := gitbook("", "publish", ".", "-o", org)
			if !strings.Contains(out, "folio-cli-hello") {
				t.Fatalf("publish printed:\n%s", out)
			}
			var got integrationBody
			s.Do(t, token, "GET", "/v1/integrations/folio-cli-hello", nil).WantStatus(t, 200).JSON(t, &got)
			if got.Version != version || got.Title != "Folio CLI Hello" || got.Target != "space" || got.Owner.ID != org ||
				got.URLs.Icon == "" || len(got.Scopes) != 1 {
				t.Fatalf("published %+v", got)
			}
		}
		// The script is the CLI's ES module build; the secret is sealed.
		var script, sealed string
		s.DB.Read(t.Context(), func(tx *store.Tx) error {
			i, err := store.GetIntegration(t.Context(), tx, "folio-cli-hello")
			if err != nil {
				return err
			}
			script = i.Script
			sealed, err = store.IntegrationSecrets(t.Context(), tx, "folio-cli-hello")
			return err
		})
		if !strings.Contains(script, "export{") || !strings.Contains(script, "hello from folio-cli-hello") {
			t.Fatalf("stored script (%d bytes) is not the CLI's build", len(script))
		}
		if sealed == "" || strings.Contains(sealed, "bonjour") {
			t.Fatalf("secrets at rest %q", sealed)
		}
		gitbook("y\n", "unpublish", "folio-cli-hello")
		s.Do(t, token, "GET", "/v1/integrations/folio-cli-hello", nil).WantStatus(t, 404)
	})
}

// TestIntegrationScriptRuns publishes a @gitbook/runtime integration with
// GitBook's CLI, installs it, and checks that Folio runs its script on
// events: the script reports to a receiver on loopback and reads a space
// back through Folio's API with its installation token.
func TestIntegrationScriptRuns(t *testing.T) {
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	dir := gitbookCLIDir()
	cli := filepath.Join(dir, "node_modules", ".bin", "gitbook")
	if _, err := os.Stat(cli); err != nil {
		skip("GitBook's CLI is not installed in %s (.ci/run installs it)", dir)
	}
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		var (
			mu       sync.Mutex
			received = map[string][]map[string]any{}
		)
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			mu.Lock()
			received[r.URL.Path] = append(received[r.URL.Path], body)
			mu.Unlock()
		}))
		defer receiver.Close()

		project := t.TempDir()
		if err := os.CopyFS(project, os.DirFS(filepath.Join("testdata", "cli-integration"))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(project, "node_modules")); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		cmd := exec.CommandContext(t.Context(), cli, "publish", ".", "-o", org)
		cmd.Dir = project
		// The CLI also takes its endpoint and token from the environment.
		cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+home, "GITBOOK_ENDPOINT="+s.URL, "GITBOOK_TOKEN="+token,
			"FOLIO_CLI_GREETING=hi", "NO_COLOR=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gitbook publish: %v\n%s", err, out)
		}

		var inst installationBody
		s.Do(t, token, "POST", "/v1/integrations/folio-cli-hello/installations", map[string]any{"organization": org}).
			WantStatus(t, 201).JSON(t, &inst)
		s.Do(t, token, "PATCH", "/v1/integrations/folio-cli-hello/installations/"+inst.ID, map[string]any{
			"configuration": map[string]any{"receiver": receiver.URL, "folio": s.URL}}).WantStatus(t, 200)
		space := newSpace(t, s, token, org, "Docs")
		importInto(t, s, token, space, "", "markdown", []byte("# Hello\n"))
		runJobs(t, s)

		mu.Lock()
		setup, content := received["/setup"], received["/content"]
		mu.Unlock()
		// Both installation_setup events (install, configure) run after the
		// configuration is set: the environment is the installation's as
		// it is at delivery.
		if len(setup) != 2 || setup[0]["installationId"] != inst.ID {
			t.Fatalf("setup reports %v", setup)
		}
		if len(content) != 1 || content[0]["status"] != 200.0 || content[0]["title"] != "Docs" || content[0]["spaceId"] != space {
			t.Fatalf("content reports %v (the script reads the space with its installation token)", content)
		}

		var l struct{ Items []eventBody }
		s.Do(t, token, "GET", "/v1/integrations/folio-cli-hello/events", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 3 {
			t.Fatalf("events %+v", l.Items)
		}
		for _, e := range l.Items {
			if e.Status != "success" {
				t.Errorf("event %s: %s", e.Payload["type"], e.Status)
			}
		}
		var one struct {
			Trace struct {
				Logs []struct{ Level, Message string }
			}
		}
		s.Do(t, token, "GET", "/v1/integrations/folio-cli-hello/events/"+l.Items[0].ID, nil).WantStatus(t, 200).JSON(t, &one)
		var msgs []string
		for _, line := range one.Trace.Logs {
			msgs = append(msgs, line.Level+": "+line.Message)
		}
		if got := strings.Join(msgs, "\n"); !strings.Contains(got, "info: space Docs") || !strings.Contains(got, "the script answered HTTP 200") {
			t.Fatalf("trace of space_content_updated:\n%s", got)
		}
	})
}
