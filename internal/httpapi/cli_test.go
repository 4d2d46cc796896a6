package httpapi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestGitBookCLI publishes an integration written with @gitbook/runtime to
// Folio with GitBook's own CLI, as its authors do against GitBook: auth,
// publish (twice: a new version), unpublish.
func TestGitBookCLI(t *testing.T) {
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	dir := gitbookCLIDir()
	cli := filepath.Join(dir, "node_modules", ".bin", "gitbook")
	if _, err := os.Stat(cli); err != nil {
		skip("GitBook's CLI is not installed in %s (.ci/run installs it)", dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not installed")
	}
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		// The project, beside the CLI's node_modules so that esbuild finds
		// @gitbook/runtime.
		project := t.TempDir()
		if err := os.CopyFS(project, os.DirFS(filepath.Join("testdata", "cli-integration"))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(project, "node_modules")); err != nil {
			t.Fatal(err)
		}
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
