package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The packages GitBook's CLI bundles an integration with. @gitbook/runtime
// asks for any @gitbook/api; it is pinned here so the test does not change
// under us.
var integrationPackages = []string{"@gitbook/runtime@0.23.3", "@gitbook/api@0.202.0", "esbuild@0.17.19"}

// TestGitBookIntegration builds a real integration with @gitbook/runtime and
// esbuild, exactly as GitBook's CLI does, and runs its events through Runner.
// It needs node and npm (and the npm registry once, to fill a cache under
// os.UserCacheDir()/folio); without them it is skipped, unless CI=true.
func TestGitBookIntegration(t *testing.T) {
	script := buildIntegration(t)

	type call struct{ path, auth, userAgent string }
	var mu sync.Mutex
	var calls []call
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, call{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("User-Agent")})
		mu.Unlock()
		switch r.URL.Path {
		case "/v1/ping":
			_, _ = w.Write([]byte("pong"))
		case "/v1/user":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"object": "user", "id": "u1", "displayName": "Ann Example"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()

	environment, _ := json.Marshal(map[string]any{
		"apiEndpoint": api.URL,
		"apiTokens":   map[string]any{"integration": "tok-integration", "installation": "tok-installation"},
		"integration": map[string]any{"name": "folio-test", "version": 3},
		"installation": map[string]any{
			"id":            "inst-1",
			"configuration": map[string]any{},
		},
	})
	r := NewRunner(api.Client(), DefaultLimits())
	runEvent := func(t *testing.T, event string, fetchBody []byte) *Result {
		t.Helper()
		req, err := MultipartEventRequest([]byte(event), environment, fetchBody)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Run(context.Background(), script, req)
		if err != nil {
			t.Fatalf("run: %v\nlogs: %q", err, logText(res))
		}
		return res
	}

	t.Run("InstallationSetup", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-1", "type": "installation_setup", "integrationId": "folio-test", "installationId": "inst-1", "status": "active"}`, nil)
		if res.Response.Status != 200 || string(res.Response.Body) != "OK" {
			t.Errorf("response = %d %q, want 200 OK", res.Response.Status, res.Response.Body)
		}
		mu.Lock()
		got := append([]call(nil), calls...)
		calls = nil
		mu.Unlock()
		want := []call{
			{"/v1/ping", "Bearer tok-installation", ""},
			{"/v1/user", "Bearer tok-installation", "integration-folio-test/3"},
		}
		if len(got) != len(want) {
			t.Fatalf("API calls = %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i].path != want[i].path || got[i].auth != want[i].auth ||
				(want[i].userAgent != "" && got[i].userAgent != want[i].userAgent) {
				t.Errorf("call %d = %+v, want %+v", i, got[i], want[i])
			}
		}
		wantLog := "installation inst-1 set up by Ann Example: ping answered 200 pong"
		if !hasLog(res, "log", wantLog) {
			t.Errorf("logs = %q, want a line %q", logText(res), wantLog)
		}
		if !hasLog(res, "log", "[integrations] [ev-1] installation_setup") {
			t.Errorf("logs = %q, want the runtime's own line", logText(res))
		}
	})

	t.Run("UnhandledEvent", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-2", "type": "space_content_updated", "spaceId": "s1", "revisionId": "r1"}`, nil)
		if res.Response.Status != 406 {
			t.Errorf("status = %d, want 406", res.Response.Status)
		}
		var body struct{ Error string }
		if err := json.Unmarshal(res.Response.Body, &body); err != nil || !strings.Contains(body.Error, `"space_content_updated"`) {
			t.Errorf("body = %s (%v)", res.Response.Body, err)
		}
	})

	t.Run("FetchEvent", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-3", "type": "fetch", "installationId": "inst-1",
			"request": {"url": "https://integrations.folio.example/v1/integrations/folio-test/installations/inst-1/hook?q=1",
				"method": "POST", "headers": {"content-type": "text/plain"}}}`, []byte("payload é"))
		if res.Response.Status != 201 || res.Response.Header.Get("Content-Type") != "application/json" {
			t.Errorf("response = %d %v", res.Response.Status, res.Response.Header)
		}
		wantJSON(t, res, `{"path": "/v1/integrations/folio-test/installations/inst-1/hook", "query": "1", "method": "POST",
			"body": "payload é", "integration": "folio-test"}`)
	})

	t.Run("FetchEventGET", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-4", "type": "fetch", "installationId": "inst-1",
			"request": {"url": "https://integrations.folio.example/x", "method": "GET", "headers": {}}}`, nil)
		wantJSON(t, res, `{"path": "/x", "query": null, "method": "GET", "body": "", "integration": "folio-test"}`)
	})

	t.Run("UIRender", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-5", "type": "ui_render", "componentId": "greeting", "props": {"name": "Ann"},
			"context": {"type": "document", "theme": "light"}}`, nil)
		wantJSON(t, res, `{"type": "element", "state": {}, "props": {"name": "Ann"},
			"element": {"type": "block", "children": [{"type": "text", "children": ["Hello ", "Ann"]}]}}`)
	})

	t.Run("UnknownComponent", func(t *testing.T) {
		res := runEvent(t, `{"eventId": "ev-6", "type": "ui_render", "componentId": "nope", "props": {}, "context": {}}`, nil)
		if res.Response.Status != 404 {
			t.Errorf("status = %d, want 404", res.Response.Status)
		}
	})

	t.Run("Fast", func(t *testing.T) {
		// The compiled bundle is cached: a warm event takes milliseconds.
		start := time.Now()
		for i := 0; i < 10; i++ {
			runEvent(t, `{"eventId": "ev-7", "type": "space_content_updated"}`, nil)
		}
		if per := time.Since(start) / 10; per > 200*time.Millisecond {
			t.Errorf("a warm event took %s", per)
		}
		if _, compiles := r.cache.stats(); compiles != 1 {
			t.Errorf("the bundle was compiled %d times", compiles)
		}
	})
}

func hasLog(res *Result, level, msg string) bool {
	for _, l := range res.Logs {
		if l.Level == level && l.Message == msg {
			return true
		}
	}
	return false
}

// skipOrFail skips the test, or fails it when CI=true: CI must run it.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (the test is required when CI=true)", args...)
}

// buildIntegration bundles testdata/integration/index.tsx with the CLI's
// esbuild options and returns the script.
func buildIntegration(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed")
	}
	modules := npmPackages(t)
	dir := t.TempDir()
	for _, name := range []string{"index.tsx", "build.mjs"} {
		b, err := os.ReadFile(filepath.Join("testdata", "integration", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "build.mjs")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, out)
	}
	script, err := os.ReadFile(filepath.Join(dir, "script.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "export{") {
		t.Fatalf("the bundle is not an ES module:\n%.300s", script)
	}
	return string(script)
}

// npmPackages installs integrationPackages once into a cache directory and
// returns its node_modules.
func npmPackages(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		skipOrFail(t, "npm is not installed")
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	key := strings.NewReplacer("@", "", "/", "-").Replace(strings.Join(integrationPackages, "_"))
	dir := filepath.Join(base, "folio", "scripts-npm", key)
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, ".folio-complete")); err == nil {
		return modules
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	// Install beside the cache entry, then rename it into place, so that a
	// run killed halfway leaves no broken entry behind.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}, integrationPackages...)
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		skipOrFail(t, "npm install %s: %v\n%s", strings.Join(integrationPackages, " "), err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "node_modules", ".folio-complete"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, statErr := os.Stat(filepath.Join(modules, ".folio-complete")); statErr != nil {
			t.Fatalf("cache npm packages: %v", err)
		}
	}
	return modules
}
