package scripts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestFailures(t *testing.T) {
	l := testLimits()
	l.CPUTime = 200 * time.Millisecond
	l.WallTime = 600 * time.Millisecond
	r := NewRunner(nil, l)
	cases := []struct {
		name     string
		script   string
		kind     string
		message  string // a part of ScriptError.Message
		logs     []string
		maxTaken time.Duration
	}{
		{"LoopForever", `export default { async fetch() { console.log('before'); for (;;) {} } };`,
			KindTimeout, "CPU time limit of 200ms", []string{"log: before"}, 1500 * time.Millisecond},
		{"LoopForeverAtTopLevel", `console.log('loading'); for (;;) {} export default { fetch() {} };`,
			KindTimeout, "CPU time", []string{"log: loading"}, 1500 * time.Millisecond},
		{"LoopForeverInTimer", `export default { fetch() { setTimeout(() => { for (;;) {} }, 1); return new Promise(() => {}); } };`,
			KindTimeout, "CPU time", nil, 1500 * time.Millisecond},
		{"CatastrophicRegex", `export default { fetch() { return new Response(String(/(a+)+$/.test('a'.repeat(40) + 'b'))); } };`,
			KindTimeout, "CPU time", nil, 1500 * time.Millisecond},
		{"MicrotaskFlood", `export default { fetch() { const f = () => Promise.resolve().then(f); f(); return new Promise(() => {}); } };`,
			KindTimeout, "CPU time", nil, 1500 * time.Millisecond},
		{"Throw", `export default { fetch() { console.warn('about to throw'); throw new TypeError('boom'); } };`,
			KindException, "TypeError: boom", []string{"warn: about to throw"}, time.Second},
		{"ThrowAfterAwait", `export default { async fetch() { await null; null.x; } };`,
			KindException, "TypeError: cannot read property 'x' of null", nil, time.Second},
		{"ThrowAString", `export default { fetch() { throw 'plain'; } };`,
			KindException, `Uncaught "plain"`, nil, time.Second},
		{"ThrowAtTopLevel", `throw new RangeError('at load'); export default {};`,
			KindException, "RangeError: at load", nil, time.Second},
		{"RejectedPromise", `export default { fetch() { return Promise.reject(new Error('nope')); } };`,
			KindException, "Error: nope", nil, time.Second},
		{"NeverResolves", `export default { fetch() { console.log('waiting'); return new Promise(() => {}); } };`,
			KindTimeout, "never settles", []string{"log: waiting"}, time.Second},
		{"NeverResolvesWhileATimerWaits", `export default { fetch() { setTimeout(() => {}, 60000); return new Promise(() => {}); } };`,
			KindTimeout, "wall time limit of 600ms", nil, time.Second},
		{"NotAResponse", `export default { fetch() { return {status: 200}; } };`,
			KindException, "must return a Response", nil, time.Second},
		{"ResponseError", `export default { fetch() { return Response.error(); } };`,
			KindException, "status 0", nil, time.Second},
		{"SyntaxError", `export default { fetch() { return new Response('x') } ;`,
			KindInvalidScript, "Expected", nil, time.Second},
		{"Import", `import fs from 'node:fs'; export default { fetch() { return new Response(fs) } };`,
			KindInvalidScript, `imports "node:fs"`, nil, time.Second},
		{"NoDefaultExport", `export const x = 1;`,
			KindInvalidScript, "no default export with a fetch function", nil, time.Second},
		{"TopLevelAwait", `await null; export default { fetch() {} };`,
			KindInvalidScript, "Top-level await", nil, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := run(t, r, tc.script)
			se := wantScriptError(t, err, tc.kind)
			if !strings.Contains(se.Message, tc.message) {
				t.Errorf("message = %q, want it to contain %q", se.Message, tc.message)
			}
			if tc.kind == KindException && strings.HasPrefix(tc.message, "TypeError: boom") && !strings.Contains(se.Stack, "fetch") {
				t.Errorf("stack = %q, want the handler's frame", se.Stack)
			}
			if got := logText(res); tc.logs != nil && strings.Join(got, "\n") != strings.Join(tc.logs, "\n") {
				t.Errorf("logs = %q, want %q", got, tc.logs)
			}
			if taken := time.Since(start); taken > tc.maxTaken {
				t.Errorf("the run took %s, want at most %s", taken, tc.maxTaken)
			}
		})
	}
}

func TestDeepRecursion(t *testing.T) {
	r := NewRunner(nil, testLimits())
	_, err := run(t, r, `export default { fetch() { const f = (n) => f(n + 1) + 1; return f(0); } };`)
	se := wantScriptError(t, err, KindException)
	if !strings.Contains(se.Message, "stack overflow") {
		t.Errorf("message = %q", se.Message)
	}
}

