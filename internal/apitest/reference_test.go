package apitest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestServerWithoutReference is run by TestMissingReference in a child
// process; on its own it just starts a server.
func TestServerWithoutReference(t *testing.T) {
	apitest.New(t, "sqlite", apitest.Options{})
}

func TestMissingReference(t *testing.T) {
	if os.Getenv("FOLIO_REFERENCE_CHILD") != "" {
		t.Skip("child process")
	}
	run := func(ci string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServerWithoutReference$", "-test.v")
		env := []string{"FOLIO_REFERENCE_CHILD=1", "FOLIO_GITBOOK_SPEC=", "XDG_CACHE_HOME=" + t.TempDir(), "CI=" + ci}
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			if k != "CI" && k != "FOLIO_GITBOOK_SPEC" && k != "XDG_CACHE_HOME" {
				env = append(env, kv)
			}
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("true")
	if err == nil || !strings.Contains(out, "the GitBook reference is required in CI") {
		t.Fatalf("in CI a missing reference must fail the test (err %v):\n%s", err, out)
	}
	out, err = run("")
	if err != nil || !strings.Contains(out, "NOT VALIDATED against the GitBook reference") {
		t.Fatalf("outside CI a missing reference must pass and say so (err %v):\n%s", err, out)
	}
}
