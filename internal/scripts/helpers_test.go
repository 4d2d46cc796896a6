package scripts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testLimits are DefaultLimits with short times, so failing cases end fast.
func testLimits() Limits {
	l := DefaultLimits()
	l.CPUTime = time.Second
	l.WallTime = 5 * time.Second
	return l
}

// run runs script on a GET of https://example.com/ with r.
func run(t *testing.T, r *Runner, script string) (*Result, error) {
	t.Helper()
	return r.Run(context.Background(), script, Request{Method: "GET", URL: "https://example.com/", Header: http.Header{}})
}

// mustRun runs script and fails the test on any error.
func mustRun(t *testing.T, r *Runner, script string) *Result {
	t.Helper()
	res, err := run(t, r, script)
	if err != nil {
		t.Fatalf("run: %v\nlogs: %v", err, logText(res))
	}
	return res
}

// evalScript wraps the body of an async function into a handler that
// responds with the function's result as JSON.
func evalScript(body string) string {
	return fmt.Sprintf(`export default {
  async fetch(request, env, ctx) {
    const out = await (async () => { %s })();
    return Response.json(out === undefined ? null : out);
  },
};`, body)
}

// wantJSON fails unless the body of res is JSON equal to want.
func wantJSON(t *testing.T, res *Result, want string) {
	t.Helper()
	var got, exp any
	if err := json.Unmarshal(res.Response.Body, &got); err != nil {
		t.Fatalf("response is not JSON: %v: %s", err, res.Response.Body)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	if d := cmp.Diff(exp, got); d != "" {
		t.Errorf("result (-want +got):\n%s\ngot: %s", d, res.Response.Body)
	}
}

// wantScriptError fails unless err is a *ScriptError of kind.
func wantScriptError(t *testing.T, err error, kind string) *ScriptError {
	t.Helper()
	se, ok := err.(*ScriptError)
	if !ok {
		t.Fatalf("error = %v (%T), want a *ScriptError of kind %s", err, err, kind)
	}
	if se.Kind != kind {
		t.Fatalf("error kind = %s (%v), want %s", se.Kind, se, kind)
	}
	return se
}

func logText(res *Result) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, l := range res.Logs {
		out = append(out, l.Level+": "+l.Message)
	}
	return out
}
