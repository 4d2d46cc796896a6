package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// TestErrorStackHasMessage checks that error.stack starts with the
// "Name: message" line Node and Workers write before the frames, which
// @gitbook/runtime logs for an error a handler throws.
func TestErrorStackHasMessage(t *testing.T) {
	r := NewRunner(nil, testLimits())
	res := mustRun(t, r, evalScript(`
      class Exposable extends Error { constructor(m, code) { super(m); this.name = 'Exposable'; this.code = code; } }
      function thrower() { throw new Error('boom'); }
      let caught; try { thrower(); } catch (e) { caught = e; }
      const set = new RangeError('r'); set.stack = 'custom';
      const bare = new Error();
      return {
        error: caught.stack, sub: new Exposable('not handled', 406).stack, call: TypeError('t').stack,
        dom: new DOMException('gone', 'AbortError').stack, set: set.stack, bare: bare.stack.split('\n')[0],
        kinds: [caught instanceof Error, new Exposable('x') instanceof Error, new TypeError('x') instanceof Error,
          Object.getPrototypeOf(TypeError) === Error, TypeError.name, TypeError.length, Error.prototype.constructor === Error,
          String(new TypeError('x')), Object.keys(new Error('x')).length],
      };`))
	var got struct {
		Error, Sub, Call, Dom, Set, Bare string
		Kinds                            []any
	}
	unmarshal(t, res, &got)
	for _, c := range []struct{ name, stack, head, frame string }{
		{"thrown", got.Error, "Error: boom", "    at thrower ("},
		{"subclass", got.Sub, "Exposable: not handled", "    at Exposable ("},
		{"called", got.Call, "TypeError: t", "    at <anonymous> ("},
		{"DOMException", got.Dom, "AbortError: gone", "    at DOMException ("},
	} {
		lines := strings.Split(c.stack, "\n")
		if lines[0] != c.head || len(lines) < 2 || !strings.HasPrefix(lines[1], c.frame) {
			t.Errorf("%s: stack %q, want %q then a frame %q", c.name, c.stack, c.head, c.frame)
		}
		if strings.Contains(c.stack, "construct (native)") || strings.HasSuffix(c.stack, "\n") {
			t.Errorf("%s: stack %q holds the wrapper's frames or ends with a new line", c.name, c.stack)
		}
	}
	if got.Set != "custom" || got.Bare != "Error" {
		t.Errorf("assigned stack %q, stack of an error without message %q", got.Set, got.Bare)
	}
	want := []any{true, true, true, true, "TypeError", 1.0, true, "TypeError: x", 0.0}
	if len(got.Kinds) != len(want) {
		t.Fatalf("kinds %v", got.Kinds)
	}
	for i := range want {
		if got.Kinds[i] != want[i] {
			t.Errorf("kinds[%d] = %v, want %v", i, got.Kinds[i], want[i])
		}
	}
}

// TestLoggedErrorHasMessage: what a script logs of an error it caught, as
// @gitbook/runtime does (console.error of error.stack), and console's own
// rendering of an error, carry the message once.
func TestLoggedErrorHasMessage(t *testing.T) {
	r := NewRunner(nil, testLimits())
	res := mustRun(t, r, `export default { async fetch() {
      try { throw new Error('the token expired'); } catch (e) { console.error('[integrations] ' + (e.stack ?? e.message)); console.error(e); }
      try { null.x; } catch (e) { console.error(e); }
      return new Response('ok');
    } };`)
	logs := logText(res)
	if len(logs) != 3 {
		t.Fatalf("logs %q", logs)
	}
	frame := regexp.MustCompile(`\n    at fetch \(`)
	if !strings.HasPrefix(logs[0], "error: [integrations] Error: the token expired\n    at ") || !frame.MatchString(logs[0]) {
		t.Errorf("logged stack %q", logs[0])
	}
	if !strings.HasPrefix(logs[1], "error: Error: the token expired\n    at ") || strings.Count(logs[1], "the token expired") != 1 {
		t.Errorf("logged error %q", logs[1])
	}
	if !strings.HasPrefix(logs[2], "error: TypeError: cannot read property 'x' of null\n    at ") {
		t.Errorf("logged engine error %q", logs[2])
	}
}

// TestCheck loads scripts without calling them: a script whose top level
// throws, that exports no handler, that does not parse, or that loops at
// load is refused with its error; a good one passes without running its
// handler.
func TestCheck(t *testing.T) {
	r := NewRunner(nil, testLimits())
	ctx := context.Background()
	if err := r.Check(ctx, `export default { async fetch() { throw new Error('must not run'); } };`); err != nil {
		t.Fatalf("good script: %v", err)
	}
	for _, c := range []struct{ name, script, kind, msg string }{
		{"throws", `const cfg = JSON.parse('{}'); if (!cfg.key) throw new Error('missing key at load'); export default { fetch() {} };`,
			KindException, "Error: missing key at load"},
		{"no handler", `export default { hello() {} };`, KindInvalidScript, "the script has no default export with a fetch function"},
		{"syntax", `export default { fetch( };`, KindInvalidScript, `1:25: Expected identifier but found "}"`},
		{"loops", `while (true) {} export default { fetch() {} };`, KindTimeout, ""},
	} {
		err := r.Check(ctx, c.script)
		var se *ScriptError
		if !errors.As(err, &se) || se.Kind != c.kind || !strings.Contains(se.Message, c.msg) {
			t.Errorf("%s: %v, want %s containing %q", c.name, err, c.kind, c.msg)
		}
	}
}

func unmarshal(t *testing.T, res *Result, v any) {
	t.Helper()
	if err := json.Unmarshal(res.Response.Body, v); err != nil {
		t.Fatalf("response %s: %v", res.Response.Body, err)
	}
}
