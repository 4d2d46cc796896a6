package scripts

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// echoServer answers on loopback: /echo describes the request it got as
// JSON, /raw sends back the request body, /big sends n bytes, /redirect
// redirects to /echo and /slow waits for the client to give up.
type echoServer struct {
	*httptest.Server
	inFlight, maxInFlight atomic.Int32
	slowCanceled          chan struct{}
}

func newEchoServer(t *testing.T) *echoServer {
	t.Helper()
	s := &echoServer{slowCanceled: make(chan struct{}, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			m := s.maxInFlight.Load()
			if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		if d := r.URL.Query().Get("sleep"); d != "" {
			ms, _ := time.ParseDuration(d)
			time.Sleep(ms)
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Reply", "yes")
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"method":        r.Method,
			"path":          r.URL.Path,
			"query":         r.URL.RawQuery,
			"authorization": r.Header.Get("Authorization"),
			"custom":        r.Header.Get("X-Custom"),
			"contentType":   r.Header.Get("Content-Type"),
			"body":          string(body),
		})
	})
	mux.HandleFunc("/raw", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		f, fh, err := r.FormFile("file")
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		data, _ := io.ReadAll(f)
		fmt.Fprintf(w, "%s|%s|%s|%s", r.FormValue("field"), fh.Filename, fh.Header.Get("Content-Type"), data)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.URL.Query().Get("n"), &n)
		_, _ = w.Write([]byte(strings.Repeat("z", n)))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo", http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			s.slowCanceled <- struct{}{}
		case <-time.After(5 * time.Second):
		}
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// fetchScript is evalScript with the server's URL in the global BASE.
func fetchScript(base, body string) string {
	return fmt.Sprintf("const BASE = %q;\n%s", base, evalScript(body))
}

