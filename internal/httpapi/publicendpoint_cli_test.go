package httpapi_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestIntegrationPublicEndpointCLI publishes a @gitbook/runtime integration
// with GitBook's CLI (built as the CLI builds it) and calls its public
// endpoints: the runtime's fetch handler gets the request as on GitBook
// and routes it below the endpoint's path. A handler that throws answers
// the runtime's 500 and its trace carries the error's message, as Node
// prints it. A version whose script throws at load is refused at publish,
// and the CLI shows why.
func TestIntegrationPublicEndpointCLI(t *testing.T) {
	cli, dir := gitbookCLI(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		project := cliProject(t, dir, "cli-endpoint")
		home := t.TempDir()
		publishCLI := func() (string, error) {
			cmd := exec.CommandContext(t.Context(), cli, "publish", ".", "-o", org)
			cmd.Dir = project
			cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+home, "GITBOOK_ENDPOINT="+s.URL, "GITBOOK_TOKEN="+token, "NO_COLOR=1")
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		if out, err := publishCLI(); err != nil {
			t.Fatalf("gitbook publish: %v\n%s", err, out)
		}
		var inst installationBody
		s.Do(t, token, "POST", "/v1/integrations/folio-cli-endpoint/installations", map[string]any{"organization": org}).
			WantStatus(t, 201).JSON(t, &inst)
		runJobs(t, s)

		var got struct{ Path, Method, Query, Body, Signature, Installation string }
		base := "/v1/integrations/folio-cli-endpoint/installations/" + inst.ID + "/public"
		s.DoRaw(t, "", "POST", base+"/hooks/push?q=1", http.Header{"Content-Type": {"application/json"}, "X-Signature": {"sig"}},
			[]byte(`{"ref":"main"}`)).WantStatus(t, 200).JSON(t, &got)
		if got.Path != "/hooks/push" || got.Method != "POST" || got.Query != "1" || got.Body != `{"ref":"main"}` ||
			got.Signature != "sig" || got.Installation != inst.ID {
			t.Fatalf("the installation's endpoint answered %+v", got)
		}
		var own struct {
			Path, Method, Query string
			Body, Installation  *string
		}
		s.Do(t, "", "GET", "/v1/integrations/folio-cli-endpoint/public/oauth?q=code", nil).WantStatus(t, 200).JSON(t, &own)
		if own.Path != "/oauth" || own.Method != "GET" || own.Query != "code" || own.Body != nil || own.Installation != nil {
			t.Fatalf("the integration's endpoint answered %+v", own)
		}
		r := s.Do(t, "", "POST", base+"/fail", nil)
		if r.Status != 500 || string(r.Body) != `{"error":"Internal server error"}` {
			t.Fatalf("a handler that throws answered %d %s", r.Status, r.Body)
		}

		var l struct{ Items []eventBody }
		s.Do(t, token, "GET", "/v1/integrations/folio-cli-endpoint/events", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) < 4 || l.Items[0].Status != "failed" || l.Items[1].Status != "success" || l.Items[2].Status != "success" {
			t.Fatalf("events %+v", l.Items)
		}
		trace := func(id string) string {
			var one struct {
				Trace struct {
					Logs []struct{ Level, Message string }
				}
			}
			s.Do(t, token, "GET", "/v1/integrations/folio-cli-endpoint/events/"+id, nil).WantStatus(t, 200).JSON(t, &one)
			var lines []string
			for _, line := range one.Trace.Logs {
				lines = append(lines, line.Level+": "+line.Message)
			}
			return strings.Join(lines, "\n")
		}
		if tr := trace(l.Items[2].ID); !strings.Contains(tr, "info: handled POST /hooks/push") {
			t.Errorf("trace of the webhook:\n%s", tr)
		}
		if tr := trace(l.Items[0].ID); !strings.Contains(tr, "error: [integrations] Error: the signature of the webhook does not match\n    at ") ||
			!strings.Contains(tr, "with HTTP 500") {
			t.Errorf("trace of the failure:\n%s", tr)
		}

		// A new version that throws at load: refused, the CLI says why,
		// and the published version stays.
		src := filepath.Join(project, "src", "index.ts")
		code, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		broken := "if (!(globalThis as any).SETTINGS) throw new Error('SETTINGS is not defined at load');\n" + string(code)
		if err := os.WriteFile(src, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := publishCLI(); err == nil || !strings.Contains(out, "the script does not load: Error: SETTINGS is not defined at load") {
			t.Fatalf("gitbook publish of a script that throws at load: %v\n%s", err, out)
		}
		var in integrationBody
		s.Do(t, token, "GET", "/v1/integrations/folio-cli-endpoint", nil).WantStatus(t, 200).JSON(t, &in)
		if in.Version != 1 {
			t.Fatalf("version %d after a refused publish", in.Version)
		}
	})
}