func TestMemoryLimit(t *testing.T) {
	l := testLimits()
	l.Memory = 32 << 20
	l.CPUTime = 5 * time.Second
	r := NewRunner(nil, l)
	cases := []struct{ name, body string }{
		{"GrowingArray", `const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1000) + i);`},
		{"GrowingObjects", `let head = null; for (let i = 0; ; i++) head = {i, next: head, pad: [i, i, i, i]};`},
		{"HugeTypedArray", `return new Uint8Array(1 << 30).length;`},
		{"GrowingString", `let s = 'x'; const keep = []; for (;;) { s = s + s.slice(0, 1e6) + Math.random(); keep.push(s); }`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			script := fmt.Sprintf(`export default { async fetch() { console.log('start'); %s } };`, tc.body)
			res, err := run(t, r, script)
			se := wantScriptError(t, err, KindMemory)
			if !strings.Contains(se.Message, "out of memory") {
				t.Errorf("message = %q", se.Message)
			}
			if got := logText(res); len(got) == 0 || got[0] != "log: start" {
				t.Errorf("logs = %q, want the line logged before", got)
			}
		})
	}
	// The process is healthy: a run right after works, and the engine's
	// memory is not in the Go heap.
	res := mustRun(t, r, evalScript(`return 'fine';`))
	wantJSON(t, res, `"fine"`)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 256<<20 {
		t.Errorf("Go heap is %d MiB after the memory tests", ms.HeapAlloc>>20)
	}
}

// TestMemoryIsReturned fills the engine's heap run after run and checks
// that the process does not grow with them: the engine's memory lives outside
// the Go heap and must be freed by each run.
func TestMemoryIsReturned(t *testing.T) {
	before, ok := residentBytes()
	if !ok {
		t.Skip("no /proc/self/status here")
	}
	l := testLimits()
	l.Memory = 32 << 20
	r := NewRunner(nil, l)
	for i := 0; i < 10; i++ {
		_, err := run(t, r, evalScript(`const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1000) + i);`))
		wantScriptError(t, err, KindMemory)
	}
	after, _ := residentBytes()
	if grown := after - before; grown > 3*l.Memory {
		t.Errorf("resident memory grew by %d MiB over 10 runs of at most %d MiB each", grown>>20, l.Memory>>20)
	}
}

// residentBytes reads the process's resident set size on Linux.
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err == nil {
				return kb << 10, true
			}
		}
	}
	return 0, false
}

func TestLogs(t *testing.T) {
	t.Run("LevelsAndFormatting", func(t *testing.T) {
		r := NewRunner(nil, testLimits())
		res := mustRun(t, r, `export default { fetch() {
			console.log('plain', 1, true, null, undefined, {a: [1, {b: 'c'}]});
			console.info('%s is %d years and %o', 'Ann', 42.5, {x: 1});
			console.warn(new Map([[1, 2]]), new Set(['a']), [1, 2, 3], new Uint8Array([1, 2]));
			console.error(new TypeError('bad'));
			console.debug(new Headers({a: '1'}), new URL('https://x.example/p'), Symbol('s'), 10n, () => 1);
			const cyc = {}; cyc.self = cyc; console.log(cyc);
			console.assert(1 === 2, 'math');
			return new Response('ok');
		} };`)
		got := logText(res)
		want := []string{
			`log: plain 1 true null undefined { a: [ 1, { b: "c" } ] }`,
			`info: Ann is 42.5 years and { x: 1 }`,
			`warn: Map(1) { 1 => 2 } Set(1) { "a" } [ 1, 2, 3 ] Uint8Array(2) [ 1, 2 ]`,
			`error: TypeError: bad`,
			`debug: Headers { a: "1" } URL { href: 'https://x.example/p' } Symbol(s) 10n [Function: (anonymous)]`,
			`log: { self: [Circular] }`,
			`error: Assertion failed: math`,
		}
		if len(got) != len(want) {
			t.Fatalf("logs = %q", got)
		}
		for i := range want {
			// Errors carry their stack on the following lines.
			if g := strings.SplitN(got[i], "\n", 2)[0]; g != want[i] {
				t.Errorf("line %d = %q, want %q", i, g, want[i])
			}
		}
		if !strings.Contains(got[3], "at fetch") {
			t.Errorf("error line has no stack: %q", got[3])
		}
		for _, l := range res.Logs {
			if l.At.IsZero() {
				t.Errorf("log %q has no time", l.Message)
			}
		}
	})
	t.Run("Bounded", func(t *testing.T) {
		l := testLimits()
		l.MaxLogs = 5
		l.MaxLogLine = 100
		r := NewRunner(nil, l)
		res := mustRun(t, r, `export default { fetch() {
			console.log('é'.repeat(300));
			for (let i = 0; i < 1000; i++) console.log('line', i);
			return new Response('ok');
		} };`)
		got := logText(res)
		if len(got) != 6 {
			t.Fatalf("got %d lines, want 5 and the dropped note: %q", len(got), got)
		}
		if !strings.HasSuffix(got[0], "… (truncated)") || len(res.Logs[0].Message) > 100+len("… (truncated)") {
			t.Errorf("long line not cut: %q", got[0])
		}
		if got[5] != "warn: [folio] 996 more console lines were dropped (limit 5 per run)" {
			t.Errorf("last line = %q", got[5])
		}
	})
}