func TestFetch(t *testing.T) {
	srv := newEchoServer(t)
	l := testLimits()
	l.MaxFetchBody = 1000
	l.MaxFetches = 8
	l.MaxConcurrentFetches = 2
	r := NewRunner(srv.Client(), l)
	cases := []struct{ name, body, want string }{
		{"JSONPostWithHeaders", `
			const res = await fetch(BASE + '/echo?x=1', {method: 'POST', headers: {Authorization: 'Bearer tok', 'X-Custom': 'c'},
				body: JSON.stringify({hello: 'wörld'})});
			return [res.status, res.statusText, res.ok, res.headers.get('x-reply'), res.headers.getSetCookie(), res.url === BASE + '/echo?x=1',
				res.redirected, await res.json()];`,
			`[201, "Created", true, "yes", ["a=1", "b=2"], true, false, {"method": "POST", "path": "/echo", "query": "x=1",
				"authorization": "Bearer tok", "custom": "c", "contentType": "text/plain;charset=UTF-8", "body": "{\"hello\":\"wörld\"}"}]`},
		{"RequestObject", `
			const req = new Request(BASE + '/echo', {method: 'PUT', body: new URLSearchParams({a: 'b c'})});
			return (await (await fetch(req)).json()).body;`,
			`"a=b+c"`},
		{"BinaryRoundTrip", `
			const b = new Uint8Array(256); for (let i = 0; i < 256; i++) b[i] = 255 - i;
			const got = new Uint8Array(await (await fetch(BASE + '/raw', {method: 'POST', body: b})).arrayBuffer());
			return got.length === 256 && got.every((x, i) => x === 255 - i);`,
			`true`},
		{"FormDataBody", `
			const fd = new FormData();
			fd.append('field', 'v');
			fd.append('file', new Blob(['content'], {type: 'text/plain'}), 'a.txt');
			return (await fetch(BASE + '/form', {method: 'POST', body: fd})).text();`,
			`"v|a.txt|text/plain|content"`},
		{"BodyOverTheLimit", `
			const small = await (await fetch(BASE + '/big?n=1000')).text();
			try { await fetch(BASE + '/big?n=1001'); return 'no'; } catch (e) { return [small.length, e.name, e.message.includes('over the limit of 1000 bytes')]; }`,
			`[1000, "TypeError", true]`},
		{"RedirectModes", `
			const follow = await fetch(BASE + '/redirect');
			const manual = await fetch(BASE + '/redirect', {redirect: 'manual'});
			let error;
			try { await fetch(BASE + '/redirect', {redirect: 'error'}); } catch (e) { error = e.name; }
			return [follow.status, follow.redirected, follow.url === BASE + '/echo', manual.status, manual.headers.get('location'), error];`,
			`[201, true, true, 302, "/echo", "TypeError"]`},
		{"AbortController", `
			const c = new AbortController();
			setTimeout(() => c.abort(), 20);
			try { await fetch(BASE + '/slow', {signal: c.signal}); return 'no'; } catch (e) { return [e.name, e instanceof DOMException]; }`,
			`["AbortError", true]`},
		{"AbortSignalTimeout", `
			try { await fetch(BASE + '/slow', {signal: AbortSignal.timeout(20)}); return 'no'; } catch (e) { return e.name; }`,
			`"TimeoutError"`},
		{"AlreadyAborted", `
			try { await fetch(BASE + '/echo', {signal: AbortSignal.abort('gone')}); return 'no'; } catch (e) { return e; }`,
			`"gone"`},
		{"OnlyHTTP", `
			try { await fetch('file:///etc/passwd'); return 'no'; } catch (e) { return [e.name, e.message.includes('only http and https')]; }`,
			`["TypeError", true]`},
		{"ConnectionRefused", `
			try { await fetch('http://127.0.0.1:1/'); return 'no'; } catch (e) { return [e.name, e.message.startsWith('fetch failed')]; }`,
			`["TypeError", true]`},
		{"ConcurrentFetchesShareSlots", `
			const all = await Promise.all([1, 2, 3, 4, 5].map((i) => fetch(BASE + '/echo?sleep=20ms&i=' + i).then((r) => r.json())));
			return all.map((x) => x.query);`,
			`["sleep=20ms&i=1", "sleep=20ms&i=2", "sleep=20ms&i=3", "sleep=20ms&i=4", "sleep=20ms&i=5"]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, r, fetchScript(srv.URL, tc.body))
			wantJSON(t, res, tc.want)
		})
	}
	if m := srv.maxInFlight.Load(); m > 2 {
		t.Errorf("the server saw %d requests at once, want at most MaxConcurrentFetches = 2", m)
	}
	// The aborted requests were canceled on the server's side too.
	for i := 0; i < 2; i++ {
		select {
		case <-srv.slowCanceled:
		case <-time.After(2 * time.Second):
			t.Fatalf("aborted request %d still open on the server", i+1)
		}
	}
}

func TestFetchLimits(t *testing.T) {
	srv := newEchoServer(t)
	t.Run("MaxFetches", func(t *testing.T) {
		l := testLimits()
		l.MaxFetches = 2
		r := NewRunner(srv.Client(), l)
		res := mustRun(t, r, fetchScript(srv.URL, `
			await fetch(BASE + '/echo'); await fetch(BASE + '/echo');
			try { await fetch(BASE + '/echo'); return 'no'; } catch (e) { return e.message; }`))
		wantJSON(t, res, `"too many subrequests: a run may make 2"`)
	})
	t.Run("NoClient", func(t *testing.T) {
		r := NewRunner(nil, testLimits())
		res := mustRun(t, r, fetchScript(srv.URL, `
			try { await fetch(BASE + '/echo'); return 'no'; } catch (e) { return [e.name, e.message]; }`))
		wantJSON(t, res, `["TypeError", "fetch is not available in this Folio server"]`)
	})
	t.Run("WallTimeStopsAFetch", func(t *testing.T) {
		l := testLimits()
		l.WallTime = 200 * time.Millisecond
		r := NewRunner(srv.Client(), l)
		start := time.Now()
		_, err := run(t, r, fetchScript(srv.URL, `await fetch(BASE + '/slow'); return 'no';`))
		wantScriptError(t, err, KindTimeout)
		if time.Since(start) > time.Second {
			t.Errorf("took %s", time.Since(start))
		}
		select {
		case <-srv.slowCanceled:
		case <-time.After(2 * time.Second):
			t.Fatal("the request outlived its run")
		}
	})
}

// TestNoGoroutineLeak runs scripts that end with fetches still in flight,
// timers pending and limits hit, then checks that every goroutine they
// started is gone.
func TestNoGoroutineLeak(t *testing.T) {
	srv := newEchoServer(t)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	l := testLimits()
	l.CPUTime = 100 * time.Millisecond
	l.WallTime = 300 * time.Millisecond
	r := NewRunner(client, l)
	before := runtime.NumGoroutine()
	scripts := []string{
		fetchScript(srv.URL, `fetch(BASE + '/slow'); fetch(BASE + '/slow'); setTimeout(() => {}, 10000); return 'left behind';`),
		fetchScript(srv.URL, `await fetch(BASE + '/slow'); return 'never';`),
		`export default { fetch() { fetch('http://127.0.0.1:1/'); for (;;) {} } };`,
		`export default { fetch() { throw new Error('x'); } };`,
	}
	for _, s := range scripts {
		_, _ = r.Run(context.Background(), s, Request{Method: "GET", URL: "https://example.com/"})
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		client.CloseIdleConnections()
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