func TestResponseTooLarge(t *testing.T) {
	l := testLimits()
	l.MaxResponse = 1000
	r := NewRunner(nil, l)
	res := mustRun(t, r, `export default { fetch() { return new Response('x'.repeat(1000)); } };`)
	if len(res.Response.Body) != 1000 {
		t.Fatalf("body = %d bytes", len(res.Response.Body))
	}
	_, err := run(t, r, `export default { fetch() { console.log('big'); return new Response('x'.repeat(1001)); } };`)
	se := wantScriptError(t, err, KindResponseTooLarge)
	if !strings.Contains(se.Message, "1001 bytes") {
		t.Errorf("message = %q", se.Message)
	}
}

func TestWaitUntil(t *testing.T) {
	r := NewRunner(nil, testLimits())
	t.Run("RunsAfterTheResponse", func(t *testing.T) {
		res := mustRun(t, r, `export default { fetch(request, env, ctx) {
			ctx.waitUntil(new Promise((r) => setTimeout(r, 20)).then(() => {
				console.log('later');
				ctx.waitUntil(new Promise((r) => setTimeout(r, 10)).then(() => console.log('even later')));
			}));
			ctx.waitUntil(Promise.reject(new Error('side job failed')));
			ctx.passThroughOnException();
			return new Response('now');
		} };`)
		if string(res.Response.Body) != "now" {
			t.Errorf("body = %q", res.Response.Body)
		}
		got := logText(res)
		want := []string{"error: Uncaught (in a promise passed to waitUntil) Error: side job failed", "log: later", "log: even later"}
		if len(got) != 3 || !strings.HasPrefix(got[0], want[0]) || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("logs = %q, want %q", got, want)
		}
	})
	t.Run("NeverSettles", func(t *testing.T) {
		l := testLimits()
		l.WallTime = 300 * time.Millisecond
		r := NewRunner(nil, l)
		res, err := run(t, r, `export default { fetch(request, env, ctx) {
			ctx.waitUntil(new Promise((r) => setTimeout(r, 60000)));
			return new Response('now');
		} };`)
		wantScriptError(t, err, KindTimeout)
		if res.Response == nil || string(res.Response.Body) != "now" {
			t.Errorf("the response given before the timeout is lost: %+v", res.Response)
		}
	})
}

func TestContextCanceled(t *testing.T) {
	r := NewRunner(nil, testLimits())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	res, err := r.Run(ctx, `export default { async fetch() {
		console.log('sleeping');
		await new Promise((r) => setTimeout(r, 10000));
		return new Response('late');
	} };`, Request{Method: "GET", URL: "https://example.com/"})
	wantScriptError(t, err, KindTimeout)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not wrap context.Canceled", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("cancel took %s", time.Since(start))
	}
	if got := logText(res); len(got) != 1 {
		t.Errorf("logs = %q", got)
	}

	// A script busy in JavaScript is interrupted too.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start = time.Now()
	_, err = r.Run(ctx, `export default { fetch() { for (;;) {} } };`, Request{Method: "GET", URL: "https://example.com/"})
	wantScriptError(t, err, KindTimeout)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 500*time.Millisecond {
		t.Errorf("err = %v after %s, want context.Canceled soon", err, time.Since(start))
	}
}

func TestScriptTooLarge(t *testing.T) {
	l := testLimits()
	l.MaxScript = 100
	r := NewRunner(nil, l)
	_, err := run(t, r, "export default { fetch() { return new Response('"+strings.Repeat("x", 100)+"') } };")
	wantScriptError(t, err, KindInvalidScript)
}

func TestRequestReachesHandler(t *testing.T) {
	r := NewRunner(nil, testLimits())
	res, err := r.Run(context.Background(), `export default { async fetch(request, env, ctx) {
		return Response.json({
			method: request.method, url: request.url, type: request.headers.get('content-type'),
			body: await request.text(), env: typeof env, waitUntil: typeof ctx.waitUntil,
		}, {status: 203, headers: {'X-Out': 'a'}});
	} };`, Request{Method: "PUT", URL: "https://example.com/p?q=1", Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("héllo\x00")})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, res, `{"method": "PUT", "url": "https://example.com/p?q=1", "type": "text/plain", "body": "héllo\u0000", "env": "object", "waitUntil": "function"}`)
	if res.Response.Status != 203 || res.Response.Header.Get("X-Out") != "a" || res.Response.Header.Get("Content-Type") != "application/json" {
		t.Errorf("response = %d %v", res.Response.Status, res.Response.Header)
	}
	if res.Duration <= 0 {
		t.Errorf("duration = %s", res.Duration)
	}
}

func TestBinaryResponse(t *testing.T) {
	r := NewRunner(nil, testLimits())
	res := mustRun(t, r, `export default { fetch() {
		const b = new Uint8Array(256); for (let i = 0; i < 256; i++) b[i] = i;
		return new Response(b, {headers: {'content-type': 'application/octet-stream'}});
	} };`)
	if len(res.Response.Body) != 256 {
		t.Fatalf("body = %d bytes", len(res.Response.Body))
	}
	for i, c := range res.Response.Body {
		if int(c) != i {
			t.Fatalf("byte %d = %d", i, c)
		}
	}
}
